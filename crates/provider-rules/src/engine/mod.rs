//! The sanitizing engine: a short, fixed sequence of small steps over the typed tree.
//!
//! A rule is one value ([`Rule`]: its id, its gate, its steps, its check), declared in the file
//! of its fix. One keyword-aware walk ([`schema_core::Schema::transform`]) runs the rules in
//! the one declared [`ORDER`]: their PRE steps on each node before its children (structural
//! rewrites whose results are then walked: merges, splits, union collapse, tuple folding) and
//! their POST steps after them (typing, keyword filtering, hints). Each rule is turned on by
//! one capability of [`Rules`] (its gate, read once per schema: [`Plan`]), so a profile is data
//! and the steps never branch on a provider. The checker runs the same rules' checks in the
//! same order. Tree-level passes frame the walk:
//! wrapping a bare property map, draft-03 `required` and `$ref` handling before it, limits
//! after it.
//!
//! Every step is linear in the size of the node it touches, so the whole engine is linear in
//! the size of the (inlined) schema.

pub mod alone;
mod arrays;
pub(crate) mod booleans;
mod closed;
mod closed_names;
mod conditional_union;
mod contains_bound;
mod cx;
mod dependent_union;
mod draft;
mod dynamic_static;
mod empty_unions;
mod enums;
mod false_members;
mod filter;
mod formats;
mod merge;
mod min_items;
mod not_types;
mod nulls;
mod objects;
mod one_of;
mod one_of_exclusive;
mod passes;
mod patterns;
mod presence;
mod property_maps;
mod proto_walk;
mod ref_false;
mod refs;
pub(crate) mod root;
mod root_refs;
mod rule;
mod strict;
mod types;
mod unevaluated_alone;
mod unevaluated_items_bound;
mod unions;

pub(crate) use cx::Cx;

use crate::RuleId;
use crate::Slot;
use crate::report::{Change, Sanitized};
use crate::rules::Rules;
use schema_core::{Schema, Transform};

use Run::{Around, FoldHints, Post, Pre};
pub(crate) use rule::{Check, Plan, Rule, Run, checks};

