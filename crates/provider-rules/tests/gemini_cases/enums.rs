//! `enum` and `const`: strings only, other values as bounds or in the description.

use crate::G;
use crate::common::{prevents, rewrites};
use provider_rules::Slot;
use serde_json::json;

#[test]
fn string_const_becomes_enum__unknown_name_const() {
    // peers §3 #25 (PAI Google); G4.
    prevents(
        G,
        Slot::Schema,
        json!({"type": "string", "const": "x"}),
        "unsupported-keyword",
        true,
    );
    rewrites(
        G,
        Slot::Schema,
        json!({"type": "string", "const": "InsightVizNode"}),
        json!({"type": "string", "enum": ["InsightVizNode"]}),
    );
}

#[test]
fn numeric_enum_moves_to_the_description__invalid_value_type_string() {
    // peers §3 #26: CPA/OC stringify (a model would then send "1" for 1); PAI Live writes the
    // description, which keeps 1 valid. G10/G11. The range the values span stays as bounds.
    let input = json!({"type": "integer", "enum": [1, 2]});
    prevents(G, Slot::Schema, input.clone(), "enum-values", true);
    rewrites(
        G,
        Slot::Schema,
        input,
        json!({"type": "integer", "minimum": 1, "maximum": 2, "description": "Allowed values: 1, 2."}),
    );
}

#[test]
fn numeric_const_becomes_bounds__unknown_name_const() {
    // `{"const": 5}` on integers is exactly `minimum: 5, maximum: 5`; an existing tighter
    // bound stays.
    rewrites(
        G,
        Slot::Schema,
        json!({"const": 5}),
        json!({"type": "integer", "minimum": 5, "maximum": 5, "description": "Must be 5."}),
    );
    rewrites(
        G,
        Slot::Schema,
        json!({"type": "integer", "minimum": 2, "enum": [1, 2, 3]}),
        json!({"type": "integer", "minimum": 2, "maximum": 3, "description": "Allowed values: 1, 2, 3."}),
    );
    // Mixed values leave the range open.
    rewrites(
        G,
        Slot::Schema,
        json!({"type": "number", "enum": [1, "a"]}),
        json!({"type": "number", "description": "Allowed values: 1, \"a\"."}),
    );
}

#[test]
fn boolean_enum_moves_to_the_description__enum_only_allowed_for_string() {
    // peers §3 #27 (JB).
    rewrites(
        G,
        Slot::Schema,
        json!({"type": "boolean", "enum": [true]}),
        json!({"type": "boolean", "description": "Allowed values: true."}),
    );
}

#[test]
fn empty_string_enum_member_removed__enum_cannot_be_empty() {
    // peers §3 #28 (OC, not LiteLLM's null); G12.
    let input = json!({"type": "string", "enum": ["", "desktop", "mobile"]});
    prevents(G, Slot::Schema, input.clone(), "enum-empty-string", true);
    rewrites(
        G,
        Slot::Schema,
        input,
        json!({"enum": ["desktop", "mobile"], "type": "string", "description": "Also allowed: \"\" (empty)."}),
    );
}
