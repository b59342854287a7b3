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
mod alone_merge;
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
pub(crate) mod merge;
mod message;
mod min_items;
mod not_members;
mod not_types;
mod nulls;
mod objects;
mod one_of;
mod one_of_exclusive;
mod passes;
mod patterns;
mod plans;
mod presence;
mod property_maps;
pub(crate) mod proto_walk;
mod ref_false;
mod refs;
pub(crate) mod root;
mod root_refs;
mod rule;
mod strict;
mod trees;
mod types;
pub(crate) mod unchanged;
mod unevaluated_alone;
mod unevaluated_any_of;
mod unevaluated_branches;
mod unevaluated_items_bound;
mod unevaluated_items_branches;
mod unions;

pub(crate) use cx::Cx;

use crate::RuleId;
use crate::Slot;
use crate::report::{Change, Sanitized};
use crate::rules::Rules;
use passes::At;
use schema_core::Schema;

use Run::{Around, FoldHints, Post, Pre, Tree};
pub(crate) use rule::{Check, Pass, Plan, Rule, Run, checks};

/// Every rule in one declared order, which both the engine and the checker iterate: the
/// engine's PRE pass runs the `Pre` steps on each node before its children (structural
/// rewrites whose results are then walked: merges, splits, union collapse, tuple folding),
/// its POST pass the `Post` steps after them (typing, keyword filtering, hints), each step
/// only where its rule's gate is on ([`Plan`]); the checker runs each rule's check once, at
/// the rule's first place here, so its report follows this order. A rule may run in both
/// passes, or twice in one.
///
/// The `Tree` entries are passes over the whole tree ([`trees`], each with the reason no step
/// of a node can do it), which the driver ([`run_with`]) runs at their places: before the walk
/// of the PRE and POST steps, after it, and last of all, on the finished result, the depth
/// cap. `Around` entries are the checks of rules fixed by a tree pass.
pub(crate) const ORDER: &[Run] = &[
    // Before the walk. Type names first: every later pass and step reads `type`.
    Tree(&trees::TYPE_NAMES),
    Tree(&trees::BARE_PROPERTIES),
    Around(&root::BARE_PROPERTIES),
    Tree(&trees::MAPS_AND_FLAGS),
    Tree(&trees::CLOSED),
    Tree(&trees::PROTO),
    Tree(&trees::PRESENCE),
    Tree(&trees::REFS),
    Around(&refs::REFS),
    Tree(&trees::ENCODE),
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
    // After the walk.
    Tree(&trees::DECLARE_2020),
    Tree(&trees::STRICT_LIMITS),
    // On the finished result, last of all.
    Tree(&trees::DEPTH),
];

/// How many times the PRE steps run on one node at most.
const PRE_ROUNDS: usize = 4;

/// The walk: the plan's PRE steps on each node before its children, its POST steps after.
struct Pipeline<'a, 'r> {
    cx: &'a mut Cx<'r>,
    plan: std::borrow::Cow<'static, Plan>,
}

impl<'a, 'r> Pipeline<'a, 'r> {
    /// The walk for `cx`'s profile and slot (their gates read once: per process for a
    /// built-in profile, here for any other).
    fn new(cx: &'a mut Cx<'r>) -> Pipeline<'a, 'r> {
        let plan = plans::plan(cx.rules, cx.slot);
        Pipeline { cx, plan }
    }
}

impl Pipeline<'_, '_> {
    /// The walk of `schema`: what [`Schema::transform`] does with [`Pipeline::pre`] and
    /// [`Pipeline::post`] (the same nodes in the same order, as deep), but a node's pointer
    /// is built only where a step reads it ([`At`]: most steps change nothing, so read none).
    fn walk(&mut self, schema: &mut Schema, at: &At<'_>, depth: usize) {
        self.pre(at, schema);
        if depth < schema_core::MAX_WALK_DEPTH {
            schema.for_each_child_mut(|loc, child| {
                self.walk(child, &At::child(at, loc), depth + 1);
            });
        }
        self.post(at, schema);
    }

    fn pre(&mut self, at: &At<'_>, schema: &mut Schema) {
        self.cx.enter(schema);
        // A merge or a collapse can bring up what an earlier step rewrites (a type list, a
        // draft-07 tuple...): the steps run again while they change something (bounded).
        for _ in 0..PRE_ROUNDS {
            let before = self.cx.change_count();
            for (step, reads) in self.plan.pre_reads() {
                // Boolean subschemas left by the boolean step are where the profile accepts
                // them (`additionalProperties: false`...): only the root is shaped.
                if matches!(schema, Schema::Bool(_)) && !at.is_root() {
                    break;
                }
                if skips(schema, reads) {
                    continue;
                }
                step(schema, at, self.cx);
            }
            if self.cx.change_count() == before {
                break;
            }
        }
    }

