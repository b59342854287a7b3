//! `false` members of `anyOf` and `oneOf`, for the Schema proto (which has no `false`: a
//! lone `false` becomes a `not` of everything, which the proto can only describe).
//!
//! A `false` member matches no value, so it adds nothing to an `anyOf` and never counts in
//! a `oneOf`: it goes (exact). Where every member of an `anyOf` is `false`, the node accepts
//! no value ([`not_types::nothing`](super::not_types)). A `oneOf` left with two members that
//! take everything is then said as accepting nothing by the `not` step after this one.

use super::Cx;
use crate::RuleId;
use schema_core::{Keyword as K, Schema, Transform};

/// The node step, applied by `proto_walk` (one walk for the Schema-proto passes), before
/// `oneOf` exclusivity.
pub(super) struct FalseMembers<'a, 'r> {
    pub(super) cx: &'a mut Cx<'r>,
}
/// Whether [`FalseMembers`] leaves `o` as it is: no `false` member in its `anyOf`/`oneOf`.
pub(super) fn leaves(o: &schema_core::SchemaObject, _: &super::unchanged::Node<'_>) -> bool {
    [K::AnyOf, K::OneOf].iter().all(|kw| {
        o.schemas(*kw)
            .is_none_or(|ms| !ms.iter().any(|m| matches!(m, Schema::Bool(false))))
    })
}

impl Transform for FalseMembers<'_, '_> {
    fn pre(&mut self, p: &str, s: &mut Schema) {
        let Some(o) = s.as_object_mut() else { return };
        let is_false = |m: &Schema| matches!(m, Schema::Bool(false));
        if o.schemas(K::AnyOf)
            .is_some_and(|ms| !ms.is_empty() && ms.iter().all(is_false))
        {
            super::not_types::nothing(s);
            self.cx.change(
                p,
                RuleId::BooleanSchema,
                "anyOf of false members only: a node that accepts none",
            );
            return;
        }
        for kw in [K::AnyOf, K::OneOf] {
            let Some(ms) = o.schemas_mut(kw) else {
                continue;
            };
            // A `oneOf` of `false` members only is the `not` step's (accepts nothing).
            if ms.iter().all(is_false) {
                continue;
            }
            let before = ms.len();
            ms.retain(|m| !is_false(m));
            let gone = before - ms.len();
            if gone > 0 {
                self.cx.change(
                    p,
                    RuleId::BooleanSchema,
                    format!(
                        "{gone} false members of {} removed (they match no value)",
                        kw.as_str()
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
    fn any_of_false_members_do_not_let_every_value_in() {
        let s = json!({"anyOf": [false, false]});
        assert!(!accepts(&s, json!("foo")) && !accepts(&s, json!(1)));
        let s = json!({"anyOf": [{"type": "integer"}, false]});
        assert!(accepts(&s, json!(3)) && !accepts(&s, json!("foo")));
    }

    #[test]
    fn one_of_two_trues_and_a_false_accepts_nothing() {
        let s = json!({"oneOf": [true, true, false]});
        assert!(!accepts(&s, json!("foo")) && !accepts(&s, json!(1)));
        let s = json!({"oneOf": [true, false, false]});
        assert!(accepts(&s, json!("foo")) && accepts(&s, json!(1)));
    }
}
