//! Gemini family (`gemini`, `vertex`, `gemini-code-assist`, `gemini-jsonschema`): the cases of
//! peers.md §3 and the errors of providers.md §1.3 / peers.md §4, each as a regression test.
// Test names read `behaviour__provider_error_it_prevents`.
#![allow(non_snake_case)]

mod common;
use common::{prevents, rewrites, run};
use provider_rules::{Rules, Slot, check};
use serde_json::json;

const G: &Rules = &Rules::GEMINI;

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
fn dangling_required_defined_as_any_value__property_is_not_defined() {
    // peers §3 #2 and #24; G9.
    prevents(
        G,
        Slot::Parameters,
        json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a", "c"]}),
        "required-undefined",
        true,
    );
    // The name stays required, as a property of any value (issue 16: it was dropped to the
    // description, and the object no longer required it).
    let out = run(
        G,
        Slot::Parameters,
        &json!({"properties": {"name": {"type": ["string", "null"]}}, "required": ["name", "other"]}),
    )
    .schema
    .to_value();
    assert_eq!(out["required"], json!(["name", "other"]));
    assert_eq!(
        out["properties"]["name"],
        json!({"type": "string", "nullable": true})
    );
    let any: Vec<&str> = out["properties"]["other"]["anyOf"]
        .as_array()
        .expect("any value")
        .iter()
        .filter_map(|b| b["type"].as_str())
        .collect();
    assert_eq!(any, ["string", "number", "boolean", "object", "array"]);
    // Without a union (Code Assist) the name goes to the description, as before.
    rewrites(
        &Rules::GEMINI_CODE_ASSIST,
        Slot::Parameters,
        json!({"properties": {"name": {"type": "string"}}, "required": ["name", "other"]}),
        json!({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"], "description": "Also required: \"other\"."}),
    );
}

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

/// The Schema-proto profiles that refuse an empty `properties` (G13).
const PROTO: [&Rules; 3] = [&Rules::GEMINI, &Rules::GEMINI_CODE_ASSIST, &Rules::VERTEX];

#[test]
fn empty_root_properties_removed__properties_should_be_non_empty_for_object_type() {
    // peers §3 #36; G13 (langchain-ai/langchain-google#416, pipecat-ai/pipecat-flows#110).
    let input = json!({"type": "object", "properties": {}});
    for rules in PROTO {
        let v = check(&input, rules, Slot::Parameters);
        let hit = v
            .iter()
            .find(|x| x.rule == "properties-empty")
            .unwrap_or_else(|| panic!("{}: {v:?}", rules.name()));
        assert_eq!(hit.pointer, "");
        assert!(
            hit.provider_error
                .is_some_and(|e| e.ends_with("properties: should be non-empty for OBJECT type")),
            "{hit:?}"
        );
        let out = rewrites(
            rules,
            Slot::Parameters,
            input.clone(),
            json!({"type": "object"}),
        );
        // Lossless: an empty map asserts nothing.
        assert_eq!(out.report.lossy_count(), 0, "{:?}", out.report.changes);
        assert!(
            out.report
                .changes
                .iter()
                .any(|c| c.rule == "properties-empty" && c.pointer.is_empty() && !c.lossy),
            "{:?}",
            out.report.changes
        );
    }
}

#[test]
fn empty_nested_properties_removed__properties_should_be_non_empty_for_object_type() {
    // peers §3 #36 (VAI: a nested empty object becomes `{"type":"object"}`); G13.
    let input = json!({"type": "object", "properties": {
        "opts": {"type": "object", "properties": {}, "description": "Options."},
        "bare": {"properties": {}}
    }});
    for rules in PROTO {
        prevents(
            rules,
            Slot::Parameters,
            input.clone(),
            "properties-empty",
            true,
        );
        let out = rewrites(
            rules,
            Slot::Parameters,
            input.clone(),
            json!({"type": "object", "properties": {
                "opts": {"type": "object", "description": "Options."},
                "bare": {"type": "object"}
            }}),
        );
        assert_eq!(out.report.lossy_count(), 0, "{:?}", out.report.changes);
    }
}

#[test]
fn empty_properties_kept_where_json_schema_is_sent() {
    // G13 is the Schema proto's error: `parametersJsonSchema`, OpenAI (which requires the map,
    // O4) and Anthropic take `{}`.
    let input =
        json!({"type": "object", "properties": {"o": {"type": "object", "properties": {}}}});
    for rules in [&Rules::GEMINI_JSONSCHEMA, &Rules::OPENAI, &Rules::ANTHROPIC] {
        assert!(
            check(&input, rules, Slot::Parameters)
                .iter()
                .all(|v| v.rule != "properties-empty"),
            "{}",
            rules.name()
        );
        let out = run(rules, Slot::Parameters, &input);
        assert_eq!(
            out.schema.to_value()["properties"]["o"]["properties"],
            json!({}),
            "{}",
            rules.name()
        );
    }
}