    fn post(&mut self, at: &At<'_>, schema: &mut Schema) {
        if !matches!(schema, Schema::Bool(_)) {
            for (step, reads) in self.plan.post_reads() {
                if skips(schema, reads) {
                    continue;
                }
                step(schema, at, self.cx);
            }
        }
        self.cx.leave();
    }
}

/// Whether a step that reads only `reads` ([`Rule::reads`]) would leave `schema` as it is: an
/// object node that holds none of them (tested on the node as the earlier steps left it). A
/// step that reads every keyword (the default) always runs: it may act on what is absent.
fn skips(schema: &Schema, reads: schema_core::KeywordMask) -> bool {
    reads != schema_core::KeywordMask::ALL
        && matches!(schema, Schema::Object(o) if !o.may_contain_any(reads))
}

/// [`crate::sanitize_with`] where the no-change proof does not answer: [`ORDER`], the depth
/// cap last; rewrites `schema` in place.
pub(crate) fn sanitize_with(
    schema: Schema,
    rules: &Rules,
    slot: Slot,
    options: &crate::SanitizeOptions,
) -> Sanitized {
    sanitize_capped(
        schema,
        rules,
        slot,
        options,
        Cap::On,
        Raw::Maybe,
        Reads::Everything,
    )
}

/// [`sanitize_with`] with the cap as `cap` says on the first run (the encodings' second run,
/// on that run's result, has it on): [`Cap::Changed`] for a schema as the parser kept it
/// whole ([`crate::sanitize_slice`], no subtree cut at the parser's limit, which is the
/// cap's), which nests within the limit, so where nothing changed the cap has nothing to find.
/// `raw`: what the parser says of values of the wrong JSON type ([`Raw`]).
/// `reads`: what the caller reads of the result ([`Reads`]; the encodings' settling reads
/// the decoders, so with them on everything is built).
pub(crate) fn sanitize_capped(
    schema: Schema,
    rules: &Rules,
    slot: Slot,
    options: &crate::SanitizeOptions,
    cap: Cap,
    raw: Raw,
    reads: Reads,
) -> Sanitized {
    if options.encode {
        let run = |s, cap, raw| run_with(s, rules, slot, options, cap, raw, Reads::Everything);
        let out = run(schema, cap, raw);
        return crate::encode::settle(out, |s| run(s.clone(), Cap::On, Raw::Maybe));
    }
    run_with(schema, rules, slot, options, cap, raw, reads)
}

/// Rewrites `schema` into what `rules` accepts, without the depth cap (what the cap's own
/// stand-ins are made with). See [`crate::sanitize`].
pub(crate) fn run(schema: Schema, rules: &Rules, slot: Slot) -> Sanitized {
    run_with(
        schema,
        rules,
        slot,
        &crate::SanitizeOptions::default(),
        Cap::Off,
        Raw::Maybe,
        Reads::Everything,
    )
}

/// Whether [`run_with`] runs the passes on the finished result (the depth cap).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cap {
    /// It does ([`sanitize_with`]).
    On,
    /// It does where a change was recorded: the schema was parsed whole, within the cap's
    /// limit ([`sanitize_capped`]), and a tree no step changed is still that tree.
    Changed,
    /// It does not ([`run`]: the cap's own stand-ins).
    Off,
}

/// What a caller reads of [`run_with`]'s result.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Reads {
    /// The schema, the report and the decoder ([`sanitize_with`]).
    Everything,
    /// The schema and whether it changed, nothing else ([`crate::sanitize_into`]): the
    /// decoder is not built (the identity is returned), the strict rewrite keeps no list of
    /// its nullable properties for it, and the report's changes keep no message (their
    /// pointers, rules and lossiness stay: steps read them). The report lacks only the places
    /// no decoder reaches ([`UNREACHABLE`]), each beside the strict rewrite's own change
    /// there: whether the schema changed is the same.
    SchemaOnly,
}

/// Whether a keyword of the tree may hold a value of the wrong JSON type
/// ([`schema_core::Value::Raw`]): what the tree passes before the walk look for (a type name
/// in another case, a property map that is not a map of schemas, a draft-03 `required:
/// true`), each in a walk of its own.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Raw {
    /// One may (a tree that was not just parsed).
    Maybe,
    /// None does: the parser, which keeps each such value as it reports it, reported none
    /// ([`crate::sanitize_slice`]); those walks have nothing to find ([`Cx::may_hold_raw`]).
    /// With it, what the parser says the tree's objects may hold
    /// ([`schema_core::Parsed::keywords`]): a pass that searches the tree for a keyword outside
    /// it is skipped until a change is recorded ([`Cx::tree_may_hold`]).
    None(schema_core::KeywordMask),
}

