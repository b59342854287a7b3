//! One dependent schema (`dependentSchemas`, draft-07 `dependencies` with a schema) where the
//! dialect has neither but has unions and a NULL type (Gemini's Schema proto): "when `k` is
//! present, the object is also `S`" is a union over `k`'s presence, as for one
//! `dependentRequired` ([`presence`](super::presence)):
//!
//! `{"anyOf": [{"properties": {k: {"type": "null"}}}, S]}` (each branch an object).
//!
//! The first branch takes every object without `k` (and, since the proto cannot say
//! "absent", one whose `k` is `null`); the second every object that is `S`, so every valid
//! object with `k`. Sound; an object with `k` that is not `S` is refused (before: `S`'s
//! properties were merged in as optional and described). One dependency per node, not at a
//! tool's root (its parameters stay one object), not beside another union or
//! `unevaluatedProperties`.

use super::Cx;
use crate::RuleId;
use schema_core::{
    Dependency, InstanceType as T, Keyword as K, Schema, SchemaMap, SchemaObject, Transform,
    TypeSet, Value,
};

/// The node step, applied by `proto_walk` (one walk for the Schema-proto passes).
pub(super) struct DependentUnion<'a, 'r> {
    pub(super) cx: &'a mut Cx<'r>,
}
impl Transform for DependentUnion<'_, '_> {
    fn pre(&mut self, p: &str, s: &mut Schema) {
        let r = self.cx.rules;
        if r.keywords.contains(K::DependentSchemas)
            || r.keywords.contains(K::Dependencies)
            || !r.null_type
            || (p.is_empty() && r.root_shaped(self.cx.slot))
        {
            return;
        }
        let Some(o) = s.as_object_mut() else { return };
        let objects_only = o.types().is_none_or(|t| t.as_slice() == [T::Object]);
        if !objects_only
            || [
                K::AnyOf,
                K::OneOf,
                K::UnevaluatedProperties,
                K::DependentRequired,
            ]
            .iter()
            .any(|k| o.contains(*k))
        {
            return;
        }
        let Some((kw, key, dep)) = one_dependency(o) else {
            return;
        };
        o.remove(kw);
        let mut null = SchemaObject::new();
        null.insert(K::Type, Value::Type(TypeSet::Single(T::Null)));
        let mut props = SchemaMap::new();
        props.insert(key.clone(), Schema::Object(null));
        let mut absent = SchemaObject::new();
        absent.insert(K::Properties, Value::SchemaMap(props));
        o.insert(K::AnyOf, Value::Schemas(vec![object(absent), object(dep)]));
        self.cx.change(
            p,
            RuleId::DependentSchemas,
            format!("dependent schema of \"{key}\" is a union: without \"{key}\", or the schema"),
        );
    }
}

/// The one dependent schema of `o` (an object schema): its keyword, key and schema.
fn one_dependency(o: &SchemaObject) -> Option<(K, String, SchemaObject)> {
    match (o.schema_map(K::DependentSchemas), o.get(K::Dependencies)) {
        (Some(m), None) if m.len() == 1 => {
            let (k, s) = m.iter().next()?;
            Some((K::DependentSchemas, k.clone(), s.as_object()?.clone()))
        }
        (None, Some(Value::Dependencies(m))) if m.len() == 1 => match m.iter().next()? {
            (k, Dependency::Schema(Schema::Object(s))) => {
                Some((K::Dependencies, k.clone(), s.clone()))
            }
            _ => None,
        },
        _ => None,
    }
}

/// `o` typed `object` (its own keywords after).
fn object(o: SchemaObject) -> Schema {
    let mut b = SchemaObject::new();
    b.insert(K::Type, Value::Type(TypeSet::Single(T::Object)));
    for e in o.entries() {
        if e.key != schema_core::Key::Known(K::Type) {
            b.insert_key(e.key.clone(), e.value.clone());
        }
    }
    Schema::Object(b)
}

#[cfg(test)]
mod tests {
    use crate::engine::proto_walk::test_support::accepts_encoded as accepts;
    use serde_json::json;

    #[test]
    fn a_dependent_schema_holds_when_its_key_is_there() {
        let s = json!({"type": "object", "dependentSchemas": {"bar": {"properties": {
            "foo": {"type": "integer"}, "bar": {"type": "integer"}}}}});
        for ok in [json!({}), json!({"foo": "x"}), json!({"foo": 1, "bar": 2})] {
            assert!(accepts(&s, ok.clone()), "{ok}");
        }
        assert!(!accepts(&s, json!({"foo": "quux", "bar": 2})));
        assert!(!accepts(&s, json!({"bar": "quux"})));
    }
}
