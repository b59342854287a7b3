//! OpenAI, Anthropic, xAI, Bedrock and strict profiles: peers.md §3 cases and the §4 error
//! catalogue as regression tests; `strict_compatible: false` cases; profiles by name.
// Test names read `behaviour__provider_error_it_prevents`.
#![allow(non_snake_case)]

mod common;
use common::{prevents, rewrites, run};
use provider_rules::{Rules, Slot, check, profile};
use serde_json::json;

#[test]
fn openai_array_gets_items__array_schema_missing_items() {
    // O1; peers §3 #42 (non-strict).
    let input = json!({"type": "object", "properties": {"paths": {"type": "array"}}});
    prevents(
        &Rules::OPENAI,
        Slot::Parameters,
        input.clone(),
        "items-missing",
        true,
    );
    rewrites(
        &Rules::OPENAI,
        Slot::Parameters,
        input,
        json!({"properties": {"paths": {"type": "array", "items": {}}}, "type": "object"}),
    );
}

#[test]
fn openai_root_object_gets_properties__object_schema_missing_properties() {
    // O4; peers §3 #44.
    prevents(
        &Rules::OPENAI,
        Slot::Parameters,
        json!({"type": "object"}),
        "root-properties",
        true,
    );
    rewrites(
        &Rules::OPENAI,
        Slot::Parameters,
        json!({"type": "object"}),
        json!({"type": "object", "properties": {}}),
    );
}

#[test]
fn openai_null_required_removed__none_is_not_of_type_array() {
    prevents(
        &Rules::OPENAI,
        Slot::Parameters,
        json!({"type": "object", "properties": {"a": {}}, "required": null}),
        "malformed-keyword",
        false,
    );
}

#[test]
fn openai_strict_closes_objects_and_requires_all__required_is_required_to_be_supplied() {
    // peers §3 #38; O3, O12.
    let input = json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}, "required": ["a"]});
    prevents(
        &Rules::OPENAI_STRICT,
        Slot::Parameters,
        input.clone(),
        "strict-required",
        true,
    );
    prevents(
        &Rules::OPENAI_STRICT,
        Slot::Parameters,
        input.clone(),
        "additional-properties",
        true,
    );
    let out = rewrites(
        &Rules::OPENAI_STRICT,
        Slot::Parameters,
        input,
        json!({"properties": {"a": {"type": "string"}, "b": {"type": ["integer", "null"]}}, "required": ["a", "b"], "type": "object", "additionalProperties": false}),
    );
    assert!(out.report.strict_compatible);
}

#[test]
fn openai_strict_optional_enum_gets_null_member__required_is_required_to_be_supplied() {
    let out = run(
        &Rules::OPENAI_STRICT,
        Slot::Parameters,
        &json!({"type": "object", "properties": {"k": {"type": "string", "enum": ["a"]}}}),
    );
    assert_eq!(
        out.schema.to_value()["properties"]["k"],
        json!({"type": ["string", "null"], "enum": ["a", null]})
    );
}

#[test]
fn openai_strict_one_of_becomes_any_of__one_of_is_not_permitted() {
    // peers §3 #40; O5.
    let input = json!({"type": "object", "properties": {"x": {"oneOf": [{"type": "string"}, {"type": "integer"}]}}, "required": ["x"]});
    prevents(
        &Rules::OPENAI_STRICT,
        Slot::Parameters,
        input.clone(),
        "unsupported-keyword",
        true,
    );
    rewrites(
        &Rules::OPENAI_STRICT,
        Slot::Parameters,
        input,
        json!({"properties": {"x": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}, "required": ["x"], "type": "object", "additionalProperties": false}),
    );
}

#[test]
fn openai_strict_uri_format_to_description__uri_is_not_a_valid_format() {
    // peers §3 #41: PAI also moves minLength; it is supported since May 2025 (pydantic-ai#4490).
    let input = json!({"type": "object", "properties": {"u": {"type": "string", "minLength": 1, "format": "uri"}}, "required": ["u"]});
    prevents(
        &Rules::OPENAI_STRICT,
        Slot::Parameters,
        input.clone(),
        "format",
        true,
    );
    rewrites(
        &Rules::OPENAI_STRICT,
        Slot::Parameters,
        input,
        json!({"properties": {"u": {"minLength": 1, "type": "string", "description": "Format: uri."}}, "required": ["u"], "type": "object", "additionalProperties": false}),
    );
}

