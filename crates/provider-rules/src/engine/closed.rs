//! Closed objects and arrays where the dialect cannot close them (issue 16, Gemini precision):
//! what `additionalProperties: false`, `unevaluatedProperties: false`, `unevaluatedItems:
//! false` and `items: false` say, in the keywords the Schema proto has (`maxProperties`,
//! `maxItems`, and `additionalProperties` where Vertex has it). Each rewrite only narrows
//! what dropping the keyword would widen: no valid instance is lost.

use super::Cx;
use super::message::{
    Later,
    Part::{Count, Text},
    message,
};
use super::objects::is_object;
use super::passes::At;
use crate::RuleId;
use schema_core::{Keyword, KeywordMask, Schema, SchemaObject, Value};

/// A closed object (`additionalProperties: false` without `patternProperties`) has no more
/// members than it declares. Where the dialect cannot close an object but has
/// `maxProperties` (Gemini's Schema proto: `Unknown name "additionalProperties"`), that bound
/// is written (the declared properties' count): it only narrows what the dropped keyword
/// widened (issue 16).
pub(crate) fn closed_bound(o: &mut SchemaObject, p: &super::passes::At<'_>, cx: &mut Cx<'_>) {
    let keywords = &cx.rules.keywords;
    // The node's own keywords first (one test of its presence mask each); its types last.
    if keywords.contains(Keyword::AdditionalProperties)
        || !keywords.contains(Keyword::MaxProperties)
        || !matches!(
            o.schema(Keyword::AdditionalProperties),
            Some(Schema::Bool(false))
        )
        || !is_object(o)
        || o.schema_map(Keyword::PatternProperties)
            .is_some_and(|m| !m.is_empty())
    {
        return;
    }
    // A property that accepts no value is never there: it is not counted.
    let declared = o.properties().map_or(0, |m| {
        m.values()
            .filter(|s| !super::not_types::accepts_no_value(s))
            .count()
    });
    bound(o, p, declared, "its declared properties (it is closed)", cx);
}

/// Keywords beside which `unevaluatedProperties` sees more than the node's own `properties`.
const EVALUATES_PROPERTIES: &[Keyword] = &[
    Keyword::PatternProperties,
    Keyword::AdditionalProperties,
    Keyword::AllOf,
    Keyword::AnyOf,
    Keyword::OneOf,
    Keyword::Not,
    Keyword::If,
    Keyword::Then,
    Keyword::Else,
    Keyword::DependentSchemas,
    Keyword::Dependencies,
    Keyword::Ref,
    Keyword::DynamicRef,
    Keyword::RecursiveRef,
];

/// Keywords beside which `unevaluatedItems` sees more than the node's own `prefixItems`.
const EVALUATES_ITEMS: &[Keyword] = &[
    Keyword::Items,
    Keyword::AdditionalItems,
    Keyword::Contains,
    Keyword::AllOf,
    Keyword::AnyOf,
    Keyword::OneOf,
    Keyword::Not,
    Keyword::If,
    Keyword::Then,
    Keyword::Else,
    Keyword::DependentSchemas,
    Keyword::Ref,
    Keyword::DynamicRef,
    Keyword::RecursiveRef,
];

/// One `unevaluated*` keyword, and what its `false` says where only the node's own keywords
/// evaluate.
struct Closing {
    /// `unevaluatedProperties`, `unevaluatedItems`.
    unevaluated: Keyword,
    /// The keywords beside which it sees more than the node's own.
    evaluates: &'static [Keyword],
    /// What its `false` says then: `additionalProperties: false`, `items: false`.
    closed: Keyword,
    /// The rule of the change.
    rule: RuleId,
    /// The change's message.
    message: &'static str,
}

/// `unevaluatedProperties: false` where only `properties` evaluate.
const PROPERTIES: Closing = Closing {
    unevaluated: Keyword::UnevaluatedProperties,
    evaluates: EVALUATES_PROPERTIES,
    closed: Keyword::AdditionalProperties,
    rule: RuleId::AdditionalProperties,
    message: "unevaluatedProperties: false is additionalProperties: false where only properties evaluate",
};

