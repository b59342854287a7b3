//! `unevaluatedProperties` / `unevaluatedItems` on a node where nothing else evaluates (no
//! `properties`, `patternProperties`, applicators, conditionals or references; for items, no
//! `prefixItems`, `items`, `contains`): every member or item is unevaluated, so the keyword
//! says what `additionalProperties` / `items` says, and becomes it. Exact. Where the dialect
//! has neither (the Schema proto), the encodings then say a map's values (`encode-map`) and
//! the items are typed.

use super::Cx;
use crate::RuleId;
use schema_core::{Keyword as K, Schema, Transform, Value};

/// What evaluates members beside `unevaluatedProperties`.
pub(super) const MEMBERS: &[K] = &[
    K::Properties,
    K::PatternProperties,
    K::AdditionalProperties,
    K::AllOf,
    K::AnyOf,
    K::OneOf,
    K::If,
    K::Then,
    K::Else,
    K::DependentSchemas,
    K::Dependencies,
    K::Ref,
    K::DynamicRef,
    K::RecursiveRef,
];

/// What evaluates items beside `unevaluatedItems`.
const ITEMS: &[K] = &[
    K::PrefixItems,
    K::Items,
    K::AdditionalItems,
    K::Contains,
    K::AllOf,
    K::AnyOf,
    K::OneOf,
    K::If,
    K::Then,
    K::Else,
    K::Ref,
    K::DynamicRef,
    K::RecursiveRef,
];

/// The node step, applied by `proto_walk` (one walk for the Schema-proto passes).
pub(super) struct Alone<'a, 'r> {
    pub(super) cx: &'a mut Cx<'r>,
}
impl Transform for Alone<'_, '_> {
    fn pre(&mut self, p: &str, s: &mut Schema) {
        let Some(o) = s.as_object_mut() else { return };
        for (from, to, others) in [
            (K::UnevaluatedProperties, K::AdditionalProperties, MEMBERS),
            (K::UnevaluatedItems, K::Items, ITEMS),
        ] {
            // `true` says nothing; beside `required`, a map's entries could not say which
            // keys must be there.
            if !matches!(
                o.schema(from),
                Some(Schema::Object(_)) | Some(Schema::Bool(false))
            ) || others.iter().any(|kw| o.contains(*kw))
                || (from == K::UnevaluatedProperties && o.contains(K::Required))
            {
                continue;
            }
            if let Some(v) = o.remove(from) {
                // No item at all: said as a length too, which an `allOf` merge keeps (an
                // `items: false` merged beside a sibling's tuple would allow its positions).
                if from == K::UnevaluatedItems
                    && matches!(v, Value::Schema(ref b) if **b == Schema::Bool(false))
                {
                    o.insert(K::MaxItems, Value::Number(0u64.into()));
                }
                o.insert(to, v);
                self.cx.change(
                    p,
                    RuleId::UnsupportedKeyword,
                    format!(
                        "{} with nothing else evaluating: {}",
                        from.as_str(),
                        to.as_str()
                    ),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::proto_walk::test_support::accepts_encoded as accepts;
    use serde_json::json;

    #[test]
    fn unevaluated_alone_is_additional_and_items() {
        let s =
            json!({"type": "object", "unevaluatedProperties": {"type": "string", "minLength": 3}});
        assert!(accepts(s.clone(), json!({"foo": "foo"})) && !accepts(s, json!({"foo": "fo"})));
        let s = json!({"type": "array", "unevaluatedItems": {"type": "string"}});
        assert!(accepts(s.clone(), json!(["a"])) && !accepts(s, json!([42])));
        // `false` beside nothing is the empty array, also as an `allOf` member.
        let s = json!({"allOf": [{"prefixItems": [true]}, {"unevaluatedItems": false}]});
        assert!(accepts(&s, json!([])) && !accepts(&s, json!([1])));
        // Beside properties, other steps decide (nothing is renamed).
        let s = json!({"type": "object", "properties": {"a": {"type": "integer"}},
            "unevaluatedProperties": {"type": "string"}});
        assert!(accepts(s, json!({"a": 1, "b": "x"})));
    }
}
