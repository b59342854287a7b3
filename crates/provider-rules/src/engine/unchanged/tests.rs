//! The proof is exact where it holds: every step it asks says "cannot change" only where the
//! step, run there, changes nothing; a schema it proves is one the engine leaves as it is.

use super::steps::{STEPS, answer, walk_rules};
use super::trees::TREES;
use super::*;
use crate::engine::passes::At;
use crate::engine::proto_walk::test_support::{object_nodes, sample_texts};
use crate::engine::{Cx, ORDER, Run};
use crate::{PROFILES, RuleId};
use schema_core::Location;

/// Every rule of the walk and every tree pass of the order has its answer (a new one must
/// say how it leaves a node as it is), and every built-in profile's proof is made.
#[test]
fn every_step_and_tree_pass_has_its_answer() {
    for rule in walk_rules() {
        assert!(
            STEPS.iter().any(|(r, _)| std::ptr::eq(*r, rule)),
            "{}: no answer",
            rule.id
        );
    }
    for run in ORDER {
        if let Run::Tree(t) = run {
            assert!(
                TREES.iter().any(|(x, _)| std::ptr::eq(*x, *t)),
                "{:?}: no answer",
                t.ids
            );
        }
    }
    for rules in PROFILES {
        for slot in [Slot::Parameters, Slot::Schema] {
            assert!(Proof::new(rules, slot).holds, "{}", rules.name);
        }
    }
}

/// Every object node of the samples (the JSON-Schema-Test-Suite's and the MCP corpus's), as
/// it stands on its own.
fn nodes() -> Vec<Schema> {
    object_nodes(
        sample_texts()
            .iter()
            .filter_map(|t| Schema::from_str(t).ok()),
    )
}

/// What stays in the report of a step run alone: its changes but the "not strict-compatible"
/// notes (a report of those only is emptied).
fn kept(cx: Cx<'_>) -> usize {
    cx.into_report()
        .changes
        .iter()
        .filter(|c| c.rule != RuleId::StrictIncompatible)
        .count()
}

/// Where a rule's answer says a node that holds what it reads is left as it is, each of its
/// steps, run on that node (at the root and below it), changes nothing and reports nothing:
/// every object node of the corpora, every profile, both slots.
#[test]
fn a_step_that_cannot_change_a_node_changes_nothing() {
    let nodes = nodes();
    let (mut checked, mut proven) = (0usize, 0usize);
    for rules in PROFILES {
        for slot in [Slot::Parameters, Slot::Schema] {
            for rule in walk_rules() {
                if !(rule.gate)(rules, slot) {
                    continue;
                }
                let reads = rule.reads_in(rules, slot);
                let Some(leaves) = answer(rule) else {
                    continue;
                };
                for node in &nodes {
                    let Some(o) = node.as_object() else { continue };
                    if reads != KeywordMask::ALL && !o.may_contain_any(reads) {
                        continue;
                    }
                    let root = At::root();
                    let below =
                        At::child(&root, Location::Name(schema_core::Keyword::Properties, "x"));
                    for (at, is_root) in [(&root, true), (&below, false)] {
                        checked += 1;
                        let n = Node {
                            rules,
                            slot,
                            root: is_root,
                        };
                        if !leaves(o, &n) {
                            continue;
                        }
                        proven += 1;
                        for step in rule.pre.iter().chain(&rule.post) {
                            let mut s = node.clone();
                            let mut cx = Cx::new(rules, slot);
                            step(&mut s, at, &mut cx);
                            assert_eq!(
                                &s,
                                node,
                                "{} ({}) on {}",
                                rule.id,
                                rules.name,
                                node.to_json_string()
                            );
                            assert_eq!(
                                kept(cx),
                                0,
                                "{} ({}) on {}",
                                rule.id,
                                rules.name,
                                node.to_json_string()
                            );
                        }
                    }
                }
            }
        }
    }
    assert!(proven > 10_000 && checked > proven, "{proven} of {checked}");
}

