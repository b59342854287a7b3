//! Names a closed object forbids, said as properties that accept no value, for the Schema
//! proto (no `additionalProperties`: a closed object is only bounded by `maxProperties`).
//!
//! `additionalProperties: false` (without `patternProperties`) forbids every name its own
//! `properties` do not declare, also those its subschemas name (`additionalProperties` does
//! not look into applicators or dependent schemas): `{"properties": {"a": {}},
//! "dependentSchemas": {"a": {"properties": {"b": {}}}}, "additionalProperties": false}`
//! takes no `b`. Each such name (named by a subschema's `properties` or `required`, or a
//! dependent schema's key) becomes a property that accepts no value
//! ([`not_types::nothing`](super::not_types)). Exact: the name was forbidden already.
//! Only on a node that is an object by its own keywords (typed `object`, or with
//! `properties`), so no type is inferred anew.

use super::Cx;
use crate::RuleId;
use schema_core::{Keyword as K, KeywordMask, Schema, SchemaObject, Transform};
use std::collections::BTreeSet;

/// Deeper than this, subschemas are not searched for names.
const MAX_DEPTH: usize = 16;

/// The node step, applied by `proto_walk` (one walk for the Schema-proto passes).
pub(super) struct ClosedNames<'a, 'r> {
    pub(super) cx: &'a mut Cx<'r>,
}
impl Transform for ClosedNames<'_, '_> {
    fn pre(&mut self, p: &str, s: &mut Schema) {
        if self.cx.rules.keywords.contains(K::AdditionalProperties) {
            return;
        }
        let Some(o) = s.as_object() else { return };
        let object = o.properties().is_some()
            || o.types()
                .is_some_and(|t| t.as_slice().contains(&schema_core::InstanceType::Object));
        if !object
            || !matches!(o.schema(K::AdditionalProperties), Some(Schema::Bool(false)))
            || o.contains(K::PatternProperties)
            || o.contains(K::Ref)
        {
            return;
        }
        // Most closed objects have no subschema that names anything, and declare what they
        // require: no name to collect.
        const NAMING: KeywordMask = KeywordMask::of(&[
            K::AllOf,
            K::AnyOf,
            K::OneOf,
            K::If,
            K::Then,
            K::Else,
            K::Not,
            K::DependentSchemas,
        ]);
        let declared = |n: &String| o.properties().is_some_and(|m| m.contains_key(n));
        if !o.may_contain_any(NAMING) && o.strings(K::Required).into_iter().flatten().all(declared)
        {
            return;
        }
        let mut names = BTreeSet::new();
        sub_names(o, 0, &mut names, true);
        if let Some(own) = o.properties() {
            names.retain(|n| !own.contains_key(n));
        }
        if names.is_empty() {
            return;
        }
        let mut none = Schema::Bool(false);
        super::not_types::nothing(&mut none);
        let none = none.to_value();
        let mut j = s.to_value();
        let Some(m) = j.as_object_mut() else { return };
        let props = m
            .entry("properties")
            .or_insert_with(|| serde_json::json!({}));
        let Some(props) = props.as_object_mut() else {
            return;
        };
        for n in &names {
            props.insert(n.clone(), none.clone());
        }
        *s = Schema::from_value(&j);
        let list: Vec<&str> = names.iter().map(String::as_str).collect();
        self.cx.change(
            p,
            RuleId::AdditionalProperties,
            format!(
                "names a closed object forbids, as properties that accept no value: {}",
                list.join(", ")
            ),
        );
    }
}

/// The names `o`'s in-place subschemas (and, but for the node itself, its own `properties`
/// and `required`) speak of.
fn sub_names(o: &SchemaObject, depth: usize, out: &mut BTreeSet<String>, top: bool) {
    if depth > MAX_DEPTH {
        return;
    }
    if !top && let Some(m) = o.properties() {
        out.extend(m.keys().cloned());
    }
    out.extend(o.strings(K::Required).into_iter().flatten().cloned());
    if let Some(m) = o.schema_map(K::DependentSchemas) {
        out.extend(m.keys().cloned());
    }
    let mut visit = |s: &Schema| {
        if let Schema::Object(sub) = s {
            sub_names(sub, depth + 1, out, false);
        }
    };
    for kw in [K::AllOf, K::AnyOf, K::OneOf] {
        for s in o.schemas(kw).into_iter().flatten() {
            visit(s);
        }
    }
    for kw in [K::If, K::Then, K::Else, K::Not] {
        if let Some(s) = o.schema(kw) {
            visit(s);
        }
    }
    for s in o
        .schema_map(K::DependentSchemas)
        .into_iter()
        .flat_map(|m| m.values())
    {
        visit(s);
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::proto_walk::test_support::accepts_encoded as accepts;
    use serde_json::json;

    #[test]
    fn names_a_dependent_schema_declares_stay_forbidden_when_closed() {
        let s = json!({"properties": {"foo2": {}}, "additionalProperties": false,
            "dependentSchemas": {"foo": {}, "foo2": {"properties": {"bar": {}}}}});
        assert!(accepts(&s, json!({"foo2": "x"})));
        assert!(!accepts(&s, json!({"foo": ""})));
        assert!(!accepts(&s, json!({"foo2": "", "bar": ""})));
    }

    #[test]
    fn names_in_all_of_stay_forbidden_when_closed() {
        let s = json!({"properties": {"bar": {}}, "additionalProperties": false,
            "allOf": [{"properties": {"foo": {}}}]});
        assert!(accepts(&s, json!({"bar": 1})));
        assert!(!accepts(&s, json!({"foo": 1, "bar": 1})));
    }
}