#[test]
fn openai_strict_default_to_description__default_is_not_permitted() {
    rewrites(
        &Rules::OPENAI_STRICT,
        Slot::Parameters,
        json!({"type": "object", "properties": {"p": {"type": "string", "default": "x"}}, "required": ["p"]}),
        json!({"properties": {"p": {"type": "string", "description": "Default: \"x\"."}}, "required": ["p"], "type": "object", "additionalProperties": false}),
    );
}

#[test]
fn strict_open_map_is_not_strict_compatible__additional_properties_must_be_false() {
    for rules in [&Rules::OPENAI_STRICT, &Rules::ANTHROPIC_STRICT] {
        let out = run(
            rules,
            Slot::Parameters,
            &json!({"type": "object", "properties": {"m": {"type": "object", "additionalProperties": {"type": "string"}}}, "required": ["m"]}),
        );
        assert!(!out.report.strict_compatible, "{}", rules.name());
    }
}

#[test]
fn strict_free_form_object_is_not_strict_compatible() {
    let out = run(
        &Rules::OPENAI_STRICT,
        Slot::Parameters,
        &json!({"type": "object", "properties": {"o": {"type": "object"}}, "required": ["o"]}),
    );
    assert!(!out.report.strict_compatible);
}

#[test]
fn strict_untyped_array_is_not_strict_compatible() {
    // peers §3 #42 (PAI test_transformer_untyped_array_not_strict_compatible).
    let out = run(
        &Rules::OPENAI_STRICT,
        Slot::Parameters,
        &json!({"type": "object", "properties": {"a": {"type": "array"}}, "required": ["a"]}),
    );
    assert!(!out.report.strict_compatible);
    let out = run(
        &Rules::OPENAI_STRICT,
        Slot::Parameters,
        &json!({"type": "object", "properties": {"v": {}}, "required": ["v"]}),
    );
    assert!(!out.report.strict_compatible);
}

#[test]
fn strict_depth_and_size_over_limits_are_not_strict_compatible() {
    let mut deep = json!({"type": "string"});
    for _ in 0..12 {
        deep = json!({"type": "object", "properties": {"x": deep}, "required": ["x"], "additionalProperties": false});
    }
    assert!(
        !run(&Rules::OPENAI_STRICT, Slot::Parameters, &deep)
            .report
            .strict_compatible
    );
    let values: Vec<String> = (0..1001).map(|i| format!("v{i}")).collect();
    let big = json!({"type": "object", "properties": {"e": {"type": "string", "enum": values}}, "required": ["e"], "additionalProperties": false});
    assert!(
        !run(&Rules::OPENAI_STRICT, Slot::Parameters, &big)
            .report
            .strict_compatible
    );
}

#[test]
fn strict_recursion_is_kept_by_openai_strict_and_gives_anthropic_strict_up() {
    let input = json!({"type": "object", "properties": {"n": {"$ref": "#/$defs/N"}}, "required": ["n"],
        "$defs": {"N": {"type": "object", "properties": {"c": {"$ref": "#/$defs/N"}}, "required": ["c"]}}});
    // "Recursive schemas are supported" (OpenAI); "recursive schemas" are not (Anthropic).
    for (rules, strict) in [
        (&Rules::OPENAI_STRICT, true),
        (&Rules::ANTHROPIC_STRICT, false),
    ] {
        assert_eq!(
            run(rules, Slot::Parameters, &input)
                .report
                .strict_compatible,
            strict,
            "{}",
            rules.name()
        );
    }
}

#[test]
fn strict_response_format_with_a_scalar_root_is_not_strict_compatible() {
    assert!(
        !run(
            &Rules::OPENAI_STRICT,
            Slot::Schema,
            &json!({"type": "string"})
        )
        .report
        .strict_compatible
    );
}

#[test]
fn anthropic_root_union_merged__no_any_of_at_the_top_level() {
    // peers §3 #45; A2.
    let input = json!({"anyOf": [{"type": "object", "properties": {"a": {"type": "string"}}}, {"type": "object", "properties": {"b": {"type": "integer"}}}]});
    prevents(
        &Rules::ANTHROPIC,
        Slot::Parameters,
        input.clone(),
        "root-union",
        true,
    );
    rewrites(
        &Rules::ANTHROPIC,
        Slot::Parameters,
        input,
        json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}, "description": "Accepts one of: object with a; object with b."}),
    );
}

#[test]
fn anthropic_draft7_tuple_becomes_prefix_items__must_match_draft_2020_12() {
    // A1 (kintone/mcp-server#553).
    let input = json!({"type": "object", "properties": {"t": {"type": "array", "items": [{"type": "string"}], "additionalItems": false}}});
    prevents(
        &Rules::ANTHROPIC,
        Slot::Parameters,
        input.clone(),
        "tuple",
        true,
    );
    rewrites(
        &Rules::ANTHROPIC,
        Slot::Parameters,
        input,
        json!({"properties": {"t": {"type": "array", "prefixItems": [{"type": "string"}], "items": false}}, "type": "object"}),
    );
}

