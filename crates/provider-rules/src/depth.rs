//! Depth: what the parser cut at its depth limit, and what the engine grew past it.
//!
//! The parser keeps [`ParseOptions::max_depth`] schema levels (64 by default; the root is level
//! 0) and replaces each deeper subtree by `{}`, with a [`DiagnosticKind::DepthLimit`];
//! [`check`](fn@crate::check) reports an object subschema past that level as rule `depth`. Two
//! passes keep the cut visible and the output within the limit:
//!
//! - [`Cuts`], read by [`sanitize_slice`](crate::sanitize_slice): each subtree the parser cut
//!   is reported (lossy, rule `depth`, at the cut's pointer) and its `{}` carries a hint in its
//!   description, so the model is told that something there was not described;
//! - [`cap`], the last step of every [`sanitize`](crate::sanitize): the engine can add levels
//!   below a node (the profile's any-value alternatives, a split type list, an inlined `$ref`), so a
//!   subtree that still reaches past the limit is replaced, at the deepest level where it then
//!   fits, by the profile's stand-in (the sanitized form of `{"description": hint}`, keeping
//!   the node's own description) and reported (lossy, rule `depth`).
//!
//! So the output has no object subschema past the limit: `check` finds no `depth` in it, and a
//! second run parses it whole and changes nothing.

use crate::RuleId;
use crate::engine;
use crate::hints;
use crate::report::{Change, Sanitized};
use crate::rules::Rules;
use crate::slot::Slot;
use schema_core::{
    DiagnosticKind, Keyword, ParseOptions, Parsed, Schema, SchemaObject, Transform, Value, Visit,
};
use std::collections::HashSet;

/// The rule name of depth changes (the same as `check`'s).
pub(crate) const RULE: RuleId = RuleId::Depth;

/// The rule of the changes that make a result not strict-compatible (`Cx::not_strict`).
const STRICT_INCOMPATIBLE: RuleId = RuleId::StrictIncompatible;

/// The deepest schema level an output keeps: the parser's default, which `check` uses.
pub(crate) fn limit() -> usize {
    ParseOptions::default().max_depth
}

/// The hint a cut subtree leaves in its description.
pub(crate) fn hint(limit: usize) -> String {
    format!("Nested deeper than {limit} levels; not described.")
}

/// What the parser cut from a schema at the depth limit (see [`crate::sanitize_slice`]): what
/// [`Cuts::report`] adds to the result of sanitizing the schema.
pub(crate) struct Cuts {
    cuts: Vec<(String, usize)>,
    not_a_schema: Option<Change>,
}

impl Cuts {
    /// Reads the parser's depth cuts (and a root that is not a schema) off `parsed`: the
    /// parsed schema, each cut `{}` carrying its hint (when the profile has hints), and the cuts.
    pub(crate) fn read(parsed: Parsed, rules: &Rules) -> (Schema, Cuts) {
        // A root that is not a schema (`[1]`, `"x"`) was read as `{}`: the result replaces it,
        // and says so (otherwise an empty report would send the non-schema on, which the
        // provider refuses: `check` names it).
        let not_a_schema = parsed.diagnostics.iter().find_map(|d| match d.kind {
            DiagnosticKind::NotASchema { .. } => Some(Change {
                pointer: d.pointer.clone(),
                rule: RuleId::Root,
                message: d.to_string(),
                lossy: true,
            }),
            _ => None,
        });
        let cuts: Vec<(String, usize)> = parsed
            .diagnostics
            .into_iter()
            .filter_map(|d| match d.kind {
                DiagnosticKind::DepthLimit { limit } => Some((d.pointer, limit)),
                _ => None,
            })
            .collect();
        let mut schema = parsed.schema;
        if !cuts.is_empty() && rules.hints {
            schema.transform(&mut Seed {
                cuts: cuts.iter().map(|(p, l)| (p.as_str(), *l)).collect(),
            });
        }
        (schema, Cuts { cuts, not_a_schema })
    }

