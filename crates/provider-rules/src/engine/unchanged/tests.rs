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
