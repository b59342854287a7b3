//! Unions: `oneOf`, `allOf`, `if`, `anyOf` with `null`, Vertex's lone `anyOf` and what stands
//! beside it, Code Assist's collapse.

use crate::G;
use crate::common::{prevents, rewrites, run};
use provider_rules::{Rules, Slot, check};
use serde_json::json;

#[test]
fn any_of_with_null_becomes_nullable() {
    // peers §3 #14 and #17 (GG/RG/PAI-Live/VAI).
    rewrites(
        G,
        Slot::Schema,
        json!({"anyOf": [{"type": "string"}, {"type": "null"}]}),
        json!({"type": "string", "nullable": true}),
    );
    rewrites(
        G,
        Slot::Schema,
        json!({"anyOf": [{"type": "null"}, {"type": "object", "properties": {"kind": {"type": "string"}}}]}),
        json!({"properties": {"kind": {"type": "string"}}, "type": "object", "nullable": true}),
    );
}

#[test]
fn one_of_becomes_any_of__unknown_name_one_of() {
    // peers §3 #15: CPA collapses, Zed writes anyOf; the proto has anyOf, so nothing is lost
    // but exclusivity.
    prevents(
        G,
        Slot::Schema,
        json!({"oneOf": [{"type": "string"}, {"type": "integer"}]}),
        "unsupported-keyword",
        true,
    );
    rewrites(
        G,
        Slot::Schema,
        json!({"oneOf": [{"type": "string"}, {"type": "integer"}]}),
        json!({"anyOf": [{"type": "string"}, {"type": "integer"}]}),
    );
}

#[test]
fn all_of_objects_merge__unknown_name_all_of() {
    // peers §3 #19.
    let input = json!({"type": "object", "allOf": [{"properties": {"a": {"type": "string"}}, "required": ["a"]}, {"properties": {"b": {"type": "integer"}}, "required": ["b"]}]});
    prevents(G, Slot::Schema, input.clone(), "unsupported-keyword", true);
    rewrites(
        G,
        Slot::Schema,
        input,
        json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}, "required": ["a", "b"]}),
    );
}

#[test]
fn all_of_is_flattened_not_erased() {
    // peers §3 #20.
    rewrites(
        G,
        Slot::Parameters,
        json!({"properties": {"value": {"allOf": [{"type": "string", "minLength": 2}, {"maxLength": 5}, true]}}}),
        json!({"type": "object", "properties": {"value": {"minLength": 2, "type": "string", "maxLength": 5}}}),
    );
}

#[test]
fn if_then_else_properties_become_optional__unknown_name_if() {
    // peers §3 #21 (CPA): the branch properties are added; one only `then` types is free
    // when the condition fails, so it is added untyped with its schema in words.
    let out = run(
        G,
        Slot::Parameters,
        &json!({"type": "object", "properties": {"side": {"type": "string"}},
                "if": {"properties": {"side": {"const": "sell"}}},
                "then": {"properties": {"sell_reason": {"type": "string"}}},
                "else": {"properties": {"buy_reason": {"type": "string"}}}}),
    );
    let v = out.schema.to_value();
    assert!(
        v["properties"]["sell_reason"].is_object() && v["properties"]["buy_reason"].is_object(),
        "{v}"
    );
    assert!(v.get("if").is_none());
}

#[test]
fn vertex_any_of_stands_alone__any_of_must_be_the_only_field() {
    // peers §3 #18 (LiteLLM moves siblings into the branches).
    let input = json!({"type": "object", "properties": {"a": {"anyOf": [{"type": "string"}, {"type": "integer"}], "description": "d"}}});
    prevents(
        &Rules::VERTEX,
        Slot::Parameters,
        input.clone(),
        "any-of-alone",
        true,
    );
    rewrites(
        &Rules::VERTEX,
        Slot::Parameters,
        input,
        json!({"properties": {"a": {"anyOf": [{"type": "string", "description": "d"}, {"type": "integer", "description": "d"}]}}, "type": "object"}),
    );
}

#[test]
fn code_assist_collapses_unions_and_null__invalid_argument() {
    rewrites(
        &Rules::GEMINI_CODE_ASSIST,
        Slot::Parameters,
        json!({"type": "object", "properties": {"a": {"anyOf": [{"type": "string"}, {"type": "integer"}]}, "n": {"type": "null"}}}),
        json!({"properties": {"a": {"type": "string", "description": "Accepts string or integer."}, "n": {"type": "string", "nullable": true, "description": "Always null."}}, "type": "object"}),
    );
}

#[test]
fn default_beside_any_of_moves_to_the_description__vertex_gets_confused() {
    // peers §3 #55 (historical gemini-cli: "Vertex AI gets confused if both anyOf and default
    // are set").
    let input = json!({"type": "object", "properties": {"v": {"anyOf": [{"type": "string"}, {"type": "integer"}], "default": "x"}}});
    let v = check(&input, G, Slot::Parameters);
    assert!(
        v.iter()
            .any(|x| x.rule == "default-beside-any-of" && x.pointer == "/properties/v"),
        "{v:?}"
    );
    let out = rewrites(
        G,
        Slot::Parameters,
        input,
        json!({"type": "object", "properties": {"v": {"anyOf": [{"type": "string"}, {"type": "integer"}], "description": "Default: \"x\"."}}}),
    );
    assert!(
        out.report
            .changes
            .iter()
            .any(|c| c.rule == "default-beside-any-of" && c.pointer == "/properties/v"),
        "{:?}",
        out.report.changes
    );
    // An anyOf written by a step (a type list) loses its default the same way.
    rewrites(
        G,
        Slot::Schema,
        json!({"type": ["string", "integer"], "default": 3, "description": "N"}),
        json!({"description": "N (Default: 3.)", "anyOf": [{"type": "string"}, {"type": "integer"}]}),
    );
    // A union with null becomes `nullable`: no anyOf is left, the default stays.
    rewrites(
        G,
        Slot::Schema,
        json!({"anyOf": [{"type": "string"}, {"type": "null"}], "default": "x"}),
        json!({"default": "x", "type": "string", "nullable": true}),
    );
}

#[test]
fn default_beside_any_of_kept_where_the_pair_is_accepted() {
    let input = json!({"anyOf": [{"type": "string"}, {"type": "integer"}], "default": "x"});
    // Vertex moves every sibling into the branches it belongs to (`anyOf` must stand alone).
    rewrites(
        &Rules::VERTEX,
        Slot::Schema,
        input.clone(),
        json!({"anyOf": [{"type": "string", "default": "x"}, {"type": "integer"}]}),
    );
    // Plain JSON Schema keeps the pair (`parametersJsonSchema` has no `default` at all).
    rewrites(&Rules::OPENAI, Slot::Schema, input.clone(), input);
}

#[test]
fn vertex_default_goes_to_the_branches_its_value_belongs_to__any_of_must_be_the_only_field() {
    // `anyOf` stands alone on Vertex: its siblings move into the branches, but `"x"` is no
    // default of an integer branch.
    rewrites(
        &Rules::VERTEX,
        Slot::Schema,
        json!({"anyOf": [{"type": "string"}, {"type": "integer"}], "default": "x"}),
        json!({"anyOf": [{"type": "string", "default": "x"}, {"type": "integer"}]}),
    );
    rewrites(
        &Rules::VERTEX,
        Slot::Schema,
        json!({"anyOf": [{"type": "string"}, {"type": "number"}], "default": 3}),
        json!({"anyOf": [{"type": "string"}, {"type": "number", "default": 3}]}),
    );
}
