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
