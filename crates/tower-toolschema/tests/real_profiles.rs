//! End to end with the real `provider_rules` profiles: every API shape over the whole corpus,
//! `provider_rules::check` is empty on every slot that went out.

mod common;

use bytes::Bytes;
use common::*;
use serde_json::{Value, json};
use tower_toolschema::sanitizer::SchemaSlot;
use tower_toolschema::shapes::{Api, SlotRole};
use tower_toolschema::{Profile, ToolSchemaLayer, sanitize_body};

fn slot_value(out: &Value, pointer: &str) -> Value {
    match at(out, pointer) {
        Value::String(s) => serde_json::from_str(s).expect("string-encoded schema"),
        other => other.clone(),
    }
}

fn engine_slot(role: SlotRole) -> provider_rules::Slot {
    match role {
        SlotRole::ToolParameters => provider_rules::Slot::Parameters,
        _ => provider_rules::Slot::Schema,
    }
}

#[test]
fn gemini_type_list_comes_out_single() {
    let tool = corpus_tools()
        .into_iter()
        .find(|t| t.name == "create_merge_request")
        .expect("corpus tool");
    assert!(tool.schema["properties"]["remove_source_branch"]["type"].is_array());
    let body = json!({"contents": [], "tools": [{"functionDeclarations": [{"name": tool.name, "parameters": tool.schema}]}]});
    let (out, report) = sanitize_body(
        ToolSchemaLayer::gemini().config(),
        Some(Api::Gemini),
        Bytes::from(body.to_string()),
    );
    assert!(report.is_rewritten(), "{report:?}");
    let v: Value = serde_json::from_slice(&out).unwrap();
    let ty = &v["tools"][0]["functionDeclarations"][0]["parameters"]["properties"]["remove_source_branch"]
        ["type"];
    assert!(ty.is_string(), "type is {ty}");
    let _ = SchemaSlot::Parameters;
}

#[test]
fn check_is_empty_on_every_rewritten_slot_for_every_api() {
    let tools = corpus_tools();
    let layer = ToolSchemaLayer::auto();
    for api in ALL_APIS {
        for chunk in tools.chunks(60) {
            let (body, slots) = body_for(api, chunk);
            let (out, report) = sanitize_body(layer.config(), Some(api), Bytes::from(body));
            assert_eq!(report.slots.len(), slots, "{api}");
            let parsed: Value = serde_json::from_slice(&out).expect("output is JSON");
            for slot in &report.slots {
                assert!(
                    slot.error.is_none(),
                    "{api} {}: {:?}",
                    slot.pointer,
                    slot.error
                );
                let profile = Profile::builtin(&slot.profile).expect("builtin");
                let v = slot_value(&parsed, &slot.pointer);
                // Property keys needing renaming are reported, never renamed by a request-side layer.
                let violations: Vec<_> =
                    provider_rules::check(&v, profile.rules(), engine_slot(slot.role))
                        .into_iter()
                        .filter(|v| v.rule != "property-key")
                        .collect();
                assert!(
                    violations.is_empty(),
                    "{api} {} ({}): {violations:?}",
                    slot.pointer,
                    slot.profile
                );
            }
            let history = std::str::from_utf8(&out).unwrap();
            assert!(
                history.contains(HISTORY) || history.contains(GEMINI_HISTORY),
                "{api}: history changed"
            );
        }
    }
}

#[test]
fn strict_tools_take_the_strict_profile_or_are_downgraded() {
    let body = r#"{"model":"gpt-4o","messages":[],"tools":[
      {"type":"function","function":{"name":"a","strict":true,"parameters":{"type":"object","properties":{"x":{"type":"array"}}}}},
      {"type":"function","function":{"name":"b","strict":true,"parameters":{"type":"object","properties":{"y":{"type":"string"}}}}}]}"#;
    let (out, report) = sanitize_body(
        ToolSchemaLayer::auto().config(),
        Some(Api::OpenAiChat),
        Bytes::from_static(body.as_bytes()),
    );
    let v: Value = serde_json::from_slice(&out).unwrap();
    for (i, slot) in report.slots.iter().enumerate() {
        let strict = &v["tools"][i]["function"]["strict"];
        if slot.strict_downgraded {
            assert_eq!(
                (slot.profile.as_str(), strict),
                ("openai", &Value::Bool(false))
            );
        } else {
            assert_eq!(
                (slot.profile.as_str(), strict),
                ("openai-strict", &Value::Bool(true))
            );
        }
        let profile = Profile::builtin(&slot.profile).unwrap();
        let schema = &v["tools"][i]["function"]["parameters"];
        assert!(
            provider_rules::check(schema, profile.rules(), provider_rules::Slot::Parameters)
                .is_empty()
        );
    }
    assert_eq!(report.slots[1].profile, "openai-strict");
    println!(
        "untyped array downgraded: {}",
        report.slots[0].strict_downgraded
    );
}

