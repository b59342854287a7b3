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
//!
//! In the Schema-proto family [`dependent_union`](super::dependent_union) says every
//! dependency first; what reaches this pass is a `dependentRequired` it declines (beside a
//! dependent schema it cannot say as a union, such as `false`) and those of a custom profile
//! outside that family (one that keeps `not`, or has `dependentSchemas`).

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
    // No node holds a dependency: the walk would change nothing.
    on_for(cx.rules) && cx.tree_may_hold(READ)
}

/// Whether the profile is one the pass is for (it lacks the dependency keywords, has unions,
/// `maxProperties` and the null type).
pub(crate) fn on_for(r: &crate::Rules) -> bool {
    let k = &r.keywords;
    !(k.contains(Keyword::DependentRequired)
        || k.contains(Keyword::Dependencies)
        || !k.contains(Keyword::AnyOf)
        || !k.contains(Keyword::MaxProperties)
        || !r.null_type)
}

/// What is rewritten is one dependency (one test for a node without any).
pub(crate) const READ: KeywordMask =
    KeywordMask::of(&[Keyword::DependentRequired, Keyword::Dependencies]);

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

    /// `schema` accepts each instance marked `true` and refuses each marked `false`.
    fn holds(schema: &serde_json::Value, cases: &[(serde_json::Value, bool)]) {
        for (x, ok) in cases {
            assert_eq!(valid(schema, x), *ok, "{x} under {schema}");
        }
    }

    /// Instances of "when `a` is there, `b` is too": without `a`, with both, `a` alone.
    fn a_needs_b() -> [(serde_json::Value, bool); 3] {
        [
            (serde_json::json!({}), true),
            (serde_json::json!({"a": "x", "b": 1}), true),
            (serde_json::json!({"a": "x"}), false),
        ]
    }

    /// What still needs this pass after `dependent_union` (which the Schema-proto walk runs
    /// first): a node whose dependencies that walk cannot say as one union (here a dependent
    /// schema that is `false`) keeps its `dependentRequired`, and this pass writes it.
    #[test]
    fn a_dependency_the_proto_walk_declines_is_still_a_union() {
        let s = Schema::from_str(r#"{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}},"dependentSchemas":{"x":false},"dependentRequired":{"a":["b"]}}"#).unwrap();
        let out = crate::sanitize(&s, &Rules::GEMINI, crate::Slot::Schema);
        assert!(
            out.report.changes.iter().any(|c| c
                .message
                .starts_with("dependentRequired of \"a\" is a union")),
            "{:?}",
            out.report.changes
        );
        let v = out.schema.to_value();
        holds(&v, &a_needs_b());
    }

    /// (Here, for Gemini as for Vertex, the union is `dependent_union`'s, written before this
    /// pass: the behaviour this pass had first, which moved there.)
    #[test]
    fn a_dependency_is_a_union_over_the_key_s_presence() {
        let s = Schema::from_str(r#"{"type":"object","properties":{"a":{"type":"string"}},"dependentRequired":{"a":["b"]}}"#).unwrap();
        let out = crate::sanitize(&s, &Rules::GEMINI, crate::Slot::Schema);
        let v = out.schema.to_value();
        assert!(v.get("anyOf").is_some(), "{v}");
        // (`nullable` inside the any-value branches is read as JSON Schema ignores it: only
        // narrower.)
        let plain = v;
        holds(
            &plain,
            &[
                (serde_json::json!({}), true),
                (serde_json::json!({"b": 1}), true),
                (serde_json::json!({"a": "x", "b": 1}), true),
                (serde_json::json!({"a": "x"}), false),
            ],
        );
        // Vertex has no NULL type: "absent" is a property that accepts no value, and the
        // union is written before this pass (`dependent_union`).
        let out = crate::sanitize(&s, &Rules::VERTEX, crate::Slot::Schema);
        let v = out.schema.to_value();
        holds(&v, &a_needs_b());
    }
}
