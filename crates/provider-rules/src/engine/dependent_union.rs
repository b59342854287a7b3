//! Dependencies (`dependentSchemas`, `dependentRequired`, draft-07 `dependencies`) where the
//! dialect has none but has unions (Gemini's and Vertex's Schema, providers.md §1.3, §2.2):
//! "when `k` is present, the object is also `S`" (or "has the names `n…`") is a union over
//! `k`'s presence:
//!
//! `{"anyOf": [{"properties": {k: ABSENT}}, S]}` (each branch an object; for names, `S` is
//! `{"required": [k, n…]}`).
//!
//! `ABSENT` is `{"type": "null"}` where the dialect has a NULL type (Gemini), else a property
//! that accepts no value ([`not_types::nothing`](super::not_types): Vertex's `Type` has no
//! NULL). The first branch takes every object without `k` (and one whose `k` is `null`, or
//! the one string that stands for no value); the second every object that is `S`, so every
//! valid object with `k`. Sound; an object with `k` that is not `S` is refused (before: `S`'s
//! properties were merged in as optional and described).
//!
//! Several dependencies on one node (up to [`MAX_DEPENDENCIES`]) are the first as a union
//! and the others in both branches, which the walk visits next: a product of unions (four
//! dependencies, sixteen leaves at most). A closed `S` (`additionalProperties: false`)
//! forbids the names the node declares that `S` does not, and `k` itself: those become
//! properties that accept no value in its branch (the node's properties no longer stand
//! beside it where `anyOf` must be alone). Where `anyOf` must stand alone (Vertex), the
//! node's siblings then move into both branches ([`alone_merge`](super::alone_merge)). Not
//! at a tool's root (its parameters stay one object), not beside another union, nor a schema
//! dependency beside `unevaluatedProperties`.

use super::Cx;
use crate::RuleId;
use indexmap::IndexMap;
use schema_core::{
    Dependency, InstanceType as T, Keyword as K, Schema, SchemaMap, SchemaObject, Transform,
    TypeSet, Value,
};

/// The most dependencies one node's union says (2^n leaves).
pub(super) const MAX_DEPENDENCIES: usize = 4;

/// The node step, applied by `proto_walk` (one walk for the Schema-proto passes).
pub(super) struct DependentUnion<'a, 'r> {
    pub(super) cx: &'a mut Cx<'r>,
}
impl Transform for DependentUnion<'_, '_> {
    fn pre(&mut self, p: &str, s: &mut Schema) {
        let r = self.cx.rules;
        if [K::DependentSchemas, K::DependentRequired, K::Dependencies]
            .iter()
            .any(|k| r.keywords.contains(*k))
            || (p.is_empty() && r.root_shaped(self.cx.slot))
        {
            return;
        }
        let Some(o) = s.as_object_mut() else { return };
        if ![K::DependentSchemas, K::DependentRequired, K::Dependencies]
            .iter()
            .any(|k| o.contains(*k))
        {
            return;
        }
        let objects_only = o.types().is_none_or(|t| t.as_slice() == [T::Object]);
        if !objects_only || o.contains(K::AnyOf) || o.contains(K::OneOf) {
            return;
        }
        let Some(mut deps) = dependencies(o) else {
            return;
        };
        let schemas = deps.values().any(|d| matches!(d, Dependency::Schema(_)));
        if schemas && o.contains(K::UnevaluatedProperties) {
            return;
        }
        for k in [K::DependentSchemas, K::DependentRequired, K::Dependencies] {
            o.remove(k);
        }
        let Some((key, first)) = deps.shift_remove_index(0) else {
            return;
        };
        let own = o.properties();
        let declared: Vec<String> = own.map(|m| m.keys().cloned().collect()).unwrap_or_default();
        // The names a branch requires keep the node's schema for them (else the branch's
        // stand-in for a required name would win where the node's siblings move in).
        let own_of = |names: &[String]| -> SchemaMap {
            names
                .iter()
                .filter_map(|n| Some((n.clone(), own?.get(n)?.clone())))
                .collect()
        };
        let mut absent_props = SchemaMap::default();
        absent_props.insert(key.clone(), absent(r.null_type));
        let mut absent = SchemaObject::new();
        absent.insert(K::Properties, Value::SchemaMap(absent_props));
        let (present, what) = match first {
            Dependency::Schema(Schema::Object(dep)) => {
                (closed_to(dep, &key, &declared), "the schema".to_owned())
            }
            // `true` (and what `dependencies` could not read) holds already: kept out above.
            Dependency::Schema(_) => return,
            Dependency::Required(names) => {
                let mut present = SchemaObject::new();
                let mut required = vec![key.clone()];
                required.extend(names.iter().filter(|n| **n != key).cloned());
                let props = own_of(&required);
                present.insert(K::Required, Value::Strings(required));
                if !props.is_empty() {
                    present.insert(K::Properties, Value::SchemaMap(props));
                }
                let list: Vec<String> = names.iter().map(|n| format!("\"{n}\"")).collect();
                (present, format!("with it and {}", list.join(", ")))
            }
        };
        let mut branches = vec![object(absent), object(present)];
        if !deps.is_empty() {
            for b in &mut branches {
                if let Schema::Object(bo) = b {
                    bo.insert(K::Dependencies, Value::Dependencies(deps.clone()));
                }
            }
        }
        o.insert(K::AnyOf, Value::Schemas(branches));
        self.cx.change(
            p,
            RuleId::DependentSchemas,
            format!("dependency of \"{key}\" is a union: without \"{key}\", or {what}"),
        );
    }
}

