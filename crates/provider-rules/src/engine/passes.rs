//! Tree passes that run one after another, walked together: one walk of the tree runs each
//! pass's step on a node, in the passes' order, before the node's children. The report is
//! what running them one after another writes: each pass's changes are kept apart during the
//! walk and follow each other in the passes' order.
//!
//! Walking them together gives what running them one after another gives only where no
//! pass's step on a node reads what an earlier pass of the group changes below that node
//! (each group in [`super::trees`] says why that holds). It saves a walk of the tree per
//! pass; and the walk builds a node's JSON pointer only when a step reads it ([`At`]): these
//! passes change almost nothing, so they read almost none (`cargo bench -p provider-rules
//! --bench per_schema`, callgrind).

use super::Cx;
use super::rule::TreeGate;
use crate::report::Change;
use schema_core::{KeywordMask, Location, MAX_WALK_DEPTH, Schema};
use std::cell::OnceCell;
use std::ops::Deref;

/// One tree pass's step on one node (before its children): the node, where it is, the context.
pub(crate) type NodeStep = fn(&mut Schema, &At<'_>, &mut Cx<'_>);

/// Where a node is: its JSON pointer, built the first time it is read (it derefs to the
/// pointer's text), from the locations of the node and its ancestors.
pub(crate) struct At<'a> {
    parent: Option<&'a At<'a>>,
    loc: Option<Location<'a>>,
    text: OnceCell<String>,
}

impl<'a> At<'a> {
    /// The root.
    pub(crate) fn root() -> At<'static> {
        At {
            parent: None,
            loc: None,
            text: OnceCell::new(),
        }
    }

    /// The child of `parent` at `loc`.
    pub(crate) fn child(parent: &'a At<'a>, loc: Location<'a>) -> At<'a> {
        At {
            parent: Some(parent),
            loc: Some(loc),
            text: OnceCell::new(),
        }
    }

    /// The node at `pointer` (a walk that builds its own pointers: [`super::alone`]).
    pub(crate) fn of(pointer: &str) -> At<'static> {
        At {
            parent: None,
            loc: None,
            text: OnceCell::from(pointer.to_owned()),
        }
    }

    /// Whether this is the root (its pointer is `""`), without building the pointer.
    pub(crate) fn is_root(&self) -> bool {
        self.loc.is_none() && self.text.get().is_none_or(String::is_empty)
    }

    /// Appends the pointer to `out` (an ancestor's pointer already built is reused).
    fn write(&self, out: &mut String) {
        if let Some(text) = self.text.get() {
            out.push_str(text);
            return;
        }
        if let Some(parent) = self.parent {
            parent.write(out);
        }
        if let Some(loc) = &self.loc {
            loc.push_to(out);
        }
    }
}

impl At<'_> {
    /// At least the length of the pointer's text (escapes counted at their longest): the
    /// text is built in one allocation.
    fn bound(&self) -> usize {
        if let Some(text) = self.text.get() {
            return text.len();
        }
        let own = match self.loc {
            None => 0,
            Some(Location::Keyword(k)) => 1 + k.as_str().len(),
            Some(Location::Index(k, _)) => 2 + k.as_str().len() + 20,
            Some(Location::Name(k, name)) => 2 + k.as_str().len() + 2 * name.len(),
        };
        own + self.parent.map_or(0, At::bound)
    }
}

impl std::fmt::Display for At<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self)
    }
}

impl Deref for At<'_> {
    type Target = str;

    fn deref(&self) -> &str {
        self.text.get_or_init(|| {
            let mut out = String::with_capacity(self.bound());
            self.write(&mut out);
            out
        })
    }
}

/// The most passes one walk runs.
const MAX_PASSES: usize = 4;

