//! `not` of an object's members where the dialect has no `not` (the Schema proto has no `not`:
//! `../shared/research/providers.md`, the Gemini Schema fields): `not: {"properties": {...},
//! "required": [...]}` is said the other way round, exactly, as a union (issue 16, Gemini
//! precision). An object fails the members' schema where one member fails:
//!
//! - a required member is missing, or is there and fails its schema: `properties: {m: {not:
//!   S}}` (absent passes it);
//! - an optional member is there and fails its schema: `properties: {m: {not: S}}, required:
//!   [m]`;
//!
//! and, where the `not` says `type: object`, every value of another type passes. Each member's
//! own `not: S` is then said by [`not_types`](super::not_types) (the other types, the opposite
//! bound, "no value"), which the walk runs on the union's branches after this node. A member
//! whose `not` the proto cannot say leaves the whole `not` as it was (left out, a superset):
//! dropping one branch of the union would reject values the original takes.
//!
//! `oneOf` exclusivity ([`one_of_exclusive`](super::one_of_exclusive)) and conditionals
//! ([`conditional_union`](super::conditional_union)) write such `not`s: "exactly one of two
//! objects" and "if these members, then..." become exact.

use super::Cx;
use super::not_types::{NOTHING, negatable, ruled_out};
use crate::RuleId;
use schema_core::{InstanceType as T, Keyword, Schema, Transform};
use serde_json::{Map, Value, json};

/// At most this many members are turned round (one branch each).
const MAX_MEMBERS: usize = 8;

/// A node's keywords are copied into each branch up to this size (its JSON text, bytes);
/// beyond it the union stands beside them.
const MAX_COPIED: usize = 2048;

/// Keywords that say nothing of the value.
fn annotation(k: &str) -> bool {
    matches!(k, "title" | "description" | "$comment")
}

/// Keywords that stay on the node: what references find there.
fn stays(k: &str) -> bool {
    matches!(
        k,
        "$schema" | "$id" | "$defs" | "definitions" | "$anchor" | "$dynamicAnchor"
    )
}

/// Whether `v` takes every value (`true`, `{}`, annotations only).
fn everything(v: &Value) -> bool {
    match v {
        Value::Bool(b) => *b,
        Value::Object(m) => m.keys().all(|k| annotation(k)),
        _ => false,
    }
}

/// The branches of `not: n` for objects, and whether `n` says `type: object` (then every
/// other type passes too); `None` where `n` is not made of members the proto can turn round.
fn branches(n: &Value) -> Option<(bool, Vec<Value>)> {
    let o = n.as_object()?;
    let mut typed = false;
    for (k, v) in o {
        match k.as_str() {
            "type" if v == "object" => typed = true,
            "properties" | "required" => {}
            k if annotation(k) => {}
            _ => return None,
        }
    }
    let props = match o.get("properties") {
        None => Map::new(),
        Some(Value::Object(m)) => m.clone(),
        Some(_) => return None,
    };
    let required: Vec<String> = match o.get("required") {
        None => Vec::new(),
        Some(Value::Array(a)) => a
            .iter()
            .map(|x| x.as_str().map(str::to_owned))
            .collect::<Option<_>>()?,
        Some(_) => return None,
    };
    let mut names: Vec<String> = props.keys().cloned().collect();
    for r in &required {
        if !names.contains(r) {
            names.push(r.clone());
        }
    }
    if names.is_empty() || names.len() > MAX_MEMBERS {
        return None;
    }
    let mut out = Vec::new();
    for name in names {
        let p = props.get(&name).cloned().unwrap_or(Value::Bool(true));
        let req = required.contains(&name);
        let branch = if everything(&p) {
            if !req {
                // An optional member that takes any value never fails.
                continue;
            }
            // Fails only where it is missing.
            json!({"type": "object", "properties": {name: nothing_value()}})
        } else if p == Value::Bool(false) {
            if req {
                // No object has it: every object fails the members' schema.
                json!({"type": "object"})
            } else {
                json!({"type": "object", "required": [name]})
            }
        } else {
            let ps = Schema::from_value(&p);
            if !(negatable(&ps) || ruled_out(&ps).is_some()) {
                return None;
            }
            let mut b = json!({"type": "object", "properties": {name.clone(): {"not": p}}});
            if !req && let Some(m) = b.as_object_mut() {
                m.insert("required".to_owned(), json!([name]));
            }
            b
        };
        out.push(branch);
    }
    Some((typed, out))
}

/// What [`super::not_types::nothing`] makes, as JSON.
fn nothing_value() -> Value {
    json!({"description": "Accepts no value.", "type": "string", "enum": [NOTHING]})
}

/// Whether the proto can say `not: s` this way.
pub(super) fn sayable(s: &Schema) -> bool {
    matches!(s, Schema::Object(o) if o.contains(Keyword::Properties) || o.contains(Keyword::Required))
        && branches(&s.to_value()).is_some()
}

