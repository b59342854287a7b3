//! xAI profiles: property schemas, root `allOf`, tuple items, empty enums and `minContains`.

use crate::common::{prevents, rewrites, run};
use provider_rules::{Rules, Slot};
use serde_json::json;

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
