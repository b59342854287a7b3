//! `if`/`then`/`else` where the dialect has unions but no conditionals (the Schema proto):
//! the node takes `anyOf: [{if and then}, {not if, and else}]`, which is what the conditional
//! means. The `not` is then said the proto's way where it can be (`not_types`: the opposite
//! bound, "no value"), and dropped where it cannot: the second branch is then `else` alone,
//! a superset. `if: true` is `then`, `if: false` is `else`. A conditional whose second branch
//! would take everything (no `else` and an `if` that cannot be turned round) is left to the
//! merge step, which describes it, and so is the conditional of a shaped root (a tool's
//! parameters stay one object).

use super::Cx;
use super::not_types::negatable;
use crate::RuleId;
use schema_core::{Keyword, Schema, Transform};
use serde_json::{Value, json};

/// The node step, applied by `proto_walk` (one walk for the Schema-proto passes).
pub(super) struct Conditionals<'a, 'r> {
    pub(super) cx: &'a mut Cx<'r>,
}
impl Transform for Conditionals<'_, '_> {
    fn pre(&mut self, p: &str, s: &mut Schema) {
        // A shaped root (a tool's parameters) must stay one object: its conditional is
        // merged into it as before.
        if p.is_empty() && self.cx.rules.root_shaped(self.cx.slot) {
            return;
        }
        let Some(o) = s.as_object() else { return };
        let Some(cond) = o.schema(Keyword::If) else {
            return;
        };
        let has = |k| o.schema(k).is_some();
        if !has(Keyword::Then) && !has(Keyword::Else) {
            return;
        }
        if o.contains(Keyword::AnyOf) || o.contains(Keyword::OneOf) {
            return;
        }
        let fixed = matches!(cond, Schema::Bool(_));
        if !fixed && !has(Keyword::Else) && !negatable(cond) && !super::not_members::sayable(cond) {
            return;
        }
        let mut j = s.to_value();
        let Some(m) = j.as_object_mut() else { return };
        let (Some(cond), then, other) = (m.remove("if"), m.remove("then"), m.remove("else")) else {
            return;
        };
        let part = |x: Option<Value>| x.filter(|v| *v != Value::Bool(true));
        let what = match cond {
            Value::Bool(b) => {
                // A fixed condition: one of the two applies, as a part of the node.
                if let Some(x) = part(if b { then } else { other }) {
                    let all = m.entry("allOf").or_insert_with(|| json!([]));
                    if let Some(list) = all.as_array_mut() {
                        list.push(x);
                    }
                }
                "a fixed if: the part it chooses"
            }
            cond => {
                let mut first = vec![cond.clone()];
                first.extend(part(then));
                let mut second = json!({"not": cond});
                if let (Some(x), Some(o)) = (part(other), second.as_object_mut()) {
                    o.insert("allOf".to_owned(), json!([x]));
                }
                m.insert("anyOf".to_owned(), json!([{"allOf": first}, second]));
                "if/then/else: a union of (if and then) and (not if, and else)"
            }
        };
        *s = Schema::from_value(&j);
        self.cx.change(p, RuleId::Conditional, what.to_owned());
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::proto_walk::test_support::accepts;
    use serde_json::json;

    #[test]
    fn a_conditional_is_the_union_it_means() {
        let s = json!({"if": {"exclusiveMaximum": 0}, "then": {"minimum": -10}});
        assert!(accepts(s.clone(), json!(-1)) && accepts(s.clone(), json!(5)));
        assert!(!accepts(s, json!(-100)));
        let s =
            json!({"if": {"maxLength": 4}, "then": {"const": "yes"}, "else": {"const": "other"}});
        assert!(accepts(s.clone(), json!("yes")) && accepts(s.clone(), json!("other")));
        assert!(!accepts(s.clone(), json!("no")) && !accepts(s, json!("invalid")));
        // A condition that cannot be turned round: the second branch is `else` alone.
        let s =
            json!({"if": {"pattern": "^a"}, "then": {"maxLength": 2}, "else": {"minLength": 5}});
        for v in ["ab", "bbbbb", "abbbbb"] {
            assert!(accepts(s.clone(), json!(v)), "{v}");
        }
        assert!(!accepts(s, json!("bb")));
    }

    #[test]
    fn a_fixed_condition_is_the_part_it_chooses() {
        let s = json!({"if": true, "then": {"const": "then"}, "else": {"const": "else"}});
        assert!(accepts(s.clone(), json!("then")) && !accepts(s, json!("else")));
        let s = json!({"if": false, "then": {"const": "then"}, "else": {"const": "else"}});
        assert!(accepts(s.clone(), json!("else")) && !accepts(s, json!("then")));
    }
}
