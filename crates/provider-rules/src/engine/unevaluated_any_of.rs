//! `unevaluatedProperties: false` beside an `anyOf`, for the Schema proto (no
//! `unevaluatedProperties`, `../shared/research/providers.md`, the Schema fields): what is
//! evaluated is the node's names and those of every branch that holds, so closing each branch
//! to its own names would refuse a value two branches evaluate together (unsound).
//!
//! Said exactly instead: the `anyOf` of `n` branches (at most [`MAX_BRANCHES`]) becomes a
//! `oneOf` over the non-empty sets of branches that may hold together, each "these branches
//! hold (merged), the others do not" (`not` of the others). Exactly one set holds for
//! a value, the one that holds, so the `oneOf` is exact and
//! [`unevaluated_branches`](super::unevaluated_branches) closes each set to its names. A
//! `not` the proto cannot say is dropped later (a superset: the set still holds for the value
//! it held for, and its names are still all that value may have).
//!
//! Only where each branch speaks of its members alone (`properties`, `required`, `type:
//! object`, annotations) and two branches that declare one name declare it alike; the node
//! holds no other applicator.

use super::Cx;
use crate::RuleId;
use schema_core::{Keyword as K, KeywordMask, Schema, Transform};
use serde_json::{Map, Value, json};

/// At most this many branches (2ⁿ − 1 sets).
const MAX_BRANCHES: usize = 3;

/// The node keywords beside which the sets say what the `anyOf` said.
const OTHERS: &[K] = &[
    K::OneOf,
    K::AllOf,
    K::If,
    K::Then,
    K::Else,
    K::Not,
    K::PatternProperties,
    K::AdditionalProperties,
    K::DependentSchemas,
    K::Dependencies,
    K::Ref,
    K::DynamicRef,
];

/// A branch's members, when it speaks of them alone.
fn members(b: &Value) -> Option<&Map<String, Value>> {
    let o = b.as_object()?;
    o.iter()
        .all(|(k, v)| match k.as_str() {
            "properties" => v.is_object(),
            "required" => v.is_array(),
            "type" => v == "object",
            "title" | "description" | "$comment" => true,
            _ => false,
        })
        .then_some(o)
}

/// The branches of `set` (a bit per branch) merged; `None` where two declare a name apart.
fn merged(branches: &[&Map<String, Value>], set: usize) -> Option<Value> {
    let mut props = Map::new();
    let mut required: Vec<Value> = Vec::new();
    let mut typed = false;
    for (i, b) in branches.iter().enumerate() {
        if set & (1 << i) == 0 {
            continue;
        }
        typed |= b.contains_key("type");
        if let Some(Value::Object(p)) = b.get("properties") {
            for (name, s) in p {
                match props.get(name) {
                    Some(had) if had != s => return None,
                    _ => {
                        props.insert(name.clone(), s.clone());
                    }
                }
            }
        }
        if let Some(Value::Array(r)) = b.get("required") {
            for n in r {
                if !required.contains(n) {
                    required.push(n.clone());
                }
            }
        }
    }
    let mut out = Map::new();
    if typed {
        out.insert("type".to_owned(), "object".into());
    }
    if !props.is_empty() {
        out.insert("properties".to_owned(), Value::Object(props));
    }
    if !required.is_empty() {
        out.insert("required".to_owned(), Value::Array(required));
    }
    // The others do not hold: one `not` (no applicator that evaluates names).
    let mut others: Vec<Value> = branches
        .iter()
        .enumerate()
        .filter(|(i, _)| set & (1 << i) == 0)
        .map(|(_, b)| Value::Object((*b).clone()))
        .collect();
    match others.len() {
        0 => {}
        1 => {
            out.insert("not".to_owned(), others.remove(0));
        }
        _ => {
            out.insert("not".to_owned(), json!({"anyOf": others}));
        }
    }
    Some(Value::Object(out))
}

/// The node rewritten, when it is one this pass says.
fn rewrite(s: &Schema) -> Option<Schema> {
    let o = s.as_object()?;
    if !matches!(
        o.schema(K::UnevaluatedProperties),
        Some(Schema::Bool(false))
    ) || OTHERS.iter().any(|k| o.contains(*k))
    {
        return None;
    }
    let list = o.schemas(K::AnyOf)?;
    if list.len() < 2 || list.len() > MAX_BRANCHES {
        return None;
    }
    let values: Vec<Value> = list.iter().map(Schema::to_value).collect();
    let branches: Vec<&Map<String, Value>> = values.iter().map(members).collect::<Option<_>>()?;
    let sets: Vec<Value> = (1..1usize << branches.len())
        .map(|set| merged(&branches, set))
        .collect::<Option<_>>()?;
    let mut j = s.to_value();
    let m = j.as_object_mut()?;
    m.remove("anyOf");
    m.insert("oneOf".to_owned(), Value::Array(sets));
    Some(Schema::from_value(&j))
}

/// Rewrites the nodes (see the [module docs](self)), before
/// [`unevaluated_branches`](super::unevaluated_branches).
pub(crate) fn run(schema: &mut Schema, cx: &mut Cx<'_>) {
    if cx.rules.keywords.contains(K::UnevaluatedProperties)
        || !cx.tree_may_hold(KeywordMask::of(&[K::UnevaluatedProperties]))
    {
        return;
    }
    struct Walk<'a, 'r> {
        cx: &'a mut Cx<'r>,
    }
    impl Transform for Walk<'_, '_> {
        fn pre(&mut self, p: &str, s: &mut Schema) {
            if let Some(new) = rewrite(s) {
                *s = new;
                self.cx.change(
                    p,
                    RuleId::UnsupportedKeyword,
                    "unevaluatedProperties beside anyOf: one branch per set of branches that hold",
                );
            }
        }
    }
    schema.transform(&mut Walk { cx });
}

#[cfg(test)]
mod tests {
    use crate::engine::proto_walk::test_support::accepts;
    use serde_json::json;

    #[test]
    fn the_names_of_every_branch_that_holds_are_evaluated() {
        let s = json!({"type": "object", "properties": {"foo": {"type": "string"}},
            "anyOf": [
                {"properties": {"bar": {"const": "bar"}}, "required": ["bar"]},
                {"properties": {"baz": {"const": "baz"}}, "required": ["baz"]}],
            "unevaluatedProperties": false});
        for v in [
            json!({"foo": "x", "bar": "bar"}),
            json!({"bar": "bar", "baz": "baz"}),
            json!({"foo": "x", "bar": "bar", "baz": "baz"}),
        ] {
            assert!(accepts(&s, v.clone()), "{v}");
        }
        assert!(!accepts(
            &s,
            json!({"foo": "x", "bar": "bar", "baz": "not-baz"})
        ));
        assert!(!accepts(&s, json!({"foo": "x"})));
        // A branch that speaks of more than its members: as before.
        let s = json!({"anyOf": [{"minProperties": 1}, {"required": ["a"]}],
            "unevaluatedProperties": false});
        assert!(super::rewrite(&schema_core::Schema::from_value(&s)).is_none());
    }
}
