//! Anthropic and Bedrock profiles: root unions, draft-07 forms, scalar roots, strict bounds,
//! property keys.

use crate::common::{prevents, rewrites, run};
use provider_rules::{Rules, Slot, check};
use serde_json::json;

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
