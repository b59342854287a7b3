//! The Schema-proto family's tree passes before the walk: `$dynamicRef`s with a fixed target as
//! `$ref`s ([`dynamic_static`]) and `$ref`s to `false` as `allOf: [false]` ([`ref_false`]),
//! `unevaluatedProperties: false` beside `anyOf` as a `oneOf` of the sets of branches that hold
//! ([`unevaluated_any_of`]) and written into `oneOf`/`then`/`else` branches
//! ([`unevaluated_branches`]), `unevaluatedItems: false` beside `contains`, a `$ref` or
//! branches as what each evaluates ([`unevaluated_items_branches`]), whole-tree passes, then
//! in one walk
//! `if`/`then`/`else` as a union ([`conditional_union`]), `contains` as a count
//! ([`contains_bound`]), `false` members of unions ([`false_members`]), `oneOf` exclusivity
//! ([`one_of_exclusive`]), lone `unevaluated*` ([`unevaluated_alone`]), `unevaluatedItems:
//! false` as a length ([`unevaluated_items_bound`]), the names a closed object forbids
//! ([`closed_names`]), one dependent schema as a union ([`dependent_union`]), `not` of an object's members
//! ([`not_members`]), then `not` and the nodes that accept nothing ([`not_types`]).
//! A step's rewrite puts its `not`s in the node's children, which the walk visits after it.

use super::passes::{self, At, NodeStep, ReadStep};
use super::unchanged::Leaves;
use super::{
    Cx, closed_names, conditional_union, contains_bound, dependent_union, false_members,
    not_members, not_types, one_of_exclusive, unevaluated_alone, unevaluated_items_bound,
};
use schema_core::{Keyword as K, KeywordMask, Schema, Transform};

/// Runs the steps (only for the Schema-proto family: no `not`, unions, `maxProperties`).
pub(crate) fn run(schema: &mut Schema, cx: &mut Cx<'_>) {
    if !not_types::proto_family(cx.rules) {
        return;
    }
    super::dynamic_static::run(schema, cx);
    super::ref_false::run(schema, cx);
    super::unevaluated_any_of::run(schema, cx);
    super::unevaluated_branches::run(schema, cx);
    super::unevaluated_items_branches::run(schema, cx);
    let (steps, n) = steps(cx);
    passes::run_each(schema, cx, &steps[..n]);
}

/// The walk's steps, in their order: each step, the keyword whose absence from the profile
/// turns it on (none: always on), the keywords without which it leaves an object node as it
/// is (the walk skips it on a node that holds none: most nodes hold none of any), and, where
/// it has one, its test that it leaves a node that holds them as it is (the proof that a
/// schema needs no change, [`super::unchanged`], asks it).
/// A step added here or changed to act on other keywords says so in its third column.
const STEPS: [(Option<K>, NodeStep, KeywordMask, Option<Leaves>); 10] = [
    (Some(K::If), conditionals, KeywordMask::of(&[K::If]), None),
    (
        Some(K::Contains),
        contains,
        KeywordMask::of(&[K::Contains]),
        None,
    ),
    (
        None,
        false_members,
        KeywordMask::of(&[K::AnyOf, K::OneOf]),
        Some(false_members::leaves),
    ),
    (
        Some(K::OneOf),
        exclusive,
        KeywordMask::of(&[K::OneOf]),
        None,
    ),
    (
        Some(K::UnevaluatedProperties),
        unevaluated_alone,
        KeywordMask::of(&[K::UnevaluatedProperties, K::UnevaluatedItems]),
        None,
    ),
    (
        None,
        items_bound,
        KeywordMask::of(&[K::UnevaluatedItems]),
        None,
    ),
    (
        None,
        closed_names,
        KeywordMask::of(&[K::AdditionalProperties]),
        Some(super::unchanged::closed_names_leaves),
    ),
    (
        None,
        dependent_union,
        KeywordMask::of(&[K::DependentSchemas, K::Dependencies, K::DependentRequired]),
        None,
    ),
    (None, not_members, KeywordMask::of(&[K::Not]), None),
    (
        None,
        not_types,
        not_types::TYPES_READ,
        Some(not_types::leaves),
    ),
];

/// Whether a step of [`STEPS`] is on for `rules`.
fn on(off_with: Option<K>, rules: &crate::Rules) -> bool {
    off_with.is_none_or(|k| !rules.keywords.contains(k))
}

