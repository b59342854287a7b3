//! `not: {"type": ...}` where the dialect has no `not` but has type lists or unions (the Schema
//! proto: `Unknown name "not"`): the node takes the other types (issue 16, Gemini precision).
//! `integer` cannot be taken out of `number` (the proto's NUMBER holds integers), so
//! `not: {"type": "integer"}` keeps `number`: the rewrite only narrows what dropping `not`
//! would widen.

use super::Cx;
use super::passes::At;
use crate::RuleId;
use schema_core::{InstanceType as T, Key, Keyword, Schema, SchemaObject, TypeSet, Value};

/// Keywords of a `not` schema that say nothing of the value.
const ANNOTATIONS: &[Keyword] = &[Keyword::Title, Keyword::Description, Keyword::Comment];

/// The types a `not` schema made only of `type` rules out.
fn ruled_out(not: &Schema) -> Option<Vec<T>> {
    let o = not.as_object()?;
    let only_type = o.entries().iter().all(|e| match &e.key {
        Key::Known(k) => *k == Keyword::Type || ANNOTATIONS.contains(k),
        Key::Other(_) => false,
    });
    if !only_type {
        return None;
    }
    o.types().map(|t| t.as_slice().to_vec())
}

/// The types of `o` once `out` are ruled out; `None` when nothing changes or nothing is left.
fn remaining(o: &SchemaObject, out: &[T]) -> Option<Vec<T>> {
    let own: Vec<T> = match o.types() {
        Some(t) => t.as_slice().to_vec(),
        None => T::ALL.to_vec(),
    };
    let gone = |t: &T| match t {
        // Ruling out integers leaves the non-integral numbers: `number` stays.
        T::Integer => out.contains(&T::Integer) || out.contains(&T::Number),
        T::Number => out.contains(&T::Number),
        other => out.contains(other),
    };
    let left: Vec<T> = own.iter().copied().filter(|t| !gone(t)).collect();
    (!left.is_empty() && left.len() < own.len()).then_some(left)
}

/// A tree-level pass before the walk: each `not` of types becomes the node's other types.
pub(crate) fn run_on(cx: &Cx<'_>) -> bool {
    // The Schema-proto family (no `not`, unions, `maxProperties`); other dialects without
    // `not` keep what they do today.
    let k = &cx.rules.keywords;
    if k.contains(Keyword::Not)
        || !k.contains(Keyword::AnyOf)
        || !k.contains(Keyword::MaxProperties)
    {
        return false;
    }
    true
}

/// Its step on one node ([`super::passes`] walks the tree).
pub(crate) fn run(s: &mut Schema, p: &At<'_>, cx: &mut Cx<'_>) {
    let Some(o) = s.as_object_mut() else {
        return;
    };
    let Some(left) = o
        .schema(Keyword::Not)
        .and_then(ruled_out)
        .and_then(|out| remaining(o, &out))
    else {
        return;
    };
    o.remove(Keyword::Not);
    let names: Vec<&str> = left.iter().map(|t| t.as_str()).collect();
    let ty = match left.as_slice() {
        [one] => TypeSet::Single(*one),
        _ => TypeSet::List(left.clone()),
    };
    if o.contains(Keyword::Type) {
        o.insert(Keyword::Type, Value::Type(ty));
    } else {
        o.insert_at(0, Keyword::Type, Value::Type(ty));
    }
    cx.change(
        p,
        RuleId::Not,
        format!("not of types: the other types ({})", names.join(", ")),
    );
}

#[cfg(test)]
mod tests {
    use crate::rules::Rules;
    use schema_core::Schema;

    fn gemini(text: &str) -> serde_json::Value {
        let s = Schema::from_str(text).unwrap();
        crate::sanitize(&s, &Rules::GEMINI, crate::Slot::Schema)
            .schema
            .to_value()
    }

    #[test]
    fn not_of_types_is_the_other_types() {
        let out = gemini(r#"{"not":{"type":["integer","boolean"]}}"#);
        let types: Vec<&str> = out["anyOf"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|b| b["type"].as_str())
            .collect();
        assert_eq!(types, ["object", "array", "number", "string"], "{out}");
        // Integers cannot leave NUMBER: `not integer` keeps every type.
        let out = gemini(r#"{"type":"number","not":{"type":"integer"}}"#);
        assert_eq!(out["type"], "number");
        // A `not` of more than types is left to the description.
        let out = gemini(r#"{"type":"string","not":{"type":"string","minLength":2}}"#);
        assert_eq!(out["type"], "string");
        assert!(out.get("maxLength").is_none());
    }
}
