//! One rule run and checked alone from outside the crate ([`provider_rules::one_rule`]): what
//! its check finds, its fix alone removes, and nothing else of the engine runs.

use provider_rules::{RuleId, Rules, Slot, one_rule};
use schema_core::Schema;

/// Gemini: `Proto field is not repeating, cannot start list` — a `type` list, split.
#[test]
fn gemini_proto_field_is_not_repeating_type_list_fixed_alone() {
    let before =
        Schema::from_str(r#"{"type":"object","properties":{"v":{"type":["string","integer"]}}}"#)
            .unwrap();
    let found = one_rule::check(RuleId::TypeList, &before, &Rules::GEMINI, Slot::Parameters);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].pointer, "/properties/v");
    let (after, changes) =
        one_rule::fix(RuleId::TypeList, &before, &Rules::GEMINI, Slot::Parameters);
    assert!(
        changes.iter().all(|c| c.rule == RuleId::TypeList),
        "{changes:?}"
    );
    assert!(one_rule::check(RuleId::TypeList, &after, &Rules::GEMINI, Slot::Parameters).is_empty());
    // Alone: the keyword filter did not run (the split's `anyOf` stays as the rule left it).
    assert!(
        after.to_json_string().contains("anyOf"),
        "{}",
        after.to_json_string()
    );
}

/// A rule whose gate is off for the profile changes nothing (OpenAI accepts `type` lists).
#[test]
fn a_rule_off_for_the_profile_changes_nothing() {
    let before = Schema::from_str(r#"{"type":["string","null"]}"#).unwrap();
    assert!(one_rule::check(RuleId::TypeList, &before, &Rules::OPENAI, Slot::Schema).is_empty());
    let (after, changes) = one_rule::fix(RuleId::TypeList, &before, &Rules::OPENAI, Slot::Schema);
    assert!(changes.is_empty());
    assert_eq!(after, before);
}

/// xAI: `anyOf with zero variants` — for every profile, the empty-union rule alone leaves
/// nothing its check finds.
#[test]
fn any_of_with_zero_variants_fixed_alone_for_every_profile() {
    let before = Schema::from_str(r#"{"type":"object","properties":{"v":{"anyOf":[]}}}"#).unwrap();
    for rules in provider_rules::PROFILES {
        let found = one_rule::check(RuleId::EmptyUnion, &before, rules, Slot::Schema);
        assert_eq!(found.len(), 1, "{}: {found:?}", rules.name);
        let (after, _) = one_rule::fix(RuleId::EmptyUnion, &before, rules, Slot::Schema);
        assert!(
            one_rule::check(RuleId::EmptyUnion, &after, rules, Slot::Schema).is_empty(),
            "{}",
            rules.name
        );
    }
}

/// Every schema of the bundled MCP corpus and the JSON-Schema test suite's (draft 2020-12 and
/// 7), with its slot.
fn corpus() -> Vec<(Slot, Schema)> {
    let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/corpus"));
    let read = |p: &std::path::Path| -> serde_json::Value {
        serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap()
    };
    let files = |d: std::path::PathBuf| {
        let mut f: Vec<_> = std::fs::read_dir(d)
            .map(|rd| rd.map(|e| e.unwrap().path()).collect())
            .unwrap_or_default();
        f.retain(|p: &std::path::PathBuf| p.extension().is_some_and(|e| e == "json"));
        f.sort();
        f
    };
    let mut out = Vec::new();
    for f in files(dir.join("mcp")) {
        for t in read(&f)["tools"].as_array().into_iter().flatten() {
            for (key, slot) in [
                ("inputSchema", Slot::Parameters),
                ("outputSchema", Slot::Schema),
            ] {
                if let Some(s) = t.get(key) {
                    out.push((slot, Schema::from_str(&s.to_string()).unwrap()));
                }
            }
        }
    }
    for draft in ["draft2020-12", "draft7"] {
        for f in files(dir.join("jsts").join(draft)) {
            for case in read(&f).as_array().into_iter().flatten() {
                out.push((
                    Slot::Schema,
                    Schema::from_str(&case["schema"].to_string()).unwrap(),
                ));
            }
        }
    }
    out
}

/// What a rule alone says over the corpus, for every profile, is under its ids (its own and
/// those it reports, through which its providers' error texts are found): a change or a
/// violation under another id would miss its provider's text. A rule found by the keyword
/// filter's check reports that check's ids; a result that is not strict-compatible is said
/// beside any rule's change.
#[test]
fn a_rule_alone_says_only_its_own_ids_over_the_corpus() {
    let corpus = corpus();
    assert!(corpus.len() > 1000, "{}", corpus.len());
    let filter = one_rule::ids(RuleId::UnsupportedKeyword);
    let mut wrong = std::collections::BTreeSet::new();
    for &id in RuleId::ALL {
        let ids = one_rule::ids(id);
        if ids.first() != Some(&id) {
            continue; // not a rule's own id
        }
        for rules in provider_rules::PROFILES {
            for (slot, s) in &corpus {
                let (_, changes) = one_rule::fix(id, s, rules, *slot);
                wrong.extend(
                    changes
                        .iter()
                        .filter(|c| !ids.contains(&c.rule) && c.rule != RuleId::StrictIncompatible)
                        .map(|c| (id, "change", c.rule)),
                );
                wrong.extend(
                    one_rule::check(id, s, rules, *slot)
                        .iter()
                        .filter(|v| !ids.contains(&v.rule) && !filter.contains(&v.rule))
                        .map(|v| (id, "violation", v.rule)),
                );
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "(rule, what, under another id): {wrong:?}"
    );
}
