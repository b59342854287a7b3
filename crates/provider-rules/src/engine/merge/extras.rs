//! The extra members of a merge's two sides (`allOf` merged into its node, `all-of`): a node's
//! `additionalProperties` holds for every name the node does not declare, also those an
//! `allOf` member declares. Merging the member's `properties` into the node declares them
//! there, so the node's schema for extra members is written into each of them (and the
//! member's into the node's names it does not declare): the merge stays exact instead of
//! letting those names take any value. Not where `patternProperties` decides which names are
//! extra, nor for `additionalProperties: false` (see [`extra`]). JSON Schema 2020-12 Core §10.3.2.3 (`additionalProperties` reads the sibling
//! `properties` only); the Schema proto merges `allOf` (`../shared/research/providers.md`).

use super::all_of::intersect;
use crate::engine::Cx;
use schema_core::{Keyword, Schema, SchemaObject};

/// What `o` says of the names it does not declare, where no pattern decides them and it says
/// something.
fn extra(o: &SchemaObject) -> Option<&Schema> {
    if o.contains(Keyword::PatternProperties) {
        return None;
    }
    match o.schema(Keyword::AdditionalProperties) {
        // `false` is left as the merge had it: closed members merged are read as the union of
        // their names, what their authors mean (zod's `.and()`, a closed base with an
        // `allOf` extension), though JSON Schema would take no such object.
        None | Some(Schema::Bool(_)) => None,
        Some(s) => Some(s),
    }
}

/// `s` held to `extra` too.
fn both(s: &mut Schema, extra: &Schema, p: &str, cx: &mut Cx<'_>) {
    if !matches!(s, Schema::Bool(false)) {
        intersect(s.make_object(), extra, p, cx);
    }
}

/// `src` with each property `dst` does not declare held to `dst`'s extra schema; `None`
/// where nothing changes.
pub(super) fn member_side(
    dst: &SchemaObject,
    src: &SchemaObject,
    p: &str,
    cx: &mut Cx<'_>,
) -> Option<SchemaObject> {
    let a = extra(dst)?;
    let own = dst.properties();
    let names: Vec<String> = src
        .properties()?
        .keys()
        .filter(|k| own.is_none_or(|m| !m.contains_key(k.as_str())))
        .cloned()
        .collect();
    if names.is_empty() {
        return None;
    }
    let mut out = src.clone();
    let map = out.properties_mut()?;
    for k in names {
        if let Some(s) = map.get_mut(&k) {
            both(s, a, p, cx);
        }
    }
    Some(out)
}

/// Holds `dst`'s properties that `src` does not declare to `src`'s extra schema.
pub(super) fn node_side(dst: &mut SchemaObject, src: &SchemaObject, p: &str, cx: &mut Cx<'_>) {
    let Some(b) = extra(src).cloned() else { return };
    let theirs: Vec<String> = src
        .properties()
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default();
    let Some(map) = dst.properties_mut() else {
        return;
    };
    for (k, s) in map.iter_mut() {
        if !theirs.contains(k) {
            both(s, &b, p, cx);
        }
    }
}

/// Before the encodings (which run before the merge and would encode a member's `{}` as any
/// value): each `allOf` member's property that the node does not declare becomes `allOf: [it,
/// the node's extra schema]`, what [`member_side`] makes of it in the merge.
pub(crate) fn hold_parts(o: &mut SchemaObject) {
    let Some(a) = extra(o).cloned() else { return };
    let own: Vec<String> = o
        .properties()
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default();
    let Some(parts) = o.schemas_mut(Keyword::AllOf) else {
        return;
    };
    for part in parts {
        let Some(map) = part.as_object_mut().and_then(SchemaObject::properties_mut) else {
            continue;
        };
        for (k, s) in map.iter_mut() {
            if own.contains(k) || matches!(s, Schema::Bool(false)) {
                continue;
            }
            let mut both = SchemaObject::new();
            both.insert(
                Keyword::AllOf,
                schema_core::Value::Schemas(vec![std::mem::take(s), a.clone()]),
            );
            *s = Schema::Object(both);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::proto_walk::test_support::{accepts, accepts_encoded};
    use serde_json::json;

    #[test]
    fn a_member_s_names_are_the_node_s_extra_members() {
        let s = json!({"type": "object", "additionalProperties": {"type": "boolean"},
            "allOf": [{"properties": {"foo": {}}}]});
        assert!(accepts(&s, json!({"foo": true})));
        assert!(!accepts(&s, json!({"foo": 1})));
        assert!(
            !accepts_encoded(&s, json!({"foo": 1})) && accepts_encoded(&s, json!({"foo": true}))
        );
        // And the other way round: the member's extra schema holds for the node's names.
        let s = json!({"type": "object", "properties": {"a": {}},
            "allOf": [{"properties": {"b": {}}, "additionalProperties": {"type": "string"}}]});
        assert!(accepts(&s, json!({"a": "x", "b": 1})));
        assert!(!accepts(&s, json!({"a": 1})));
        // A pattern decides which names are extra: as before.
        let s = json!({"type": "object", "additionalProperties": {"type": "boolean"},
            "patternProperties": {"^f": {}}, "allOf": [{"properties": {"foo": {}}}]});
        assert!(accepts(&s, json!({"foo": 1})));
    }
}