/// `unevaluatedItems: false` where only `prefixItems` evaluate.
const ITEMS: Closing = Closing {
    unevaluated: Keyword::UnevaluatedItems,
    evaluates: EVALUATES_ITEMS,
    closed: Keyword::Items,
    rule: RuleId::Tuple,
    message: "unevaluatedItems: false is items: false where only prefixItems evaluate",
};

/// `c.unevaluated: false` on `o` said as `c.closed: false` where none of `c.evaluates` is
/// beside it and `o` is not `merged` into another node: whether it was. `merged` (read from
/// the pointer, which building is most of this pass's cost on a node) is asked last.
fn close(
    o: &mut SchemaObject,
    p: &At<'_>,
    c: &Closing,
    merged: &dyn Fn() -> bool,
    cx: &mut Cx<'_>,
) -> bool {
    if !matches!(o.schema(c.unevaluated), Some(Schema::Bool(false)))
        || c.evaluates.iter().any(|k| o.contains(*k))
        || merged()
    {
        return false;
    }
    let Some(v) = o.remove(c.unevaluated) else {
        return false;
    };
    o.insert(c.closed, v);
    cx.change(p, c.rule, c.message);
    true
}

/// `unevaluatedProperties: false` on a node where nothing but its own `properties` evaluates
/// (no applicator, no `$ref`) says exactly `additionalProperties: false`. Where the dialect
/// has no `unevaluatedProperties` but bounds objects (`maxProperties`: the Schema-proto
/// family), it is written so before anything merges or inlines, and a closed object then
/// keeps what the dialect can say of it ([`closed_bound`]; issue 16). A tree-level pass
/// before `$ref` inlining.
///
/// The tree is walked only where it may hold one of the keywords the step reads (most hold
/// none: [`Cx::tree_may_hold`]).
pub(crate) fn closed_unevaluated_on(cx: &Cx<'_>) -> bool {
    let k = &cx.rules.keywords;
    !k.contains(Keyword::UnevaluatedProperties)
        && k.contains(Keyword::MaxProperties)
        && cx.tree_may_hold(CLOSED_READ)
}

/// The keywords [`closed_unevaluated`] reads: a node without any is left as it is.
const CLOSED_READ: KeywordMask = KeywordMask::of(&[
    Keyword::UnevaluatedProperties,
    Keyword::UnevaluatedItems,
    Keyword::PropertyNames,
    Keyword::Items,
]);

/// Its step on one node ([`super::passes`] walks the tree).
pub(crate) fn closed_unevaluated(s: &mut Schema, p: &At<'_>, cx: &mut Cx<'_>) {
    let Some(o) = s.as_object_mut() else {
        return;
    };
    // Each rewrite below starts from one of these (one test for a node without any).
    if !o.may_contain_any(CLOSED_READ) {
        return;
    }
    // A part the engine merges into another node (an `allOf` member, `then`/`else`,
    // a dependent schema, a definition inlined beside siblings) would carry its
    // closedness into a node that declares more.
    let merged = || {
        let mut segments = p.rsplit('/');
        let (last, parent) = (segments.next(), segments.next());
        matches!(last, Some("then" | "else"))
            || matches!(
                parent,
                Some("allOf" | "dependentSchemas" | "dependencies" | "$defs" | "definitions")
            )
    };
    let is_false = |o: &SchemaObject, k| matches!(o.schema(k), Some(Schema::Bool(false)));
    let closed = close(o, p, &PROPERTIES, &merged, cx);
    if !closed
        && is_false(o, Keyword::UnevaluatedProperties)
        && let Some(names) = evaluated_names(o, 0)
    {
        // Applicators evaluate more, but only properties they name: no valid value has
        // more members than all of them together (a count, true in any position).
        bound(o, p, names.len(), "the properties its subschemas name", cx);
    }
    if !cx.rules.keywords.contains(Keyword::PropertyNames)
        && let Some(n) = name_count(o.schema(Keyword::PropertyNames))
    {
        bound(o, p, n, "the names propertyNames allows", cx);
    }
    // The same for items: only `prefixItems` evaluates, so no item may follow them.
    if !cx.rules.keywords.contains(Keyword::UnevaluatedItems) {
        close(o, p, &ITEMS, &merged, cx);
    }
    // `items: false` without positions: only the empty array (a boolean subschema is
    // not a proto message; `maxItems` says it).
    if is_false(o, Keyword::Items)
        && !o.contains(Keyword::PrefixItems)
        && !cx.rules.boolean_schemas
        && cx.rules.keywords.contains(Keyword::MaxItems)
    {
        o.remove(Keyword::Items);
        o.insert(Keyword::MaxItems, Value::Number(0u64.into()));
        cx.change(p, RuleId::BooleanSchema, "items: false is maxItems: 0");
    }
}