#[test]
fn anthropic_boolean_exclusive_minimum_becomes_a_number__must_match_draft_2020_12() {
    // M1 / A1.
    rewrites(
        &Rules::ANTHROPIC,
        Slot::Parameters,
        json!({"type": "object", "properties": {"n": {"type": "number", "minimum": 0, "exclusiveMinimum": true}}}),
        json!({"properties": {"n": {"type": "number", "exclusiveMinimum": 0}}, "type": "object"}),
    );
}

#[test]
fn anthropic_scalar_root_becomes_object__input_should_be_object() {
    // A3.
    prevents(
        &Rules::ANTHROPIC,
        Slot::Parameters,
        json!({"type": "string"}),
        "root",
        true,
    );
}

#[test]
fn anthropic_strict_bounds_to_description__not_supported() {
    // peers §3 #46 (PAI BedrockJsonSchemaTransformer); A5.
    let input = json!({"type": "object", "properties": {"i": {"type": "integer", "minimum": 1, "maximum": 5}, "l": {"type": "array", "items": {"type": "string"}, "minItems": 2}}, "required": ["i", "l"]});
    prevents(
        &Rules::ANTHROPIC_STRICT,
        Slot::Parameters,
        input.clone(),
        "min-items",
        true,
    );
    rewrites(
        &Rules::ANTHROPIC_STRICT,
        Slot::Parameters,
        input,
        json!({"properties": {"i": {"type": "integer", "description": "At most 5. At least 1."}, "l": {"items": {"type": "string"}, "type": "array", "description": "At least 2 items."}}, "required": ["i", "l"], "type": "object", "additionalProperties": false}),
    );
}

#[test]
fn bedrock_root_one_of_merged__type_must_be_object() {
    // B1.
    let input = json!({"oneOf": [{"type": "object", "properties": {"a": {"type": "string"}}}, {"type": "object", "properties": {"b": {"type": "string"}}}]});
    prevents(
        &Rules::BEDROCK,
        Slot::Parameters,
        input.clone(),
        "root",
        true,
    );
    rewrites(
        &Rules::BEDROCK,
        Slot::Parameters,
        input,
        json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}, "description": "Accepts one of: object with a; object with b."}),
    );
}

#[test]
fn xai_property_named_properties_collapsed__property_schema_false_is_not_supported() {
    // peers §3 #52; X1.
    let input = json!({"type": "object", "properties": {"properties": {"type": "object", "properties": {"x": {"type": "string"}}, "additionalProperties": false, "description": "Props"}}});
    prevents(
        &Rules::XAI,
        Slot::Parameters,
        input.clone(),
        "property-named-properties",
        true,
    );
    rewrites(
        &Rules::XAI,
        Slot::Parameters,
        input,
        json!({"properties": {"properties": {"description": "Props (An object: object with x.)"}}, "type": "object", "additionalProperties": true}),
    );
}

#[test]
fn xai_boolean_property_schemas_rewritten__property_schema_false_is_not_supported() {
    let input = json!({"type": "object", "properties": {"a": true, "b": false}, "required": ["b"]});
    prevents(
        &Rules::XAI,
        Slot::Parameters,
        input.clone(),
        "boolean-schema",
        true,
    );
    rewrites(
        &Rules::XAI,
        Slot::Parameters,
        input,
        json!({"properties": {"a": {}}, "required": [], "type": "object", "additionalProperties": true, "description": "Never send \"b\"."}),
    );
}

#[test]
fn xai_root_all_of_of_objects_merged__invalid_arguments() {
    // peers §3 #53; X3.
    let input = json!({"allOf": [{"type": "object", "properties": {"a": {"type": "string"}}}, {"type": "object", "properties": {"b": {"type": "string"}}}]});
    prevents(
        &Rules::XAI,
        Slot::Parameters,
        input.clone(),
        "root-union",
        false,
    );
    rewrites(
        &Rules::XAI,
        Slot::Parameters,
        input,
        json!({"properties": {"a": {"type": "string"}, "b": {"type": "string"}}, "type": "object", "additionalProperties": true}),
    );
}

#[test]
fn xai_array_items_become_prefix_items__items_as_an_array_rejected() {
    rewrites(
        &Rules::XAI,
        Slot::Parameters,
        json!({"type": "object", "properties": {"t": {"type": "array", "items": [{"type": "string"}, {"type": "integer"}]}}}),
        json!({"properties": {"t": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}]}}, "type": "object", "additionalProperties": true}),
    );
}

