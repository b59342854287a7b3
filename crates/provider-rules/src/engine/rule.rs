//! [`Rule`]: one rule as one value — its id, its gate, its steps, its check, its hints, the
//! ids it reports and through them its providers' error texts — declared in the file of its
//! fix; [`Hint`]: a rule's wording in a description; [`Run`]: where a rule runs in the one
//! declared order ([`ORDER`](super::ORDER)); [`Tree`]: a pass over the whole tree at its place
//! in that order; [`Plan`]: that order with the gates read once for a profile.

use super::Cx;
use super::passes::NodeStep;
use crate::check::Checker;
use crate::report::Sanitized;
use crate::{RuleId, Rules, Slot};
use schema_core::{Keyword, KeywordMask, Schema, SchemaObject};

/// A step: one node, its pointer, the context. It does not test its rule's gate: the
/// [`Plan`] holds only the steps whose gate is on.
/// The pointer is built only where the step reads it ([`At`](super::passes::At)).
pub(crate) type Step = fn(&mut Schema, &super::passes::At<'_>, &mut Cx<'_>);

/// Whether a rule is on for a profile in a slot (read once per sanitize, by [`Plan::new`]).
pub(crate) type Gate = fn(&Rules, Slot) -> bool;

/// What a rule's check looks at: the checker's half of the rule, which finds what its fix
/// would change (so `check(sanitize(x))` is empty proves the fix for it).
#[derive(Clone, Copy)]
pub(crate) enum Check {
    /// Every object node.
    Object(fn(&mut Checker<'_>, &str, &SchemaObject)),
    /// Every node, boolean subschemas included.
    Node(fn(&mut Checker<'_>, &str, &Schema)),
    /// The root, once, before the walk.
    Root(fn(&mut Checker<'_>, &Schema)),
}

/// One rule: what the engine runs to fix it and what the checker runs to find it.
pub(crate) struct Rule {
    /// The rule's id (its changes and violations may name related ids too: a `required`
    /// rule reports malformed, duplicate and undefined names).
    pub(crate) id: RuleId,
    /// Which capability of [`Rules`] turns the fix on.
    pub(crate) gate: Gate,
    /// The fix on a node before its children ([`Run::Pre`]).
    pub(crate) pre: Option<Step>,
    /// The fix on a node after its children ([`Run::Post`]).
    pub(crate) post: Option<Step>,
    /// What the fix would change.
    pub(crate) check: Option<Check>,
    /// The rule whose check finds what this one fixes, where it has no check of its own
    /// (an `allOf` the profile refuses is a keyword it does not accept).
    pub(crate) found_by: Option<&'static Rule>,
    /// Why a rule that fixes has no check of its own.
    pub(crate) unchecked: Option<&'static str>,
    /// The other ids its changes and violations name (a `required` rule reports malformed
    /// and duplicate names too): with [`id`](Rule::id), what its providers' error texts are
    /// found by ([`Rule::provider_errors`]).
    pub(crate) reports: &'static [RuleId],
    /// The sentences its losses leave in a description (its steps write them from here).
    pub(crate) hints: &'static [Hint],
    /// The keywords without which its steps leave an object node as it is (the walk skips
    /// them on an object that holds none: [`Rule::reads`]); all by default.
    pub(crate) reads: KeywordMask,
    /// Where what its steps read depends on the profile: those keywords for a profile in a
    /// slot ([`Rule::reads_for`]; read once per plan, in place of [`Rule::reads`]).
    pub(crate) reads_for: Option<fn(&Rules, Slot) -> KeywordMask>,
}

/// A rule's wording in a description: the sentence one of its losses leaves there, each `{}`
/// where the step's words go ("Also accepts {}."). The keywords' own hints, which any rule
/// dropping a keyword leaves, are [`crate::hints::for_keyword`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hint {
    /// The id of the change that leaves it.
    pub(crate) rule: RuleId,
    /// The sentence.
    pub(crate) text: &'static str,
}

impl Hint {
    /// The hint `text` of a change of `rule`.
    pub(crate) const fn new(rule: RuleId, text: &'static str) -> Hint {
        Hint { rule, text }
    }

    /// The sentence with each `{}` replaced by the next of `words` (the words are not read
    /// again: a `{}` in them stays).
    pub(crate) fn with(&self, words: &[&str]) -> String {
        let mut out =
            String::with_capacity(self.text.len() + words.iter().map(|w| w.len()).sum::<usize>());
        let mut words = words.iter();
        let mut parts = self.text.split("{}");
        if let Some(first) = parts.next() {
            out.push_str(first);
        }
        for part in parts {
            out.push_str(words.next().copied().unwrap_or_default());
            out.push_str(part);
        }
        out
    }

    /// The sentence of a hint without words.
    pub(crate) fn text(&self) -> String {
        self.text.to_owned()
    }
}

/// A gate that is always on: the step tests the node (and the profile's values it reads).
pub(crate) fn always(_: &Rules, _: Slot) -> bool {
    true
}

impl Rule {
    /// A rule with no step and no check yet, always on.
    pub(crate) const fn new(id: RuleId) -> Rule {
        Rule {
            id,
            gate: always,
            pre: None,
            post: None,
            check: None,
            found_by: None,
            unchecked: None,
            reports: &[],
            hints: &[],
            reads: KeywordMask::ALL,
            reads_for: None,
        }
    }

    /// Its steps change an object node only where it holds one of `keywords` (the walk skips
    /// them on the others, without a call: [`Plan`]).
    pub(crate) const fn reads(mut self, keywords: &[Keyword]) -> Rule {
        self.reads = KeywordMask::of(keywords);
        self
    }

    /// Its steps change an object node only where it holds one of the keywords `reads` gives
    /// for the profile and slot (the plan reads it once: [`Plan`]).
    pub(crate) const fn reads_for(mut self, reads: fn(&Rules, Slot) -> KeywordMask) -> Rule {
        self.reads_for = Some(reads);
        self
    }

    /// What its steps read for `rules` in `slot`: [`Rule::reads_for`] where given, else
    /// [`Rule::reads`].
    pub(crate) fn reads_in(&self, rules: &Rules, slot: Slot) -> KeywordMask {
        self.reads_for.map_or(self.reads, |f| f(rules, slot))
    }

    /// Its steps change an object node only where it holds a subschema.
    pub(crate) const fn reads_subschemas(mut self) -> Rule {
        self.reads = KeywordMask::subschemas();
        self
    }

    /// Also reports `ids` (beside its own id).
    pub(crate) const fn reports(mut self, ids: &'static [RuleId]) -> Rule {
        self.reports = ids;
        self
    }

    /// Leaves `hints` in descriptions.
    pub(crate) const fn hints(mut self, hints: &'static [Hint]) -> Rule {
        self.hints = hints;
        self
    }

    /// Turned on by `gate`.
    pub(crate) const fn gate(mut self, gate: Gate) -> Rule {
        self.gate = gate;
        self
    }

    /// Fixed by `step` before a node's children.
    pub(crate) const fn pre(mut self, step: Step) -> Rule {
        self.pre = Some(step);
        self
    }

    /// Fixed by `step` after a node's children.
    pub(crate) const fn post(mut self, step: Step) -> Rule {
        self.post = Some(step);
        self
    }

    /// Found by `check`.
    pub(crate) const fn check(mut self, check: Check) -> Rule {
        self.check = Some(check);
        self
    }

    /// Found by `by`'s check (a rule without a check of its own), for the reason given.
    pub(crate) const fn found_by(mut self, by: &'static Rule, why: &'static str) -> Rule {
        self.found_by = Some(by);
        self.unchecked = Some(why);
        self
    }

    /// Fixed without any check, for the reason given.
    pub(crate) const fn unchecked(mut self, why: &'static str) -> Rule {
        self.unchecked = Some(why);
        self
    }

    /// The rule whose check finds what this one fixes: itself, or [`Rule::found_by`].
    pub(crate) fn finder(&self) -> &Rule {
        self.found_by.unwrap_or(self)
    }

    /// The ids its changes and violations name: its own, then [`Rule::reports`].
    pub(crate) fn ids(&self) -> impl Iterator<Item = RuleId> + '_ {
        std::iter::once(self.id).chain(self.reports.iter().copied())
    }

    /// The error texts of `rules`' provider for what this rule finds, by id, from the
    /// provider registry (the one table of providers' texts: [`crate::Provider::errors`]).
    pub(crate) fn provider_errors(&self, rules: &Rules) -> Vec<(RuleId, &'static str)> {
        let errors = crate::providers::ErrorTexts::new(rules);
        self.ids()
            .filter_map(|id| errors.get(id).map(|e| (id, e)))
            .collect()
    }

    /// Whether the rule can change a schema in the walk.
    pub(crate) fn fixes(&self) -> bool {
        self.pre.is_some() || self.post.is_some()
    }
}

/// Where a rule runs in the declared order.
#[derive(Clone, Copy)]
pub(crate) enum Run {
    /// Its `pre` step, on each node before the node's children (the PRE pass, repeated while
    /// it changes something).
    Pre(&'static Rule),
    /// Its `post` step, on each node after the node's children (the POST pass).
    Post(&'static Rule),
    /// Fixed by a tree pass of its file that the driver runs around the walk (`$ref`s, a bare
    /// property map): only its check runs from the order.
    Around(&'static Rule),
    /// The engine's own POST step: a node's pending hints folded into its description (no
    /// rule: it changes only what other rules' losses said).
    FoldHints,
    /// A pass over the whole tree, which no step of a node can be (each says why): the driver
    /// runs it at its place, before or after the walk of the PRE and POST steps (no rule: the
    /// checker skips it; what it fixes is found by the rules its changes name).
    Tree(&'static Tree),
}

impl Run {
    /// The rule run here.
    pub(crate) fn rule(self) -> Option<&'static Rule> {
        match self {
            Run::Pre(r) | Run::Post(r) | Run::Around(r) => Some(r),
            Run::FoldHints | Run::Tree(_) => None,
        }
    }
}

/// Whether a tree pass's node step is on, read from the context once before the walk.
pub(crate) type TreeGate = fn(&Cx<'_>) -> bool;

/// A pass over the whole tree, at its place in [`ORDER`](super::ORDER).
pub(crate) struct Tree {
    /// The ids its changes name, the first naming the pass (no two passes share it; the
    /// order's tests read them).
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) ids: &'static [RuleId],
    /// What runs.
    pub(crate) pass: Pass,
}

/// What a tree pass runs.
#[derive(Clone, Copy)]
pub(crate) enum Pass {
    /// Node steps before each node's children, each where its gate is on, walked together in
    /// one walk ([`super::passes`]): the report is what running them one after another writes.
    Walk(&'static [(TreeGate, NodeStep)]),
    /// A pass on the tree and the context (it reads its own capabilities of the profile).
    Whole(fn(&mut Schema, &mut Cx<'_>)),
    /// The encodings, when [`crate::SanitizeOptions::encode`] asks for them: on the tree, with
    /// their own changes and decoder.
    Encode,
    /// On the finished result (its report and decoder made), where the cap is on: the depth
    /// cap, after every other pass. Only the order's last entries are such passes.
    Result(fn(&mut Sanitized, &Rules, Slot)),
}

/// The most steps one pass holds: the walk's entries of the order.
const MAX_STEPS: usize = super::WALK.1 - super::WALK.0;

/// The declared order for one profile in one slot: the steps whose gate is on, each pass in
/// its order, the gates read once (not on every node; for a built-in profile, once per
/// process: [`super::plans`]).
#[derive(Clone)]
pub(crate) struct Plan {
    pre: [Step; MAX_STEPS],
    pre_len: usize,
    post: [Step; MAX_STEPS],
    post_len: usize,
    /// Each step's [`Rule::reads`], at the step's place.
    pre_reads: [KeywordMask; MAX_STEPS],
    post_reads: [KeywordMask; MAX_STEPS],
    /// Each step's rule, at the step's place (`None`: the hint folding).
    pre_rules: [Option<&'static Rule>; MAX_STEPS],
    post_rules: [Option<&'static Rule>; MAX_STEPS],
}

/// A step that does nothing (the plan's unused places).
fn idle(_: &mut Schema, _: &super::passes::At<'_>, _: &mut Cx<'_>) {}

impl Plan {
    /// The steps of [`ORDER`](super::ORDER) on for `rules` in `slot`.
    pub(crate) fn new(rules: &Rules, slot: Slot) -> Plan {
        let mut plan = Plan {
            pre: [idle; MAX_STEPS],
            pre_len: 0,
            post: [idle; MAX_STEPS],
            post_len: 0,
            pre_reads: [KeywordMask::ALL; MAX_STEPS],
            post_reads: [KeywordMask::ALL; MAX_STEPS],
            pre_rules: [None; MAX_STEPS],
            post_rules: [None; MAX_STEPS],
        };
        for run in &super::ORDER[super::WALK.0..super::WALK.1] {
            let (step, pre) = match *run {
                Run::Pre(r) => (r.pre, true),
                Run::Post(r) => (r.post, false),
                Run::Around(_) | Run::Tree(_) => continue,
                Run::FoldHints => (Some(super::cx::fold_hints as Step), false),
            };
            let on = run.rule().is_none_or(|r| (r.gate)(rules, slot));
            let Some(step) = step.filter(|_| on) else {
                continue;
            };
            let reads = run
                .rule()
                .map_or(KeywordMask::ALL, |r| r.reads_in(rules, slot));
            if pre {
                plan.pre[plan.pre_len] = step;
                plan.pre_reads[plan.pre_len] = reads;
                plan.pre_rules[plan.pre_len] = run.rule();
                plan.pre_len += 1;
            } else {
                plan.post[plan.post_len] = step;
                plan.post_reads[plan.post_len] = reads;
                plan.post_rules[plan.post_len] = run.rule();
                plan.post_len += 1;
            }
        }
        plan
    }

    /// The PRE pass's steps, in order.
    pub(crate) fn pre(&self) -> &[Step] {
        &self.pre[..self.pre_len]
    }

    /// The POST pass's steps, in order.
    pub(crate) fn post(&self) -> &[Step] {
        &self.post[..self.post_len]
    }

    /// The PRE pass's steps with what each reads ([`Rule::reads`]), in order.
    pub(crate) fn pre_reads(&self) -> impl Iterator<Item = (Step, KeywordMask)> + '_ {
        // The masks by reference: the array by value was copied on every call (per node).
        self.pre()
            .iter()
            .copied()
            .zip(self.pre_reads.iter().copied())
    }

    /// The PRE pass's steps as their rules with what each reads, in order (`None`: the
    /// engine's own step).
    pub(crate) fn pre_rules(
        &self,
    ) -> impl Iterator<Item = (Option<&'static Rule>, KeywordMask)> + '_ {
        self.pre_rules[..self.pre_len]
            .iter()
            .copied()
            .zip(self.pre_reads.iter().copied())
    }

    /// The POST pass's steps as their rules with what each reads, in order.
    pub(crate) fn post_rules(
        &self,
    ) -> impl Iterator<Item = (Option<&'static Rule>, KeywordMask)> + '_ {
        self.post_rules[..self.post_len]
            .iter()
            .copied()
            .zip(self.post_reads.iter().copied())
    }

    /// The POST pass's steps with what each reads, in order.
    pub(crate) fn post_reads(&self) -> impl Iterator<Item = (Step, KeywordMask)> + '_ {
        self.post()
            .iter()
            .copied()
            .zip(self.post_reads.iter().copied())
    }
}

/// The checks of [`ORDER`](super::ORDER), each rule's once, where it first runs: the order
/// of the checker's report (root checks run before the walk, the others on each node).
pub(crate) fn checks() -> &'static [Check] {
    static CHECKS: std::sync::OnceLock<Vec<Check>> = std::sync::OnceLock::new();
    CHECKS.get_or_init(|| {
        let mut seen: Vec<&'static Rule> = Vec::new();
        let mut out = Vec::new();
        for rule in super::ORDER.iter().filter_map(|r| r.rule()) {
            if seen.iter().any(|s| std::ptr::eq(*s, rule)) {
                continue;
            }
            seen.push(rule);
            out.extend(rule.check);
        }
        out
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ORDER;

    fn rules() -> impl Iterator<Item = &'static Rule> {
        ORDER.iter().filter_map(|r| r.rule())
    }

    /// A rule's hints are left by its own changes, and each says something.
    #[test]
    fn every_hint_is_under_one_of_its_rules_ids() {
        for rule in rules() {
            for h in rule.hints {
                assert!(rule.ids().any(|i| i == h.rule), "{}: {h:?}", rule.id);
                assert!(h.text.ends_with('.') && h.text.len() > 3, "{h:?}");
            }
        }
    }

    /// Words fill the slots in order, and are not read again.
    #[test]
    fn a_hint_takes_its_words_in_order() {
        let h = Hint::new(RuleId::Conditional, "If {}: {}.");
        assert_eq!(h.with(&["a {}", "b"]), "If a {}: b.");
        assert_eq!(h.with(&["a"]), "If a: .");
        assert_eq!(
            Hint::new(RuleId::EnumEmpty, "Accepts no value.").text(),
            "Accepts no value."
        );
    }

    /// Every error text of the registry is reached from a rule by its ids (a text filed
    /// under an id no rule reports would never be shown), but the property-key check's,
    /// which reads the names before any rule (`keys.rs`).
    #[test]
    fn every_error_text_of_the_registry_is_reached_from_a_rule() {
        let outside = [RuleId::PropertyKey];
        for p in crate::PROVIDERS {
            for e in p.errors {
                for name in e.rules {
                    let Ok(id) = name.parse::<RuleId>() else {
                        panic!("{}: {name} is no rule", p.name)
                    };
                    assert!(
                        outside.contains(&id) || rules().any(|r| r.ids().any(|i| i == id)),
                        "{}: {id} is reported by no rule",
                        p.name
                    );
                }
            }
            let found: Vec<_> = rules().flat_map(|r| r.provider_errors(p.native)).collect();
            assert!(
                p.errors.is_empty() || !found.is_empty(),
                "{}: no rule reaches its texts",
                p.name
            );
        }
    }

    /// A rule that says what its steps read ([`Rule::reads`]) leaves every object node that
    /// holds none of those keywords as it is (the walk skips its steps there): each such node
    /// below, made from schemas rich in keywords and the corpus's by removing the keywords
    /// read, for every profile, at the root and below it.
    #[test]
    fn a_step_skipped_for_what_it_reads_would_change_nothing() {
        use schema_core::{Key, KeywordMask};
        let mut texts: Vec<String> = [
            r##"{"type":["string","null"],"nullable":true,"anyOf":[{"type":"null"},{"const":1}],"oneOf":[],"allOf":[{"minimum":1}],"if":{"required":["a"]},"then":{"maxLength":2},"else":{},"dependentSchemas":{"a":{"required":["b"]}},"const":"x","prefixItems":[{"type":"string"}],"items":[{"type":"integer"}],"additionalItems":false,"exclusiveMinimum":true,"exclusiveMaximum":false,"minimum":0,"maximum":9,"$id":"#n","dependencies":{"a":["b"],"c":{"type":"object"}},"properties":{"properties":{"type":"object"},"b":false,"c":true},"additionalProperties":false,"format":"uuid","not":{"type":"string"},"default":1,"enum":[1,null],"required":["b",1],"title":"T","description":"D","examples":[1],"x-a":1,"patternProperties":{"^x":{}},"unevaluatedProperties":false}"##,
            r#"{"type":"object","properties":{},"required":[],"additionalProperties":{"type":"string","format":"date"}}"#,
            r#"{"type":"null","description":"n"}"#,
            r#"{"type":"array","items":{"anyOf":[{"type":"string"},{"type":"integer"}],"default":"a"}}"#,
        ]
        .iter()
        .map(|t| (*t).to_owned())
        .collect();
        let corpus = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/corpus/mcp");
        let mut files: Vec<_> = std::fs::read_dir(corpus)
            .into_iter()
            .flatten()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        files.sort();
        for f in files.iter().take(8) {
            let Ok(doc) = serde_json::from_slice::<serde_json::Value>(&std::fs::read(f).unwrap())
            else {
                continue;
            };
            for t in doc["tools"].as_array().into_iter().flatten() {
                texts.extend(t.get("inputSchema").map(|s| s.to_string()));
            }
        }
        // Every object node of the samples, as it stands on its own.
        let nodes = crate::engine::proto_walk::test_support::object_nodes(
            texts.iter().filter_map(|t| Schema::from_str(t).ok()),
        );
        let mut checked = 0;
        for (rule, rules) in ORDER
            .iter()
            .filter_map(|r| r.rule())
            .flat_map(|rule| crate::PROFILES.iter().map(move |p| (rule, *p)))
        {
            let reads = rule.reads_in(rules, Slot::Parameters);
            if reads == KeywordMask::ALL {
                continue;
            }
            for node in &nodes {
                let mut without = node.clone();
                if let Some(o) = without.as_object_mut() {
                    o.retain(|e| match e.key {
                        Key::Known(k) => {
                            let mut one = schema_core::SchemaObject::new();
                            one.insert(k, schema_core::Value::Bool(true));
                            !one.may_contain_any(reads)
                        }
                        Key::Other(_) => true,
                    });
                }
                let mut fresh = schema_core::SchemaObject::new();
                for e in without.as_object().map(|o| o.entries()).unwrap_or(&[]) {
                    fresh.insert_key(e.key.clone(), e.value.clone());
                }
                assert!(!fresh.may_contain_any(reads), "{}", rule.id);
                let fresh = Schema::Object(fresh);
                let root = crate::engine::passes::At::root();
                let below = crate::engine::passes::At::child(
                    &root,
                    schema_core::Location::Name(schema_core::Keyword::Properties, "x"),
                );
                for p in [&root, &below] {
                    for step in rule.pre.iter().chain(&rule.post) {
                        let mut s = fresh.clone();
                        let mut cx = Cx::new(rules, Slot::Parameters);
                        step(&mut s, p, &mut cx);
                        assert_eq!(s, fresh, "{} on {}", rule.id, fresh.to_json_string());
                        assert_eq!(cx.change_count(), 0, "{}", rule.id);
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 1000, "{checked}");
    }
}
