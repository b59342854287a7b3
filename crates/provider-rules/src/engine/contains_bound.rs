//! `contains` where the dialect has none (the Schema proto): an array that must hold
//! `minContains` (default 1) matching items holds at least that many items, said
//! `minItems`; `contains: false` takes no array. A superset of what `contains` takes (the
//! matching itself goes to the description, as before), and sound: every array `contains`
//! accepts is that long.

use super::Cx;
use super::not_types::nothing;
use crate::RuleId;
use schema_core::{InstanceType as T, Keyword, Schema, Transform};
use serde_json::Value;

/// The node step, applied by `proto_walk` (one walk for the Schema-proto passes).
pub(super) struct Contains<'a, 'r> {
    pub(super) cx: &'a mut Cx<'r>,
}
impl Transform for Contains<'_, '_> {
    fn pre(&mut self, p: &str, s: &mut Schema) {
        let Some(o) = s.as_object() else { return };
        let Some(c) = o.schema(Keyword::Contains) else {
            return;
        };
        let none = matches!(c, Schema::Bool(false));
        let mut j = s.to_value();
        let Some(m) = j.as_object_mut() else { return };
        let at_least = match m.get("minContains") {
            None => 1,
            Some(v) => match v.as_f64() {
                Some(f) if f >= 0.0 && f.fract() == 0.0 && f < 1e15 => f as u64,
                _ => return,
            },
        };
        if at_least == 0 {
            return;
        }
        let own: Vec<T> = match o.types() {
            Some(t) => t.as_slice().to_vec(),
            None => T::ALL.to_vec(),
        };
        if !own.contains(&T::Array) {
            return;
        }
        let left: Vec<T> = if none {
            own.iter().copied().filter(|t| *t != T::Array).collect()
        } else {
            own.clone()
        };
        if left.is_empty() {
            nothing(s);
            self.cx.change(
                p,
                RuleId::UnsupportedKeyword,
                "contains false: no array passes".to_owned(),
            );
            return;
        }
        if !none {
            let min = m.get("minItems").and_then(Value::as_u64).unwrap_or(0);
            if min >= at_least {
                return;
            }
            m.insert("minItems".to_owned(), at_least.into());
        }
        if o.types().is_none() || none {
            let names: Vec<Value> = left.iter().map(|t| t.as_str().into()).collect();
            m.insert(
                "type".to_owned(),
                match names.as_slice() {
                    [one] => one.clone(),
                    _ => Value::Array(names),
                },
            );
        }
        *s = Schema::from_value(&j);
        let what = if none {
            "contains false: no array passes".to_owned()
        } else {
            format!("contains: at least {at_least} items")
        };
        self.cx.change(p, RuleId::UnsupportedKeyword, what);
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::proto_walk::test_support::accepts;
    use serde_json::json;

    #[test]
    fn contains_needs_as_many_items_as_it_counts() {
        let s = json!({"type": "array", "contains": {"minimum": 5}});
        assert!(!accepts(s.clone(), json!([])) && accepts(s, json!([7])));
        let s = json!({"type": "array", "contains": {"const": 1}, "minContains": 2});
        assert!(!accepts(s.clone(), json!([1])) && accepts(s, json!([1, 1])));
        let s = json!({"type": "array", "contains": {"const": 1}, "minContains": 0});
        assert!(accepts(s, json!([])));
        // Typeless: only arrays are held to it.
        let s = json!({"contains": {"minimum": 5}});
        assert!(accepts(s.clone(), json!("x")) && !accepts(s, json!([])));
    }

    #[test]
    fn contains_false_takes_no_array() {
        let s = json!({"contains": false});
        assert!(!accepts(s.clone(), json!([])) && !accepts(s.clone(), json!(["foo"])));
        assert!(accepts(s, json!(3)));
        let s = json!({"type": "array", "contains": false});
        assert!(!accepts(s, json!([])));
    }
}
