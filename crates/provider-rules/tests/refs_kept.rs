//! Issue 16, strict profiles: `$defs`/`$ref` kept where the strict dialect accepts them
//! (OpenAI strict, recursion included; Anthropic strict without recursion) instead of inlined,
//! and the decoders and encodings that follow the references.

use provider_rules::{Rules, SanitizeOptions, Slot, check, sanitize, sanitize_with};
use schema_core::Schema;
use serde_json::{Value, json};

#[path = "common/ref_schemas.rs"]
mod ref_schemas;
use ref_schemas::{doubling, tree};

fn schema(v: &Value) -> Schema {
    Schema::from_str(&v.to_string()).unwrap()
}

fn out_json(s: &Schema) -> Value {
    serde_json::from_str(&s.to_json_string()).unwrap()
}

#[test]
fn openai_strict_keeps_a_recursive_tree_and_closes_its_definitions() {
    let out = sanitize(&schema(&tree()), &Rules::OPENAI_STRICT, Slot::Parameters);
    let got = out_json(&out.schema);
    assert!(out.report.strict_compatible, "{:?}", out.report);
    let node = &got["$defs"]["node"];
    assert_eq!(
        node["properties"]["children"]["items"]["$ref"], "#/$defs/node",
        "{got}"
    );
    assert_eq!(
        node["properties"]["children"]["type"],
        json!(["array", "null"]),
        "{got}"
    );
    assert_eq!(node["additionalProperties"], false, "{got}");
    let mut required: Vec<&str> = node["required"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    required.sort_unstable();
    assert_eq!(required, ["children", "label", "name"], "{got}");
    assert_eq!(got["properties"]["root"]["$ref"], "#/$defs/node", "{got}");
    assert!(check(&got, &Rules::OPENAI_STRICT, Slot::Parameters).is_empty());
}

#[test]
fn strict_nulls_are_removed_at_every_depth_of_a_recursive_value() {
    let out = sanitize(&schema(&tree()), &Rules::OPENAI_STRICT, Slot::Parameters);
    let sent = json!({"root": {"name": "a", "label": null, "children": [
        {"name": "b", "label": "x", "children": null},
        {"name": "c", "label": null, "children": [{"name": "d", "label": null, "children": null}]}
    ]}});
    let want = json!({"root": {"name": "a", "children": [
        {"name": "b", "label": "x"},
        {"name": "c", "children": [{"name": "d"}]}
    ]}});
    let text = out.decoder.decode_json(&sent.to_string()).unwrap().unwrap();
    assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), want);
    let mut v = sent.clone();
    out.decoder.decode_value(&mut v);
    assert_eq!(v, want);
    // And back: the instance encoder fills the nulls in at every depth.
    assert_eq!(out.decoder.encode_value(&want), sent);
    // Serialized decoders keep their definitions.
    let d: provider_rules::Decoder =
        serde_json::from_str(&serde_json::to_string(&out.decoder).unwrap()).unwrap();
    assert_eq!(d, out.decoder);
}

