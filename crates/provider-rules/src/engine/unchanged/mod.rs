//! The proof, before the engine runs, that no step of a profile can change a schema: one
//! read-only walk of the parsed tree that asks, on each node, every step of the profile's plan
//! and every tree pass of [`ORDER`](super::ORDER) "can you change this?" ([`steps`],
//! [`trees`]). Where each says it cannot, the engine would change nothing and report nothing,
//! so its walks, its report and its decoder are skipped ([`crate::sanitize_into`]: the input
//! bytes are the result; [`crate::sanitize_slice_with`], [`crate::sanitize_parsed_with`] and
//! [`crate::sanitize_with`]: the tree is the result, with what the engine would say of it,
//! [`unchanged`]); where one cannot say so, the engine runs as it would have.
//!
//! The proof is exact because each answer is the step's own: a step that declares what it
//! reads ([`super::Rule::reads`]) is answered by that declaration (a node that holds none of it
//! is left as it is), and a step that reads more is answered by its own "usual case" test,
//! the one it returns on before it changes anything ([`steps::STEPS`]). Every step of every
//! rule and every tree pass of the order has its answer (a test holds it), and on every node
//! of the corpora, for every profile, a step whose answer is "cannot change" is run and
//! changes nothing (`tests.rs`).
//!
//! A strict profile's steps and passes may also note, changing nothing, that the result is not
//! strict-compatible ([`super::Cx::not_strict`]): the report stays empty, but its
//! [`strict_compatible`](crate::Report::strict_compatible) is `false`. Each such note has its
//! answer too ([`notes::NOTES`]: asked of each node the walk passes, of the whole tree, or
//! made only where the proof gives up), so the proof's result says the same as the engine's.
//!
//! The answers hold on the tree as the parser made it, for the tree the engine would walk:
//! what the parser kept whole (no subtree cut at its depth limit), without a value of the
//! wrong JSON type (the passes that repair those are then skipped by the engine too), with no
//! encodings asked for. Where every step leaves what it sees as it is, each step sees that
//! tree (by induction over the order), so asking each answer of the parsed tree is asking it of
//! the tree the step would be given.

mod notes;
mod steps;
mod trees;

pub(crate) use trees::closed_names_leaves;

use super::rule::Plan;
use crate::{Rules, Slot};
use schema_core::{KeywordMask, MAX_WALK_DEPTH, Schema, SchemaObject};

/// Where a node is, as a step's answer reads it.
pub(crate) struct Node<'a> {
    /// The profile.
    pub(crate) rules: &'a Rules,
    /// The slot.
    pub(crate) slot: Slot,
    /// Whether the node is the root.
    pub(crate) root: bool,
}

/// A step's answer on an object node that holds what the step reads: `true` where the step
/// leaves the node as it is and records nothing that stays in the report.
pub(crate) type Leaves = fn(&SchemaObject, &Node<'_>) -> bool;

/// A profile's steps and tree passes as the proof asks them, for one slot (each answer found
/// once: per process for a built-in profile, [`super::plans`]). The same answer asked twice
/// (a rule's PRE and POST steps) is asked once.
#[derive(Clone)]
pub(crate) struct Proof {
    /// The keywords on which a step may change a node (it answers by its declaration only).
    never: KeywordMask,
    /// The answers of the steps that read every keyword: asked on every object.
    always: Vec<Leaves>,
    /// The answers of the steps that read some, with what each reads: asked where an object
    /// holds one.
    some: Vec<(KeywordMask, Leaves)>,
    /// What the tree passes read of the whole tree: a tree that holds none of it is left as
    /// it is by them ([`trees::TREES`]).
    tree: KeywordMask,
    /// Whether every tree pass has its answer.
    holds: bool,
    /// Whether the profile closes every object ([`marks_not_strict`]): the answers of the steps
    /// that read every keyword are then asked first, the last steps' first.
    closing: bool,
    /// The notes made on an object node the engine leaves as it is ([`notes::NOTES`]; none
    /// where the profile makes none, [`marks_not_strict`]).
    node_notes: Vec<fn(&SchemaObject, &Rules) -> bool>,
    /// The notes made on a whole tree the engine leaves as it is.
    tree_notes: Vec<fn(&Schema, &Rules) -> bool>,
}

impl Proof {
    /// The proof for `rules` in `slot`.
    pub(crate) fn new(rules: &Rules, slot: Slot) -> Proof {
        let mut proof = Proof {
            never: KeywordMask::NONE,
            always: Vec::new(),
            some: Vec::new(),
            tree: KeywordMask::ALL,
            holds: false,
            closing: false,
            node_notes: Vec::new(),
            tree_notes: Vec::new(),
        };
        let Some(t) = trees::asks(rules, slot) else {
            return proof;
        };
        proof.tree = t.tree;
        proof.holds = true;
        let plan = Plan::new(rules, slot);
        // The engine's own hint folding (no rule) writes only what other steps' losses
        // left: a tree no step changes leaves none.
        let steps = plan
            .pre_rules()
            .chain(plan.post_rules())
            .filter_map(|(rule, reads)| Some((reads, steps::answer(rule?))));
        for (reads, leaves) in t.nodes.into_iter().chain(steps) {
            proof.ask(reads, leaves);
        }
        if marks_not_strict(rules) {
            // The last steps' answers first, before those of the steps that read some keywords:
            // where a profile closes every object, a schema written for another provider most
            // often fails the closing steps' answers (`additionalProperties`, a strict
            // profile's `required`), and the proof gives up at the first answer that fails.
            proof.always.reverse();
            proof.closing = true;
            for note in notes::NOTES {
                match note.made {
                    notes::Made::Node(f) => proof.node_notes.push(f),
                    notes::Made::Tree(f) => proof.tree_notes.push(f),
                    notes::Made::Never(_) => {}
                }
            }
        }
        proof
    }

    /// Adds a step that reads `reads`, with its answer.
    fn ask(&mut self, reads: KeywordMask, leaves: Option<Leaves>) {
        let same = |f: &Leaves, g: &Leaves| std::ptr::fn_addr_eq(*f, *g);
        match leaves {
            None if reads == KeywordMask::ALL => self.holds = false,
            None => self.never = self.never.union(reads),
            Some(f) if reads == KeywordMask::ALL => {
                if !self.always.iter().any(|g| same(&f, g)) {
                    self.always.push(f);
                }
            }
            Some(f) => {
                if !self.some.iter().any(|(r, g)| *r == reads && same(&f, g)) {
                    self.some.push((reads, f));
                }
            }
        }
    }

    /// Whether every step leaves the object `o` (which holds `held`) as it is.
    fn leaves(&self, o: &SchemaObject, held: KeywordMask, at: &Node<'_>) -> bool {
        let some = || {
            self.some
                .iter()
                .all(|(reads, f)| !held.intersects(*reads) || f(o, at))
        };
        let always = || self.always.iter().all(|f| f(o, at));
        if held.intersects(self.never) {
            return false;
        }
        if self.closing {
            return always() && some();
        }
        some() && always()
    }
}

/// Whether a step of `rules` may note that a node is not strict-compatible
/// ([`super::Cx::not_strict`]) where it changes nothing: only a strict profile's steps do, and
/// the one that closes every object ([`crate::AdditionalProperties::ForceFalse`]). Elsewhere a
/// schema no step changes is strict-compatible, and no loss is recorded in it.
pub(crate) fn marks_not_strict(rules: &Rules) -> bool {
    rules.strict || rules.additional_properties == crate::AdditionalProperties::ForceFalse
}

/// Whether the engine, run on `schema` as the parser made it (kept whole, no value of the
/// wrong JSON type: see the module's doc) for `rules` in `slot` without encodings, would
/// change nothing and report nothing. `false` says only that the proof does not hold.
pub(crate) fn cannot_change(schema: &Schema, rules: &Rules, slot: Slot) -> bool {
    prove(schema, rules, slot, false).is_some()
}

/// What the engine says of a schema it leaves as it is, beside its empty report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Unchanged {
    /// The report's [`strict_compatible`](crate::Report::strict_compatible): `false` where a
    /// step or pass notes that the schema cannot be strict ([`notes::NOTES`]).
    pub(crate) strict_compatible: bool,
}