/// Whether a pass is on: as given, or read from the context ([`TreeGate`]).
pub(crate) trait On {
    /// Whether it is on for `cx`.
    fn on(&self, cx: &Cx<'_>) -> bool;
}

impl On for bool {
    fn on(&self, _: &Cx<'_>) -> bool {
        *self
    }
}

impl On for TreeGate {
    fn on(&self, cx: &Cx<'_>) -> bool {
        self(cx)
    }
}

/// Runs the `passes` that are on (`(on, step)`, each `on` read once, before its walk), each a
/// pre-order tree pass, in one walk of `schema`. More than [`MAX_PASSES`] passes are walked
/// in groups of that many.
pub(crate) fn run<G: On>(schema: &mut Schema, cx: &mut Cx<'_>, passes: &[(G, NodeStep)]) {
    let mut on = [None; MAX_PASSES];
    let mut n = 0;
    for (gate, step) in passes {
        if !gate.on(cx) {
            continue;
        }
        if n == MAX_PASSES {
            walk_group(schema, cx, &on[..n]);
            n = 0;
        }
        on[n] = Some(*step);
        n += 1;
    }
    if n > 0 {
        walk_group(schema, cx, &on[..n]);
    }
}

/// One walk for `steps`; each step's changes in the report after the earlier steps'.
fn walk_group(schema: &mut Schema, cx: &mut Cx<'_>, steps: &[Option<NodeStep>]) {
    let mut on: [NodeStep; MAX_PASSES] = [idle; MAX_PASSES];
    let mut n = 0;
    for (slot, step) in on.iter_mut().zip(steps.iter().flatten()) {
        *slot = *step;
        n += 1;
    }
    let steps = &on[..n];
    let mut walk = Walk {
        steps,
        changes: Default::default(),
        cx,
        held: KeywordMask::NONE,
    };
    walk.node(schema, &At::root(), 0);
    let Walk {
        changes, cx, held, ..
    } = walk;
    for mut c in changes.into_iter().take(steps.len()) {
        cx.append_changes(&mut c);
    }
    cx.tree_holds(held);
}

/// A step that does nothing (the unused places of a group).
fn idle(_: &mut Schema, _: &At<'_>, _: &mut Cx<'_>) {}

/// Several passes in one walk, each pass's changes in its own list.
struct Walk<'a, 'r, 's> {
    steps: &'s [NodeStep],
    changes: [Vec<Change>; MAX_PASSES],
    cx: &'a mut Cx<'r>,
    /// The keywords the nodes walked hold, as the steps left them ([`Cx::tree_holds`]).
    held: KeywordMask,
}

impl Walk<'_, '_, '_> {
    fn node(&mut self, s: &mut Schema, at: &At<'_>, depth: usize) {
        if let [step] = self.steps {
            // One pass: its changes go straight into the report.
            step(s, at, self.cx);
        } else {
            for (step, changes) in self.steps.iter().zip(self.changes.iter_mut()) {
                // What the step wrote goes to its pass's list (the steps write changes and
                // read none).
                let before = self.cx.change_count();
                step(s, at, self.cx);
                self.cx.move_changes_since(before, changes);
            }
        }
        // A step changes its node and what is below it, which the walk then visits: each
        // node's keywords are read once its steps are done.
        if let Schema::Object(o) = s {
            self.held = self.held.union(o.keyword_mask());
        }
        // As deep as `Schema::transform` goes; what lies deeper is not known.
        if depth < MAX_WALK_DEPTH {
            s.for_each_child_mut(|loc, child| {
                self.node(child, &At::child(at, loc), depth + 1);
            });
        } else {
            self.held = KeywordMask::ALL;
        }
    }
}

/// A step of [`run_each`] and the keywords it reads: it leaves a node that is not an object,
/// or an object that holds none of them, as it is, and the walk skips it there
/// ([`KeywordMask::ALL`]: it runs on every object).
pub(crate) type ReadStep = (NodeStep, KeywordMask);

/// Runs `steps` in one pre-order walk of `schema`, all of them on a node before its children,
/// in their order (a step sees the node as the earlier ones left it), their changes straight
/// into the report in the order the walk makes them: what [`Schema::transform`] with those
/// steps in one `pre` does, but a step is skipped on a node that is not an object or holds
/// none of what it reads, and a node's pointer is built only where a step reads it ([`At`]). Afterwards
/// the context knows which keywords the tree holds ([`Cx::tree_holds`]).
pub(crate) fn run_each(schema: &mut Schema, cx: &mut Cx<'_>, steps: &[ReadStep]) {
    let any = steps
        .iter()
        .fold(KeywordMask::NONE, |m, (_, reads)| m.union(*reads));
    // No node holds what any step reads: no step would run.
    if !cx.tree_may_hold(any) {
        return;
    }
    let mut walk = Each {
        steps,
        any,
        cx,
        held: KeywordMask::NONE,
    };
    walk.node(schema, &At::root(), 0);
    let held = walk.held;
    cx.tree_holds(held);
}

/// The walk of [`run_each`].
struct Each<'a, 'r, 's> {
    steps: &'s [ReadStep],
    /// What any of the steps reads: a node that holds none of it is only walked through.
    any: KeywordMask,
    cx: &'a mut Cx<'r>,
    /// The keywords the nodes walked hold, as the steps left them ([`Cx::tree_holds`]).
    held: KeywordMask,
}