#[test]
fn anthropic_property_keys_needing_renaming_are_reported_and_the_body_goes_on() {
    // `input_schema.properties: Property keys should match pattern '^[a-zA-Z0-9_.-]{1,64}$'`:
    // renaming needs the response side, so the layer reports it and changes nothing else.
    let body = json!({
        "model": "claude-sonnet-4-5",
        "max_tokens": 16,
        "messages": [{"role": "user", "content": "hi"}],
        "tools": [{"name": "q", "input_schema": {"type": "object", "properties": {"$filter": {"type": "string"}}}}]
    })
    .to_string();
    let (out, report) = sanitize_body(
        ToolSchemaLayer::anthropic().config(),
        Some(Api::AnthropicMessages),
        Bytes::from(body.clone()),
    );
    assert_eq!(out, body.as_bytes());
    assert_eq!(report.slots.len(), 1);
    let slot = &report.slots[0];
    assert!(slot.changes.is_empty());
    assert_eq!(slot.unfixable.len(), 1);
    assert!(
        slot.unfixable[0].contains("$filter"),
        "{:?}",
        slot.unfixable
    );
}

/// An Anthropic body with `n` strict tools, tool `i` having `optional(i)` optional parameters.
fn anthropic_strict_body(n: usize, optional: impl Fn(usize) -> usize) -> Bytes {
    let tools: Vec<Value> = (0..n)
        .map(|i| {
            let mut props = serde_json::Map::new();
            props.insert("q".into(), json!({"type": "string"}));
            for k in 0..optional(i) {
                props.insert(format!("o{k}"), json!({"type": "integer"}));
            }
            json!({"name": format!("t{i}"), "strict": true,
                   "input_schema": {"type": "object", "properties": props, "required": ["q"], "additionalProperties": false}})
        })
        .collect();
    let body = json!({"model": "claude-x", "max_tokens": 8, "messages": [], "tools": tools});
    Bytes::from(body.to_string())
}

#[test]
fn anthropic_strict_tools_over_the_request_limits_go_non_strict() {
    // providers.md §5.3: "Complexity limits per request (combined across all strict
    // schemas): 20 strict tools, 24 optional parameters, 16 parameters with union types".
    let (out, report) = sanitize_body(
        ToolSchemaLayer::anthropic().config(),
        Some(Api::AnthropicMessages),
        anthropic_strict_body(22, |_| 0),
    );
    let v: Value = serde_json::from_slice(&out).unwrap();
    for (i, slot) in report.slots.iter().enumerate() {
        let over = i >= 20;
        assert_eq!(
            (slot.strict_downgraded, slot.strict_over_request_limits),
            (over, over),
            "tool {i}"
        );
        assert_eq!(v["tools"][i]["strict"], Value::Bool(!over), "tool {i}");
        assert_eq!(
            slot.profile,
            if over {
                "anthropic"
            } else {
                "anthropic-strict"
            }
        );
    }
}

#[test]
fn anthropic_strict_optional_parameters_share_one_budget() {
    // 10 + 10 optional parameters fit in 24; the third tool's 10 would make 30: it goes
    // non-strict, and the fourth (4 more: 24) still fits.
    let counts = [10, 10, 10, 4];
    let (out, report) = sanitize_body(
        ToolSchemaLayer::anthropic().config(),
        Some(Api::AnthropicMessages),
        anthropic_strict_body(4, |i| counts[i]),
    );
    let v: Value = serde_json::from_slice(&out).unwrap();
    let strict: Vec<bool> = (0..4)
        .map(|i| v["tools"][i]["strict"] == Value::Bool(true))
        .collect();
    assert_eq!(strict, [true, true, false, true]);
    assert!(report.slots[2].strict_over_request_limits);
    // Only the flag changed in the downgraded tool: its schema was already fine.
    assert_eq!(
        v["tools"][2]["input_schema"]["properties"]
            .as_object()
            .map(|m| m.len()),
        Some(11)
    );
}

#[test]
fn openai_strict_has_no_request_wide_limits() {
    let tools: Vec<Value> = (0..25)
        .map(|i| json!({"type": "function", "function": {"name": format!("t{i}"), "strict": true,
            "parameters": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"], "additionalProperties": false}}}))
        .collect();
    let body = json!({"model": "gpt-x", "messages": [], "tools": tools});
    let (_, report) = sanitize_body(
        ToolSchemaLayer::openai().config(),
        Some(Api::OpenAiChat),
        Bytes::from(body.to_string()),
    );
    assert!(report.slots.iter().all(|s| !s.strict_downgraded));
}
