//! Types: lists split or made nullable, a missing type given, keywords of another type dropped.

use crate::G;
use crate::common::{prevents, rewrites};
use provider_rules::Slot;
use serde_json::json;

#[test]
fn type_list_becomes_single_type_and_nullable__proto_field_is_not_repeating() {
    // peers §3 #1; G6.
    prevents(
        G,
        Slot::Schema,
        json!({"type": ["string", "null"]}),
        "type-list",
        true,
    );
    rewrites(
        G,
        Slot::Schema,
        json!({"type": ["string", "null"]}),
        json!({"type": "string", "nullable": true}),
    );
}

#[test]
fn type_list_of_two_types_becomes_any_of__proto_field_is_not_repeating() {
    // peers §3 #3: SH keeps the first, CPA collapses with a hint, LiteLLM/VAI use anyOf. We
    // use anyOf: the proto has it, and no valid value is lost.
    rewrites(
        G,
        Slot::Schema,
        json!({"type": ["string", "number"]}),
        json!({"anyOf": [{"type": "string"}, {"type": "number"}]}),
    );
}

#[test]
fn null_only_type_list_becomes_type_null__proto_field_is_not_repeating() {
    // peers §3 #4: SH writes a nullable string; the proto has NULL = 7 (VAI), we keep null.
    rewrites(
        G,
        Slot::Schema,
        json!({"type": ["null"]}),
        json!({"type": "null"}),
    );
}

#[test]
fn items_on_a_non_array_removed__field_predicate_failed() {
    prevents(
        G,
        Slot::Schema,
        json!({"type": "string", "items": {"type": "string"}}),
        "foreign-keyword",
        true,
    );
    rewrites(
        G,
        Slot::Schema,
        json!({"type": "string", "items": {"type": "string"}}),
        json!({"type": "string"}),
    );
}

#[test]
fn properties_on_a_non_object_removed__only_allowed_for_object_type() {
    rewrites(
        G,
        Slot::Schema,
        json!({"type": "string", "properties": {"a": {"type": "string"}}}),
        json!({"type": "string"}),
    );
}

#[test]
fn missing_type_gets_one__type_must_be_specified() {
    // G14.
    let out = prevents(
        G,
        Slot::Parameters,
        json!({"type": "object", "properties": {"locale": {"description": "x"}}}),
        "type-missing",
        true,
    );
    assert_eq!(
        out.schema.to_value()["properties"]["locale"]["description"],
        "x"
    );
}
