//! `$ref`s to a `false` schema, for the Schema proto (no `false`): the node accepts no value
//! whatever stands beside the reference, so the reference is written as an `allOf` member
//! `false` before references are inlined, which the `not` step then says as a node that
//! accepts none (inlined, the `false` would become a `not` of everything, which the proto can
//! only describe). Exact.

use super::Cx;
use crate::RuleId;
use schema_core::{Keyword as K, KeywordMask, RefIndex, Schema, Transform, Value, Visit, pointer};
use std::collections::BTreeSet;

/// Rewrites the `$ref`s whose target is `false` (see the [module docs](self)).
pub(crate) fn run(schema: &mut Schema, cx: &mut Cx<'_>) {
    if !cx.tree_may_hold(KeywordMask::of(&[K::Ref])) || !schema.has_refs() {
        return;
    }
    let index = RefIndex::new(schema);
    struct Collect<'a> {
        root: &'a Schema,
        index: &'a RefIndex,
        at: BTreeSet<String>,
    }
    impl Visit for Collect<'_> {
        fn enter(&mut self, p: &str, s: &Schema) -> bool {
            let Some(r) = s.as_object().and_then(|o| o.string(K::Ref)) else {
                return true;
            };
            let target = self
                .index
                .locate_in(self.index.base_at(p), r)
                .ok()
                .and_then(|t| pointer::segments(&t))
                .and_then(|segs| self.root.pointer_get(&segs).map(|s| s.into_owned()));
            if matches!(target, Some(Schema::Bool(false))) {
                self.at.insert(p.to_owned());
            }
            true
        }
    }
    let mut c = Collect {
        root: schema,
        index: &index,
        at: BTreeSet::new(),
    };
    schema.walk(&mut c);
    let at = c.at;
    if at.is_empty() {
        return;
    }
    struct Rewrite<'a>(&'a BTreeSet<String>);
    impl Transform for Rewrite<'_> {
        fn pre(&mut self, p: &str, s: &mut Schema) {
            if !self.0.contains(p) {
                return;
            }
            let Some(o) = s.as_object_mut() else { return };
            o.remove(K::Ref);
            match o.schemas_mut(K::AllOf) {
                Some(all) => all.push(Schema::Bool(false)),
                None => {
                    o.insert(K::AllOf, Value::Schemas(vec![Schema::Bool(false)]));
                }
            }
        }
    }
    schema.transform(&mut Rewrite(&at));
    for p in &at {
        cx.change(
            p,
            RuleId::BooleanSchema,
            "$ref to a false schema: a node that accepts none",
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::proto_walk::test_support::accepts_encoded as accepts;
    use serde_json::json;

    #[test]
    fn ref_to_false_accepts_nothing() {
        let s = json!({"$defs": {"no": false}, "$ref": "#/$defs/no"});
        assert!(!accepts(&s, json!("foo")) && !accepts(&s, json!(1)));
        let s = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/no"},
            "b": {"type": "string"}}, "$defs": {"no": false}});
        assert!(accepts(&s, json!({"b": "x"})) && !accepts(&s, json!({"a": 1})));
    }
}
