//! Where a profile can say "any value" with one type only (`gemini-code-assist`: a `type` on
//! every node, no unions), a node keeps the type its keywords spoke of, and a collapsing
//! union keeps what its branches of that type accept. Each case is a loss the
//! JSON-Schema-Test-Suite soundness run showed (`jsts_soundness`), named after the behaviour.
// Test names read `behaviour__what_it_keeps`.
#![allow(non_snake_case)]

mod common;
use common::{rewrites, run};
use provider_rules::{Rules, Slot};
use serde_json::json;

const CA: &Rules = &Rules::GEMINI_CODE_ASSIST;

#[test]
fn enum_of_numbers_keeps_its_type__valid_numbers_stay_valid() {
    // Gemini takes enums on strings only: the values go to the description, the type stays
    // (it used to become the any-value string, rejecting 1).
    for rules in [CA, &Rules::GEMINI] {
        rewrites(
            rules,
            Slot::Schema,
            json!({"enum": [1, 2, 3]}),
            json!({"type": "integer", "minimum": 1, "maximum": 3, "description": "Allowed values: 1, 2, 3."}),
        );
    }
    rewrites(
        CA,
        Slot::Schema,
        json!({"enum": [1.5, 2]}),
        json!({"type": "number", "minimum": 1.5, "maximum": 2, "description": "Allowed values: 1.5, 2."}),
    );
}

#[test]
fn enum_with_null_keeps_its_type_and_null__null_stays_valid() {
    rewrites(
        CA,
        Slot::Schema,
        json!({"enum": [6, null]}),
        json!({"nullable": true, "type": "integer", "minimum": 6, "maximum": 6, "description": "Allowed values: 6, null."}),
    );
}

#[test]
fn enum_of_arrays_keeps_the_items_type__items_missing_field() {
    rewrites(
        CA,
        Slot::Schema,
        json!({"enum": [[1], [2]]}),
        json!({"type": "array", "items": {"type": "integer"}, "description": "Allowed values: [1], [2]."}),
    );
}

#[test]
fn const_null_stays_null__no_null_type() {
    // Code Assist has no NULL type: a nullable string still admits null; Gemini keeps null.
    let out = run(CA, Slot::Schema, &json!({"const": null}));
    let v = out.schema.to_value();
    assert_eq!(v["type"], "string");
    assert_eq!(v["nullable"], true);
    rewrites(
        &Rules::GEMINI,
        Slot::Schema,
        json!({"const": null}),
        json!({"type": "null", "description": "Must be null."}),
    );
}

#[test]
fn const_array_keeps_the_items_type__items_missing_field() {
    for rules in [CA, &Rules::GEMINI] {
        rewrites(
            rules,
            Slot::Schema,
            json!({"const": [true]}),
            json!({"type": "array", "items": {"type": "boolean"}, "description": "Must be [true]."}),
        );
    }
}

#[test]
fn conditional_bounds_give_their_type__not_the_any_value_string() {
    rewrites(
        CA,
        Slot::Schema,
        json!({"if": {"exclusiveMaximum": 0}, "then": {"minimum": -10}}),
        json!({"type": "number", "description": "If the value is less than 0: at least -10."}),
    );
    // Nested in allOf too.
    let out = run(
        CA,
        Slot::Schema,
        &json!({"allOf": [{"if": {"exclusiveMaximum": 0}}, {"then": {"minimum": -10}}]}),
    );
    assert_eq!(out.schema.to_value()["type"], "number");
}

#[test]
fn dependent_schemas_speak_of_objects() {
    let out = run(
        CA,
        Slot::Schema,
        &json!({"dependentSchemas": {"a": {"required": ["b"]}}}),
    );
    assert_eq!(out.schema.to_value()["type"], "object");
}

