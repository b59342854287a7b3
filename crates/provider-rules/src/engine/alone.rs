//! One rule alone: its fix over a whole schema, its check on every node, nothing else of the
//! engine or the checker — for a rule's own unit tests (in its file) and, by its
//! [`RuleId`], for integration tests ([`crate::one_rule`]).
//!
//! ```
//! use provider_rules::{one_rule, RuleId, Rules, Slot};
//! use schema_core::Schema;
//!
//! // Gemini: `Proto field is not repeating, cannot start list` on a type list.
//! let before = Schema::from_str(r#"{"type":["string","integer"]}"#)?;
//! let found = one_rule::check(RuleId::TypeList, &before, &Rules::GEMINI, Slot::Schema);
//! assert_eq!(found.len(), 1);
//! let (after, changes) = one_rule::fix(RuleId::TypeList, &before, &Rules::GEMINI, Slot::Schema);
//! assert_eq!(changes[0].rule, RuleId::TypeList);
//! assert!(one_rule::check(RuleId::TypeList, &after, &Rules::GEMINI, Slot::Schema).is_empty());
//! # Ok::<(), schema_core::SchemaError>(())
//! ```

use super::passes::At;
use super::{Check, Cx, ORDER, Rule};
use crate::check::Checker;
use crate::report::{Change, Violation};
use crate::{RuleId, Rules, Slot};
use schema_core::{Schema, Transform, Visit};

/// The rule of [`ORDER`] with id `id` that has a fix (`fix`) or a check: its first.
fn find(id: RuleId, fix: bool) -> Option<&'static Rule> {
    ORDER.iter().filter_map(|r| r.rule()).find(|r| {
        r.id == id
            && if fix {
                r.fixes()
            } else {
                r.finder().check.is_some()
            }
    })
}

/// Runs the fix of rule `id` alone, where its gate is on for `rules` in `slot`, on every node
/// of `schema` (its PRE step before a node's children, its POST step after them): the schema
/// it leaves and the changes it reports. Nothing changes for an id with no fix in the walk
/// (one fixed by a tree pass, or no rule's).
///
/// ```
/// use provider_rules::{one_rule, RuleId, Rules, Slot};
/// let s = schema_core::Schema::from_str(r#"{"anyOf":[]}"#)?;
/// let (out, changes) = one_rule::fix(RuleId::EmptyUnion, &s, &Rules::GEMINI, Slot::Schema);
/// assert_eq!(out.to_json_string(), "{}");
/// assert_eq!(changes.len(), 1);
/// # Ok::<(), schema_core::SchemaError>(())
/// ```
pub fn fix(id: RuleId, schema: &Schema, rules: &Rules, slot: Slot) -> (Schema, Vec<Change>) {
    match find(id, true) {
        Some(rule) => fix_rule(rule, schema, rules, slot),
        None => (schema.clone(), Vec::new()),
    }
}

/// Runs the check of rule `id` alone on `schema` for `rules` in `slot`: what it finds (its
/// root check on the root, its node check on every node). A rule found by another's check
/// (an `allOf` the profile refuses is a keyword it does not accept) runs that check. Nothing
/// for an id without a check.
///
/// ```
/// use provider_rules::{one_rule, RuleId, Rules, Slot};
/// let s = schema_core::Schema::from_str(r#"{"anyOf":[{"type":"string"}],"title":"T"}"#)?;
/// let found = one_rule::check(RuleId::AnyOfAlone, &s, &Rules::VERTEX, Slot::Schema);
/// assert_eq!(found[0].rule, RuleId::AnyOfAlone);
/// assert!(one_rule::check(RuleId::AnyOfAlone, &s, &Rules::OPENAI, Slot::Schema).is_empty());
/// # Ok::<(), schema_core::SchemaError>(())
/// ```
pub fn check(id: RuleId, schema: &Schema, rules: &Rules, slot: Slot) -> Vec<Violation> {
    find(id, false).map_or_else(Vec::new, |rule| check_rule(rule, schema, rules, slot))
}

/// The rule with id `id` (the first of [`ORDER`] that has it as its own or reports it).
fn named(id: RuleId) -> Option<&'static Rule> {
    let rules = || ORDER.iter().filter_map(|r| r.rule());
    rules()
        .find(|r| r.id == id)
        .or_else(|| rules().find(|r| r.ids().any(|i| i == id)))
}

/// The ids rule `id`'s changes and violations name: its own first, then the others it reports
/// (empty for an id that is no rule's own or reported one).
///
/// ```
/// use provider_rules::{one_rule, RuleId};
/// let ids = one_rule::ids(RuleId::RequiredUndefined);
/// assert_eq!(ids[0], RuleId::RequiredUndefined);
/// assert!(ids.contains(&RuleId::RequiredMalformed));
/// ```
pub fn ids(id: RuleId) -> Vec<RuleId> {
    named(id).map_or_else(Vec::new, |r| r.ids().collect())
}