    /// Whether the parser cut nothing: the schema nests within [`limit`] levels.
    pub(crate) fn is_empty(&self) -> bool {
        self.cuts.is_empty()
    }

    /// Whether the root was not a schema (read as `{}`): the result replaces it, so it always
    /// changes.
    pub(crate) fn replaces_root(&self) -> bool {
        self.not_a_schema.is_some()
    }

    /// Adds the cuts to `out`, the result of sanitizing the schema [`Cuts::read`] returned.
    pub(crate) fn report(self, mut out: Sanitized) -> Sanitized {
        let Cuts { cuts, not_a_schema } = self;
        if let Some(c) = not_a_schema {
            out.report.changes.insert(0, c);
        }
        if cuts.is_empty() {
            return out;
        }
        // A cut the cap replaced an ancestor of is reported there already (the cap's stand-in
        // took its place); the others are reported here, first, as they happened first.
        let capped: HashSet<&str> = out
            .report
            .changes
            .iter()
            .filter(|c| c.rule == RULE)
            .map(|c| c.pointer.as_str())
            .collect();
        let mut changes: Vec<Change> = cuts
        .iter()
        .filter(|(p, _)| !within_any(p, &capped))
        .map(|(p, limit)| Change {
            pointer: p.clone(),
            rule: RULE,
            message: format!(
                "the schema nests deeper than {limit} levels here; the subtree was cut and is not described"
            ),
            lossy: true,
        })
        .collect();
        changes.append(&mut out.report.changes);
        out.report.changes = changes;
        out
    }
}

/// Whether `pointer` is one of `prefixes` or lies under one of them.
fn within_any(pointer: &str, prefixes: &HashSet<&str>) -> bool {
    if prefixes.is_empty() {
        return false;
    }
    prefixes.contains(pointer)
        || pointer
            .match_indices('/')
            .any(|(i, _)| prefixes.contains(&pointer[..i]))
}

/// Puts the hint into each `{}` the parser left where it cut.
struct Seed<'a> {
    cuts: std::collections::HashMap<&'a str, usize>,
}

impl Transform for Seed<'_> {
    fn pre(&mut self, pointer: &str, schema: &mut Schema) {
        if let Some(limit) = self.cuts.get(pointer)
            && schema.as_object().is_some_and(SchemaObject::is_empty)
        {
            schema
                .make_object()
                .insert(Keyword::Description, Value::String(hint(*limit)));
        }
    }
}

/// How many levels below `schema` its deepest object subschema sits (`None`: there is none,
/// only boolean schemas, which the parser never cuts).
fn object_height(schema: &Schema) -> Option<usize> {
    struct Height {
        depth: usize,
        max: Option<usize>,
    }
    impl Visit for Height {
        fn enter(&mut self, _: &str, s: &Schema) -> bool {
            if matches!(s, Schema::Object(_)) {
                self.max = Some(self.max.map_or(self.depth, |m| m.max(self.depth)));
            }
            self.depth += 1;
            true
        }
        fn leave(&mut self, _: &str, _: &Schema) {
            self.depth = self.depth.saturating_sub(1);
        }
    }
    let mut h = Height {
        depth: 0,
        max: None,
    };
    schema.walk(&mut h);
    h.max
}

/// Whether an object subschema sits more than `levels` levels below `schema` (recursing at
/// most `levels + 1` levels, and stopping at the first found).
fn reaches_past(schema: &Schema, levels: usize) -> bool {
    let mut found = false;
    schema.for_each_child(|_, child| {
        found = found
            || match levels.checked_sub(1) {
                None => matches!(child, Schema::Object(_)),
                Some(below) => reaches_past(child, below),
            };
    });
    found
}

