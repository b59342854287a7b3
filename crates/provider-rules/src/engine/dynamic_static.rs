//! `$dynamicRef`s whose target the dynamic scope cannot change, written as the `$ref` they
//! then are, before references are inlined (2020-12 §8.2.3.2).
//!
//! A `$dynamicRef` first resolves like a `$ref`. Only where that target declares a
//! `$dynamicAnchor` of the fragment's name ("bookending") does the dynamic scope choose: the
//! outermost resource in it that declares a `$dynamicAnchor` of that name wins. Statically
//! that choice is fixed in two cases:
//! - the reference is not bookended (a JSON-pointer fragment, an `$anchor`, or a target without
//!   the dynamic anchor): it is the `$ref` it spells;
//! - the root resource declares the name: evaluation starts at the root, so the root is the
//!   outermost resource of every dynamic scope, and its anchor wins; or the document declares
//!   the name once only, and the target is that declaration.
//!
//! Elsewhere (several resources declare the name, none of them the root) the reference stays
//! and is described as before. Exact: each rewritten reference names the schema the dynamic
//! resolution would reach.

use super::Cx;
use crate::RuleId;
use schema_core::{
    Dialect, Keyword as K, KeywordMask, RefIndex, Schema, Transform, Value, Visit, pointer,
};
use std::collections::HashMap;

/// Rewrites the `$dynamicRef`s whose target is fixed (see the [module docs](self)).
pub(crate) fn run(schema: &mut Schema, cx: &mut Cx<'_>) {
    // Before 2020-12, `$dynamicRef` is no keyword: it constrains nothing.
    let dynamic = KeywordMask::of(&[K::DynamicRef, K::RecursiveRef]);
    if !cx.tree_may_hold(dynamic)
        || !schema.has_dynamic_refs()
        || Dialect::detect(schema) != Dialect::Draft2020_12
    {
        return;
    }
    let index = RefIndex::new(schema);
    let found = collect(schema);
    let root_base = index.base_at("").to_owned();
    let mut rewrites: HashMap<String, String> = HashMap::new();
    for (at, reference) in &found.refs {
        if let Some(r) = fixed(schema, &index, &found.anchors, &root_base, at, reference) {
            rewrites.insert(at.clone(), r);
        }
    }
    if rewrites.is_empty() {
        return;
    }
    struct Rewrite<'a>(&'a HashMap<String, String>);
    impl Transform for Rewrite<'_> {
        fn pre(&mut self, p: &str, s: &mut Schema) {
            let (Some(r), Some(o)) = (self.0.get(p), s.as_object_mut()) else {
                return;
            };
            if o.remove(K::DynamicRef).is_some() {
                o.insert(K::Ref, Value::String(r.clone()));
            }
        }
    }
    schema.transform(&mut Rewrite(&rewrites));
    let mut sites: Vec<&String> = rewrites.keys().collect();
    sites.sort();
    for at in sites {
        cx.change(
            at,
            RuleId::Ref,
            "$dynamicRef with a target the dynamic scope cannot change: $ref",
        );
    }
}

/// The `$dynamicRef`s (pointer, reference) and the `$dynamicAnchor`s (pointer, name) of a
/// document.
#[derive(Default)]
struct Found {
    refs: Vec<(String, String)>,
    anchors: Vec<(String, String)>,
}

fn collect(schema: &Schema) -> Found {
    struct Collect(Found);
    impl Visit for Collect {
        fn enter(&mut self, p: &str, s: &Schema) -> bool {
            if let Some(o) = s.as_object() {
                // Beside a `$ref`, a second `$ref` could not be written.
                if let (Some(r), false) = (o.string(K::DynamicRef), o.contains(K::Ref)) {
                    self.0.refs.push((p.to_owned(), r.to_owned()));
                }
                if let Some(a) = o.string(K::DynamicAnchor) {
                    self.0.anchors.push((p.to_owned(), a.to_owned()));
                }
            }
            true
        }
    }
    let mut c = Collect(Found::default());
    schema.walk(&mut c);
    c.0
}