#[test]
fn xai_empty_enum_and_min_contains_removed__zero_variants_rejected() {
    let input = json!({"type": "object", "properties": {"e": {"type": "string", "enum": []}, "c": {"type": "array", "items": {}, "contains": {"type": "string"}, "minContains": 2}}});
    prevents(
        &Rules::XAI,
        Slot::Parameters,
        input.clone(),
        "enum-empty",
        false,
    );
    prevents(
        &Rules::XAI,
        Slot::Parameters,
        input,
        "unsupported-keyword",
        false,
    );
}

#[test]
fn xai_min_contains_zero_takes_contains_with_it() {
    let out = run(
        &Rules::XAI,
        Slot::Schema,
        &json!({"type": "array", "items": {}, "contains": {"const": 1}, "minContains": 0}),
    );
    assert!(out.schema.to_value().get("contains").is_none());
}

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
fn unicode_class_pattern_goes_to_the_description_for_openai__is_not_a_regex() {
    let input =
        json!({"type": "object", "properties": {"name": {"type": "string", "pattern": "\\p{L}+"}}});
    assert!(
        check(&input, &Rules::OPENAI, Slot::Parameters)
            .iter()
            .any(|v| v.rule == "pattern-syntax" && v.provider_error.is_some())
    );
    let out = common::run(&Rules::OPENAI, Slot::Parameters, &input);
    assert_eq!(
        out.schema.to_value()["properties"]["name"],
        json!({"type": "string", "description": "Must match the regular expression \\p{L}+."})
    );
}

#[test]
fn lookahead_is_kept_for_openai_and_dropped_in_strict_mode__lookaround_is_not_supported() {
    let input = json!({"type": "object", "properties": {"id": {"type": "string", "pattern": "^(?!a)b"}}, "required": ["id"]});
    let out = common::run(&Rules::OPENAI, Slot::Parameters, &input);
    assert_eq!(
        out.schema.to_value()["properties"]["id"]["pattern"],
        json!("^(?!a)b")
    );
    let strict = common::run(&Rules::OPENAI_STRICT, Slot::Parameters, &input);
    assert!(
        strict.schema.to_value()["properties"]["id"]
            .get("pattern")
            .is_none()
    );
}

#[test]
fn anthropic_property_keys_that_need_renaming_are_reported_not_renamed__property_keys_should_match_pattern()
 {
    let input = json!({"type": "object", "properties": {"$ref": {"type": "string"}, "ok.key-1": {"type": "string"}}});
    let found = check(&input, &Rules::ANTHROPIC, Slot::Parameters);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].rule, "property-key");
    assert_eq!(found[0].pointer, "/properties/$ref");
    let out = provider_rules::sanitize(
        &schema_core::Schema::from_value(&input),
        &Rules::ANTHROPIC,
        Slot::Parameters,
    );
    // Nothing to change (the key cannot be renamed here), but the rejection is reported.
    assert!(out.report.is_empty());
    assert_eq!(out.report.unfixable.len(), 1);
    assert!(out.report.is_unfixable(&found[0]));
    // Nested keys are not checked (only the top-level map is).
    let nested = json!({"type": "object", "properties": {"a": {"type": "object", "properties": {"$x": {}}}}});
    assert!(check(&nested, &Rules::ANTHROPIC, Slot::Parameters).is_empty());
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
fn strict_bare_property_map_wrapped_then_closed__additional_properties_required() {
    let out = run(
        &Rules::OPENAI_STRICT,
        Slot::Parameters,
        &json!({"foo": {"type": "string", "required": true}}),
    );
    assert_eq!(
        out.schema.to_value(),
        json!({"type": "object", "properties": {"foo": {"type": "string"}}, "required": ["foo"], "additionalProperties": false})
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
fn anthropic_strict_keeps_optional_properties__sixteen_union_parameters() {
    // providers.md §5.3: Anthropic's strict subset has `required`, and limits optional
    // parameters (24 per request) and union-typed ones (16): making an optional property
    // required and nullable, as OpenAI strict needs, would turn each into a union.
    let input = json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}, "required": ["a"]});
    rewrites(
        &Rules::ANTHROPIC_STRICT,
        Slot::Parameters,
        input.clone(),
        json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}, "required": ["a"], "additionalProperties": false}),
    );
    let openai = run(&Rules::OPENAI_STRICT, Slot::Parameters, &input);
    let v = openai.schema.to_value();
    assert_eq!(v["required"], json!(["a", "b"]));
    assert_eq!(v["properties"]["b"]["type"], json!(["integer", "null"]));
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
