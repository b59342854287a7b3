//! The Schema-proto family's tree passes before the walk, in one walk: per node, in order,
//! `if`/`then`/`else` as a union ([`conditional_union`]), `contains` as a count
//! ([`contains_bound`]), `oneOf` exclusivity ([`one_of_exclusive`]), lone `unevaluated*`
//! ([`unevaluated_alone`]), then `not` and the nodes that accept nothing ([`not_types`]).
//! A step's rewrite puts its `not`s in the node's children, which the walk visits after it.

use super::{
    Cx, conditional_union, contains_bound, not_types, one_of_exclusive, unevaluated_alone,
};
use schema_core::{Keyword, Schema, Transform};

/// Runs the steps (only for the Schema-proto family: no `not`, unions, `maxProperties`).
pub(crate) fn run(schema: &mut Schema, cx: &mut Cx<'_>) {
    if !not_types::proto_family(cx.rules) {
        return;
    }
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
            if self.on[2] {
                one_of_exclusive::Exclusive { cx: &mut *cx }.pre(p, s);
            }
            if self.on[3] {
                unevaluated_alone::Alone { cx: &mut *cx }.pre(p, s);
            }
            not_types::Types { cx }.pre(p, s);
        }
    }
    schema.transform(&mut Walk { cx, on });
}

/// What the Schema-proto rewrites' tests share.
#[cfg(test)]
pub(crate) mod test_support {
    use crate::{Rules, Slot, sanitize};
    use schema_core::Schema;

    /// Whether what sanitizing `schema` for Gemini makes takes `v` (a validator's answer).
    pub(crate) fn accepts(schema: serde_json::Value, v: serde_json::Value) -> bool {
        let out = sanitize(&Schema::from_value(&schema), &Rules::GEMINI, Slot::Schema)
            .schema
            .to_value();
        jsonschema::validator_for(&out).is_ok_and(|x| x.is_valid(&v))
    }
}