#[test]
fn root_asked_for_properties_keeps_an_empty_map_nested_ones_go__should_be_non_empty() {
    // A Gemini variant asking for root `properties` (as OpenAI does, and `portable`): the root
    // map wins (it is what the profile asked for), nested empty maps still go, and the steps do
    // not fight (idempotence and a clean check, asserted by `run`).
    let rules = Rules {
        root: provider_rules::Root {
            properties: true,
            ..provider_rules::Root::OBJECT
        },
        ..Rules::GEMINI
    };
    for input in [
        json!({}),
        json!({"type": "object"}),
        json!({"type": "object", "properties": {}}),
    ] {
        let out = run(&rules, Slot::Parameters, &input);
        assert_eq!(
            out.schema.to_value(),
            json!({"type": "object", "properties": {}}),
            "{input}"
        );
    }
    rewrites(
        &rules,
        Slot::Parameters,
        json!({"anyOf": [{"type": "object"}, {"type": "object", "properties": {}}]}),
        json!({"type": "object", "anyOf": [{"type": "object"}, {"type": "object"}], "properties": {}}),
    );
    rewrites(
        &rules,
        Slot::Parameters,
        json!({"type": "object", "properties": {"o": {"type": "object", "properties": {}}}}),
        json!({"type": "object", "properties": {"o": {"type": "object"}}}),
    );
    // The same schema as a response schema has no root rule: its empty map goes.
    rewrites(
        &rules,
        Slot::Schema,
        json!({"type": "object", "properties": {}}),
        json!({"type": "object"}),
    );
}

#[test]
fn bare_property_map_wrapped_into_an_object__unknown_name_cannot_find_field() {
    // peers §3 #37 (CLIProxyAPI `BarePropertyMapNormalized`, `BooleanRequiredPromoted`): the
    // properties used to come out as `{"type":"object"}`, silently lost.
    let input = json!({"foo": {"type": "string", "required": true}, "n": {"type": "integer", "description": "N."}});
    for rules in [G, &Rules::VERTEX, &Rules::GEMINI_CODE_ASSIST] {
        prevents(
            rules,
            Slot::Parameters,
            input.clone(),
            "bare-properties",
            true,
        );
        let out = rewrites(
            rules,
            Slot::Parameters,
            input.clone(),
            json!({"type": "object", "properties": {"foo": {"type": "string"}, "n": {"type": "integer", "description": "N."}}, "required": ["foo"]}),
        );
        let rules_seen: Vec<&str> = out.report.changes.iter().map(|c| c.rule.as_str()).collect();
        assert!(rules_seen.contains(&"bare-properties"), "{rules_seen:?}");
        assert!(rules_seen.contains(&"boolean-required"), "{rules_seen:?}");
        assert_eq!(out.report.lossy_count(), 0, "{:?}", out.report.changes);
    }
}

#[test]
fn bare_property_map_members_are_sanitized_like_properties() {
    // The wrapped members are walked: a type list splits, a nested draft-03 flag is promoted,
    // a `$ref` into the wrapped schema resolves.
    rewrites(
        G,
        Slot::Parameters,
        json!({
            "a": {"type": ["string", "null"], "required": true},
            "b": {"type": "object", "properties": {"c": {"type": "string", "required": true}}}
        }),
        json!({"type": "object", "properties": {
            "a": {"type": "string", "nullable": true},
            "b": {"type": "object", "properties": {"c": {"type": "string"}}, "required": ["c"]}
        }, "required": ["a"]}),
    );
}

#[test]
fn only_bare_property_maps_are_wrapped() {
    for input in [
        // A known keyword at the root: a schema, not a map.
        json!({"description": "d", "foo": {"type": "string"}}),
        // A member that is not an object, or has no known keyword.
        json!({"foo": {"type": "string"}, "bar": 1}),
        json!({"foo": {"type": "string"}, "x-meta": {"owner": "me"}}),
        // Nothing at all.
        json!({}),
    ] {
        let out = run(G, Slot::Parameters, &input);
        assert!(
            out.report
                .changes
                .iter()
                .all(|c| c.rule != "bare-properties"),
            "{input}: {:?}",
            out.report.changes
        );
        assert!(
            check(&input, G, Slot::Parameters)
                .iter()
                .all(|v| v.rule != "bare-properties"),
            "{input}"
        );
    }
    // Outside a tool's parameters (a response schema), the root is left to the other steps.
    let out = run(
        G,
        Slot::Schema,
        &json!({"foo": {"type": "string", "required": true}}),
    );
    assert!(
        out.report
            .changes
            .iter()
            .all(|c| c.rule != "bare-properties")
    );
}

#[test]
fn boolean_required_promoted_to_the_parent_list__property_required_lost() {
    // peers §3 #37 (draft-03 `required: true`); the malformed value used to be dropped, and
    // the property with it no longer required.
    let input = json!({"type": "object", "properties": {
        "a": {"type": "string"},
        "b": {"type": "string", "required": true},
        "o": {"type": "object", "required": false, "properties": {
            "x": {"type": "integer", "required": true},
            "y": {"type": "integer", "required": false}
        }}
    }, "required": ["a"]});
    prevents(
        G,
        Slot::Parameters,
        input.clone(),
        "malformed-keyword",
        false,
    );
    let out = rewrites(
        G,
        Slot::Parameters,
        input,
        json!({"type": "object", "properties": {
            "a": {"type": "string"},
            "b": {"type": "string"},
            "o": {"type": "object", "properties": {
                "x": {"type": "integer"},
                "y": {"type": "integer"}
            }, "required": ["x"]}
        }, "required": ["a", "b"]}),
    );
    assert_eq!(out.report.lossy_count(), 0, "{:?}", out.report.changes);
    let promoted: Vec<&str> = out
        .report
        .changes
        .iter()
        .filter(|c| c.rule == "boolean-required")
        .map(|c| c.pointer.as_str())
        .collect();
    assert_eq!(promoted, ["", "/properties/o"]);
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
