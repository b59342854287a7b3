//! Cases for every profile or API: profiles by name, bare property maps, boolean `required`,
//! profiles without the new fields.

use crate::common::{prevents, rewrites, run};
use provider_rules::{Rules, Slot, profile};
use serde_json::json;

#[test]
fn every_profile_is_accepted_by_name() {
    for name in [
        "gemini",
        "gemini-code-assist",
        "gemini-jsonschema",
        "vertex",
        "openai",
        "openai-strict",
        "anthropic",
        "anthropic-strict",
        "xai",
        "bedrock",
        "portable",
    ] {
        assert_eq!(profile(name).map(|r| r.name()), Some(name));
    }
    assert_eq!(
        provider_rules::profile_names().count(),
        provider_rules::PROFILES.len()
    );
}

#[test]
fn bare_property_map_wrapped_for_every_api__properties_lost() {
    // peers §3 #37: OpenAI and Anthropic forwarded the members as unknown keywords (a tool
    // without parameters); both want the object around them.
    let input = json!({"foo": {"type": "string", "required": true}, "bar": {"type": "integer"}});
    for rules in [
        &Rules::OPENAI,
        &Rules::ANTHROPIC,
        &Rules::XAI,
        &Rules::BEDROCK,
        &Rules::GEMINI_JSONSCHEMA,
        &Rules::PORTABLE,
    ] {
        prevents(
            rules,
            Slot::Parameters,
            input.clone(),
            "bare-properties",
            false,
        );
        let out = run(rules, Slot::Parameters, &input);
        let v = out.schema.to_value();
        assert_eq!(v["type"], "object", "{}: {v}", rules.name());
        assert_eq!(
            v["properties"]["foo"]["type"],
            "string",
            "{}: {v}",
            rules.name()
        );
        assert_eq!(
            v["properties"]["foo"]["required"],
            json!(null),
            "{}",
            rules.name()
        );
        assert_eq!(
            v["properties"]["bar"]["type"],
            "integer",
            "{}",
            rules.name()
        );
        assert_eq!(v["required"], json!(["foo"]), "{}: {v}", rules.name());
        assert!(
            out.report
                .changes
                .iter()
                .any(|c| c.rule == "bare-properties"),
            "{}",
            rules.name()
        );
    }
    rewrites(
        &Rules::OPENAI,
        Slot::Parameters,
        input,
        json!({"type": "object", "properties": {"foo": {"type": "string"}, "bar": {"type": "integer"}}, "required": ["foo"]}),
    );
}

#[test]
fn boolean_required_promoted_for_every_api__draft_2020_schema_is_invalid() {
    // Anthropic: a boolean `required` makes the schema invalid 2020-12 (A-series `JSON schema
    // is invalid`); every profile moves it to the parent's list.
    let input =
        json!({"type": "object", "properties": {"a": {"type": "string", "required": true}}});
    prevents(
        &Rules::ANTHROPIC,
        Slot::Parameters,
        input.clone(),
        "malformed-keyword",
        true,
    );
    for rules in provider_rules::PROFILES {
        let out = run(rules, Slot::Parameters, &input);
        let v = out.schema.to_value();
        assert_eq!(v["required"], json!(["a"]), "{}: {v}", rules.name());
        assert_eq!(
            v["properties"]["a"]["required"],
            json!(null),
            "{}",
            rules.name()
        );
    }
}

#[test]
fn profiles_without_the_new_fields_still_load() {
    // A complete profile written before `empty-properties`, `wrap-bare-properties`,
    // `promote-boolean-required` and `default-beside-any-of` existed loads with the old
    // behaviour.
    let mut v: serde_json::Value = serde_json::from_str(&Rules::GEMINI.to_json().unwrap()).unwrap();
    let obj = v.as_object_mut().unwrap();
    for k in [
        "empty-properties",
        "wrap-bare-properties",
        "promote-boolean-required",
        "default-beside-any-of",
    ] {
        assert!(obj.remove(k).is_some(), "{k} not serialized");
    }
    let old = Rules::from_json(&v.to_string()).unwrap();
    assert!(old.empty_properties);
    assert!(!old.wrap_bare_properties);
    assert!(!old.promote_boolean_required);
    assert!(old.default_beside_any_of);
    // Derived profiles inherit them and can override them.
    let r = Rules::from_toml("extends = \"gemini\"\nempty-properties = true\n").unwrap();
    assert!(r.empty_properties);
    assert!(r.wrap_bare_properties);
    assert!(!r.default_beside_any_of);
    assert_eq!(
        Rules::from_toml(&Rules::GEMINI.to_toml().unwrap()).unwrap(),
        Rules::GEMINI
    );
}

#[test]
fn boolean_required_stays_with_its_branch_when_a_root_union_merges__top_level_any_of() {
    // A2 (`input_schema does not support oneOf, allOf, or anyOf at the top level`): the root
    // union's branches merge into one object whose `required` is what every branch requires.
    // A draft-03 flag in one branch is that branch's: the merged object must not require it.
    let input = json!({"anyOf": [
        {"type": "object", "properties": {"a": {"type": "string", "required": true}, "c": {"type": "string", "required": true}}},
        {"type": "object", "properties": {"b": {"type": "string"}, "c": {"type": "string", "required": true}}}
    ]});
    for rules in [&Rules::ANTHROPIC, &Rules::BEDROCK, &Rules::VERTEX] {
        let out = run(rules, Slot::Parameters, &input);
        let v = out.schema.to_value();
        assert_eq!(v["required"], json!(["c"]), "{}: {v}", rules.name());
        for p in ["a", "b", "c"] {
            assert_eq!(
                v["properties"][p]["required"],
                json!(null),
                "{}",
                rules.name()
            );
        }
    }
    // `allOf` is a conjunction: a flag in any member makes the merged property required.
    let out = run(
        &Rules::GEMINI,
        Slot::Parameters,
        &json!({"type": "object", "allOf": [
            {"properties": {"a": {"type": "string", "required": true}}},
            {"properties": {"b": {"type": "integer"}}}
        ]}),
    );
    assert_eq!(out.schema.to_value()["required"], json!(["a"]));
}

#[test]
fn property_map_with_non_schema_members_keeps_its_valid_members__invalid_value_object() {
    // 9router#2489 (Antigravity): `Invalid value at '...parameters.properties[6].value'
    // (...Schema), "object"`. A hand-written `"x": "object"` used to make the whole map
    // malformed, so every property was lost.
    let input = json!({"type": "object", "properties": {"x": "object", "y": {"type": "string"}, "z": 5}, "required": ["y"]});
    for rules in provider_rules::PROFILES {
        let out = run(rules, Slot::Parameters, &input);
        let v = out.schema.to_value();
        let props = v["properties"].as_object().expect("properties kept");
        let names: Vec<&str> = props.keys().map(String::as_str).collect();
        assert_eq!(names, ["x", "y", "z"], "{}: {v}", rules.name());
        // Strict modes make the optional `x` nullable: a type list with null.
        let typed = |s: &serde_json::Value, t: &str| {
            s["type"] == t
                || s["type"]
                    .as_array()
                    .is_some_and(|l| l.contains(&serde_json::Value::from(t)))
        };
        assert!(typed(&props["x"], "object"), "{}: {v}", rules.name());
        assert!(typed(&props["y"], "string"), "{}: {v}", rules.name());
        assert!(
            out.report
                .changes
                .iter()
                .any(|c| c.rule == "property-map-repaired" && c.lossy),
            "{}: {:?}",
            rules.name(),
            out.report.changes
        );
    }
}