/// The steps of [`STEPS`] that are on for `cx`'s profile (the first `n`).
fn steps(cx: &Cx<'_>) -> ([ReadStep; STEPS.len()], usize) {
    let mut on_ = [(idle as NodeStep, KeywordMask::NONE); STEPS.len()];
    let mut n = 0;
    for (off_with, step, reads, _) in STEPS {
        if !on(off_with, cx.rules) {
            continue;
        }
        on_[n] = (step, reads);
        n += 1;
    }
    (on_, n)
}

/// One node step as the proof asks it: what it reads, its test ([`STEPS`]).
pub(crate) type NodeAsk = (KeywordMask, Option<Leaves>);

/// What the walk of [`run`] reads for `rules`, for the proof that a schema needs no change:
/// `None` where it does not run; else the keywords of the whole tree its passes before the
/// walk read (a tree that holds none is left as it is by them), and its walk's steps that
/// are on, each as the keywords it reads and its test.
pub(crate) fn reads(rules: &crate::Rules) -> Option<(KeywordMask, Vec<NodeAsk>)> {
    if !not_types::proto_family(rules) {
        return None;
    }
    let k = &rules.keywords;
    // `dynamic_static`, `ref_false`, `unevaluated_any_of`, `unevaluated_branches`,
    // `unevaluated_items_branches`: each returns where the tree holds none of its keywords.
    let mut tree = KeywordMask::of(&[K::DynamicRef, K::RecursiveRef, K::Ref]);
    if !k.contains(K::UnevaluatedProperties) {
        tree = tree.union(KeywordMask::of(&[K::UnevaluatedProperties]));
    }
    if !k.contains(K::UnevaluatedItems) && k.contains(K::MaxItems) {
        tree = tree.union(KeywordMask::of(&[K::UnevaluatedItems]));
    }
    let steps = STEPS
        .iter()
        .filter(|(off_with, ..)| on(*off_with, rules))
        .map(|(_, _, reads, leaves)| (*reads, *leaves))
        .collect();
    Some((tree, steps))
}

fn idle(_: &mut Schema, _: &At<'_>, _: &mut Cx<'_>) {}

fn conditionals(s: &mut Schema, at: &At<'_>, cx: &mut Cx<'_>) {
    conditional_union::Conditionals { cx }.pre(at, s);
}

fn contains(s: &mut Schema, at: &At<'_>, cx: &mut Cx<'_>) {
    contains_bound::Contains { cx }.pre(at, s);
}

fn false_members(s: &mut Schema, at: &At<'_>, cx: &mut Cx<'_>) {
    false_members::FalseMembers { cx }.pre(at, s);
}

fn exclusive(s: &mut Schema, at: &At<'_>, cx: &mut Cx<'_>) {
    one_of_exclusive::Exclusive { cx }.pre(at, s);
}

fn unevaluated_alone(s: &mut Schema, at: &At<'_>, cx: &mut Cx<'_>) {
    unevaluated_alone::Alone { cx }.pre(at, s);
}

fn items_bound(s: &mut Schema, at: &At<'_>, cx: &mut Cx<'_>) {
    unevaluated_items_bound::ItemsBound { cx }.pre(at, s);
}

fn closed_names(s: &mut Schema, at: &At<'_>, cx: &mut Cx<'_>) {
    closed_names::ClosedNames { cx }.pre(at, s);
}

fn dependent_union(s: &mut Schema, at: &At<'_>, cx: &mut Cx<'_>) {
    dependent_union::DependentUnion { cx }.pre(at, s);
}

fn not_members(s: &mut Schema, at: &At<'_>, cx: &mut Cx<'_>) {
    not_members::Members { cx }.pre(at, s);
}

fn not_types(s: &mut Schema, at: &At<'_>, cx: &mut Cx<'_>) {
    not_types::Types { cx }.pre(at, s);
}

/// What the Schema-proto rewrites' tests share.
#[cfg(test)]
pub(crate) mod test_support {
    use crate::{Rules, SanitizeOptions, Slot, sanitize, sanitize_with};
    use schema_core::Schema;
    use serde_json::Value;
    use std::borrow::Borrow;

    /// Every object node of `schemas`, each as it stands on its own, in the walk's order.
    pub(crate) fn object_nodes(schemas: impl IntoIterator<Item = Schema>) -> Vec<Schema> {
        struct Nodes(Vec<Schema>);
        impl schema_core::Transform for Nodes {
            fn pre(&mut self, _: &str, s: &mut Schema) {
                if s.as_object().is_some() {
                    self.0.push(s.clone());
                }
            }
        }
        let mut nodes = Nodes(Vec::new());
        for mut s in schemas {
            s.transform(&mut nodes);
        }
        nodes.0
    }