#[test]
fn open_tuple_folds_to_its_positions__not_the_any_value_string() {
    // Where unions exist, an open tuple's items accept anything (gemini_cases); with one
    // type per node, the positions' schema is the better guess.
    rewrites(
        CA,
        Slot::Schema,
        json!({"items": [{"type": "integer"}]}),
        json!({"items": {"type": "integer"}, "type": "array"}),
    );
    let g = run(
        &Rules::GEMINI,
        Slot::Schema,
        &json!({"items": [{"type": "integer"}]}),
    );
    assert!(
        g.schema.to_value()["items"].get("anyOf").is_some(),
        "gemini keeps accepting anything after the positions: {}",
        g.schema
    );
}

#[test]
fn contains_gives_the_items_type__items_missing_field() {
    rewrites(
        CA,
        Slot::Schema,
        json!({"contains": {"minimum": 5}}),
        json!({"type": "array", "items": {"type": "number"}, "description": "Must contain an item that is number at least 5."}),
    );
}

#[test]
fn collapsed_union_drops_bounds_the_other_branches_do_not_share() {
    // Both branches are strings: keeping `maxLength: 2` would reject "abcd", valid by the
    // second branch.
    rewrites(
        CA,
        Slot::Schema,
        json!({"type": "string", "anyOf": [{"maxLength": 2}, {"minLength": 4}]}),
        json!({"type": "string", "description": "Accepts at most 2 characters or at least 4 characters."}),
    );
    // An integer branch overlaps a number branch: 1 stays valid.
    let out = run(
        CA,
        Slot::Schema,
        &json!({"anyOf": [{"type": "integer"}, {"minimum": 2}]}),
    );
    let v = out.schema.to_value();
    assert_eq!(v["type"], "number");
    assert!(v.get("minimum").is_none(), "{v}");
}

#[test]
fn collapsed_union_keeps_shared_bounds() {
    rewrites(
        CA,
        Slot::Schema,
        json!({"anyOf": [{"type": "string", "maxLength": 9, "minLength": 1}, {"type": "string", "maxLength": 9}]}),
        json!({"type": "string", "maxLength": 9, "description": "Accepts string at most 9 characters, must not be empty or string at most 9 characters."}),
    );
}

#[test]
fn collapsed_object_union_joins_properties__required_is_what_all_require() {
    rewrites(
        CA,
        Slot::Schema,
        json!({"oneOf": [
            {"properties": {"bar": {"type": "integer"}}, "required": ["bar"]},
            {"properties": {"foo": {"type": "string"}}, "required": ["foo", "bar"]}
        ]}),
        json!({
            "properties": {"bar": {"type": "integer"}, "foo": {"type": "string"}},
            "required": ["bar"],
            "type": "object",
            "description": "Accepts object with bar or object with foo."
        }),
    );
}

#[test]
fn recursion_stub_keeps_its_target_type() {
    let out = run(
        CA,
        Slot::Schema,
        &json!({"type": "object", "properties": {"next": {"$ref": "#"}}}),
    );
    let mut v = out.schema.to_value();
    let mut depth = 0;
    while let Some(next) = v.get("properties").and_then(|p| p.get("next")).cloned() {
        v = next;
        depth += 1;
    }
    assert!(depth >= 1, "{}", out.schema);
    assert_eq!(v["type"], "object", "the stub at the end: {v}");
    assert!(
        v["description"]
            .as_str()
            .is_some_and(|d| d.contains("Recursive"))
    );
}

#[test]
fn collapsed_union_joins_the_value_lists_of_its_branches() {
    let out = run(
        CA,
        Slot::Schema,
        &json!({"anyOf": [{"type": "string", "enum": ["a", "b"]}, {"type": "string", "enum": ["c"]}]}),
    );
    assert_eq!(out.schema.to_value()["enum"], json!(["a", "b", "c"]));
    // A branch without a list admits every string: no list is left.
    let out = run(
        CA,
        Slot::Schema,
        &json!({"anyOf": [{"type": "string", "enum": ["a", "b"]}, {"type": "string"}]}),
    );
    assert!(
        out.schema.to_value().get("enum").is_none(),
        "{}",
        out.schema
    );
}
