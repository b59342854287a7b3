//! Issue 19: what the peers' own test suites and unseen real tools still caught. Each test is
//! named after the case it comes from (peer and test name, or the provider's error).

mod common;
use common::{rejects, run};
use provider_rules::{PROFILES, Rules, Slot, check, profile};
use serde_json::{Value, json};

fn rules(name: &str) -> &'static Rules {
    profile(name).expect("a built-in profile")
}

/// The property names of the object at `pointer`, in order.
fn names(v: &Value, pointer: &str) -> Vec<String> {
    v.pointer(pointer)
        .and_then(Value::as_object)
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default()
}

/// CLIProxyAPI `BarePropertyMapNormalized` (and its 26 bare-map cases): a hand-written MCP
/// server's parameters without `properties`, a member itself a bare map
/// (`{"data": {"parent": {...}}}`). Under `gemini-code-assist` the nested properties became a
/// string "Any JSON value."; every profile now keeps the structure.
#[test]
fn cliproxyapi_bare_property_map_normalized_nested_keeps_structure_on_every_profile() {
    let input = json!({
        "data": {"parent": {"type": "object", "properties": {"id": {"type": "string"}}}},
        "q": {"type": "string"}
    });
    for r in PROFILES {
        let out = run(r, Slot::Parameters, &input).schema.to_value();
        assert_eq!(
            names(&out, "/properties"),
            ["data", "q"],
            "{}: {out}",
            r.name()
        );
        assert_eq!(
            names(&out, "/properties/data/properties/parent/properties"),
            ["id"],
            "{}: {out}",
            r.name()
        );
        // (`["object", "null"]` where strict modes make an optional property nullable.)
        let t = &out["properties"]["data"]["type"];
        assert!(
            *t == "object" || t.as_array().is_some_and(|l| l.contains(&json!("object"))),
            "{}: {out}",
            r.name()
        );
    }
}

/// An untyped root with `format` beside `properties`: the object inferred from `properties`
/// kept `format`, which Gemini rejects on an OBJECT (its Schema proto's `format` is for
/// STRING/NUMBER/INTEGER). Seen on an unseen real MCP tool.
#[test]
fn gemini_inferred_object_root_drops_format() {
    let input = json!({"format": "date-time", "properties": {"at": {"type": "string", "format": "date-time"}}});
    rejects(
        rules("gemini"),
        Slot::Parameters,
        &json!({"type": "object", "format": "date-time", "properties": {}}),
        "foreign-keyword",
        false,
    );
    let out = run(rules("gemini"), Slot::Parameters, &input)
        .schema
        .to_value();
    assert_eq!(out["type"], "object");
    assert!(out.get("format").is_none(), "{out}");
    assert_eq!(out["properties"]["at"]["format"], "date-time", "{out}");
}

/// A boolean `const` under `gemini-jsonschema` went to the description while numeric ones
/// became `enum`; `enum: [true]` is accepted there.
#[test]
fn gemini_jsonschema_boolean_const_becomes_enum() {
    let input =
        json!({"type": "object", "properties": {"confirm": {"const": true}, "n": {"const": 1}}});
    let out = run(rules("gemini-jsonschema"), Slot::Parameters, &input)
        .schema
        .to_value();
    assert_eq!(out["properties"]["confirm"]["enum"], json!([true]), "{out}");
    assert_eq!(out["properties"]["confirm"]["type"], "boolean", "{out}");
    assert!(
        out["properties"]["confirm"].get("description").is_none(),
        "{out}"
    );
    assert_eq!(out["properties"]["n"]["enum"], json!([1]), "{out}");
}

/// CLIProxyAPI's Codex tests: OpenAI non-strict answers "root must not be anyOf/allOf" (and
/// `schema must have type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the
/// top level`, cecli-dev/cecli#281) for a root composition beside `type: "object"`: it is
/// merged into the object.
#[test]
fn cliproxyapi_codex_root_must_not_be_any_of_all_of() {
    let input = json!({
        "type": "object",
        "allOf": [{"properties": {"a": {"type": "string"}}, "required": ["a"]}],
        "anyOf": [
            {"properties": {"b": {"type": "string"}}, "required": ["b"]},
            {"properties": {"c": {"type": "integer"}}}
        ]
    });
    rejects(
        rules("openai"),
        Slot::Parameters,
        &input,
        "root-union",
        true,
    );
    let out = run(rules("openai"), Slot::Parameters, &input)
        .schema
        .to_value();
    assert!(
        out.get("allOf").is_none() && out.get("anyOf").is_none(),
        "{out}"
    );
    assert_eq!(names(&out, "/properties"), ["a", "b", "c"], "{out}");
    assert_eq!(out["required"], json!(["a"]), "{out}");
}

