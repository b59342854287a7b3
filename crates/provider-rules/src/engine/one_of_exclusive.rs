//! `oneOf` where the dialect has `anyOf` only (the Schema proto): "exactly one" is said as
//! `anyOf` over the branches, each with the negations of the others that the proto can say
//! (`not_types`: other types, the opposite bound, "no value"). A negation it cannot say is
//! left out, so each branch takes at least what it takes under `oneOf`: sound, and more
//! precise than `anyOf` alone wherever one negation is said. A shaped root (a tool's
//! parameters) is left as before, and so are unions of more than four branches.

use super::Cx;
use super::not_types::{negatable, ruled_out};
use crate::RuleId;
use schema_core::{Keyword, Schema, Transform};
use serde_json::{Value, json};

/// At most this many branches are rewritten (each branch holds the others' negations).
const MAX_BRANCHES: usize = 4;

/// Whether the proto can say `not: s`.
fn sayable(s: &Schema) -> bool {
    negatable(s) || ruled_out(s).is_some() || super::not_members::sayable(s)
}

/// Whether two branches say types that no value has both of.
fn disjoint(a: &Schema, b: &Schema) -> bool {
    use schema_core::InstanceType as T;
    let types = |s: &Schema| {
        s.as_object()
            .and_then(|o| o.types())
            .map(|t| t.as_slice().to_vec())
    };
    let (Some(x), Some(y)) = (types(a), types(b)) else {
        return false;
    };
    let meets = |t: &T, u: &T| {
        t == u || matches!((t, u), (T::Integer, T::Number) | (T::Number, T::Integer))
    };
    !x.iter().any(|t| y.iter().any(|u| meets(t, u)))
}

/// The node step, applied by `proto_walk` (one walk for the Schema-proto passes).
pub(super) struct Exclusive<'a, 'r> {
    pub(super) cx: &'a mut Cx<'r>,
}
impl Transform for Exclusive<'_, '_> {
    fn pre(&mut self, p: &str, s: &mut Schema) {
        if p.is_empty() && self.cx.rules.root_shaped(self.cx.slot) {
            return;
        }
        let Some(o) = s.as_object() else { return };
        let Some(branches) = o.schemas(Keyword::OneOf) else {
            return;
        };
        if branches.len() < 2 || branches.len() > MAX_BRANCHES || o.contains(Keyword::AnyOf) {
            return;
        }
        let said: Vec<bool> = branches.iter().map(sayable).collect();
        // Branch `k`'s negation is needed beside branch `i` where it is said and their
        // types may overlap (`string` and `integer` already exclude each other).
        let needed =
            |i: usize, k: usize| k != i && said[k] && !disjoint(&branches[i], &branches[k]);
        let n = branches.len();
        if !(0..n).any(|i| (0..n).any(|k| needed(i, k))) {
            return;
        }
        let needs: Vec<Vec<bool>> = (0..n)
            .map(|i| (0..n).map(|k| needed(i, k)).collect())
            .collect();
        let list: Vec<Value> = branches.iter().map(Schema::to_value).collect();
        let mut j = s.to_value();
        let Some(m) = j.as_object_mut() else { return };
        m.remove("oneOf");
        let union: Vec<Value> = (0..list.len())
            .map(|i| {
                // The branch itself, with the first negation as its own `not` (said
                // against the branch's types and bounds) and the others as parts.
                let mut b = match &list[i] {
                    Value::Bool(true) => json!({}),
                    other => other.clone(),
                };
                let Some(bo) = b.as_object_mut() else {
                    return b;
                };
                let mut parts = Vec::new();
                for (k, other) in list.iter().enumerate() {
                    if !needs[i][k] {
                        continue;
                    }
                    if bo.contains_key("not") {
                        parts.push(json!({"not": other}));
                    } else {
                        bo.insert("not".to_owned(), other.clone());
                    }
                }
                if !parts.is_empty() {
                    let all = bo.entry("allOf").or_insert_with(|| json!([]));
                    if let Some(list) = all.as_array_mut() {
                        list.extend(parts);
                    }
                }
                b
            })
            .collect();
        m.insert("anyOf".to_owned(), Value::Array(union));
        *s = Schema::from_value(&j);
        self.cx.change(
            p,
            RuleId::OneOf,
            "oneOf: each branch without the others the proto can rule out".to_owned(),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::proto_walk::test_support::accepts;
    use serde_json::json;

    #[test]
    fn exactly_one_branch_where_the_others_can_be_ruled_out() {
        let s = json!({"type": "string", "oneOf": [{"minLength": 2}, {"maxLength": 4}]});
        assert!(accepts(&s, json!("foobar")) && accepts(&s, json!("f")));
        assert!(!accepts(&s, json!("foo")));
        let s = json!({"oneOf": [{"type": "number"}, {}]});
        assert!(accepts(&s, json!("x")) && !accepts(&s, json!(123)));
        // A branch that cannot be ruled out leaves the others as they were.
        let s = json!({"oneOf": [{"type": "integer"}, {"minimum": 2}]});
        assert!(accepts(&s, json!(1)) && accepts(&s, json!(2.5)));
    }
}
