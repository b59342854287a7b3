//! `dependentRequired` (draft-07 `dependencies` with names) where the dialect has neither but
//! has unions and a NULL type (Gemini's Schema proto): "when `k` is present, the names are
//! too" is a union over `k`'s presence (issue 16, Gemini precision),
//!
//! `{"anyOf": [{"properties": {k: {"type": "null"}}}, {"required": [k, names...]}]}`.
//!
//! The first branch takes every object without `k` (and, since the proto cannot say
//! "absent", one whose `k` is `null`); the second every object with `k` and the names. So no
//! valid object is lost, and an object with `k` but without the names is refused. One
//! dependency per node (several would be a product of unions), not at a tool's root (its
//! parameters stay one object), not beside another union.

use super::Cx;
use super::passes::At;
use crate::RuleId;
use schema_core::{
    Dependency, InstanceType as T, Keyword, KeywordMask, Schema, SchemaObject, TypeSet, Value,
};

/// The one dependency of `o`: its key and the names it requires.
fn one_dependency(o: &SchemaObject) -> Option<(Keyword, String, Vec<String>)> {
    let (kw, k, names) = match (
        o.get(Keyword::DependentRequired),
        o.get(Keyword::Dependencies),
    ) {
        (Some(Value::StringsMap(m)), None) if m.len() == 1 => {
            let (k, names) = m.iter().next()?;
            (Keyword::DependentRequired, k.clone(), names.clone())
        }
        (None, Some(Value::Dependencies(m))) if m.len() == 1 => match m.iter().next()? {
            (k, Dependency::Required(names)) => (Keyword::Dependencies, k.clone(), names.clone()),
            _ => return None,
        },
        _ => return None,
    };
    (!names.is_empty()).then_some((kw, k, names))
}

fn object(o: SchemaObject) -> Schema {
    let mut b = SchemaObject::new();
    b.insert(Keyword::Type, Value::Type(TypeSet::Single(T::Object)));
    for e in o.entries() {
        b.insert_key(e.key.clone(), e.value.clone());
    }
    Schema::Object(b)
}

/// A tree-level pass before the walk.
pub(crate) fn run_on(cx: &Cx<'_>) -> bool {
    let r = cx.rules;
    let k = &r.keywords;
    if k.contains(Keyword::DependentRequired)
        || k.contains(Keyword::Dependencies)
        || !k.contains(Keyword::AnyOf)
        || !k.contains(Keyword::MaxProperties)
        || !r.null_type
    {
        return false;
    }
    // No node holds a dependency: the walk would change nothing.
    cx.tree_may_hold(READ)
}

/// What is rewritten is one dependency (one test for a node without any).
const READ: KeywordMask = KeywordMask::of(&[Keyword::DependentRequired, Keyword::Dependencies]);

/// Its step on one node ([`super::passes`] walks the tree).
pub(crate) fn run(s: &mut Schema, p: &At<'_>, cx: &mut Cx<'_>) {
    if p.is_root() && cx.rules.root_shaped(cx.slot) {
        return;
    }
    let Some(o) = s.as_object_mut() else {
        return;
    };
    if !o.may_contain_any(READ) {
        return;
    }
    let objects_only = o.types().is_none_or(|t| t.as_slice() == [T::Object]);
    if !objects_only || o.contains(Keyword::AnyOf) || o.contains(Keyword::OneOf) {
        return;
    }
    let Some((kw, key, names)) = one_dependency(o) else {
        return;
    };
    o.remove(kw);
    let mut absent = SchemaObject::new();
    let mut null = SchemaObject::new();
    null.insert(Keyword::Type, Value::Type(TypeSet::Single(T::Null)));
    let mut props = schema_core::SchemaMap::default();
    props.insert(key.clone(), Schema::Object(null));
    absent.insert(Keyword::Properties, Value::SchemaMap(props));
    let mut present = SchemaObject::new();
    let mut required = vec![key.clone()];
    required.extend(names.iter().filter(|n| **n != key).cloned());
    present.insert(Keyword::Required, Value::Strings(required));
    o.insert(
        Keyword::AnyOf,
        Value::Schemas(vec![object(absent), object(present)]),
    );
    cx.change(
        p,
        RuleId::DependentSchemas,
        format!(
            "dependentRequired of \"{key}\" is a union: without \"{key}\", or with it and {}",
            names
                .iter()
                .map(|n| format!("\"{n}\""))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    );
}

#[cfg(test)]
mod tests {
    use crate::rules::Rules;
    use schema_core::Schema;

    fn valid(schema: &serde_json::Value, v: &serde_json::Value) -> bool {
        jsonschema::validator_for(schema).unwrap().is_valid(v)
    }

    #[test]
    fn a_dependency_is_a_union_over_the_key_s_presence() {
        let s = Schema::from_str(r#"{"type":"object","properties":{"a":{"type":"string"}},"dependentRequired":{"a":["b"]}}"#).unwrap();
        let out = crate::sanitize(&s, &Rules::GEMINI, crate::Slot::Schema);
        let v = out.schema.to_value();
        assert!(v.get("anyOf").is_some(), "{v}");
        // (`nullable` inside the any-value branches is read as JSON Schema ignores it: only
        // narrower.)
        let plain = v;
        for (x, ok) in [
            (serde_json::json!({}), true),
            (serde_json::json!({"b": 1}), true),
            (serde_json::json!({"a": "x", "b": 1}), true),
            (serde_json::json!({"a": "x"}), false),
        ] {
            assert_eq!(valid(&plain, &x), ok, "{x} under {plain}");
        }
        // Vertex has no NULL type: "absent" is a property that accepts no value, and the
        // union is written before this pass (`dependent_union`).
        let out = crate::sanitize(&s, &Rules::VERTEX, crate::Slot::Schema);
        let v = out.schema.to_value();
        for (x, ok) in [
            (serde_json::json!({}), true),
            (serde_json::json!({"a": "x", "b": 1}), true),
            (serde_json::json!({"a": "x"}), false),
        ] {
            assert_eq!(valid(&v, &x), ok, "{x} under {v}");
        }
    }
}