/// Every rule in one declared order, which both the engine and the checker iterate: the
/// engine's PRE pass runs the `Pre` steps on each node before its children (structural
/// rewrites whose results are then walked: merges, splits, union collapse, tuple folding),
/// its POST pass the `Post` steps after them (typing, keyword filtering, hints), each step
/// only where its rule's gate is on ([`Plan`]); the checker runs each rule's check once, at
/// the rule's first place here, so its report follows this order. A rule may run in both
/// passes, or twice in one. The depth cap is the last step of all ([`sanitize`]).
///
/// Around the walk, fixed tree passes run in this order ([`run_with`]); none can be a step of
/// a node, each for the reason given:
///
/// - before it:
///   1. type names in another case read (`type-case`): every later pass and step reads `type`;
///   2. a bare property map wrapped (`bare-properties`, checked from here): the root is not
///      yet a schema, and the walk would read the map's names as keywords;
///   3. property maps repaired (`property-map-repaired`): the walk reads a map that is not a
///      map of schemas as data, and its properties would be lost;
///   4. draft-03 boolean `required` promoted (`boolean-required`): each flag must reach the
///      object it was written in before merges and inlining move the property elsewhere;
///   5. `unevaluated*: false` closed, `not` of types, a single `dependentRequired` (issue 16):
///      they read a node's keywords before merges and inlining change what evaluates;
///   6. `$ref`s kept or inlined (`ref`, checked from here): a reference resolves against
///      the whole schema, and the steps must see the targets inlined;
///   7. the encodings (`encode-*`, when asked for): on the tree with its references resolved;
/// - after it:
///   1. 2020-12 declared (`draft-2020`): only the whole result says whether it needs `$schema`;
///   2. strict size limits (`strict-incompatible`): counts over the whole result;
///   3. the depth cap (`depth`): on what every step made.
pub(crate) const ORDER: &[Run] = &[
    // Fixed by tree passes before the walk (the driver runs them).
    Around(&root::BARE_PROPERTIES),
    Around(&refs::REFS),
    // Before a node's children.
    Pre(&empty_unions::EMPTY),
    Pre(&root::SHAPE),
    Pre(&draft::DRAFT_2020),
    Pre(&objects::PROPERTY_NAMED_PROPERTIES),
    Pre(&one_of::ONE_OF),
    Pre(&merge::ALL_OF),
    Pre(&merge::CONDITIONALS),
    Pre(&merge::DEPENDENT_SCHEMAS),
    Pre(&types::TYPE_LIST),
    Pre(&nulls::NULLS),
    Pre(&unions::COLLAPSE),
    Pre(&enums::CONST),
    Pre(&arrays::TUPLE_FOLD),
    Pre(&booleans::BOOLEAN_SCHEMA),
    // After them. A merge or a collapse can bring up a union from a child already walked.
    Post(&empty_unions::EMPTY),
    // A property named `properties` may only look like an object once its own merges ran.
    Post(&objects::PROPERTY_NAMED_PROPERTIES),
    Post(&one_of::ONE_OF),
    Post(&one_of::LOOSENED),
    Post(&merge::ALL_OF),
    Post(&nulls::NULLS),
    Post(&unions::COLLAPSE),
    Post(&types::TYPE_LIST),
    Post(&nulls::NULLS),
    Post(&enums::ENUM_VALUES),
    Post(&types::TYPE_INFERRED),
    Post(&arrays::ITEMS_MISSING),
    Post(&types::FOREIGN_KEYWORD),
    Post(&objects::EMPTY_PROPERTIES),
    Post(&objects::REQUIRED),
    Post(&objects::ADDITIONAL_PROPERTIES),
    Post(&formats::FORMAT),
    Post(&patterns::PATTERN_SYNTAX),
    Post(&strict::STRICT_REQUIRED),
    Post(&min_items::MIN_ITEMS),
    Post(&filter::UNSUPPORTED_KEYWORD),
    Post(&unions::DEFAULT_BESIDE_ANY_OF),
    FoldHints,
    Post(&unions::ALONE),
];

/// How many times the PRE steps run on one node at most.
const PRE_ROUNDS: usize = 4;

/// The walk: the plan's PRE steps on each node before its children, its POST steps after.
struct Pipeline<'a, 'r> {
    cx: &'a mut Cx<'r>,
    plan: Plan,
}

impl<'a, 'r> Pipeline<'a, 'r> {
    /// The walk for `cx`'s profile and slot (their gates read here, once).
    fn new(cx: &'a mut Cx<'r>) -> Pipeline<'a, 'r> {
        let plan = Plan::new(cx.rules, cx.slot);
        Pipeline { cx, plan }
    }
}