/// Deeper than this, subschemas are not searched for the properties they evaluate.
const MAX_DEPTH: usize = 16;

/// The property names `o` and its in-place applicators can evaluate; `None` where that is not
/// a fixed list (`patternProperties`, extra properties taken, a reference, a dynamic scope).
fn evaluated_names(o: &SchemaObject, depth: usize) -> Option<std::collections::BTreeSet<String>> {
    if depth > MAX_DEPTH
        || o.schema_map(Keyword::PatternProperties)
            .is_some_and(|m| !m.is_empty())
        || [Keyword::Ref, Keyword::DynamicRef, Keyword::RecursiveRef]
            .iter()
            .any(|k| o.contains(*k))
    {
        return None;
    }
    // Extra properties taken (a schema or `true`) are not a list; the node's own
    // `unevaluatedProperties: false` is what is being bounded.
    let open = |k| o.get(k).is_some() && !matches!(o.schema(k), Some(Schema::Bool(false)));
    if open(Keyword::AdditionalProperties) || (depth > 0 && open(Keyword::UnevaluatedProperties)) {
        return None;
    }
    let mut names: std::collections::BTreeSet<String> = o
        .properties()
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default();
    let mut add = |s: &Schema| -> Option<()> {
        if let Schema::Object(sub) = s {
            names.extend(evaluated_names(sub, depth + 1)?);
        }
        Some(())
    };
    for kw in [Keyword::AllOf, Keyword::AnyOf, Keyword::OneOf] {
        for s in o.schemas(kw).into_iter().flatten() {
            add(s)?;
        }
    }
    for kw in [Keyword::If, Keyword::Then, Keyword::Else] {
        if let Some(s) = o.schema(kw) {
            add(s)?;
        }
    }
    for kw in [Keyword::DependentSchemas, Keyword::Dependencies] {
        for s in o.schema_map(kw).into_iter().flat_map(|m| m.values()) {
            add(s)?;
        }
    }
    Some(names)
}

/// How many names a `propertyNames` schema allows, where it is a fixed list (`false`, a
/// string `const` or `enum`).
fn name_count(s: Option<&Schema>) -> Option<usize> {
    let o = match s? {
        Schema::Bool(false) => return Some(0),
        Schema::Bool(true) => return None,
        Schema::Object(o) => o,
    };
    if let Some(c) = o.instance(Keyword::Const) {
        return Some(usize::from(c.to_value().is_string()));
    }
    let list = o.enum_values()?;
    let mut names: Vec<String> = list
        .iter()
        .filter_map(|i| i.to_value().as_str().map(str::to_owned))
        .collect();
    names.sort();
    names.dedup();
    Some(names.len())
}

/// Writes `maxProperties: n` where the dialect has it and no tighter bound is there.
fn bound(o: &mut SchemaObject, p: &str, n: usize, why: &str, cx: &mut Cx<'_>) {
    if !cx.rules.keywords.contains(Keyword::MaxProperties) {
        return;
    }
    let n = u64::try_from(n).unwrap_or(u64::MAX);
    if o.number(Keyword::MaxProperties)
        .and_then(serde_json::Number::as_u64)
        .is_some_and(|m| m <= n)
    {
        return;
    }
    o.insert(Keyword::MaxProperties, Value::Number(n.into()));
    cx.change(
        p,
        RuleId::AdditionalProperties,
        Later(|| {
            message(&[
                Text("an object with at most "),
                Text(why),
                Text(": maxProperties "),
                Count(n),
            ])
        }),
    );
}