/// Every dependency of `o` by its key, `None` where one cannot be said as a union: a
/// dependent schema that is `false` (left to [`not_types`](super::not_types)) or that holds a
/// dependency itself, a key named twice, more than [`MAX_DEPENDENCIES`]. A `true` schema and
/// an empty list hold already and are left out.
fn dependencies(o: &SchemaObject) -> Option<IndexMap<String, Dependency>> {
    let mut out = IndexMap::new();
    let mut add = |k: &String, d: Dependency| -> Option<()> {
        match &d {
            Dependency::Schema(Schema::Bool(true)) => return Some(()),
            Dependency::Schema(Schema::Bool(false)) => return None,
            Dependency::Schema(Schema::Object(s))
                if [K::DependentSchemas, K::DependentRequired, K::Dependencies]
                    .iter()
                    .any(|x| s.contains(*x)) =>
            {
                return None;
            }
            Dependency::Required(names) if names.is_empty() => return Some(()),
            _ => {}
        }
        out.insert(k.clone(), d).is_none().then_some(())
    };
    if let Some(m) = o.schema_map(K::DependentSchemas) {
        for (k, s) in m {
            add(k, Dependency::Schema(s.clone()))?;
        }
    } else if o.contains(K::DependentSchemas) {
        return None;
    }
    match o.get(K::DependentRequired) {
        Some(Value::StringsMap(m)) => {
            for (k, names) in m {
                add(k, Dependency::Required(names.clone()))?;
            }
        }
        Some(_) => return None,
        None => {}
    }
    match o.get(K::Dependencies) {
        Some(Value::Dependencies(m)) => {
            for (k, d) in m {
                add(k, d.clone())?;
            }
        }
        Some(_) => return None,
        None => {}
    }
    (!out.is_empty() && out.len() <= MAX_DEPENDENCIES).then_some(out)
}

/// What stands for "`k` is absent": `null` where the dialect has a NULL type, else a property
/// that accepts no value.
fn absent(null_type: bool) -> Schema {
    if null_type {
        let mut null = SchemaObject::new();
        null.insert(K::Type, Value::Type(TypeSet::Single(T::Null)));
        Schema::Object(null)
    } else {
        let mut none = Schema::Bool(false);
        super::not_types::nothing(&mut none);
        none
    }
}

