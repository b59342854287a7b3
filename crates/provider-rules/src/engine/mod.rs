//! The sanitizing engine: a short, fixed sequence of small steps over the typed tree.
//!
//! One keyword-aware walk ([`schema_core::Schema::transform`]) runs the [`PRE`] steps on each
//! node before its children (structural rewrites whose results are then walked: merges, splits,
//! union collapse, tuple folding) and the [`POST`] steps after them (typing, keyword filtering,
//! hints). Each step is gated by one capability of [`Rules`] and does nothing otherwise, so a
//! profile is data and the steps never branch on a provider. Tree-level passes frame the walk:
//! wrapping a bare property map, draft-03 `required` and `$ref` handling before it, limits
//! after it.
//!
//! Every step is linear in the size of the node it touches, so the whole engine is linear in
//! the size of the (inlined) schema.

mod arrays;
pub(crate) mod booleans;
mod closed;
mod cx;
mod draft;
mod enums;
mod filter;
mod merge;
mod not_types;
mod nulls;
mod objects;
mod presence;
mod property_maps;
mod refs;
pub(crate) mod root;
mod strict;
mod types;
mod unions;

pub(crate) use cx::Cx;

use crate::RuleId;
use crate::Slot;
use crate::report::{Change, Sanitized};
use crate::rules::Rules;
use schema_core::{Schema, Transform};