/// [`cannot_change`], with what the engine would say of the schema where it holds (`None`:
/// the proof does not hold).
pub(crate) fn unchanged(schema: &Schema, rules: &Rules, slot: Slot) -> Option<Unchanged> {
    prove(schema, rules, slot, true)
}

/// The proof's walk of `schema`; with `notes`, it also answers the notes.
fn prove(schema: &Schema, rules: &Rules, slot: Slot, notes: bool) -> Option<Unchanged> {
    prove_with(
        &super::plans::proof(rules, slot),
        schema,
        rules,
        slot,
        notes,
    )
}

/// [`prove`] with `proof` (the one made for `rules` in `slot`).
fn prove_with(
    proof: &Proof,
    schema: &Schema,
    rules: &Rules,
    slot: Slot,
    notes: bool,
) -> Option<Unchanged> {
    if !proof.holds {
        return None;
    }
    let mut walk = Walk {
        proof,
        rules,
        slot,
        held: KeywordMask::NONE,
        notes: notes && !proof.node_notes.is_empty(),
        strict_compatible: true,
    };
    if !walk.node(schema, true, 0) || walk.held.intersects(proof.tree) {
        return None;
    }
    let strict_compatible =
        walk.strict_compatible && !(notes && proof.tree_notes.iter().any(|f| f(schema, rules)));
    Some(Unchanged { strict_compatible })
}

/// The proof's walk: the nodes of the engine's walk, in its order, as deep.
struct Walk<'a> {
    proof: &'a Proof,
    rules: &'a Rules,
    slot: Slot,
    /// The keywords the nodes walked hold.
    held: KeywordMask,
    /// Whether the nodes' notes are asked (while none was found).
    notes: bool,
    /// Whether no node walked has a note.
    strict_compatible: bool,
}

impl Walk<'_> {
    /// Whether no step changes `s` or what is below it.
    fn node(&mut self, s: &Schema, root: bool, depth: usize) -> bool {
        let o = match s {
            Schema::Object(o) => o,
            // A boolean subschema below the root is walked by no step; a boolean root is
            // shaped.
            Schema::Bool(_) => return !root,
        };
        let held = o.keyword_mask();
        self.held = self.held.union(held);
        let at = Node {
            rules: self.rules,
            slot: self.slot,
            root,
        };
        // As the engine skips a step ([`super::skips`]): one that reads every keyword runs
        // on every object, an empty one too.
        let leaves = self.proof.leaves(o, held, &at);
        // Deeper than the engine's walks go, what a step would do is not known here.
        if !leaves || depth >= MAX_WALK_DEPTH {
            return false;
        }
        // One note is enough: the others are not asked.
        if self.notes && self.proof.node_notes.iter().any(|f| f(o, self.rules)) {
            self.notes = false;
            self.strict_compatible = false;
        }
        let mut all = true;
        o.for_each_child(|_, child| {
            all = all && self.node(child, false, depth + 1);
        });
        all
    }
}

#[cfg(test)]
mod strict_tests;
#[cfg(test)]
mod tests;