/// A schema the proof says cannot change is one the engine leaves as it is, with an empty
/// report: every sample, every profile, both slots (and the proof holds for most of those
/// the engine leaves as they are).
#[test]
fn a_schema_proven_unchanged_is_left_as_it_is() {
    let (mut same, mut proven) = (0usize, 0usize);
    for t in sample_texts() {
        for rules in PROFILES {
            for slot in [Slot::Parameters, Slot::Schema] {
                let Ok(read) = crate::Read::parse(t.as_bytes(), rules) else {
                    continue;
                };
                let proof = read.cannot_change(rules, slot);
                let Ok(before) = Schema::from_str(&t) else {
                    continue;
                };
                let done = read.sanitize(
                    rules,
                    slot,
                    &crate::SanitizeOptions::default(),
                    crate::engine::Reads::Everything,
                );
                if done.report.is_empty() {
                    same += 1;
                }
                if proof {
                    proven += 1;
                    assert!(
                        done.report.is_empty(),
                        "{} {slot:?}: {t}: {:?}",
                        rules.name,
                        done.report.changes
                    );
                    assert_eq!(done.schema, before, "{} {slot:?}: {t}", rules.name);
                }
            }
        }
    }
    eprintln!("proven {proven} of {same} left as they are");
    assert!(proven > 0 && proven <= same, "{proven} of {same}");
}

/// The first reason the proof gives up on `s` (for the counts' causes): a tree pass's keyword,
/// or the first node where a step answers by what it reads or its test says "may change".
fn why_not(s: &Schema, rules: &Rules, slot: Slot) -> String {
    fn node(
        s: &Schema,
        root: bool,
        proof: &Proof,
        at: &Node<'_>,
        held: &mut Vec<schema_core::Keyword>,
    ) -> Option<String> {
        let Some(o) = s.as_object() else {
            return root.then(|| "boolean root".to_owned());
        };
        for e in o.entries() {
            if let schema_core::Key::Known(k) = e.key
                && KeywordMask::of(&[k]).intersects(proof.tree)
                && !held.contains(&k)
            {
                held.push(k);
            }
        }
        let here = Node {
            rules: at.rules,
            slot: at.slot,
            root,
        };
        for rule in walk_rules() {
            if !(rule.gate)(at.rules, at.slot) {
                continue;
            }
            let reads = rule.reads_in(at.rules, at.slot);
            if reads != KeywordMask::ALL && !o.may_contain_any(reads) {
                continue;
            }
            match answer(rule) {
                None => {
                    let kws: Vec<String> = o
                        .entries()
                        .iter()
                        .filter_map(|e| match e.key {
                            schema_core::Key::Known(k)
                                if KeywordMask::of(&[k]).intersects(reads) =>
                            {
                                Some(k.to_string())
                            }
                            _ => None,
                        })
                        .collect();
                    return Some(format!("{} reads {}", rule.id, kws.join("+")));
                }
                Some(f) if !f(o, &here) => return Some(format!("{} test", rule.id)),
                Some(_) => {}
            }
        }
        if !proof.leaves(o, o.keyword_mask(), &here) {
            return Some("a tree pass's node step".to_owned());
        }
        let mut found = None;
        o.for_each_child(|_, c| {
            if found.is_none() {
                found = node(c, false, proof, at, held);
            }
        });
        found
    }
    let proof = Proof::new(rules, slot);
    let at = Node {
        rules,
        slot,
        root: true,
    };
    let mut held = Vec::new();
    node(s, true, &proof, &at, &mut held).unwrap_or_else(|| {
        if held.is_empty() {
            "depth".to_owned()
        } else {
            let kws: Vec<String> = held.iter().map(ToString::to_string).collect();
            format!("the tree holds {}", kws.join("+"))
        }
    })
}

/// Per profile and slot, over every sample: how many schemas the proof holds for, how many
/// it gives up on that the engine leaves as they are, how many the engine changes (printed,
/// with the causes of the second), and that the proof never holds for a changed one.
#[test]
fn the_proof_counts_per_profile() {
    let texts = sample_texts();
    let (mut all_proven, mut all_fell) = (0usize, 0usize);
    let mut causes: std::collections::BTreeMap<String, usize> = Default::default();
    for rules in PROFILES {
        for slot in [Slot::Parameters, Slot::Schema] {
            let (mut proven, mut fell, mut changed) = (0usize, 0usize, 0usize);
            for t in &texts {
                let Ok(read) = crate::Read::parse(t.as_bytes(), rules) else {
                    continue;
                };
                let proof = read.cannot_change(rules, slot);
                let done = read.sanitize(
                    rules,
                    slot,
                    &crate::SanitizeOptions::default(),
                    crate::engine::Reads::Everything,
                );
                match (proof, done.report.is_empty()) {
                    (true, true) => proven += 1,
                    (true, false) => panic!("{} {slot:?}: proven but changed: {t}", rules.name),
                    (false, true) => {
                        fell += 1;
                        if let Ok(s) = Schema::from_str(t) {
                            *causes.entry(why_not(&s, rules, slot)).or_default() += 1;
                        }
                    }
                    (false, false) => changed += 1,
                }
            }
            eprintln!(
                "proof {:<24} {slot:<10?} proven {proven:>5}  fell back but unchanged {fell:>4}  changed {changed:>5}",
                rules.name
            );
            all_proven += proven;
            all_fell += fell;
        }
    }
    let mut causes: Vec<_> = causes.into_iter().collect();
    causes.sort_by_key(|c| std::cmp::Reverse(c.1));
    for (c, n) in causes.iter().take(40) {
        eprintln!("fell back {n:>5}: {c}");
    }
    eprintln!("proof total: proven {all_proven}, fell back but unchanged {all_fell}");
    // The proof gives up on fewer than 1 % of the schemas the engine leaves as they are.
    assert!(
        all_fell * 100 < all_proven + all_fell,
        "{all_proven} proven, {all_fell} fell back"
    );
}

