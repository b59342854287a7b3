//! The engine's own tests: every rule has a check, every step and tree pass its place in the
//! order, the depth cap last, the plan and the checker in the declared order.

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
            FoldHints | Tree(_) => {}
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
    let last = ORDER.iter().rposition(|r| matches!(r, Pre(_) | Post(_)));
    assert!(matches!(last.map(|i| ORDER[i]), Some(Post(r)) if std::ptr::eq(r, &unions::ALONE)));
}

/// The tree passes.
fn trees() -> impl Iterator<Item = (usize, &'static rule::Tree)> {
    ORDER.iter().enumerate().filter_map(|(i, r)| match *r {
        Tree(t) => Some((i, t)),
        _ => None,
    })
}

/// The depth cap is the last entry of the order, and the only pass on the finished result
/// (the driver runs those after everything else: nothing may follow them).
#[test]
fn the_order_ends_with_the_depth_cap() {
    assert!(matches!(ORDER.last(), Some(Tree(t)) if std::ptr::eq(*t, &trees::DEPTH)));
    let on_result: Vec<usize> = trees()
        .filter(|(_, t)| matches!(t.pass, Pass::Result(_)))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(on_result, [ORDER.len() - 1]);
    assert_eq!(ON_RESULT, ORDER.len() - 1);
    assert!(matches!(trees::DEPTH.pass, Pass::Result(p)
        if std::ptr::fn_addr_eq(p, crate::depth::cap as fn(&mut Sanitized, &Rules, Slot))));
}

/// Each tree pass has one place in the order, and the id that names it names no other.
#[test]
fn each_tree_pass_is_in_the_order_once() {
    let all: Vec<&rule::Tree> = trees().map(|(_, t)| t).collect();
    for (i, t) in all.iter().enumerate() {
        let first = t.ids.first().copied();
        assert!(first.is_some(), "a tree pass names no id");
        for u in &all[i + 1..] {
            assert!(!std::ptr::eq(*t, *u), "{first:?}: twice in the order");
            assert_ne!(u.ids.first().copied(), first);
        }
    }
    for t in [
        &trees::TYPE_NAMES,
        &trees::BARE_PROPERTIES,
        &trees::MAPS_AND_FLAGS,
        &trees::CLOSED,
        &trees::PROTO,
        &trees::PRESENCE,
        &trees::REFS,
        &trees::ENCODE,
        &trees::DECLARE_2020,
        &trees::STRICT_LIMITS,
        &trees::DEPTH,
    ] {
        assert!(all.iter().any(|u| std::ptr::eq(*u, t)), "{:?}", t.ids);
    }
    assert_eq!(all.len(), 11);
}

/// The passes before the walk come before every step of a node, those after it after
/// every step: type names are read first, `$ref`s resolved and the encodings made before
/// the walk; 2020-12 declared and the strict limits counted after it.
#[test]
fn the_tree_passes_frame_the_walk() {
    let place = |t: &rule::Tree| trees().find(|(_, u)| std::ptr::eq(*u, t)).map(|(i, _)| i);
    let steps: Vec<usize> = ORDER
        .iter()
        .enumerate()
        .filter(|(_, r)| matches!(r, Pre(_) | Post(_) | FoldHints))
        .map(|(i, _)| i)
        .collect();
    let (first, last) = (steps[0], steps[steps.len() - 1]);
    // The driver runs the walk once, for its entries' whole span: no tree pass within it.
    assert_eq!(WALK, (first, last + 1));
    assert!(trees().all(|(i, _)| i < first || i > last));
    assert!(WALK.1 <= ON_RESULT);
    assert_eq!(place(&trees::TYPE_NAMES), Some(0));
    for t in [&trees::REFS, &trees::ENCODE] {
        assert!(place(t) < Some(first), "{:?}", t.ids);
    }
    assert!(place(&trees::REFS) < place(&trees::ENCODE));
    for t in [&trees::DECLARE_2020, &trees::STRICT_LIMITS] {
        assert!(place(t) > Some(last), "{:?}", t.ids);
    }
}