impl Transform for Pipeline<'_, '_> {
    fn pre(&mut self, pointer: &str, schema: &mut Schema) {
        self.cx.enter(schema);
        // A merge or a collapse can bring up what an earlier step rewrites (a type list, a
        // draft-07 tuple...): the steps run again while they change something (bounded).
        for _ in 0..PRE_ROUNDS {
            let before = self.cx.change_count();
            for step in self.plan.pre() {
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
            for step in self.plan.post() {
                step(schema, pointer, self.cx);
            }
        }
        self.cx.leave();
    }
}

/// [`crate::sanitize`]: [`run`]'s steps, and last the depth cap on what they made too deep
/// ([`crate::depth::cap`]).
pub(crate) fn sanitize(schema: Schema, rules: &Rules, slot: Slot) -> Sanitized {
    sanitize_with(schema, rules, slot, &crate::SanitizeOptions::default())
}

/// [`sanitize`] with options ([`crate::sanitize_with`]): rewrites `schema` in place.
pub(crate) fn sanitize_with(
    schema: Schema,
    rules: &Rules,
    slot: Slot,
    options: &crate::SanitizeOptions,
) -> Sanitized {
    let once = |s: Schema| {
        let mut out = run_with(s, rules, slot, options);
        crate::depth::cap(&mut out, rules, slot);
        out
    };
    let out = once(schema);
    if options.encode {
        return crate::encode::settle(out, |s| once(s.clone()));
    }
    out
}

/// Rewrites `schema` into what `rules` accepts, without the depth cap (what the cap's own
/// stand-ins are made with). See [`crate::sanitize`].
pub(crate) fn run(schema: Schema, rules: &Rules, slot: Slot) -> Sanitized {
    run_with(schema, rules, slot, &crate::SanitizeOptions::default())
}

/// [`run`] with options ([`crate::sanitize_with`]): the tree is rewritten in place, and
/// whether anything changed is what the steps recorded (every step that rewrites a node
/// records a change: no copy of the input is kept to compare the output with).
pub(crate) fn run_with(
    schema: Schema,
    rules: &Rules,
    slot: Slot,
    options: &crate::SanitizeOptions,
) -> Sanitized {
    let mut cx = Cx::new(rules, slot);
    let mut out = schema;
    passes::run(&mut out, &mut cx, &[(true, types::read_type_names)]);
    root::wrap_bare_properties(&mut out, &mut cx);
    // The tree passes, in sequence (`passes` walks per-node steps). One walk for the first
    // two: a property map's repair rewrites only the node's own maps; the boolean-`required`
    // promotion reads the node's maps and its properties' `required`, which no repair changes.
    let first = [
        (
            cx.rules.repair_property_maps,
            property_maps::repair as passes::NodeStep,
        ),
        (cx.rules.promote_boolean_required, objects::boolean_required),
    ];
    passes::run(&mut out, &mut cx, &first);
    // The closed-object rewrite reads where a node sits (`then`/`else`, `allOf` members are
    // merged into another node), which the Schema-proto rewrites after it change (a
    // conditional becomes a union): it walks the whole tree before them.
    let closed = [(
        closed::closed_unevaluated_on(&cx),
        closed::closed_unevaluated as passes::NodeStep,
    )];
    passes::run(&mut out, &mut cx, &closed);
    proto_walk::run(&mut out, &mut cx);
    let presence = [(presence::run_on(&cx), presence::run as passes::NodeStep)];
    passes::run(&mut out, &mut cx, &presence);
    refs::run(&mut out, &mut cx);
    // The encodings (issue 16): one call, on the tree with its references resolved.
    let encoded = options
        .encode
        .then(|| crate::encode::run(&mut out, rules, slot))
        .flatten();
    if let Some(e) = &encoded {
        cx.record(&e.changes);
    }
    out.transform(&mut Pipeline::new(&mut cx));
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
    // The report is empty exactly when nothing changed: each rewrite records its change
    // (`tests/corpus.rs` and `tests/props.rs` hold the report against a comparison of the
    // output with the input, for every profile). What makes a schema not strict-compatible
    // is recorded beside the changes but changes nothing itself.
    if report
        .changes
        .iter()
        .all(|c| c.rule == RuleId::StrictIncompatible)
    {
        report.changes.clear();
    }
    Sanitized {
        schema: out,
        report,
        decoder,
    }
}

#[cfg(test)]
mod tests {
    use super::rule::Step;
    use super::*;

    fn rules() -> impl Iterator<Item = &'static Rule> {
        ORDER.iter().filter_map(|r| r.rule())
    }