/// The `$ref` a `$dynamicRef` at `at` is, where the dynamic scope cannot change its target.
fn fixed(
    root: &Schema,
    index: &RefIndex,
    anchors: &[(String, String)],
    root_base: &str,
    at: &str,
    reference: &str,
) -> Option<String> {
    let base = index.base_at(at);
    let target = index.locate_in(base, reference).ok()?;
    let name = match reference.split_once('#') {
        Some((_, f)) if !f.is_empty() && !f.starts_with('/') => f,
        // No anchor name: never dynamic.
        _ => return Some(reference.to_owned()),
    };
    let declared = |p: &str| {
        pointer::segments(p)
            .and_then(|segs| root.pointer_get(&segs).map(|s| s.into_owned()))
            .and_then(|s| s.as_object()?.string(K::DynamicAnchor).map(str::to_owned))
            .is_some_and(|a| a == name)
    };
    if !declared(&target) {
        return Some(reference.to_owned());
    }
    let named: Vec<&String> = anchors
        .iter()
        .filter(|(_, a)| a == name)
        .map(|(p, _)| p)
        .collect();
    // The root resource's declaration (a unique root base: no nested `$id` repeats it).
    let in_root: Vec<&&String> = named
        .iter()
        .filter(|p| index.base_at(p) == root_base)
        .collect();
    if let [p] = in_root.as_slice() {
        if **p == &target {
            return Some(reference.to_owned());
        }
        // Written so that it resolves from the reference's own base.
        let frag = format!("#{}", pointer::fragment_encode(p));
        return if base == root_base {
            Some(frag)
        } else if !root_base.is_empty() {
            Some(format!("{root_base}{frag}"))
        } else {
            None
        }
        .filter(|r| index.locate_in(base, r).ok().as_deref() == Some(p.as_str()));
    }
    (in_root.is_empty() && named.len() == 1).then(|| reference.to_owned())
}

#[cfg(test)]
mod tests {
    use crate::engine::proto_walk::test_support::accepts_encoded as accepts;
    use serde_json::json;

    #[test]
    fn dynamic_ref_in_one_resource_is_not_any_value() {
        let s = json!({"$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "https://x.test/root", "type": "array", "items": {"$dynamicRef": "#items"},
            "$defs": {"foo": {"$dynamicAnchor": "items", "type": "string"}}});
        assert!(accepts(&s, json!(["a", "b"])));
        assert!(!accepts(&s, json!(["a", 42])));
    }

    #[test]
    fn root_anchor_wins_over_the_static_target() {
        // `list`'s own anchor is typeless; the root's (outermost) says string.
        let s = json!({"$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "https://x.test/root", "$ref": "list",
            "$defs": {"foo": {"$dynamicAnchor": "items", "type": "string"},
                "list": {"$id": "list", "type": "array", "items": {"$dynamicRef": "#items"},
                    "$defs": {"items": {"$dynamicAnchor": "items", "type": "number"}}}}});
        assert!(accepts(&s, json!(["a"])));
        assert!(!accepts(&s, json!([42])));
    }

    #[test]
    fn a_scope_the_root_does_not_fix_is_left() {
        // Two nested resources declare the name, the root none: which one wins depends on
        // the path taken, so nothing is narrowed (both kinds of item still pass).
        let s = json!({"$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "https://x.test/root", "type": "object",
            "properties": {
                "a": {"$id": "a", "$ref": "list",
                    "$defs": {"t": {"$dynamicAnchor": "items", "type": "string"}}},
                "b": {"$id": "b", "$ref": "list",
                    "$defs": {"t": {"$dynamicAnchor": "items", "type": "number"}}}},
            "$defs": {"list": {"$id": "list", "type": "array", "items": {"$dynamicRef": "#items"},
                "$defs": {"items": {"$dynamicAnchor": "items"}}}}});
        assert!(accepts(&s, json!({"a": ["x"], "b": [1]})));
        assert!(accepts(&s, json!({"a": [1], "b": ["x"]})));
    }
}