/// The order's driver runs the depth cap only where it is on: [`run`] (what the cap's
/// stand-ins are made with) leaves a schema too deep, [`crate::sanitize`] does not.
#[test]
fn the_cap_runs_last_and_only_where_it_is_on() {
    let mut text = String::from("{}");
    for _ in 0..crate::depth::limit() + 1 {
        text = format!(r#"{{"type":"array","items":{text}}}"#);
    }
    let schema = Schema::from_str(&text).unwrap();
    let depth = |s: &Sanitized| s.report.changes.iter().any(|c| c.rule == RuleId::Depth);
    assert!(!depth(&run(schema.clone(), &Rules::OPENAI, Slot::Schema)));
    assert!(depth(&crate::sanitize(
        &schema,
        &Rules::OPENAI,
        Slot::Schema
    )));
}

/// A pass skipped because no node holds its keywords ([`Cx::tree_may_hold`]) still sees
/// what the passes before it wrote: a bare property map's members, walked by no pass
/// until it is wrapped, keep their dependency and their reference rewritten (Gemini).
#[test]
fn a_pass_skipped_for_absent_keywords_sees_what_earlier_passes_wrote() {
    let text = r##"{"a":{"type":"object","properties":{"k":{"type":"string"},"m":{"type":"string"}},"dependentRequired":{"k":["m"]}},"b":{"$ref":"#/properties/a/properties/k"}}"##;
    let out = crate::sanitize(
        &Schema::from_str(text).unwrap(),
        &Rules::GEMINI,
        Slot::Parameters,
    );
    let v = out.schema.to_value();
    let a = &v["properties"]["a"];
    assert!(a.get("dependentRequired").is_none(), "{v}");
    assert!(a["anyOf"].is_array(), "{v}");
    assert_eq!(v["properties"]["b"]["type"], "string", "{v}");
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

/// A caller that reads only the schema (`sanitize_into`) gets the same schema, and the same
/// report but for the messages and the places no decoder reaches (known only where one is
/// built), as one that reads everything, for every profile and slot.
#[test]
fn reading_only_the_schema_changes_neither_the_schema_nor_the_report() {
    let mut decoders = 0;
    for t in proto_walk::test_support::sample_texts() {
        let Ok(s) = Schema::from_str(&t) else {
            continue;
        };
        for rules in crate::PROFILES {
            for slot in [Slot::Parameters, Slot::Schema] {
                let run = |reads| {
                    let options = crate::SanitizeOptions::default();
                    sanitize_capped(s.clone(), rules, slot, &options, Cap::On, Raw::Maybe, reads)
                };
                let (mut all, lean) = (run(Reads::Everything), run(Reads::SchemaOnly));
                assert_eq!(all.schema, lean.schema, "{}: {t}", rules.name);
                assert_eq!(all.report.is_empty(), lean.report.is_empty(), "{t}");
                // Where no decoder reaches is known only where one is built; no message is
                // kept where none is read.
                all.report.changes.retain(|c| c.message != UNREACHABLE);
                for c in &mut all.report.changes {
                    c.message.clear();
                }
                assert_eq!(all.report, lean.report, "{}: {t}", rules.name);
                assert!(lean.decoder.is_identity());
                decoders += usize::from(!all.decoder.is_identity());
            }
        }
    }
    assert!(decoders > 100, "{decoders}");
}

/// The passes on the finished result are the depth cap alone: `run_with` skips them where
/// the strict limits' walk saw no object past the cap's limit, which only the cap reads.
#[test]
fn the_depth_cap_is_the_only_pass_on_the_result() {
    let on_result: Vec<_> = ORDER[ON_RESULT..].iter().collect();
    assert_eq!(on_result.len(), 1);
    assert!(matches!(on_result[0], Run::Tree(t) if std::ptr::eq(*t, &trees::DEPTH)));
}