/// `gemini-jsonschema`: an array without `items` (also as an `anyOf` branch) failed a Gemini
/// `parametersJsonSchema` check of two unseen real tools while `check` said nothing; now
/// `check` names it and the engine adds the lossless `items: {}`.
#[test]
fn gemini_jsonschema_array_without_items_gets_empty_items() {
    let input = json!({"type": "object", "properties": {
        "tags": {"type": "array"},
        "ids": {"anyOf": [{"type": "array"}, {"type": "string"}]}
    }});
    rejects(
        rules("gemini-jsonschema"),
        Slot::Parameters,
        &input,
        "items-missing",
        false,
    );
    let out = run(rules("gemini-jsonschema"), Slot::Parameters, &input)
        .schema
        .to_value();
    assert_eq!(out["properties"]["tags"]["items"], json!({}), "{out}");
    assert_eq!(
        out["properties"]["ids"]["anyOf"][0]["items"],
        json!({}),
        "{out}"
    );
}

/// `anthropic-strict` in the standalone-schema slot (`output_config.format`) turned a root
/// `oneOf` of string/number into an empty object. Anthropic's structured outputs list `anyOf`
/// as supported with no rule on the root (platform.claude.com, structured outputs, "JSON
/// Schema limitations"): the union is kept, as `anyOf`.
#[test]
fn anthropic_strict_standalone_root_one_of_string_number_kept() {
    let input = json!({"oneOf": [{"type": "string"}, {"type": "number"}]});
    let out = run(rules("anthropic-strict"), Slot::Schema, &input);
    assert_eq!(
        out.schema.to_value(),
        json!({"anyOf": [{"type": "string"}, {"type": "number"}]})
    );
    assert!(out.report.strict_compatible);
    // A tool's input must still be an object.
    let params = run(rules("anthropic-strict"), Slot::Parameters, &input)
        .schema
        .to_value();
    assert_eq!(params["type"], "object");
    assert!(
        check(&input, rules("anthropic-strict"), Slot::Parameters)
            .iter()
            .any(|v| v.rule == "root")
    );
}