    /// Every schema of the test-suite corpus (each of its drafts) and of the MCP corpus, and
    /// a few rich in what the Schema-proto steps read.
    pub(crate) fn sample_texts() -> Vec<String> {
        let mut texts: Vec<String> = [
            r##"{"if":{"required":["a"]},"then":{"maxLength":2},"else":false,"contains":{"type":"integer"},"minContains":2,"type":["array","object"],"anyOf":[false,{"type":"string"}],"oneOf":[{"type":"string"},{"minLength":1},false],"unevaluatedProperties":false,"unevaluatedItems":false,"prefixItems":[{}],"additionalProperties":false,"properties":{"a":false,"b":{}},"dependentSchemas":{"a":{"properties":{"c":{}}}},"not":{"type":"string"},"enum":[]}"##,
            r#"{"type":"object","properties":{"a":{}},"additionalProperties":false,"allOf":[{"properties":{"b":{}}}],"dependencies":{"a":{"properties":{"d":{}}}}}"#,
            r#"{"allOf":[false],"oneOf":[true,{}],"not":{"enum":[1]}}"#,
        ]
        .iter()
        .map(|t| (*t).to_owned())
        .collect();
        let corpus = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/corpus");
        let files = |dir: &str| {
            let mut f: Vec<_> = std::fs::read_dir(format!("{corpus}/{dir}"))
                .into_iter()
                .flatten()
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "json"))
                .collect();
            f.sort();
            f
        };
        let read = |f: &std::path::Path| {
            std::fs::read(f)
                .ok()
                .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
        };
        for f in files("jsts/draft2020-12")
            .iter()
            .chain(&files("jsts/draft7"))
        {
            for case in read(f)
                .as_ref()
                .and_then(|d| d.as_array())
                .into_iter()
                .flatten()
            {
                texts.extend(case.get("schema").map(|s| s.to_string()));
            }
        }
        for f in files("mcp") {
            for t in read(&f)
                .iter()
                .flat_map(|d| d["tools"].as_array())
                .flatten()
            {
                texts.extend(t.get("inputSchema").map(|s| s.to_string()));
            }
        }
        texts
    }

    /// Whether what sanitizing `schema` for Gemini makes takes `v` (a validator's answer).
    pub(crate) fn accepts(schema: impl Borrow<Value>, v: Value) -> bool {
        let out = sanitize(
            &Schema::from_value(schema.borrow()),
            &Rules::GEMINI,
            Slot::Schema,
        )
        .schema
        .to_value();
        jsonschema::validator_for(&out).is_ok_and(|x| x.is_valid(&v))
    }

    /// Whether what sanitizing `schema` for Gemini with encodings makes takes `v`, encoded.
    pub(crate) fn accepts_encoded(schema: impl Borrow<Value>, v: Value) -> bool {
        accepts_encoded_for(&Rules::GEMINI, schema, v)
    }

    /// Whether what sanitizing `schema` for `rules` with encodings makes takes `v`, encoded;
    /// what it makes passes the profile's `check`.
    pub(crate) fn accepts_encoded_for(rules: &Rules, schema: impl Borrow<Value>, v: Value) -> bool {
        let out = sanitize_with(
            &Schema::from_value(schema.borrow()),
            rules,
            Slot::Schema,
            &SanitizeOptions::ENCODE,
        );
        let sent = out.decoder.encode_value(&v);
        let schema = out.schema.to_value();
        assert!(
            crate::check(&schema, rules, Slot::Schema).is_empty(),
            "{schema}"
        );
        jsonschema::validator_for(&schema).is_ok_and(|x| x.is_valid(&sent))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{PROFILES, Slot};
    use schema_core::{Key, SchemaObject};

    /// The samples, parsed.
    fn samples() -> Vec<Schema> {
        test_support::sample_texts()
            .iter()
            .filter_map(|t| Schema::from_str(t).ok())
            .collect()
    }

    /// The profiles whose walk this is.
    fn proto_profiles() -> impl Iterator<Item = &'static crate::Rules> {
        PROFILES
            .iter()
            .copied()
            .filter(|r| not_types::proto_family(r))
    }

    /// Each step leaves every object node that holds none of the keywords it says it reads
    /// as it is, and every boolean (the walk skips it there): each object node of the
    /// samples, with those keywords removed, at the root and below it, for every profile of
    /// the family.
    #[test]
    fn a_step_skipped_for_what_it_reads_would_change_nothing() {
        let nodes = test_support::object_nodes(samples());
        let mut checked = 0;
        for rules in proto_profiles() {
            for (_, step, reads, _) in STEPS {
                for node in &nodes {
                    let mut fresh = SchemaObject::new();
                    for e in node.as_object().map(|o| o.entries()).unwrap_or(&[]) {
                        let read = match e.key {
                            Key::Known(k) => KeywordMask::of(&[k]).intersects(reads),
                            Key::Other(_) => false,
                        };
                        if !read {
                            fresh.insert_key(e.key.clone(), e.value.clone());
                        }
                    }
                    assert!(!fresh.may_contain_any(reads));
                    let fresh = Schema::Object(fresh);
                    for below in [false, true] {
                        let mut s = fresh.clone();
                        let mut cx = Cx::new(rules, Slot::Parameters);
                        let root = At::root();
                        let child =
                            At::child(&root, schema_core::Location::Name(K::Properties, "x"));
                        let at = if below { &child } else { &root };
                        step(&mut s, at, &mut cx);
                        assert_eq!(s, fresh, "{}: {}", rules.name, fresh.to_json_string());
                        assert_eq!(cx.change_count(), 0, "{}", fresh.to_json_string());
                        checked += 1;
                    }
                }
            }
        }
        // A boolean subschema holds no keyword: every step leaves it as it is.
        for rules in proto_profiles() {
            for (_, step, ..) in STEPS {
                for b in [true, false] {
                    let (root, mut s) = (At::root(), Schema::Bool(b));
                    let child = At::child(&root, schema_core::Location::Keyword(K::Not));
                    for at in [&root, &child] {
                        let mut cx = Cx::new(rules, Slot::Schema);
                        step(&mut s, at, &mut cx);
                        assert_eq!(s, Schema::Bool(b));
                        assert_eq!(cx.change_count(), 0);
                    }
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    /// Where a step's test (the fourth column) says it leaves a node that holds what it reads
    /// as it is, the step run there changes nothing and reports nothing: every object node
    /// of the samples, every profile of the family, at the root and below it.
    #[test]
    fn a_step_that_says_it_leaves_a_node_changes_nothing() {
        let nodes = test_support::object_nodes(samples());
        let mut proven = 0;
        for rules in proto_profiles() {
            for (_, step, reads, leaves) in STEPS {
                let Some(leaves) = leaves else { continue };
                for node in &nodes {
                    let Some(o) = node.as_object() else { continue };
                    if !o.may_contain_any(reads) {
                        continue;
                    }
                    for below in [false, true] {
                        let n = super::super::unchanged::Node {
                            rules,
                            slot: Slot::Parameters,
                            root: !below,
                        };
                        if !leaves(o, &n) {
                            continue;
                        }
                        let mut s = node.clone();
                        let mut cx = Cx::new(rules, Slot::Parameters);
                        let root = At::root();
                        let child =
                            At::child(&root, schema_core::Location::Name(K::Properties, "x"));
                        step(&mut s, if below { &child } else { &root }, &mut cx);
                        assert_eq!(&s, node, "{}: {}", rules.name, node.to_json_string());
                        assert_eq!(cx.change_count(), 0, "{}", node.to_json_string());
                        proven += 1;
                    }
                }
            }
        }
        assert!(proven > 10_000, "{proven}");
    }

    /// Every step on every node, booleans included, pre-order (the walk without skips).
    fn every_step(s: &mut Schema, at: &At<'_>, cx: &mut Cx<'_>, steps: &[ReadStep], depth: usize) {
        for (step, _) in steps {
            step(s, at, cx);
        }
        if depth < schema_core::MAX_WALK_DEPTH {
            s.for_each_child_mut(|loc, child| {
                every_step(child, &At::child(at, loc), cx, steps, depth + 1);
            });
        }
    }

    /// The walk with its skips makes the tree and the report the walk without them makes,
    /// on every sample, for every profile of the family, in both slots.
    #[test]
    fn the_walk_with_skips_is_the_walk_without_them() {
        let mut changed = 0;
        for rules in proto_profiles() {
            for slot in [Slot::Parameters, Slot::Schema] {
                for s in samples() {
                    let mut cx = Cx::new(rules, slot);
                    let (steps, n) = steps(&cx);
                    let (mut a, mut b) = (s.clone(), s.clone());
                    passes::run_each(&mut a, &mut cx, &steps[..n]);
                    let mut full = Cx::new(rules, slot);
                    every_step(&mut b, &At::root(), &mut full, &steps[..n], 0);
                    assert_eq!(a, b, "{}", s.to_json_string());
                    let (ra, rb) = (cx.into_report(), full.into_report());
                    assert_eq!(ra, rb, "{}", s.to_json_string());
                    changed += usize::from(a != s);
                }
            }
        }
        assert!(changed > 50, "{changed}");
    }
}
