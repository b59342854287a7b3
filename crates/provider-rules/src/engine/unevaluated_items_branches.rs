//! `unevaluatedItems: false` beside `contains`, a `$ref` or `if`/`then`/`else`, for the Schema proto (no `unevaluatedItems`): what is evaluated is
//! known where the keyword stands or in each branch, and is said there.
//!
//! - `contains` (with `prefixItems` at most): an item past the tuple is evaluated exactly when
//!   it matches `contains`, so the keyword says `items: <contains>`. Exact.
//! - a local `$ref` to a schema that evaluates leading positions only: their count (or the
//!   tuple's, the greater) is `maxItems`. Exact.
//! - `if`/`then`/`else`: `then` (`true` where absent) gets as `maxItems` what the node (its
//!   `prefixItems`, `allOf` members'), `if` and `then` evaluate, `else` (`true` where absent)
//!   what the node and `else` do; the node keeps its own bound (the longest), said where the
//!   branches are merged (a tuple encoded). Exact where they evaluate fixed tuples; a superset
//!   where a nested applicator's longest tuple is counted.
//!
//! Positions are counted as [`unevaluated_items_bound`](super::unevaluated_items_bound) counts
//! them (one home); where a subschema may evaluate any position, the node is left to it.

use super::Cx;
use super::unevaluated_branches::copyable_target;
use super::unevaluated_items_bound::{evaluated_len, tighter};
use crate::RuleId;
use schema_core::{
    Keyword as K, KeywordMask, RefIndex, Schema, SchemaObject, Transform, Value, Visit,
};
use std::collections::BTreeMap;

/// What makes the evaluated positions depend on more than the node's tuple.
const APPLICATORS: &[K] = &[
    K::AllOf,
    K::AnyOf,
    K::OneOf,
    K::If,
    K::Then,
    K::Else,
    K::Ref,
    K::DynamicRef,
    K::RecursiveRef,
    K::Contains,
    K::DependentSchemas,
    K::Dependencies,
];

/// Rewrites the nodes (see the [module docs](self)).
pub(crate) fn run(schema: &mut Schema, cx: &mut Cx<'_>) {
    let k = &cx.rules.keywords;
    if k.contains(K::UnevaluatedItems)
        || !k.contains(K::MaxItems)
        || !cx.tree_may_hold(KeywordMask::of(&[K::UnevaluatedItems]))
    {
        return;
    }
    let index = RefIndex::new(schema);
    struct Collect<'a> {
        root: &'a Schema,
        index: &'a RefIndex,
        out: BTreeMap<String, (SchemaObject, &'static str)>,
    }
    impl Visit for Collect<'_> {
        fn enter(&mut self, p: &str, s: &Schema) -> bool {
            let Some(o) = s.as_object() else { return true };
            if !matches!(o.schema(K::UnevaluatedItems), Some(Schema::Bool(false))) {
                return true;
            }
            match rewrite(o, p, self.root, self.index) {
                Some(new) => {
                    self.out.insert(p.to_owned(), new);
                    false
                }
                None => true,
            }
        }
    }
    let mut c = Collect {
        root: schema,
        index: &index,
        out: BTreeMap::new(),
    };
    schema.walk(&mut c);
    let mut out = c.out;
    if out.is_empty() {
        return;
    }
    let said: Vec<(String, &'static str)> = out.iter().map(|(p, (_, m))| (p.clone(), *m)).collect();
    struct Rewrite<'a>(&'a mut BTreeMap<String, (SchemaObject, &'static str)>);
    impl Transform for Rewrite<'_> {
        fn pre(&mut self, p: &str, s: &mut Schema) {
            if let Some((new, _)) = self.0.remove(p) {
                *s = Schema::Object(new);
            }
        }
    }
    schema.transform(&mut Rewrite(&mut out));
    for (p, m) in said {
        cx.change(&p, RuleId::Tuple, m);
    }
}

/// `o` with `maxItems` at most `n`.
fn bounded(o: &SchemaObject, n: usize) -> SchemaObject {
    let mut new = o.clone();
    if tighter(o, n) {
        new.insert(K::MaxItems, Value::Number((n as u64).into()));
    }
    new
}

/// The branch `s` bounded to what it evaluates with `base` positions, or `None`.
fn close(s: &Schema, base: usize) -> Option<Schema> {
    Some(match s {
        Schema::Bool(false) => Schema::Bool(false),
        Schema::Bool(true) => Schema::Object(bounded(&SchemaObject::new(), base)),
        Schema::Object(b) => Schema::Object(bounded(b, base.max(evaluated_len(b, 1)?))),
    })
}