/// xAI documents "$ref/$defs (non-circular references only)", yet `check --provider xai`
/// said `$ref is not accepted`, so `matrix` marked 24 Notion tools "fixed" that needed
/// nothing: a non-circular reference is accepted; a circular or dangling one is named.
#[test]
fn xai_non_circular_ref_is_accepted_circular_is_named() {
    let plain = json!({"type": "object", "properties": {"page": {"$ref": "#/$defs/Page"}},
        "$defs": {"Page": {"type": "object", "properties": {"id": {"type": "string"}}}}});
    let xai = rules("xai");
    assert!(
        check(&plain, xai, Slot::Parameters).is_empty(),
        "{:?}",
        check(&plain, xai, Slot::Parameters)
    );
    let circular = json!({"type": "object", "properties": {"tree": {"$ref": "#/$defs/Node"}},
        "$defs": {"Node": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/Node"}}}}}});
    let found = check(&circular, xai, Slot::Parameters);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].pointer, "/$defs/Node/properties/kids/items");
    assert_eq!(found[0].rule, "ref");
    let dangling = json!({"type": "object", "properties": {"p": {"$ref": "#/$defs/Missing"}}});
    assert!(
        check(&dangling, xai, Slot::Parameters)
            .iter()
            .any(|v| v.rule == "ref")
    );
    // The profile still inlines, and the result passes.
    run(xai, Slot::Parameters, &circular);
    let out = run(xai, Slot::Parameters, &plain).schema.to_value();
    assert_eq!(
        out["properties"]["page"]["properties"]["id"]["type"],
        "string"
    );
}

/// peers.md §4 O7 and §3 #43: `Invalid schema for function 'Artifact':
/// '^(?!__.*__$)[^\\p{Cc}…]{1,200}$' is not a 'regex'.` ECMA-262-only syntax (Unicode property
/// escapes, control escapes `\cC`) goes to the description, as for xAI.
#[test]
fn openai_artifact_pattern_is_not_a_regex() {
    for name in ["openai", "openai-strict"] {
        for pat in [
            r"^(?!__.*__$)[^\p{Cc}\p{Cf}\p{Zl}\p{Zp}]{1,200}$",
            r"^\cJ?[a-z]+$",
        ] {
            let input = json!({"type": "object", "properties": {"name": {"type": "string", "pattern": pat}}, "required": ["name"], "additionalProperties": false});
            rejects(
                rules(name),
                Slot::Parameters,
                &input,
                "pattern-syntax",
                false,
            );
            let out = run(rules(name), Slot::Parameters, &input).schema.to_value();
            let prop = &out["properties"]["name"];
            assert!(prop.get("pattern").is_none(), "{name}: {out}");
            assert!(
                prop["description"]
                    .as_str()
                    .is_some_and(|d| d.contains(pat)),
                "{name}: {out}"
            );
        }
    }
    // What OpenAI's validator compiles stays.
    let ok = json!({"type": "object", "properties": {"id": {"type": "string", "pattern": "^[a-z]{2}-\\d+$"}}});
    assert!(check(&ok, rules("openai"), Slot::Parameters).is_empty());
}

/// The peers' `$id` case through the engine: a nested resource's `#/$defs/T` (an integer)
/// became the root's string for every inlining profile; the nested `$defs` stayed.
#[test]
fn nested_resource_ref_inlines_its_own_definition_on_every_profile() {
    let input = json!({"$id": "https://example.com/tool.json", "type": "object",
        "$defs": {"T": {"type": "string"}},
        "properties": {"count": {"$id": "count.json", "$defs": {"T": {"type": "integer"}}, "$ref": "#/$defs/T"}}});
    for r in PROFILES
        .iter()
        .filter(|r| r.refs != provider_rules::Refs::Keep)
    {
        let out = run(r, Slot::Parameters, &input).schema.to_value();
        let count = &out["properties"]["count"];
        let t = &count["type"];
        assert!(
            *t == "integer" || t.as_array().is_some_and(|l| l.contains(&json!("integer"))),
            "{}: {out}",
            r.name()
        );
        assert!(count.get("$defs").is_none(), "{}: {out}", r.name());
    }
}

/// Google's genai `Type` enum serializes `"STRING"`, `"OBJECT"`, `"ARRAY"` (schemas from
/// gemini-cli and ADK arrive so): they were not read as types, the node became the any-value
/// approximation and kept `format`. Read case-insensitively, written lower-case (which every
/// target accepts); the Schema proto accepts both, JSON Schema targets get a `type-case` finding.
#[test]
fn google_genai_upper_case_types_are_read_as_types() {
    let input = json!({"type": "OBJECT", "properties": {
        "when": {"type": "STRING", "format": "date-time"},
        "tags": {"type": "ARRAY", "items": {"type": "STRING"}},
        "n": {"type": ["INTEGER", "NULL"]}
    }, "required": ["when"]});
    assert!(
        check(&input, rules("gemini"), Slot::Parameters)
            .iter()
            .all(|v| v.rule != "type-case")
    );
    for r in PROFILES {
        if !r.type_names_any_case {
            rejects(r, Slot::Parameters, &input, "type-case", false);
        }
        let out = run(r, Slot::Parameters, &input).schema.to_value();
        let when = &out["properties"]["when"];
        let t = &when["type"];
        assert!(
            *t == "string" || t.as_array().is_some_and(|l| l.contains(&json!("string"))),
            "{}: {out}",
            r.name()
        );
        assert_eq!(
            out["properties"]["tags"]["items"]["type"],
            "string",
            "{}: {out}",
            r.name()
        );
        assert!(!out.to_string().contains("STRING"), "{}: {out}", r.name());
    }
    let gemini = run(rules("gemini"), Slot::Parameters, &input)
        .schema
        .to_value();
    assert_eq!(
        gemini["properties"]["when"]["format"], "date-time",
        "{gemini}"
    );
    assert_eq!(
        gemini["properties"]["n"],
        json!({"type": "integer", "nullable": true})
    );
}
