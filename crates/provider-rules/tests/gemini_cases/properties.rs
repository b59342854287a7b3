//! Objects' properties: dangling and boolean `required`, empty maps, bare property maps.

use crate::common::{prevents, rewrites, run};
use crate::{G, PROTO};
use provider_rules::{Rules, Slot, check};
use serde_json::json;

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