impl Each<'_, '_, '_> {
    fn node(&mut self, s: &mut Schema, at: &At<'_>, depth: usize) {
        let holds = |s: &Schema, reads: KeywordMask| match s {
            Schema::Object(o) => o.may_contain_any(reads),
            Schema::Bool(_) => false,
        };
        if holds(s, self.any) {
            for (step, reads) in self.steps {
                if holds(s, *reads) {
                    step(s, at, self.cx);
                }
            }
        }
        if let Schema::Object(o) = s {
            self.held = self.held.union(o.keyword_mask());
        }
        if depth < MAX_WALK_DEPTH {
            s.for_each_child_mut(|loc, child| {
                self.node(child, &At::child(at, loc), depth + 1);
            });
        } else {
            self.held = KeywordMask::ALL;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// After a walk the context knows which keywords the tree holds, below the root too, as
    /// the steps left it; a change recorded since, or a tree deeper than the walk goes, makes
    /// it say "maybe" again.
    #[test]
    fn the_walk_says_which_keywords_the_tree_may_hold() {
        use schema_core::Keyword as K;
        fn idle_step(_: &mut Schema, _: &At<'_>, _: &mut Cx<'_>) {}
        let refs = KeywordMask::of(&[K::Ref]);
        let deps = KeywordMask::of(&[K::DependentRequired]);
        let text = r##"{"type":"object","properties":{"a":{"items":{"$ref":"#/$defs/x"}}}}"##;
        let mut s = Schema::from_str(text).unwrap();
        let mut cx = Cx::new(&crate::Rules::OPENAI, crate::Slot::Schema);
        assert!(cx.tree_may_hold(deps), "nothing walked yet");
        run(&mut s, &mut cx, &[(true, idle_step as NodeStep)]);
        assert!(cx.tree_may_hold(refs));
        assert!(!cx.tree_may_hold(deps));
        cx.change("", crate::RuleId::TypeCase, "a change");
        assert!(cx.tree_may_hold(deps), "a change since the walk");
        // What a step writes is read once it is done.
        fn add_dependency(s: &mut Schema, at: &At<'_>, _: &mut Cx<'_>) {
            if at.is_root() {
                s.make_object().insert(
                    K::DependentRequired,
                    schema_core::Value::StringsMap(Default::default()),
                );
            }
        }
        let mut cx = Cx::new(&crate::Rules::OPENAI, crate::Slot::Schema);
        run(&mut s, &mut cx, &[(true, add_dependency as NodeStep)]);
        assert!(cx.tree_may_hold(deps));
        // Deeper than the walk goes: not known.
        let mut nested = Schema::Bool(true);
        for _ in 0..MAX_WALK_DEPTH + 1 {
            let mut o = schema_core::SchemaObject::new();
            o.insert(K::Not, schema_core::Value::Schema(Box::new(nested)));
            nested = Schema::Object(o);
        }
        let mut cx = Cx::new(&crate::Rules::OPENAI, crate::Slot::Schema);
        run(&mut nested, &mut cx, &[(true, idle_step as NodeStep)]);
        assert!(cx.tree_may_hold(refs), "a tree deeper than the walk");
    }

    /// The pointer a step reads is the one `Schema::transform` gives, escapes included.
    #[test]
    fn the_lazy_pointer_is_the_walk_s_pointer() {
        fn seen(s: &mut Schema, at: &At<'_>, cx: &mut Cx<'_>) {
            assert_eq!(at.is_root(), at.is_empty());
            if s.as_object()
                .is_some_and(|o| o.contains(schema_core::Keyword::Title))
            {
                cx.change(at, crate::RuleId::TypeCase, "seen");
            }
        }
        let text = r#"{"title":"r","properties":{"a/b~c":{"title":"x","items":{"title":"y"}},"n":{"anyOf":[{},{"title":"z"}]}}}"#;
        let mut s = Schema::from_str(text).unwrap();
        let mut cx = Cx::new(&crate::Rules::OPENAI, crate::Slot::Schema);
        run(
            &mut s,
            &mut cx,
            &[(true, seen), (false, seen), (true, seen)],
        );
        let got: Vec<String> = cx
            .into_report()
            .changes
            .into_iter()
            .map(|c| c.pointer)
            .collect();
        let once = [
            "",
            "/properties/a~1b~0c",
            "/properties/a~1b~0c/items",
            "/properties/n/anyOf/1",
        ];
        let twice: Vec<&str> = once.iter().chain(once.iter()).copied().collect();
        assert_eq!(got, twice);
    }
}
