//! Keywords the proto lacks: dropped, moved to the description or said another way; values
//! and names that only look like keywords kept.

use crate::G;
use crate::common::{prevents, rewrites, run};
use provider_rules::Slot;
use serde_json::json;

#[test]
fn instance_values_are_not_walked_as_schemas() {
    // peers §3 #13.
    rewrites(
        G,
        Slot::Schema,
        json!({"type": "object", "default": {"type": "array"}}),
        json!({"type": "object", "default": {"type": "array"}}),
    );
}

#[test]
fn unsupported_format_goes_to_the_description__only_enum_and_date_time() {
    // peers §3 #29.
    let input = json!({"type": "string", "format": "uri", "description": "A URL"});
    prevents(G, Slot::Schema, input.clone(), "format", true);
    rewrites(
        G,
        Slot::Schema,
        input,
        json!({"description": "A URL (Format: uri.)", "type": "string"}),
    );
}

#[test]
fn additional_properties_false_dropped_with_hint__unknown_name_additional_properties() {
    // peers §3 #31; G3.
    let input = json!({"type": "object", "properties": {"name": {"type": "string"}}, "additionalProperties": false});
    prevents(
        G,
        Slot::Parameters,
        input.clone(),
        "unsupported-keyword",
        true,
    );
    rewrites(
        G,
        Slot::Parameters,
        input,
        // The proto has `maxProperties`: the closed object keeps its bound (issue 16).
        json!({"properties": {"name": {"type": "string"}}, "type": "object", "maxProperties": 1, "description": "No other properties are allowed."}),
    );
}

#[test]
fn properties_named_like_keywords_are_kept() {
    // peers §3 #32, #33, #34.
    rewrites(
        G,
        Slot::Parameters,
        json!({"type": "object", "properties": {"pattern": {"type": "string", "description": "The regex pattern"}}, "required": ["pattern"]}),
        json!({"type": "object", "properties": {"pattern": {"type": "string", "description": "The regex pattern"}}, "required": ["pattern"]}),
    );
    let out = run(
        G,
        Slot::Parameters,
        &json!({"type": "object", "properties": {"properties": {"type": "object", "propertyNames": {"type": "string"}}, "propertyNames": {"type": "string"}}}),
    );
    let v = out.schema.to_value();
    assert!(
        v["properties"]["propertyNames"].is_object()
            && v["properties"]["properties"].get("propertyNames").is_none(),
        "{v}"
    );
}

#[test]
fn metadata_keywords_removed__unknown_name_schema() {
    // peers §3 #34; G4.
    let input = json!({"$schema": "http://json-schema.org/draft-07/schema#", "$id": "root", "$comment": "c", "type": "object", "properties": {"$id": {"type": "string"}}, "x-meta": 1});
    prevents(G, Slot::Parameters, input.clone(), "unknown-keyword", true);
    rewrites(
        G,
        Slot::Parameters,
        input,
        json!({"properties": {"$id": {"type": "string"}}, "type": "object"}),
    );
}

#[test]
fn exclusive_minimum_becomes_inclusive_with_hint__unknown_name_exclusive_minimum() {
    prevents(
        G,
        Slot::Schema,
        json!({"type": "number", "exclusiveMinimum": 0}),
        "unsupported-keyword",
        true,
    );
    rewrites(
        G,
        Slot::Schema,
        json!({"type": "number", "exclusiveMinimum": 0.5}),
        json!({"type": "number", "minimum": 0.5000000000000001, "description": "Greater than 0.5."}),
    );
}

#[test]
fn integer_exclusive_bound_becomes_the_next_integer__unknown_name_exclusive_minimum() {
    // On integers `> 0` is `>= 1`: nothing is lost, no hint.
    for (input, expected) in [
        (
            json!({"type": "integer", "exclusiveMinimum": 0}),
            json!({"type": "integer", "minimum": 1}),
        ),
        (
            json!({"type": "integer", "exclusiveMaximum": 5.5}),
            json!({"type": "integer", "maximum": 5}),
        ),
        // An inclusive bound already tighter implies the exclusive one.
        (
            json!({"type": "integer", "exclusiveMaximum": 5, "maximum": 3}),
            json!({"type": "integer", "maximum": 3}),
        ),
        (
            json!({"type": "integer", "exclusiveMaximum": 5, "maximum": 9}),
            json!({"type": "integer", "maximum": 4}),
        ),
        (
            json!({"type": "number", "exclusiveMinimum": 5, "minimum": 7}),
            json!({"type": "number", "minimum": 7}),
        ),
    ] {
        let out = rewrites(G, Slot::Schema, input, expected);
        assert!(
            out.report.changes.iter().all(|c| !c.lossy),
            "{:?}",
            out.report.changes
        );
    }
    // On numbers the inclusive bound is the nearest `f64` beyond (the same for every `f64`),
    // and the hint says the bound as written.
    rewrites(
        G,
        Slot::Schema,
        json!({"type": "number", "exclusiveMinimum": 5, "minimum": 2}),
        json!({"type": "number", "minimum": 5.000000000000001, "description": "Greater than 5."}),
    );
    rewrites(
        G,
        Slot::Schema,
        json!({"type": "number", "exclusiveMaximum": 3.0}),
        json!({"type": "number", "maximum": 2.9999999999999996, "description": "Less than 3.0."}),
    );
    // Beside 0 the nearest `f64` is subnormal (`5e-324`): the bound stays as written.
    rewrites(
        G,
        Slot::Schema,
        json!({"type": "number", "exclusiveMinimum": 0}),
        json!({"type": "number", "minimum": 0, "description": "Greater than 0."}),
    );
}