/// A step: one node, its pointer, the context.
pub(crate) type Step = fn(&mut Schema, &str, &mut Cx<'_>);

/// Steps run on a node before its children, in this order.
const PRE: &[Step] = &[
    unions::empty,
    root::shape,
    draft::to_2020,
    objects::property_named_properties,
    unions::one_of,
    merge::all_of,
    merge::conditionals,
    merge::dependent_schemas,
    types::split_type_list,
    nulls::normalize,
    unions::collapse,
    enums::const_to_enum,
    arrays::fold_tuples,
    booleans::children,
];

/// Steps run on a node after its children, in this order.
const POST: &[Step] = &[
    // A merge or a collapse can bring up a union from a child already walked.
    unions::empty,
    // A property named `properties` may only look like an object once its own merges ran.
    objects::property_named_properties,
    unions::one_of,
    unions::loosened,
    merge::all_of,
    nulls::normalize,
    unions::collapse,
    types::split_type_list,
    nulls::normalize,
    enums::enum_values,
    types::infer_missing_type,
    arrays::missing_items,
    types::drop_foreign_keywords,
    objects::empty_properties,
    objects::required,
    objects::additional_properties,
    filter::formats,
    filter::patterns,
    strict::close_object,
    strict::min_items,
    filter::unsupported_keywords,
    unions::default_beside_any_of,
    cx::fold_hints,
    unions::alone,
];

/// A check: what one rule finds on an object node that its step would change (the checker's
/// half of the rule, beside its step in the rule's file).
pub(crate) type Check = fn(&mut crate::check::Checker<'_>, &str, &schema_core::SchemaObject);

/// The rules' checks on each object node, in the order their violations are reported.
pub(crate) const CHECKS: &[Check] = &[
    filter::check::keywords,
    types::check::type_list,
    nulls::check::null_type,
    unions::check::alone,
    unions::check::empty,
    enums::check::values,
    objects::check::empty_properties,
    unions::check::default_beside_any_of,
    types::check::type_missing,
    arrays::check::missing_items,
    types::check::foreign_keywords,
    objects::check::required,
    objects::check::additional_properties,
    objects::check::property_named_properties,
    filter::check::patterns,
    filter::check::formats,
    refs::check::refs,
    arrays::check::tuples,
    draft::check::draft_2020,
    strict::check::all_required,
    strict::check::min_items,
];

/// How many times the PRE steps run on one node at most.
const PRE_ROUNDS: usize = 4;

struct Pipeline<'a, 'r> {
    cx: &'a mut Cx<'r>,
}

impl Transform for Pipeline<'_, '_> {
    fn pre(&mut self, pointer: &str, schema: &mut Schema) {
        self.cx.enter(schema);
        // A merge or a collapse can bring up what an earlier step rewrites (a type list, a
        // draft-07 tuple...): the steps run again while they change something (bounded).
        for _ in 0..PRE_ROUNDS {
            let before = self.cx.change_count();
            for step in PRE {
                // Boolean subschemas left by the boolean step are where the profile accepts
                // them (`additionalProperties: false`...): only the root is shaped.
                if matches!(schema, Schema::Bool(_)) && !pointer.is_empty() {
                    break;
                }
                step(schema, pointer, self.cx);
            }
            if self.cx.change_count() == before {
                break;
            }
        }
    }

    fn post(&mut self, pointer: &str, schema: &mut Schema) {
        if !matches!(schema, Schema::Bool(_)) {
            for step in POST {
                step(schema, pointer, self.cx);
            }
        }
        self.cx.leave();
    }
}

/// [`crate::sanitize`]: [`run`]'s steps, and last the depth cap on what they made too deep
/// ([`crate::depth::cap`]).
pub(crate) fn sanitize(schema: &Schema, rules: &Rules, slot: Slot) -> Sanitized {
    sanitize_with(schema, rules, slot, &crate::SanitizeOptions::default())
}

/// [`sanitize`] with options ([`crate::sanitize_with`]).
pub(crate) fn sanitize_with(
    schema: &Schema,
    rules: &Rules,
    slot: Slot,
    options: &crate::SanitizeOptions,
) -> Sanitized {
    let mut out = run_with(schema, rules, slot, options);
    crate::depth::cap(&mut out, rules, slot);
    out
}

/// Rewrites `schema` into what `rules` accepts, without the depth cap (what the cap's own
/// stand-ins are made with). See [`crate::sanitize`].
pub(crate) fn run(schema: &Schema, rules: &Rules, slot: Slot) -> Sanitized {
    run_with(schema, rules, slot, &crate::SanitizeOptions::default())
}

/// [`run`] with options ([`crate::sanitize_with`]).
pub(crate) fn run_with(
    schema: &Schema,
    rules: &Rules,
    slot: Slot,
    options: &crate::SanitizeOptions,
) -> Sanitized {
    let mut cx = Cx::new(rules, slot);
    let mut out = schema.clone();
    types::read_type_names(&mut out, &mut cx);
    root::wrap_bare_properties(&mut out, &mut cx);
    property_maps::repair(&mut out, &mut cx);
    objects::boolean_required(&mut out, &mut cx);
    closed::closed_unevaluated(&mut out, &mut cx);
    not_types::run(&mut out, &mut cx);
    presence::run(&mut out, &mut cx);
    refs::run(&mut out, &mut cx);
    // The encodings (issue 16): one call, on the tree with its references resolved.
    let encoded = options
        .encode
        .then(|| crate::encode::run(&mut out, rules, slot))
        .flatten();
    if let Some(e) = &encoded {
        cx.record(&e.changes);
    }
    out.transform(&mut Pipeline { cx: &mut cx });
    draft::declare_2020(&mut out, &mut cx);
    strict::limits(&out, &mut cx);
    let strict_nulls = std::mem::take(&mut cx.strict_nulls);
    let mut report = cx.into_report();
    let (mut decoder, unreachable) = crate::decode::build(&out, &strict_nulls);
    if let Some(e) = encoded.filter(|e| !e.decoder.is_identity()) {
        decoder.then = Some(Box::new(e.decoder));
    }
    for at in unreachable {
        report.changes.push(Change {
            pointer: at,
            rule: RuleId::StrictRequired,
            message: "a property made nullable where no decoder reaches: a null the model sends there reaches the tool".to_owned(),
            lossy: true,
        });
    }
    if slot == Slot::Parameters {
        report.unfixable = crate::keys::property_keys(&out, rules);
    }
    // The report is empty exactly when nothing changed.
    if out == *schema {
        report.changes.clear();
    } else if report.changes.is_empty() {
        report.changes.push(Change {
            pointer: String::new(),
            rule: RuleId::Normalize,
            message: "normalized the schema".to_owned(),
            lossy: false,
        });
    }
    Sanitized {
        schema: out,
        report,
        decoder,
    }
}

/// One rule alone, for its own unit tests (in its file): its step over a whole schema, its
/// check on every object node, nothing else of the engine or the checker.
#[cfg(test)]
pub(crate) mod alone {
    use super::{Check, Cx, Step};
    use crate::check::Checker;
    use crate::report::{Change, Violation};
    use crate::{Rules, Slot};
    use schema_core::{Schema, Transform, Visit};

    /// Runs `step` alone, for `slot`, on every node of `json` (after the node's children, as the engine's
    /// POST steps run; `pre`: before them, as its PRE steps do): the schema it leaves and the
    /// changes it reports.
    pub(crate) fn fix(
        step: Step,
        pre: bool,
        json: &str,
        rules: &Rules,
        slot: Slot,
    ) -> (Schema, Vec<Change>) {
        struct One<'a, 'r> {
            step: Step,
            pre: bool,
            cx: &'a mut Cx<'r>,
        }
        impl Transform for One<'_, '_> {
            fn pre(&mut self, p: &str, s: &mut Schema) {
                self.cx.enter(s);
                if self.pre {
                    (self.step)(s, p, self.cx);
                }
            }
            fn post(&mut self, p: &str, s: &mut Schema) {
                if !self.pre {
                    (self.step)(s, p, self.cx);
                }
                self.cx.leave();
            }
        }
        let mut schema = Schema::from_str(json).expect("a test schema");
        let mut cx = Cx::new(rules, slot);
        schema.transform(&mut One {
            step,
            pre,
            cx: &mut cx,
        });
        (schema, cx.into_report().changes)
    }

    /// Runs `check` alone on every object node of `schema`: what it finds.
    pub(crate) fn check(check: Check, schema: &Schema, rules: &Rules) -> Vec<Violation> {
        struct One<'r> {
            check: Check,
            c: Checker<'r>,
        }
        impl Visit for One<'_> {
            fn enter(&mut self, p: &str, s: &Schema) -> bool {
                if let Some(o) = s.as_object() {
                    (self.check)(&mut self.c, p, o);
                }
                true
            }
        }
        let mut one = One {
            check,
            c: Checker::new(schema, rules, Slot::Schema),
        };
        schema.walk(&mut one);
        one.c.into_found()
    }

    /// `check` finds `rule` in `json` for `rules`, and no more once `step` ran alone: the
    /// schema it leaves (and the report's changes, which name `rule`'s fix).
    pub(crate) fn fixes(
        step: Step,
        pre: bool,
        check: Check,
        json: &str,
        rules: &Rules,
        rule: crate::RuleId,
    ) -> (Schema, Vec<Change>) {
        let before = Schema::from_str(json).expect("a test schema");
        let found = self::check(check, &before, rules);
        assert!(
            found.iter().any(|v| v.rule == rule),
            "{rule} not found in {json}: {found:?}"
        );
        let (after, changes) = fix(step, pre, json, rules, Slot::Schema);
        let left = self::check(check, &after, rules);
        assert!(
            left.is_empty(),
            "{rule}: still found after the fix: {left:?} in {}",
            after.to_json_string()
        );
        assert!(!changes.is_empty(), "{rule}: the fix reported nothing");
        (after, changes)
    }
}
