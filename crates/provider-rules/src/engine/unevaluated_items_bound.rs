//! `unevaluatedItems: false` beside in-place applicators that evaluate positions only
//! (`prefixItems` in `allOf`, `anyOf`, `oneOf`, `if`/`then`/`else`), for the Schema proto
//! (no `unevaluatedItems`): no valid array has more items than the longest `prefixItems`
//! among them, so that count is `maxItems`.
//!
//! A bound the original implies, so exact wherever it stands (also in merged positions and
//! under `not`). Not where a subschema may evaluate any position (`items`, `contains`,
//! `additionalItems`, an open `unevaluatedItems`) or what it evaluates is elsewhere (a
//! reference). `not` evaluates nothing (its annotations are dropped), so it is not read.

use super::Cx;
use crate::RuleId;
use schema_core::{Keyword as K, Schema, SchemaObject, Value};

/// Deeper than this, subschemas are not searched.
const MAX_DEPTH: usize = 16;

/// The node step, applied by `proto_walk` (one walk for the Schema-proto passes).
pub(super) struct ItemsBound<'a, 'r> {
    pub(super) cx: &'a mut Cx<'r>,
}
impl schema_core::Transform for ItemsBound<'_, '_> {
    fn pre(&mut self, p: &str, s: &mut Schema) {
        let k = &self.cx.rules.keywords;
        if k.contains(K::UnevaluatedItems) || !k.contains(K::MaxItems) {
            return;
        }
        let Some(o) = s.as_object_mut() else { return };
        if !matches!(o.schema(K::UnevaluatedItems), Some(Schema::Bool(false))) {
            return;
        }
        let Some(n) = evaluated_len(o, 0) else {
            return;
        };
        if !tighter(o, n) {
            return;
        }
        o.insert(K::MaxItems, Value::Number((n as u64).into()));
        self.cx.change(
            p,
            RuleId::Tuple,
            format!(
                "unevaluatedItems: false: at most {n} items (the positions its subschemas evaluate)"
            ),
        );
    }
}

/// Whether `maxItems: n` would bound `o` more than its own `maxItems` does.
pub(super) fn tighter(o: &SchemaObject, n: usize) -> bool {
    o.number(K::MaxItems)
        .and_then(serde_json::Number::as_u64)
        .is_none_or(|m| m > n as u64)
}

/// How many leading positions `o` and its in-place applicators can evaluate; `None` where
/// they may evaluate any position or the answer is elsewhere.
pub(super) fn evaluated_len(o: &SchemaObject, depth: usize) -> Option<usize> {
    if depth > MAX_DEPTH
        || [K::Ref, K::DynamicRef, K::RecursiveRef]
            .iter()
            .any(|k| o.contains(*k))
    {
        return None;
    }
    let open = |k| o.get(k).is_some() && !matches!(o.schema(k), Some(Schema::Bool(false)));
    let tuple = o.schemas(K::Items).map(<[Schema]>::len);
    if (tuple.is_none() && open(K::Items))
        || open(K::AdditionalItems)
        || open(K::Contains)
        || (depth > 0 && open(K::UnevaluatedItems))
    {
        return None;
    }
    let mut n = o
        .schemas(K::PrefixItems)
        .map_or(0, <[Schema]>::len)
        .max(tuple.unwrap_or(0));
    let mut add = |s: &Schema| -> Option<()> {
        if let Schema::Object(sub) = s {
            n = n.max(evaluated_len(sub, depth + 1)?);
        }
        Some(())
    };
    for kw in [K::AllOf, K::AnyOf, K::OneOf] {
        for s in o.schemas(kw).into_iter().flatten() {
            add(s)?;
        }
    }
    for kw in [K::If, K::Then, K::Else] {
        if let Some(s) = o.schema(kw) {
            add(s)?;
        }
    }
    for s in o
        .schema_map(K::DependentSchemas)
        .into_iter()
        .flat_map(|m| m.values())
    {
        add(s)?;
    }
    Some(n)
}

#[cfg(test)]
mod tests {
    use crate::engine::proto_walk::test_support::accepts_encoded as accepts;
    use serde_json::json;

    #[test]
    fn unevaluated_items_beside_applicators_bounds_the_length() {
        let s = json!({"prefixItems": [{"type": "string"}],
            "oneOf": [{"prefixItems": [true, {"const": "bar"}]},
                      {"prefixItems": [true, {"const": "baz"}]}],
            "unevaluatedItems": false});
        assert!(accepts(&s, json!(["foo", "bar"])));
        assert!(!accepts(&s, json!(["foo", "bar", 42])));
        // `allOf: [true]` evaluates nothing: only the empty array.
        let s = json!({"allOf": [true], "unevaluatedItems": false});
        assert!(accepts(&s, json!([])) && !accepts(&s, json!(["foo"])));
    }

    #[test]
    fn items_or_contains_in_an_applicator_leave_the_length_open() {
        for s in [
            json!({"anyOf": [{"items": {"type": "string"}}], "unevaluatedItems": false}),
            json!({"allOf": [{"contains": {"type": "string"}}], "unevaluatedItems": false}),
        ] {
            assert!(accepts(&s, json!(["a", "b", "c"])), "{s}");
        }
    }
}