/// Keeps `out` within [`limit`] levels: see the [module docs](self).
pub(crate) fn cap(out: &mut Sanitized, rules: &Rules, slot: Slot) {
    let limit = limit();
    if !reaches_past(&out.schema, limit) {
        return;
    }
    let mut stand_in = StandIn {
        rules,
        hint: hint(limit),
        plain: None,
    };
    // The stand-ins go at the deepest level where their own levels still fit.
    let room = stand_in.height().min(limit);
    let mut pass = Cap {
        at: limit - room,
        room,
        limit,
        slot,
        depth: 0,
        stand_in,
        changes: Vec::new(),
        strict_compatible: true,
    };
    out.schema.transform(&mut pass);
    if pass.changes.is_empty() {
        return;
    }
    // What the engine did inside a replaced subtree is gone with it: the cut says so.
    let replaced: HashSet<&str> = pass
        .changes
        .iter()
        .filter(|c| c.rule == RULE)
        .map(|c| c.pointer.as_str())
        .collect();
    let mut gone_strict = false;
    out.report.changes.retain(|c| {
        let keep = !within_any(&c.pointer, &replaced);
        gone_strict |= !keep && c.rule == STRICT_INCOMPATIBLE;
        keep
    });
    if gone_strict {
        // Only `strict-incompatible` changes make a result not strict-compatible.
        out.report.strict_compatible = !out
            .report
            .changes
            .iter()
            .any(|c| c.rule == STRICT_INCOMPATIBLE);
    }
    out.report.changes.append(&mut pass.changes);
    out.report.strict_compatible &= pass.strict_compatible;
    if slot == Slot::Parameters {
        out.report.unfixable = crate::keys::property_keys(&out.schema, rules);
    }
}

/// What replaces a subtree too deep to keep: the profile's sanitized `{"description": hint}`.
struct StandIn<'r> {
    rules: &'r Rules,
    hint: String,
    /// The stand-in of a node without a description, made once.
    plain: Option<Sanitized>,
}

impl StandIn<'_> {
    /// The stand-in for a node with `description`, in `slot`.
    fn make(&mut self, description: Option<&str>, slot: Slot) -> Sanitized {
        if description.is_none()
            && slot == Slot::Schema
            && let Some(p) = &self.plain
        {
            return p.clone();
        }
        let text = match (description, self.rules.hints) {
            (d, true) => Some(hints::join(d, std::slice::from_ref(&self.hint))),
            (d, false) => d.map(str::to_owned),
        };
        let mut node = SchemaObject::new();
        if let Some(t) = text {
            node.insert(Keyword::Description, Value::String(t));
        }
        let made = engine::run(Schema::Object(node), self.rules, slot);
        if description.is_none() && slot == Slot::Schema {
            self.plain = Some(made.clone());
        }
        made
    }

    /// How many levels the stand-in takes below its own.
    fn height(&mut self) -> usize {
        object_height(&self.make(None, Slot::Schema).schema).unwrap_or(0)
    }
}

/// The pass that replaces, at level `at`, each subtree reaching more than `room` levels below.
struct Cap<'r> {
    at: usize,
    room: usize,
    limit: usize,
    slot: Slot,
    depth: usize,
    stand_in: StandIn<'r>,
    changes: Vec<Change>,
    strict_compatible: bool,
}

impl Transform for Cap<'_> {
    fn pre(&mut self, pointer: &str, schema: &mut Schema) {
        let depth = self.depth;
        self.depth += 1;
        if depth != self.at || !reaches_past(schema, self.room) {
            return;
        }
        let slot = if pointer.is_empty() {
            self.slot
        } else {
            Slot::Schema
        };
        let description = schema.as_object().and_then(SchemaObject::description);
        let made = self.stand_in.make(description, slot);
        *schema = made.schema;
        self.changes.push(Change {
            pointer: pointer.to_owned(),
            rule: RULE,
            message: format!(
                "the subtree here reaches past level {} (the depth limit), as written or once rewritten for the provider; it was replaced by a schema that does not describe it",
                self.limit
            ),
            lossy: true,
        });
        self.strict_compatible &= made.report.strict_compatible;
        self.changes
            .extend(made.report.changes.into_iter().map(|c| Change {
                pointer: format!("{pointer}{}", c.pointer),
                ..c
            }));
    }

    fn post(&mut self, _: &str, _: &mut Schema) {
        self.depth = self.depth.saturating_sub(1);
    }
}