#[test]
fn a_definition_that_names_itself_does_not_loop() {
    let v = json!({"type": "object", "properties": {"x": {"$ref": "#/$defs/a"}, "o": {"type": "string"}},
        "$defs": {"a": {"$ref": "#/$defs/a"}}});
    let out = sanitize(&schema(&v), &Rules::OPENAI_STRICT, Slot::Parameters);
    // Whatever the schema became, decoding terminates.
    let _ = out
        .decoder
        .decode_json(r#"{"x": {"y": null}, "o": null}"#)
        .unwrap();
}

#[test]
fn a_schema_that_doubles_through_refs_stays_its_size() {
    let v = doubling(12);
    let bytes_in = v.to_string().len();
    let out = sanitize(&schema(&v), &Rules::OPENAI_STRICT, Slot::Parameters);
    let bytes_out = out.schema.to_json_string().len();
    assert!(out.report.strict_compatible, "{:?}", out.report);
    assert!(
        bytes_out < bytes_in * 2,
        "{bytes_in} bytes in, {bytes_out} out"
    );
    let got = out_json(&out.schema);
    assert!(check(&got, &Rules::OPENAI_STRICT, Slot::Parameters).is_empty());
    assert_eq!(got["$defs"].as_object().unwrap().len(), 13);
    // Inlining profiles still inline it (and cut it).
    let inlined = sanitize(&schema(&v), &Rules::DEEPSEEK_STRICT, Slot::Parameters);
    let bytes_inlined = inlined.schema.to_json_string().len();
    assert!(!inlined.schema.to_json_string().contains("$ref"));
    println!(
        "12 levels doubling through $refs: {bytes_in} bytes in, {bytes_out} out with refs kept (openai-strict, strict: {}), {bytes_inlined} inlined (deepseek-strict, strict: {})",
        out.report.strict_compatible, inlined.report.strict_compatible
    );
}

#[test]
fn definitions_become_defs_and_unused_ones_go() {
    let v = json!({"type": "object", "properties": {"a": {"$ref": "#/definitions/s"}},
        "required": ["a"], "definitions": {"s": {"type": "string"}, "unused": {"type": "integer"}}});
    let out = sanitize(&schema(&v), &Rules::OPENAI_STRICT, Slot::Parameters);
    let got = out_json(&out.schema);
    assert_eq!(got["properties"]["a"]["$ref"], "#/$defs/s", "{got}");
    assert_eq!(got["$defs"], json!({"s": {"type": "string"}}), "{got}");
    assert!(got.get("definitions").is_none());
}

#[test]
fn a_ref_with_siblings_is_inlined_at_that_node_only() {
    let v = json!({"type": "object", "properties": {
        "n": {"$ref": "#/$defs/node", "description": "the first node"}},
        "required": ["n"],
        "$defs": {"node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}}, "required": ["next"]}}});
    let before = check(&v, &Rules::OPENAI_STRICT, Slot::Parameters);
    assert!(
        before
            .iter()
            .any(|f| f.rule == "ref-siblings" && f.pointer == "/properties/n"),
        "{before:?}"
    );
    let out = sanitize(&schema(&v), &Rules::OPENAI_STRICT, Slot::Parameters);
    let got = out_json(&out.schema);
    assert_eq!(
        got["properties"]["n"]["description"], "the first node",
        "{got}"
    );
    assert_eq!(
        got["properties"]["n"]["properties"]["next"]["$ref"], "#/$defs/node",
        "{got}"
    );
    assert!(check(&got, &Rules::OPENAI_STRICT, Slot::Parameters).is_empty());
}

#[test]
fn check_names_external_and_dangling_refs_for_openai_strict() {
    let v = json!({"type": "object", "properties": {
        "e": {"$ref": "http://example.com/x.json"}, "d": {"$ref": "#/$defs/none"}},
        "required": ["e", "d"], "additionalProperties": false});
    let found = check(&v, &Rules::OPENAI_STRICT, Slot::Parameters);
    let refs: Vec<&str> = found
        .iter()
        .filter(|f| f.rule == "ref")
        .map(|f| f.pointer.as_str())
        .collect();
    // (`json!` orders keys: `d` comes first.)
    assert_eq!(refs, ["/properties/d", "/properties/e"], "{found:?}");
}

#[test]
fn anthropic_strict_keeps_plain_refs_and_inlines_recursive_ones() {
    let s = json!({"type": "object", "properties": {
        "street": {"type": "string", "description": "street and number"},
        "city": {"type": "string", "description": "the city's name"}}, "required": ["city"]});
    let v = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/s"}, "b": {"$ref": "#/$defs/s"}},
        "required": ["a"], "$defs": {"s": s}});
    let out = sanitize(&schema(&v), &Rules::ANTHROPIC_STRICT, Slot::Parameters);
    let got = out_json(&out.schema);
    assert_eq!(got["properties"]["b"]["$ref"], "#/$defs/s", "{got}");
    assert_eq!(got["$defs"]["s"]["additionalProperties"], false, "{got}");
    assert!(check(&got, &Rules::ANTHROPIC_STRICT, Slot::Parameters).is_empty());
    // Used once, the definition is inlined: no larger, and the grammar gains nothing.
    let once =
        json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/s"}}, "$defs": {"s": s}});
    let got =
        out_json(&sanitize(&schema(&once), &Rules::ANTHROPIC_STRICT, Slot::Parameters).schema);
    assert!(!got.to_string().contains("$ref"), "{got}");

    let found = check(&tree(), &Rules::ANTHROPIC_STRICT, Slot::Parameters);
    assert!(
        found
            .iter()
            .any(|f| f.rule == "ref" && f.message.contains("recursive")),
        "{found:?}"
    );
    let out = sanitize(&schema(&tree()), &Rules::ANTHROPIC_STRICT, Slot::Parameters);
    let got = out_json(&out.schema);
    assert!(!got.to_string().contains("$ref"), "{got}");
    assert!(check(&got, &Rules::ANTHROPIC_STRICT, Slot::Parameters).is_empty());
}

#[test]
fn encodings_apply_inside_definitions_and_follow_references() {
    // A map inside a recursive definition: encoded once, decoded at every depth.
    let v = json!({"type": "object", "properties": {"root": {"$ref": "#/$defs/node"}}, "required": ["root"],
        "$defs": {"node": {"type": "object", "properties": {
            "env": {"type": "object", "additionalProperties": {"type": "string"}},
            "kids": {"type": "array", "items": {"$ref": "#/$defs/node"}}},
            "required": ["env", "kids"]}}});
    let out = sanitize_with(
        &schema(&v),
        &Rules::OPENAI_STRICT,
        Slot::Parameters,
        &SanitizeOptions::ENCODE,
    );
    assert!(out.report.strict_compatible, "{:?}", out.report);
    let got = out_json(&out.schema);
    assert_eq!(
        got["$defs"]["node"]["properties"]["env"]["type"], "array",
        "{got}"
    );
    assert!(check(&got, &Rules::OPENAI_STRICT, Slot::Parameters).is_empty());
    let original = json!({"root": {"env": {"A": "1"}, "kids": [{"env": {"B": "2"}, "kids": []}]}});
    let encoded = out.decoder.encode_value(&original);
    assert_eq!(
        encoded["root"]["kids"][0]["env"],
        json!([{"key": "B", "value": "2"}]),
        "{encoded}"
    );
    let text = out
        .decoder
        .decode_json(&encoded.to_string())
        .unwrap()
        .unwrap();
    assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), original);
    let mut back = encoded.clone();
    out.decoder.decode_value(&mut back);
    assert_eq!(back, original);
}
