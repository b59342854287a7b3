//! References: inlined, cycles unrolled, siblings of a `$ref`.

use crate::G;
use crate::common::{prevents, rewrites, run};
use provider_rules::{Rules, Slot};
use serde_json::json;

#[test]
fn definitions_are_inlined__unknown_name_ref() {
    // peers §3 #22.
    let input = json!({"definitions": {"User": {"type": "object", "properties": {"n": {"type": "string"}}}}, "properties": {"customer": {"$ref": "#/definitions/User"}}});
    prevents(G, Slot::Parameters, input.clone(), "ref", true);
    rewrites(
        G,
        Slot::Parameters,
        input,
        json!({"type": "object", "properties": {"customer": {"properties": {"n": {"type": "string"}}, "type": "object"}}}),
    );
}

#[test]
fn cyclic_ref_is_unrolled_then_described__unknown_name_ref() {
    // peers §3 #23: CPA stubs the cycle with a description; so do we, after one unrolling.
    let out = run(
        G,
        Slot::Parameters,
        &json!({"definitions": {"Node": {"type": "object", "properties": {"child": {"$ref": "#/definitions/Node"}}}}, "$ref": "#/definitions/Node"}),
    );
    assert!(!out.schema.to_json_string().contains("$ref"));
}

#[test]
fn jsonschema_ref_with_siblings_inlined__ref_set_alongside_unsupported_fields() {
    // G17.
    let input = json!({"type": "object", "properties": {"q": {"$ref": "#/$defs/Q", "description": "d", "maxLength": 3}}, "$defs": {"Q": {"type": "string"}}});
    prevents(
        &Rules::GEMINI_JSONSCHEMA,
        Slot::Parameters,
        input.clone(),
        "ref",
        true,
    );
    rewrites(
        &Rules::GEMINI_JSONSCHEMA,
        Slot::Parameters,
        input,
        json!({"properties": {"q": {"type": "string", "description": "d (At most 3 characters.)"}}, "type": "object"}),
    );
}
