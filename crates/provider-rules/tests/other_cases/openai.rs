//! OpenAI profiles: peers.md §3 cases and the §4 errors they prevent, strict mode included.

use crate::common;
use crate::common::{prevents, rewrites, run};
use provider_rules::{Rules, Slot, check};
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