/// The node step, applied by `proto_walk` (one walk for the Schema-proto passes), before
/// [`not_types`](super::not_types)' step.
pub(super) struct Members<'a, 'r> {
    pub(super) cx: &'a mut Cx<'r>,
}
impl Transform for Members<'_, '_> {
    fn pre(&mut self, p: &str, s: &mut Schema) {
        let Some(o) = s.as_object() else { return };
        let Some(n) = o.schema(Keyword::Not) else {
            return;
        };
        if !sayable(n) || o.contains(Keyword::AnyOf) || o.contains(Keyword::OneOf) {
            return;
        }
        let Some((typed, mut list)) = branches(&n.to_value()) else {
            return;
        };
        let own: Vec<T> = match o.types() {
            Some(t) => t.as_slice().to_vec(),
            None => T::ALL.to_vec(),
        };
        if !own.contains(&T::Object) {
            return;
        }
        if typed {
            let others: Vec<Value> = own
                .iter()
                .filter(|t| **t != T::Object)
                .map(|t| t.as_str().into())
                .collect();
            match others.as_slice() {
                [] => {}
                [one] => list.insert(0, json!({"type": one})),
                _ => list.insert(0, json!({"type": others})),
            }
        }
        let mut j = s.to_value();
        let Some(m) = j.as_object_mut() else { return };
        m.remove("not");
        if list.is_empty() {
            // The members' schema takes every value: its `not` takes none.
            super::not_types::nothing(s);
            self.cx.change(
                p,
                RuleId::Not,
                "not of members that take every value: a node that accepts none".to_owned(),
            );
            return;
        }
        let (own, rest): (Map<String, Value>, Map<String, Value>) = std::mem::take(m)
            .into_iter()
            .partition(|(k, _)| annotation(k) || stays(k));
        *m = own;
        let rest = Value::Object(rest);
        // A reference is read where it stands: such a node keeps its keywords.
        let refers = rest
            .as_object()
            .is_some_and(|o| o.keys().any(|k| k.starts_with('$')));
        let branches = if everything(&rest) || refers || rest.to_string().len() > MAX_COPIED {
            list
        } else {
            // Each branch is the node and one way to fail, so that a branch names every
            // member the node has (a dialect that reads objects as closed still takes them).
            list.into_iter()
                .map(|d| {
                    let mut b = rest.clone();
                    if let Some(all) = b
                        .as_object_mut()
                        .map(|o| o.entry("allOf").or_insert_with(|| json!([])))
                        .and_then(Value::as_array_mut)
                    {
                        all.push(d);
                    }
                    b
                })
                .collect()
        };
        m.insert("anyOf".to_owned(), Value::Array(branches));
        *s = Schema::from_value(&j);
        self.cx.change(
            p,
            RuleId::Not,
            "not of members: a union of the ways one member fails".to_owned(),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::proto_walk::test_support::{accepts, accepts_encoded};
    use serde_json::json;

    #[test]
    fn not_of_members_takes_the_objects_where_one_fails() {
        let s = json!({"not": {"type": "object", "properties": {"foo": {"type": "string"}}}});
        assert!(!accepts(&s, json!({"foo": "bar"})));
        assert!(accepts(&s, json!({"foo": 1})) && accepts(&s, json!("x")));
        assert!(
            !accepts(&s, json!({})),
            "an object without foo takes the members' schema"
        );
        // Required members: missing, or there and failing.
        let s = json!({"type": "object", "not": {"required": ["a", "b"], "properties": {"b": {"minimum": 3}}}});
        assert!(!accepts(&s, json!({"a": 1, "b": 5})));
        assert!(accepts(&s, json!({"b": 3})) && accepts(&s, json!({"a": 1, "b": 2})));
        // Untyped: the members' schema takes every non-object, its `not` none of them.
        let s = json!({"not": {"properties": {"a": {"type": "string"}}}});
        assert!(!accepts(&s, json!(3)) && accepts(&s, json!({"a": 3})));
        // A member the proto cannot turn round leaves the `not` to the description.
        let s = json!({"not": {"properties": {"a": {"pattern": "^x"}}}});
        assert!(accepts(&s, json!({"a": "y"})) && accepts(&s, json!({"a": "x"})));
    }

    #[test]
    fn one_of_two_objects_is_exactly_one() {
        let s = json!({"oneOf": [
            {"properties": {"bar": {"type": "boolean"}}, "required": ["bar"]},
            {"properties": {"foo": {"type": "string"}}, "required": ["foo"]}]});
        assert!(accepts(&s, json!({"bar": true})) && accepts(&s, json!({"foo": "x"})));
        assert!(accepts(&s, json!({"bar": true, "foo": 3})));
        assert!(!accepts(&s, json!({"bar": true, "foo": "baz"})));
        // An integer stays a number: `not integer` cannot say it.
        let s = json!({"oneOf": [
            {"properties": {"bar": {"type": "integer"}}, "required": ["bar"]},
            {"properties": {"foo": {"type": "string"}}, "required": ["foo"]}]});
        assert!(accepts(&s, json!({"bar": 2, "foo": "baz"})));
        let s = json!({"type": "object", "oneOf": [{"required": ["foo", "bar"]}, {"required": ["foo", "baz"]}]});
        assert!(accepts(&s, json!({"foo": 1, "bar": 2})));
        assert!(!accepts(&s, json!({"foo": 1, "bar": 2, "baz": 3})));
        // With any-value members, encoded.
        let s = json!({"oneOf": [
            {"properties": {"bar": true, "baz": true}, "required": ["bar"]},
            {"properties": {"foo": true}, "required": ["foo"]}]});
        assert!(accepts_encoded(&s, json!({"bar": 8, "baz": [1]})));
        assert!(accepts_encoded(&s, json!({"foo": "x"})));
        assert!(!accepts_encoded(&s, json!({"bar": 8, "foo": "foo"})));
    }
}