/// The dependent schema `dep` of `key`; where it is closed (`additionalProperties: false`,
/// no `patternProperties`), `key` and the node's `declared` names it does not declare become
/// properties that accept no value (`false`, said the proto's way by the walk next).
fn closed_to(mut dep: SchemaObject, key: &str, declared: &[String]) -> SchemaObject {
    let closed = matches!(
        dep.schema(K::AdditionalProperties),
        Some(Schema::Bool(false))
    ) && !dep.contains(K::PatternProperties);
    if !closed {
        return dep;
    }
    let names: Vec<&str> = std::iter::once(key)
        .chain(declared.iter().map(String::as_str))
        .filter(|n| dep.properties().is_none_or(|p| !p.contains_key(*n)))
        .collect();
    if names.is_empty() {
        return dep;
    }
    if dep.properties().is_none() {
        dep.insert(K::Properties, Value::SchemaMap(SchemaMap::default()));
    }
    if let Some(p) = dep.properties_mut() {
        for n in names {
            p.insert(n.to_owned(), Schema::Bool(false));
        }
    }
    dep
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
    use crate::Rules;
    use crate::engine::proto_walk::test_support::{
        accepts_encoded as accepts, accepts_encoded_for,
    };
    use serde_json::{Value, json};

    fn vertex_accepts(s: &Value, v: Value) -> bool {
        accepts_encoded_for(&Rules::VERTEX, s, v)
    }

    #[test]
    fn a_dependent_schema_holds_when_its_key_is_there() {
        let s = json!({"type": "object", "dependentSchemas": {"bar": {"properties": {
            "foo": {"type": "integer"}, "bar": {"type": "integer"}}}}});
        for ok in [json!({}), json!({"foo": "x"}), json!({"foo": 1, "bar": 2})] {
            assert!(accepts(&s, ok.clone()), "{ok}");
            assert!(vertex_accepts(&s, ok.clone()), "{ok}");
        }
        for bad in [json!({"foo": "quux", "bar": 2}), json!({"bar": "quux"})] {
            assert!(!accepts(&s, bad.clone()), "{bad}");
            assert!(!vertex_accepts(&s, bad.clone()), "{bad}");
        }
    }

    #[test]
    fn several_dependencies_are_a_product_of_unions() {
        let s = json!({"dependencies": {"a": {"minProperties": 3}, "b": ["c"],
            "d": {"required": ["e"]}}});
        for ok in [
            json!({}),
            json!({"b": 1, "c": 2}),
            json!({"a": 1, "b": 2, "c": 3}),
            json!({"d": 1, "e": 2}),
            json!({"x": 1}),
        ] {
            assert!(accepts(&s, ok.clone()), "{ok}");
            assert!(vertex_accepts(&s, ok.clone()), "{ok}");
        }
        for bad in [
            json!({"a": 1, "x": 2}),
            json!({"b": 1}),
            json!({"d": 1}),
            json!({"b": 1, "c": 2, "d": 3}),
        ] {
            assert!(!accepts(&s, bad.clone()), "{bad}");
            assert!(!vertex_accepts(&s, bad.clone()), "{bad}");
        }
    }

    #[test]
    fn vertex_keeps_the_node_s_properties_in_both_branches() {
        let s = json!({"type": "object", "properties": {"foo": {"type": "integer"},
            "bar": {"type": "string"}}, "required": ["foo"], "dependentRequired": {"bar": ["baz"]}});
        assert!(vertex_accepts(&s, json!({"foo": 1})));
        assert!(vertex_accepts(&s, json!({"foo": 1, "bar": "x", "baz": 2})));
        assert!(!vertex_accepts(&s, json!({"foo": "x"})));
        assert!(!vertex_accepts(&s, json!({"bar": "x", "baz": 2})));
        assert!(!vertex_accepts(&s, json!({"foo": 1, "bar": "x"})));
        assert!(!vertex_accepts(&s, json!({"foo": 1, "bar": 2, "baz": 2})));
    }

    #[test]
    fn a_closed_dependent_schema_refuses_the_node_s_other_names() {
        let s = json!({"properties": {"foo": {}},
            "dependencies": {"foo": {"additionalProperties": false, "properties": {"bar": {}}}}});
        assert!(accepts(&s, json!({"bar": 1})) && vertex_accepts(&s, json!({"bar": 1})));
        assert!(!accepts(&s, json!({"foo": 1})) && !vertex_accepts(&s, json!({"foo": 1})));
    }
}