/// The node `o` (at `p`, with `unevaluatedItems: false`) rewritten, with what the change
/// says, or `None`.
fn rewrite(
    o: &SchemaObject,
    p: &str,
    root: &Schema,
    index: &RefIndex,
) -> Option<(SchemaObject, &'static str)> {
    // A draft-07 tuple or any other position evaluated: other steps say it.
    if o.get(K::Items).is_some() || o.get(K::AdditionalItems).is_some() {
        return None;
    }
    let own = o.schemas(K::PrefixItems).map_or(0, <[Schema]>::len);
    let present: Vec<K> = APPLICATORS
        .iter()
        .copied()
        .filter(|k| o.contains(*k))
        .collect();
    let mut new = o.clone();
    new.remove(K::UnevaluatedItems);
    match present.as_slice() {
        [K::Contains] => {
            let c = o.schema(K::Contains)?.clone();
            new.insert(K::Items, Value::Schema(Box::new(c)));
            return Some((
                new,
                "unevaluatedItems: false beside contains: the other items match contains",
            ));
        }
        [K::Ref] => {
            let (target, _) = copyable_target(root, index, p, o.string(K::Ref)?)?;
            let n = match &target {
                Schema::Bool(_) => 0,
                Schema::Object(t) => evaluated_len(t, 1)?,
            };
            return Some((
                bounded(&new, own.max(n)),
                "unevaluatedItems: false beside a $ref: at most the positions they evaluate",
            ));
        }
        _ => {}
    }
    // `allOf` members evaluate their positions whichever branch holds.
    let mut base = own;
    for m in o.schemas(K::AllOf).into_iter().flatten() {
        if let Schema::Object(mo) = m {
            base = base.max(evaluated_len(mo, 1)?);
        }
    }
    // Kept: the node's own bound (the longest branch) is said too, where branches are merged.
    new.insert(
        K::UnevaluatedItems,
        Value::Schema(Box::new(Schema::Bool(false))),
    );
    let rest: Vec<K> = present.into_iter().filter(|k| *k != K::AllOf).collect();
    match rest.as_slice() {
        [K::If, ..] if rest.iter().all(|k| matches!(k, K::If | K::Then | K::Else)) => {
            let yes = match o.schema(K::If)? {
                Schema::Bool(_) => base,
                Schema::Object(c) => base.max(evaluated_len(c, 1)?),
            };
            for (kw, n) in [(K::Then, yes), (K::Else, base)] {
                let branch = o.schema(kw).cloned().unwrap_or(Schema::Bool(true));
                new.insert(kw, Value::Schema(Box::new(close(&branch, n)?)));
            }
            Some((
                new,
                "unevaluatedItems: false: then and else at most the positions evaluated",
            ))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::proto_walk::test_support::accepts_encoded as accepts;
    use serde_json::json;

    #[test]
    fn beside_contains_the_other_items_match_it() {
        let s = json!({"prefixItems": [true], "contains": {"type": "string"},
            "unevaluatedItems": false});
        assert!(accepts(&s, json!([1, "foo", "bar"])));
        assert!(!accepts(&s, json!([1, 2, "foo"])));
        let s = json!({"contains": {"type": "string"}, "minContains": 0,
            "unevaluatedItems": false});
        assert!(accepts(&s, json!([])) && accepts(&s, json!(["foo"])));
        assert!(!accepts(&s, json!(["foo", 0])));
    }

    #[test]
    fn beside_a_reference_the_target_tuple_counts() {
        let s = json!({"$defs": {"bar": {"prefixItems": [true, {"type": "string"}]}},
            "$ref": "#/$defs/bar", "prefixItems": [{"type": "string"}],
            "unevaluatedItems": false});
        assert!(accepts(&s, json!(["foo", "bar"])));
        assert!(!accepts(&s, json!(["foo", "bar", "baz"])));
    }

    #[test]
    fn conditional_branches_are_bounded_by_what_holds() {
        let s = json!({"if": {"prefixItems": [{"const": "a"}]}, "unevaluatedItems": false});
        assert!(accepts(&s, json!([])) && accepts(&s, json!(["a"])));
        assert!(!accepts(&s, json!(["b"])) && !accepts(&s, json!(["a", "a"])));
    }
}