/// What `rules`' provider answers to what rule `id` finds: its error texts by the id they
/// are filed under (the rule's own and those it reports), from the provider registry.
///
/// ```
/// use provider_rules::{one_rule, RuleId, Rules};
/// // The rule that infers a missing type finds `type-missing`: Gemini's text is filed there.
/// let errors = one_rule::provider_errors(RuleId::TypeInferred, &Rules::GEMINI);
/// assert_eq!(errors[0].0, RuleId::TypeMissing);
/// assert!(errors[0].1.contains("type: must be specified"));
/// assert!(one_rule::provider_errors(RuleId::TypeInferred, &Rules::OPENAI).is_empty());
/// ```
pub fn provider_errors(id: RuleId, rules: &Rules) -> Vec<(RuleId, &'static str)> {
    named(id).map_or_else(Vec::new, |r| r.provider_errors(rules))
}

/// The hints rule `id`'s losses leave in descriptions: the id of each change and its
/// sentence (`{}` where the step's words go). The keywords' own hints ("At least 3
/// characters.") are any dropped keyword's, not a rule's.
///
/// ```
/// use provider_rules::{one_rule, RuleId};
/// assert_eq!(
///     one_rule::hints(RuleId::TypeList),
///     [(RuleId::TypeList, "Also accepts {}.")]
/// );
/// ```
pub fn hints(id: RuleId) -> Vec<(RuleId, &'static str)> {
    named(id).map_or_else(Vec::new, |r| {
        r.hints.iter().map(|h| (h.rule, h.text)).collect()
    })
}

/// [`fix`] for a rule value.
pub(crate) fn fix_rule(
    rule: &Rule,
    schema: &Schema,
    rules: &Rules,
    slot: Slot,
) -> (Schema, Vec<Change>) {
    struct One<'a, 'r> {
        rule: &'a Rule,
        cx: &'a mut Cx<'r>,
    }
    impl Transform for One<'_, '_> {
        fn pre(&mut self, p: &str, s: &mut Schema) {
            self.cx.enter(s);
            // As in the engine: only the root of the boolean subschemas is shaped.
            if let Some(step) = self.rule.pre
                && (!matches!(s, Schema::Bool(_)) || p.is_empty())
            {
                step(s, &At::of(p), self.cx);
            }
        }
        fn post(&mut self, p: &str, s: &mut Schema) {
            if let Some(step) = self.rule.post
                && !matches!(s, Schema::Bool(_))
            {
                step(s, &At::of(p), self.cx);
            }
            self.cx.leave();
        }
    }
    let mut out = schema.clone();
    let mut cx = Cx::new(rules, slot);
    if (rule.gate)(rules, slot) {
        out.transform(&mut One { rule, cx: &mut cx });
    }
    (out, cx.into_report().changes)
}

/// [`check`] for a rule value.
pub(crate) fn check_rule(
    rule: &Rule,
    schema: &Schema,
    rules: &Rules,
    slot: Slot,
) -> Vec<Violation> {
    struct One<'r> {
        check: Check,
        c: Checker<'r>,
    }
    impl Visit for One<'_> {
        fn enter(&mut self, p: &str, s: &Schema) -> bool {
            match self.check {
                Check::Object(f) => {
                    if let Some(o) = s.as_object() {
                        f(&mut self.c, p, o);
                    }
                }
                Check::Node(f) => f(&mut self.c, p, s),
                Check::Root(_) => return false,
            }
            true
        }
    }
    let Some(check) = rule.finder().check else {
        return Vec::new();
    };
    let mut one = One {
        check,
        c: Checker::new(schema, rules, slot),
    };
    if let Check::Root(f) = check {
        f(&mut one.c, schema);
    } else {
        schema.walk(&mut one);
    }
    one.c.into_found()
}

/// `rule`'s check (or its [finder](Rule::finder)'s) finds `id` in `json` for `rules`, and no
/// more once its fix ran alone: the schema it leaves (and the report's changes, which the fix
/// must have made).
#[cfg(test)]
pub(crate) fn fixes(rule: &Rule, json: &str, rules: &Rules, id: RuleId) -> (Schema, Vec<Change>) {
    let before = Schema::from_str(json).expect("a test schema");
    let found = check_rule(rule, &before, rules, Slot::Schema);
    assert!(
        found.iter().any(|v| v.rule == id),
        "{id} not found in {json}: {found:?}"
    );
    let (after, changes) = fix_rule(rule, &before, rules, Slot::Schema);
    let left = check_rule(rule, &after, rules, Slot::Schema);
    assert!(
        left.is_empty(),
        "{id}: still found after the fix: {left:?} in {}",
        after.to_json_string()
    );
    assert!(!changes.is_empty(), "{id}: the fix reported nothing");
    // What the rule says is under its ids (a change that makes the result not
    // strict-compatible is said beside any rule's).
    let own = |r: RuleId| {
        rule.ids().chain(rule.finder().ids()).any(|i| i == r) || r == RuleId::StrictIncompatible
    };
    for r in found
        .iter()
        .map(|v| v.rule)
        .chain(changes.iter().map(|c| c.rule))
    {
        assert!(own(r), "{}: reports {r}, not among its ids", rule.id);
    }
    (after, changes)
}
