//! The Schema-proto family's tree passes before the walk: `$dynamicRef`s with a fixed target as
//! `$ref`s ([`dynamic_static`]) and `$ref`s to `false` as `allOf: [false]` ([`ref_false`]),
//! `unevaluatedProperties: false` beside `anyOf` as a `oneOf` of the sets of branches that hold
//! ([`unevaluated_any_of`]) and written into `oneOf`/`then`/`else` branches
//! ([`unevaluated_branches`]), `unevaluatedItems: false` beside `contains`, a `$ref` or
//! branches as what each evaluates ([`unevaluated_items_branches`]), whole-tree passes, then
//! in one walk
//! `if`/`then`/`else` as a union ([`conditional_union`]), `contains` as a count
//! ([`contains_bound`]), `false` members of unions ([`false_members`]), `oneOf` exclusivity
//! ([`one_of_exclusive`]), lone `unevaluated*` ([`unevaluated_alone`]), `unevaluatedItems:
//! false` as a length ([`unevaluated_items_bound`]), the names a closed object forbids
//! ([`closed_names`]), one dependent schema as a union ([`dependent_union`]), `not` of an object's members
//! ([`not_members`]), then `not` and the nodes that accept nothing ([`not_types`]).
//! A step's rewrite puts its `not`s in the node's children, which the walk visits after it.

use super::{
    Cx, closed_names, conditional_union, contains_bound, dependent_union, false_members,
    not_members, not_types, one_of_exclusive, unevaluated_alone, unevaluated_items_bound,
};
use schema_core::{Keyword, Schema, Transform};

/// Runs the steps (only for the Schema-proto family: no `not`, unions, `maxProperties`).
pub(crate) fn run(schema: &mut Schema, cx: &mut Cx<'_>) {
    if !not_types::proto_family(cx.rules) {
        return;
    }
    super::dynamic_static::run(schema, cx);
    super::ref_false::run(schema, cx);
    super::unevaluated_any_of::run(schema, cx);
    super::unevaluated_branches::run(schema, cx);
    super::unevaluated_items_branches::run(schema, cx);
    let k = &cx.rules.keywords;
    let on = [
        !k.contains(Keyword::If),
        !k.contains(Keyword::Contains),
        !k.contains(Keyword::OneOf),
        !k.contains(Keyword::UnevaluatedProperties),
    ];
    struct Walk<'a, 'r> {
        cx: &'a mut Cx<'r>,
        on: [bool; 4],
    }
    impl Transform for Walk<'_, '_> {
        fn pre(&mut self, p: &str, s: &mut Schema) {
            let cx = &mut *self.cx;
            if self.on[0] {
                conditional_union::Conditionals { cx: &mut *cx }.pre(p, s);
            }
            if self.on[1] {
                contains_bound::Contains { cx: &mut *cx }.pre(p, s);
            }
            false_members::FalseMembers { cx: &mut *cx }.pre(p, s);
            if self.on[2] {
                one_of_exclusive::Exclusive { cx: &mut *cx }.pre(p, s);
            }
            if self.on[3] {
                unevaluated_alone::Alone { cx: &mut *cx }.pre(p, s);
            }
            unevaluated_items_bound::ItemsBound { cx: &mut *cx }.pre(p, s);
            closed_names::ClosedNames { cx: &mut *cx }.pre(p, s);
            dependent_union::DependentUnion { cx: &mut *cx }.pre(p, s);
            not_members::Members { cx: &mut *cx }.pre(p, s);
            not_types::Types { cx }.pre(p, s);
        }
    }
    schema.transform(&mut Walk { cx, on });
}

/// What the Schema-proto rewrites' tests share.
#[cfg(test)]
pub(crate) mod test_support {
    use crate::{Rules, SanitizeOptions, Slot, sanitize, sanitize_with};
    use schema_core::Schema;
    use serde_json::Value;
    use std::borrow::Borrow;

    /// Whether what sanitizing `schema` for Gemini makes takes `v` (a validator's answer).
    pub(crate) fn accepts(schema: impl Borrow<Value>, v: Value) -> bool {
        let out = sanitize(
            &Schema::from_value(schema.borrow()),
            &Rules::GEMINI,
            Slot::Schema,
        )
        .schema
        .to_value();
        jsonschema::validator_for(&out).is_ok_and(|x| x.is_valid(&v))
    }

    /// Whether what sanitizing `schema` for Gemini with encodings makes takes `v`, encoded.
    pub(crate) fn accepts_encoded(schema: impl Borrow<Value>, v: Value) -> bool {
        let out = sanitize_with(
            &Schema::from_value(schema.borrow()),
            &Rules::GEMINI,
            Slot::Schema,
            &SanitizeOptions::ENCODE,
        );
        let sent = out.decoder.encode_value(&v);
        jsonschema::validator_for(&out.schema.to_value()).is_ok_and(|x| x.is_valid(&sent))
    }
}
