//! Arrays: tuples folded into one `items`, missing `items` derived.

use crate::G;
use crate::common::{prevents, rewrites, run};
use provider_rules::Slot;
use serde_json::json;

#[test]
fn closed_tuple_folds_into_any_of_items__items_missing_field() {
    // peers §3 #6 (PAI Live): a heterogeneous tuple keeps both types; G8.
    let input = json!({"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}], "maxItems": 2});
    prevents(G, Slot::Schema, input.clone(), "tuple", false);
    rewrites(
        G,
        Slot::Schema,
        input,
        json!({"maxItems": 2, "type": "array", "items": {"anyOf": [{"type": "integer"}, {"type": "string"}]}, "description": "Items in order: integer, string."}),
    );
}

#[test]
fn draft7_closed_tuple_folds_into_one_items__items_missing_field() {
    // peers §3 #11.
    rewrites(
        G,
        Slot::Schema,
        json!({"type": "array", "items": [{"type": "number"}, {"type": "number"}], "maxItems": 2}),
        json!({"maxItems": 2, "type": "array", "items": {"type": "number"}, "description": "Items in order: number, number."}),
    );
}

#[test]
fn open_tuple_folds_to_items_accepting_anything__items_missing_field() {
    // peers §3 #5 and #7: SH/LL fold `[number, number]` to `number`, but an open tuple accepts
    // anything after its positions; we keep those arrays valid and say the order in words.
    let out = run(
        G,
        Slot::Schema,
        &json!({"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}]}),
    );
    let v = out.schema.to_value();
    assert!(v["items"]["anyOf"].is_array(), "{v}");
    assert_eq!(v["description"], "Items in order: number, number.");
}

#[test]
fn tuple_with_rest_items_folds_into_any_of__items_missing_field() {
    // peers §3 #10: SH/LL keep only the rest; the first position must stay valid.
    rewrites(
        G,
        Slot::Schema,
        json!({"type": "array", "prefixItems": [{"type": "string"}], "items": {"type": "object"}}),
        json!({"type": "array", "items": {"anyOf": [{"type": "string"}, {"type": "object"}]}}),
    );
}

#[test]
fn array_without_items_gets_typed_any_value_items__items_missing_field() {
    // peers §3 #8 (SH/CPA/LL write `{"type":"string"}`); G7. Any value, typed, is sound.
    let out = prevents(
        G,
        Slot::Schema,
        json!({"type": "array"}),
        "items-missing",
        true,
    );
    assert!(out.schema.to_value()["items"]["anyOf"].is_array());
}
