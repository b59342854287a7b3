//! Each tree pass's answer to "can you change this tree?" ([`TREES`]): the keywords of the
//! whole tree it reads (a tree that holds none is left as it is), the node steps of its walk
//! with their answers, or that it leaves every tree the proof is asked about as it is. A test
//! holds that every tree pass of [`ORDER`](crate::engine::ORDER) is here.

use super::Node;
use crate::engine::rule::Tree;
use crate::engine::{presence, proto_walk, trees};
use crate::rules::Refs;
use crate::{Rules, Slot};
use schema_core::{Key, Keyword as K, KeywordMask, Schema, SchemaObject};

/// What the passes ask: the keywords of the tree they read and their node steps (each the
/// keywords it reads and its test; `None`: it may change a node that holds them).
pub(super) struct Asks {
    pub(super) tree: KeywordMask,
    pub(super) nodes: Vec<proto_walk::NodeAsk>,
}

impl Asks {
    fn tree(&mut self, keywords: &[K]) {
        self.tree = self.tree.union(KeywordMask::of(keywords));
    }
}

/// A tree pass's answer for a profile in a slot, written into the asks.
type Answer = fn(&Rules, Slot, &mut Asks);

/// Every tree pass of the order with its answer.
pub(super) static TREES: &[(&Tree, Answer)] = &[
    // Its gate: the parser reported a value of the wrong JSON type (the proof is asked only
    // where it reported none).
    (&trees::TYPE_NAMES, none),
    (&trees::BARE_PROPERTIES, bare_properties),
    // The same gate as the type names'.
    (&trees::MAPS_AND_FLAGS, none),
    (&trees::CLOSED, closed),
    (&trees::PROTO, proto),
    (&trees::PRESENCE, presence),
    (&trees::REFS, refs),
    // Only where the encodings are asked for (the proof is not).
    (&trees::ENCODE, none),
    (&trees::DECLARE_2020, declare_2020),
    // It records only that the result is not strict-compatible, which leaves the report
    // empty where nothing else changed.
    (&trees::STRICT_LIMITS, none),
    // On the result, only where a change was recorded or the parser cut a subtree (the proof
    // is asked only where it cut none).
    (&trees::DEPTH, none),
];

/// The asks of every tree pass of the order for `rules` in `slot` (`None`: no answer for one).
pub(super) fn asks(rules: &Rules, slot: Slot) -> Option<Asks> {
    let mut asks = Asks {
        tree: KeywordMask::NONE,
        nodes: Vec::new(),
    };
    for run in crate::engine::ORDER {
        let crate::engine::Run::Tree(t) = run else {
            continue;
        };
        let (_, answer) = TREES.iter().find(|(tree, _)| std::ptr::eq(*tree, *t))?;
        answer(rules, slot, &mut asks);
    }
    Some(asks)
}

fn none(_: &Rules, _: Slot, _: &mut Asks) {}

/// `root::wrap_bare_properties`: a root whose first member is a keyword is no bare map.
fn bare_properties(rules: &Rules, slot: Slot, a: &mut Asks) {
    if rules.wrap_bare_properties && slot == Slot::Parameters {
        a.nodes.push((KeywordMask::ALL, Some(no_bare_map)));
    }
}

fn no_bare_map(o: &SchemaObject, at: &Node<'_>) -> bool {
    !at.root
        || o.entries()
            .first()
            .is_some_and(|e| matches!(e.key, Key::Known(_)))
}

/// `closed::closed_unevaluated`: on where the profile lacks `unevaluatedProperties` but has
/// `maxProperties`; a node without `unevaluated*` or `propertyNames`, whose `items` is not
/// `false`, is left as it is.
fn closed(rules: &Rules, _: Slot, a: &mut Asks) {
    let k = &rules.keywords;
    if !k.contains(K::UnevaluatedProperties) && k.contains(K::MaxProperties) {
        a.nodes.push((
            KeywordMask::of(&[
                K::UnevaluatedProperties,
                K::UnevaluatedItems,
                K::PropertyNames,
                K::Items,
            ]),
            Some(closed_leaves),
        ));
    }
}

fn closed_leaves(o: &SchemaObject, _: &Node<'_>) -> bool {
    !o.contains(K::UnevaluatedProperties)
        && !o.contains(K::UnevaluatedItems)
        && !o.contains(K::PropertyNames)
        && !matches!(o.schema(K::Items), Some(Schema::Bool(false)))
}

/// `closed_names::ClosedNames` (the Schema-proto walk's step): the profile takes
/// `additionalProperties`, or the node is not an object closed by it without
/// `patternProperties` and `$ref`.
pub(crate) fn closed_names_leaves(o: &SchemaObject, at: &Node<'_>) -> bool {
    if at.rules.keywords.contains(K::AdditionalProperties) {
        return true;
    }
    let object = o.properties().is_some()
        || o.types()
            .is_some_and(|t| t.as_slice().contains(&schema_core::InstanceType::Object));
    !object
        || !matches!(o.schema(K::AdditionalProperties), Some(Schema::Bool(false)))
        || o.contains(K::PatternProperties)
        || o.contains(K::Ref)
}

/// `proto_walk::run`: its passes before its walk read the tree, its walk's steps each node.
fn proto(rules: &Rules, _: Slot, a: &mut Asks) {
    if let Some((tree, steps)) = proto_walk::reads(rules) {
        a.tree = a.tree.union(tree);
        a.nodes.extend(steps);
    }
}

/// `presence::run`: where on, a tree without a dependency is left as it is.
fn presence(rules: &Rules, _: Slot, a: &mut Asks) {
    if presence::on_for(rules) {
        a.tree = a.tree.union(presence::READ);
    }
}

/// `refs::run`: where the profile keeps references as they are, it changes only a draft-07
/// `$ref`'s siblings that 2020-12 would apply, and only where the profile is 2020-12
/// (`refs::siblings_ignored`); every other profile's rewrites a tree that holds a reference
/// (and returns where it holds none).
fn refs(rules: &Rules, _: Slot, a: &mut Asks) {
    match rules.refs {
        Refs::Keep if rules.draft_2020 => a
            .nodes
            .push((KeywordMask::of(&[K::Ref]), Some(ref_siblings_ignored))),
        Refs::Keep => {}
        _ => a.tree(&[K::Ref, K::DynamicRef, K::RecursiveRef]),
    }
}

fn ref_siblings_ignored(o: &SchemaObject, _: &Node<'_>) -> bool {
    crate::engine::refs::siblings_ignored(o)
}

/// `draft::declare_2020`: where on, it declares 2020-12 only for a `$ref` with siblings
/// 2020-12 applies (`refs::siblings_ignored`).
fn declare_2020(rules: &Rules, _: Slot, a: &mut Asks) {
    if rules.draft_2020 && rules.keywords.contains(K::SchemaUri) {
        a.nodes
            .push((KeywordMask::of(&[K::Ref]), Some(ref_siblings_ignored)));
    }
}
