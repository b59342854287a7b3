//! Tree passes that run one after another, walked together: one walk of the tree runs each
//! pass's step on a node, in the passes' order, before the node's children. The report is
//! what running them one after another writes: each pass's changes are kept apart during the
//! walk and follow each other in the passes' order.
//!
//! Walking them together gives what running them one after another gives only where no
//! pass's step on a node reads what an earlier pass of the group changes below that node
//! (each group in [`super::run_with`] says why that holds). It saves a walk of the tree, with
//! its pointers, per pass (`cargo bench -p provider-rules --bench per_schema`, callgrind).

use super::Cx;
use crate::report::Change;
use schema_core::{Schema, Transform};

/// One tree pass's step on one node (before its children).
pub(crate) type NodeStep = fn(&mut Schema, &str, &mut Cx<'_>);

/// The most passes one walk runs.
const MAX_PASSES: usize = 4;

/// Runs the `passes` that are on (`(on, step)`), each a pre-order tree pass, in one walk of
/// `schema`. More than [`MAX_PASSES`] passes are walked in groups of that many.
pub(crate) fn run(schema: &mut Schema, cx: &mut Cx<'_>, passes: &[(bool, NodeStep)]) {
    let on: Vec<NodeStep> = passes.iter().filter(|(on, _)| *on).map(|p| p.1).collect();
    for group in on.chunks(MAX_PASSES) {
        if let [one] = group {
            // One pass: its changes go straight into the report.
            schema.transform(&mut One { step: *one, cx });
            continue;
        }
        let mut walk = Together {
            steps: group,
            changes: Default::default(),
            cx,
        };
        schema.transform(&mut walk);
        let Together { changes, cx, .. } = walk;
        for mut c in changes.into_iter().take(group.len()) {
            cx.append_changes(&mut c);
        }
    }
}

/// One pass alone.
struct One<'a, 'r> {
    step: NodeStep,
    cx: &'a mut Cx<'r>,
}

impl Transform for One<'_, '_> {
    fn pre(&mut self, p: &str, s: &mut Schema) {
        (self.step)(s, p, self.cx);
    }
}

/// Several passes in one walk, each pass's changes in its own list.
struct Together<'a, 'r, 's> {
    steps: &'s [NodeStep],
    changes: [Vec<Change>; MAX_PASSES],
    cx: &'a mut Cx<'r>,
}

impl Transform for Together<'_, '_, '_> {
    fn pre(&mut self, p: &str, s: &mut Schema) {
        for (step, changes) in self.steps.iter().zip(self.changes.iter_mut()) {
            // The report holds this pass's changes only while its step runs (the steps write
            // changes and read none).
            self.cx.swap_changes(changes);
            step(s, p, self.cx);
            self.cx.swap_changes(changes);
        }
    }
}