#[cfg(test)]
mod tests {
    use crate::rules::Rules;
    use schema_core::Schema;

    fn whole(text: &str, rules: &Rules) -> String {
        let s = Schema::from_str(text).unwrap();
        crate::sanitize(&s, rules, crate::Slot::Schema)
            .schema
            .to_json_string()
    }

    #[test]
    fn gemini_closed_objects_are_bounded_by_their_declared_properties() {
        let closed = r#"{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"additionalProperties":false}"#;
        assert!(whole(closed, &Rules::GEMINI).contains(r#""maxProperties":2"#));
        // Vertex keeps `additionalProperties`; other dialects are left alone.
        assert!(!whole(closed, &Rules::VERTEX).contains("maxProperties"));
        assert!(!whole(closed, &Rules::OPENAI).contains("maxProperties"));
        // Extra members matched by patterns: no bound.
        let patterns = r#"{"type":"object","properties":{"a":{"type":"string"}},"patternProperties":{"^x":{}},"additionalProperties":false}"#;
        assert!(!whole(patterns, &Rules::GEMINI).contains("maxProperties"));
        // A tighter bound already there stays.
        let tight = r#"{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"additionalProperties":false,"maxProperties":1}"#;
        assert!(whole(tight, &Rules::GEMINI).contains(r#""maxProperties":1"#));
    }

    #[test]
    fn unevaluated_false_is_closed_only_where_nothing_else_evaluates() {
        let own = r#"{"type":"object","properties":{"a":{"type":"string"}},"unevaluatedProperties":false}"#;
        assert!(whole(own, &Rules::GEMINI).contains(r#""maxProperties":1"#));
        assert!(whole(own, &Rules::VERTEX).contains(r#""additionalProperties":false"#));
        // An applicator evaluates more: not closed, bounded by the names it can evaluate.
        let applied = r#"{"type":"object","properties":{"a":{"type":"string"}},"anyOf":[{"properties":{"b":{"type":"string"}}}],"unevaluatedProperties":false}"#;
        assert!(whole(applied, &Rules::GEMINI).contains(r#""maxProperties":2"#));
        assert!(!whole(applied, &Rules::VERTEX).contains("additionalProperties"));
        // An `allOf` member is merged into its parent: its own closedness would close the
        // parent's other members.
        let member = r#"{"type":"object","allOf":[{"properties":{"a":{}},"unevaluatedProperties":false}],"properties":{"b":{}}}"#;
        assert!(!whole(member, &Rules::VERTEX).contains("additionalProperties"));
        // With applicators: bounded by every name they can evaluate; not where one takes
        // any name.
        let applied = r#"{"type":"object","properties":{"a":{}},"allOf":[{"properties":{"b":{}}}],"anyOf":[{"properties":{"c":{}}},true],"unevaluatedProperties":false}"#;
        assert!(whole(applied, &Rules::GEMINI).contains(r#""maxProperties":3"#));
        let open = r#"{"type":"object","properties":{"a":{}},"allOf":[{"patternProperties":{"^x":{}}}],"unevaluatedProperties":false}"#;
        assert!(!whole(open, &Rules::GEMINI).contains("maxProperties"));
        // propertyNames as a fixed list of names.
        let names = r#"{"type":"object","propertyNames":{"enum":["a","b","a"]}}"#;
        assert!(whole(names, &Rules::GEMINI).contains(r#""maxProperties":2"#));
        assert!(
            whole(r#"{"type":"object","propertyNames":false}"#, &Rules::GEMINI)
                .contains(r#""maxProperties":0"#)
        );
        // Items: `prefixItems` alone evaluate, `items: false` is the empty array.
        let tuple =
            r#"{"type":"array","prefixItems":[{"type":"string"}],"unevaluatedItems":false}"#;
        assert!(
            whole(tuple, &Rules::GEMINI).contains(r#""maxItems":1"#),
            "{}",
            whole(tuple, &Rules::GEMINI)
        );
        assert!(
            whole(r#"{"type":"array","items":false}"#, &Rules::GEMINI).contains(r#""maxItems":0"#)
        );
    }
}