/// `fast` is `slow`: tree, report, and whether the decoder undoes anything.
fn same_result(fast: &crate::Sanitized, slow: &crate::Sanitized, what: &str) {
    assert_eq!(fast.schema, slow.schema, "{what}");
    assert_eq!(fast.report, slow.report, "{what}");
    assert_eq!(
        fast.decoder.is_identity(),
        slow.decoder.is_identity(),
        "{what}"
    );
}

/// The whole result `sanitize_slice_with` gives where the proof spares the engine is the one
/// the engine gives (tree, changes, strict compatibility, refused property keys, an identity
/// decoder): every sample, every profile (strict ones too), both slots; and a root that is
/// not a schema is never proven.
#[test]
fn the_result_without_the_engine_is_the_engines() {
    let opts = crate::SanitizeOptions::default();
    let mut spared = 0usize;
    for t in sample_texts() {
        for rules in PROFILES {
            for slot in [Slot::Parameters, Slot::Schema] {
                let Ok(read) = crate::Read::parse(t.as_bytes(), rules) else {
                    continue;
                };
                if read.unchanged(rules, slot).is_some() {
                    spared += 1;
                }
                let fast = read.sanitized(rules, slot, &opts);
                let Ok(read) = crate::Read::parse(t.as_bytes(), rules) else {
                    continue;
                };
                let slow = read.sanitize(rules, slot, &opts, crate::engine::Reads::Everything);
                let what = format!("{} {slot:?}: {t}", rules.name);
                same_result(&fast, &slow, &what);
                // `sanitize` on the tree, against the engine on it.
                let Ok(tree) = Schema::from_str(&t) else {
                    continue;
                };
                let fast = crate::sanitize(&tree, rules, slot);
                let slow = crate::engine::sanitize_with(tree, rules, slot, &opts);
                same_result(&fast, &slow, &what);
            }
        }
    }
    assert!(spared > 10_000, "{spared}");
    // A tree the parser would not make: a value of the wrong JSON type, or deeper than the
    // cap's levels, is the engine's to repair.
    let mut deep = String::from(r#"{"type":"string"}"#);
    for _ in 0..70 {
        deep = format!(r#"{{"type":"object","properties":{{"a":{deep}}}}}"#);
    }
    let deep = Schema::parse(
        deep.as_bytes(),
        &schema_core::ParseOptions {
            max_depth: 200,
            ..Default::default()
        },
    )
    .expect("json")
    .schema;
    let mut wrong = Schema::from_str(r#"{"type":"object","properties":{}}"#).expect("json");
    if let Some(o) = wrong.as_object_mut() {
        o.insert(
            schema_core::Keyword::Required,
            schema_core::Value::Raw(schema_core::Instance::from_json("true").expect("json")),
        );
    }
    for (tree, rules) in [(deep, &Rules::OPENAI), (wrong, &Rules::OPENAI)] {
        assert!(crate::parsed::unchanged_tree(&tree, rules, Slot::Parameters, &opts).is_none());
        assert!(
            !crate::sanitize(&tree, rules, Slot::Parameters)
                .report
                .is_empty()
        );
    }
    for rules in PROFILES {
        for slot in [Slot::Parameters, Slot::Schema] {
            for t in ["[1]", "\"x\"", "7"] {
                let Ok(read) = crate::Read::parse(t.as_bytes(), rules) else {
                    continue;
                };
                assert!(!read.cannot_change(rules, slot), "{} {t}", rules.name);
            }
        }
    }
}