/// [`ORDER`] on `schema` ([`sanitize_with`] and [`run`]): its tree passes at their places, the walk
/// of its PRE and POST steps at the first of them, and, where `cap` is on, the passes on the
/// finished result. The tree is rewritten in place, and whether anything changed is what the
/// steps recorded (every step that rewrites a node records a change: no copy of the input is
/// kept to compare the output with).
pub(crate) fn run_with(
    schema: Schema,
    rules: &Rules,
    slot: Slot,
    options: &crate::SanitizeOptions,
    cap: Cap,
    raw: Raw,
    reads: Reads,
) -> Sanitized {
    let mut cx = Cx::new(rules, slot);
    cx.reads = reads;
    if let Raw::None(held) = raw {
        cx.parsed_without_raw();
        // No walk has run yet: the parser's union of the objects' masks is what one would
        // find (the `$ref` search before the walk is skipped where it holds none).
        cx.tree_holds(held);
    }
    let mut out = schema;
    let mut encoded = None;
    let (walk_start, walk_end) = WALK;
    // The tree passes before and after the walk, then the walk's entries read once by the
    // plan (the spans are found at compile time: no entry of the walk is read here).
    let mut tree = |runs: &[Run], out: &mut Schema, cx: &mut Cx<'_>| {
        for run in runs {
            let Tree(t) = *run else { continue };
            match t.pass {
                Pass::Walk(steps) => passes::run(out, cx, steps),
                Pass::Whole(pass) => pass(out, cx),
                Pass::Encode => {
                    encoded = options
                        .encode
                        .then(|| crate::encode::run(out, rules, slot))
                        .flatten();
                    if let Some(e) = &encoded {
                        cx.record(&e.changes);
                    }
                }
                Pass::Result(_) => {}
            }
        }
    };
    tree(&ORDER[..walk_start], &mut out, &mut cx);
    Pipeline::new(&mut cx).walk(&mut out, &At::root(), 0);
    tree(&ORDER[walk_end..ON_RESULT], &mut out, &mut cx);
    let then = encoded.map(|e| e.decoder).filter(|d| !d.is_identity());
    // The passes on the result are the depth cap's, which finds nothing where the strict
    // limits' walk saw no object past its limit (nothing after that walk changes the tree).
    let within_cap = cx
        .deepest_object
        .is_some_and(|d| d <= crate::depth::limit());
    let mut done = finish(out, cx, then, rules, slot);
    let capped = !within_cap
        && match cap {
            Cap::On => true,
            Cap::Changed => !done.report.changes.is_empty(),
            Cap::Off => false,
        };
    if capped {
        for run in &ORDER[ON_RESULT..] {
            if let Tree(t) = *run
                && let Pass::Result(pass) = t.pass
            {
                pass(&mut done, rules, slot);
            }
        }
    }
    done
}

/// Where the walk's entries (`Pre`, `Post`, `FoldHints`) begin and end in [`ORDER`]: the
/// tree passes before them run before the walk, those after them after it (a test holds that
/// no tree pass lies between).
pub(crate) const WALK: (usize, usize) = walk_span(ORDER);

/// Where the passes on the finished result begin in [`ORDER`]: its last entries.
const ON_RESULT: usize = on_result(ORDER);

/// [`WALK`] of `order`.
const fn walk_span(order: &[Run]) -> (usize, usize) {
    let (mut i, mut first, mut end) = (0, order.len(), 0);
    while i < order.len() {
        if matches!(order[i], Pre(_) | Post(_) | FoldHints) {
            if first == order.len() {
                first = i;
            }
            end = i + 1;
        }
        i += 1;
    }
    if first > end {
        first = end;
    }
    (first, end)
}

/// [`ON_RESULT`] of `order`.
const fn on_result(order: &[Run]) -> usize {
    let mut i = 0;
    while i < order.len() {
        if let Tree(t) = order[i]
            && matches!(t.pass, Pass::Result(_))
        {
            return i;
        }
        i += 1;
    }
    order.len()
}

/// The message of a place the strict rewrite made nullable where no decoder reaches.
pub(crate) const UNREACHABLE: &str = "a property made nullable where no decoder reaches: a null the model sends there reaches the tool";

/// The result of the passes and the walk: the report, the decoder (`then`: the encodings').
fn finish(
    out: Schema,
    mut cx: Cx<'_>,
    then: Option<crate::decode::Decoder>,
    rules: &Rules,
    slot: Slot,
) -> Sanitized {
    let strict_nulls = std::mem::take(&mut cx.strict_nulls);
    let refs = cx.holds_ref != Some(false);
    let decoder_read = cx.reads_everything();
    let mut report = cx.into_report();
    let (mut decoder, unreachable) = match decoder_read {
        true => crate::decode::build(&out, strict_nulls, refs),
        false => Default::default(),
    };
    if let Some(d) = then {
        decoder.then = Some(Box::new(d));
    }
    for at in unreachable {
        report.changes.push(Change {
            pointer: at,
            rule: RuleId::StrictRequired,
            message: UNREACHABLE.to_owned(),
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
mod tests;