    /// A rule cannot fix without a check: its own, another rule's that finds what it fixes
    /// (`found_by`, with the reason), or a reason why nothing can find it.
    #[test]
    fn every_rule_that_fixes_has_a_check_or_a_reason() {
        for rule in rules() {
            if rule.fixes() {
                let found = rule.check.is_some() || rule.finder().check.is_some();
                assert!(
                    found || rule.unchecked.is_some(),
                    "{}: a fix without a check or a reason",
                    rule.id
                );
            }
            assert!(
                rule.check.is_none() || rule.found_by.is_none(),
                "{}: its own check and another's",
                rule.id
            );
            assert!(
                rule.found_by.is_none_or(|f| f.check.is_some()),
                "{}: found by a rule without a check",
                rule.id
            );
        }
    }

    /// Each place in the order runs a step its rule has, and each step of a rule has a place
    /// (a step left out of the order would never run).
    #[test]
    fn every_step_has_its_place_in_the_order() {
        for run in ORDER {
            match *run {
                Pre(r) => assert!(r.pre.is_some(), "{}: no PRE step", r.id),
                Post(r) => assert!(r.post.is_some(), "{}: no POST step", r.id),
                Around(r) => assert!(!r.fixes() && r.check.is_some(), "{}", r.id),
                FoldHints => {}
            }
        }
        let placed = |rule: &Rule, pre: bool| {
            ORDER.iter().any(|run| match *run {
                Pre(r) => pre && std::ptr::eq(r, rule),
                Post(r) => !pre && std::ptr::eq(r, rule),
                _ => false,
            })
        };
        for rule in rules() {
            assert!(rule.pre.is_none() || placed(rule, true), "{}", rule.id);
            assert!(rule.post.is_none() || placed(rule, false), "{}", rule.id);
        }
        assert!(matches!(ORDER.last(), Some(Post(r)) if std::ptr::eq(*r, &unions::ALONE)));
    }

    /// The plan holds exactly the steps whose gate is on, in the order's order.
    #[test]
    fn the_plan_is_the_order_with_the_gates_read_once() {
        for rules in crate::PROFILES {
            for slot in [Slot::Parameters, Slot::Schema] {
                let plan = Plan::new(rules, slot);
                let on = |r: &Rule| (r.gate)(rules, slot);
                let pre: Vec<Step> = ORDER
                    .iter()
                    .filter_map(|run| match *run {
                        Pre(r) if on(r) => r.pre,
                        _ => None,
                    })
                    .collect();
                assert!(
                    plan.pre()
                        .iter()
                        .zip(&pre)
                        .all(|(a, b)| std::ptr::fn_addr_eq(*a, *b))
                );
                assert_eq!(plan.pre().len(), pre.len(), "{}", rules.name);
                let post = ORDER
                    .iter()
                    .filter(|run| match **run {
                        Post(r) => on(r),
                        FoldHints => true,
                        _ => false,
                    })
                    .count();
                assert_eq!(plan.post().len(), post, "{}", rules.name);
            }
        }
        // Gemini has no `oneOf`: the step runs; OpenAI keeps it: it does not.
        let runs = |rules: &Rules| {
            Plan::new(rules, Slot::Parameters)
                .pre()
                .iter()
                .any(|s| std::ptr::fn_addr_eq(*s, one_of::one_of as Step))
        };
        assert!(runs(&Rules::GEMINI));
        assert!(!runs(&Rules::OPENAI));
    }

    /// The checker reports in the declared order: at one node, `type-list` (a PRE rule)
    /// before `unsupported-keyword` (a POST rule).
    #[test]
    fn the_checker_reports_in_the_declared_order() {
        let v = serde_json::json!({"type": ["string", "integer"], "oneOf": [{"minimum": 1}]});
        let found: Vec<RuleId> = crate::check(&v, &Rules::GEMINI, Slot::Schema)
            .into_iter()
            .map(|v| v.rule)
            .collect();
        let at = |id| found.iter().position(|r| *r == id);
        assert!(
            at(RuleId::TypeList) < at(RuleId::UnsupportedKeyword),
            "{found:?}"
        );
        assert!(at(RuleId::TypeList).is_some(), "{found:?}");
    }
}
