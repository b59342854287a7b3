//! Every API shape, with bodies built from the corpus tools, through `sanitize_body` and a fake
//! engine (mechanics: location, splicing, profile choice per slot, byte identity elsewhere).

mod common;

use bytes::Bytes;
use common::*;
use serde_json::Value;
use tower_toolschema::report::Outcome;
use tower_toolschema::shapes::{Api, Encoding};
use tower_toolschema::{Config, Target, ToolSchemaLayer, sanitize_body};

fn fake(layer: ToolSchemaLayer) -> ToolSchemaLayer {
    layer.sanitizer(Fake)
}

fn slot_value(out: &Value, pointer: &str) -> Value {
    let v = at(out, pointer);
    match v {
        Value::String(s) => serde_json::from_str(s).expect("string-encoded schema"),
        other => other.clone(),
    }
}

#[test]
fn every_api_shape_with_corpus_tools() {
    let tools = corpus_tools();
    assert!(tools.len() > 100, "corpus has {} tools", tools.len());
    let layer = fake(ToolSchemaLayer::auto());
    for api in ALL_APIS {
        for chunk in tools.chunks(40).take(3) {
            let (body, slots) = body_for(api, chunk);
            let input = Bytes::from(body.clone());
            let (out, report) = sanitize_body(layer.config(), Some(api), input.clone());
            assert_eq!(report.api, Some(api));
            assert_eq!(
                report.slots.len(),
                slots,
                "{api}: {:#?}",
                report.slots.iter().map(|s| &s.pointer).collect::<Vec<_>>()
            );
            assert!(matches!(report.outcome, Outcome::Rewritten { .. }), "{api}");
            let parsed: Value = serde_json::from_slice(&out).expect("output is JSON");
            for slot in &report.slots {
                let v = slot_value(&parsed, &slot.pointer);
                assert_eq!(
                    v["x-profile"],
                    Value::String(slot.profile.to_string()),
                    "{api} {}",
                    slot.pointer
                );
                assert!(v.get("$schema").is_none());
            }
            // Everything but the slots is byte-identical: the history survives verbatim.
            let text = std::str::from_utf8(&out).expect("utf-8");
            let history = if matches!(
                api,
                Api::Gemini
                    | Api::VertexGemini
                    | Api::GeminiCachedContents
                    | Api::GeminiCountTokens
                    | Api::CodeAssist
            ) {
                GEMINI_HISTORY
            } else {
                HISTORY
            };
            assert!(text.contains(history), "{api}: history changed");
            // And the prefix before the first slot.
            let first = report
                .slots
                .first()
                .map(|s| s.pointer.clone())
                .unwrap_or_default();
            assert!(!first.is_empty());
            // A second pass changes nothing and forwards the very same bytes.
            let (again, report2) = sanitize_body(layer.config(), Some(api), out.clone());
            assert_eq!(report2.outcome, Outcome::Unchanged, "{api}");
            assert_eq!(again.as_ptr(), out.as_ptr());
            // Recognised by shape with no API given, too.
            // (Cohere's `response_format.json_schema` is the schema itself; by shape alone the
            // body reads as OpenAI Chat, whose schema sits one level deeper.)
            let (_, by_shape) = sanitize_body(layer.config(), None, input);
            let expected = slots - usize::from(api == Api::CohereChat);
            assert!(by_shape.slots.len() >= expected, "{api} by shape");
        }
    }
}

#[test]
fn only_slots_change() {
    // Remove the slots from input and output: what is left is identical.
    let tools = corpus_tools();
    let layer = fake(ToolSchemaLayer::gemini());
    let (body, _) = gemini_body(&tools[..10], false);
    let (out, report) = sanitize_body(layer.config(), Some(Api::Gemini), Bytes::from(body.clone()));
    let mut a: Value = serde_json::from_str(&body).unwrap();
    let mut b: Value = serde_json::from_slice(&out).unwrap();
    for slot in &report.slots {
        *a.pointer_mut(&slot.pointer).unwrap() = Value::Null;
        *b.pointer_mut(&slot.pointer).unwrap() = Value::Null;
    }
    assert_eq!(a, b);
    // Byte level: output = input with each slot's bytes replaced, in order.
    let text = std::str::from_utf8(&out).unwrap();
    assert!(text.starts_with(r#"{"contents":"#));
    assert!(text.ends_with(r#"}}"#));
}

#[test]
fn gemini_camel_and_snake_case_take_per_slot_profiles() {
    let tools = corpus_tools();
    for snake in [false, true] {
        let (body, slots) = gemini_body(&tools[..6], snake);
        for (layer, native, json) in [
            (ToolSchemaLayer::gemini(), "gemini", "gemini-jsonschema"),
            (ToolSchemaLayer::auto(), "gemini", "gemini-jsonschema"),
            (ToolSchemaLayer::vertex(), "vertex", "gemini-jsonschema"),
        ] {
            let (out, report) = sanitize_body(
                fake(layer).config(),
                Some(Api::Gemini),
                Bytes::from(body.clone()),
            );
            assert_eq!(report.slots.len(), slots);
            let parsed: Value = serde_json::from_slice(&out).unwrap();
            for slot in &report.slots {
                let expect =
                    if slot.pointer.contains("son_schema") || slot.pointer.contains("JsonSchema") {
                        json
                    } else {
                        native
                    };
                assert_eq!(slot.profile, expect, "{}", slot.pointer);
                assert_eq!(at(&parsed, &slot.pointer)["x-profile"], expect);
            }
            let decl = if snake {
                "function_declarations"
            } else {
                "functionDeclarations"
            };
            assert!(report.slots.iter().any(|s| s.pointer
                == format!(
                    "/tools/2/{decl}/0/{}",
                    if snake {
                        "parameters_json_schema"
                    } else {
                        "parametersJsonSchema"
                    }
                )));
            assert_eq!(
                report.slots[0].tool.as_deref(),
                Some(tools[0].name.as_str())
            );
        }
    }
}

#[test]
fn v1internal_envelope() {
    let tools = corpus_tools();
    let (body, slots) = body_for(Api::CodeAssist, &tools[..4]);
    let (out, report) = sanitize_body(
        fake(ToolSchemaLayer::auto()).config(),
        Some(Api::CodeAssist),
        Bytes::from(body),
    );
    assert_eq!(report.slots.len(), slots);
    assert!(
        report
            .slots
            .iter()
            .all(|s| s.pointer.starts_with("/request/"))
    );
    assert_eq!(report.slots[0].profile, "gemini-code-assist");
    let parsed: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(parsed["project"], "p-1");
    // Antigravity serving Claude: Anthropic rules.
    let (body, _) = body_for(Api::CodeAssist, &tools[..2]);
    let body = body.replace("gemini-2.5-pro", "claude-sonnet-4-5");
    let (_, report) = sanitize_body(
        fake(ToolSchemaLayer::auto()).config(),
        Some(Api::CodeAssist),
        Bytes::from(body),
    );
    assert!(
        report.slots.iter().all(|s| s.profile == "anthropic"),
        "{:?}",
        report.slots
    );
}

#[test]
fn bedrock_string_schema_is_parsed_sanitized_and_reencoded() {
    let tools = corpus_tools();
    let (body, _) = body_for(Api::BedrockConverse, &tools[..3]);
    let (out, report) = sanitize_body(
        fake(ToolSchemaLayer::auto()).config(),
        Some(Api::BedrockConverse),
        Bytes::from(body),
    );
    let out_slot = report
        .slots
        .iter()
        .find(|s| s.pointer.ends_with("/jsonSchema/schema"))
        .expect("string slot");
    assert_eq!(
        Api::BedrockConverse.shape().slots[1].encoding,
        Encoding::JsonString
    );
    assert_eq!(out_slot.profile, "bedrock");
    let parsed: Value = serde_json::from_slice(&out).unwrap();
    let raw = at(&parsed, &out_slot.pointer);
    let text = raw.as_str().expect("still a JSON string");
    let inner: Value = serde_json::from_str(text).unwrap();
    assert_eq!(inner["x-profile"], "bedrock");
    assert_eq!(inner["required"][0], "answer");
    // Not a string: left untouched and reported.
    let body = r#"{"outputConfig":{"textFormat":{"structure":{"jsonSchema":{"schema":{"type":"object"}}}}}}"#;
    let (out, report) = sanitize_body(
        fake(ToolSchemaLayer::auto()).config(),
        Some(Api::BedrockConverse),
        Bytes::from_static(body.as_bytes()),
    );
    assert_eq!(&out[..], body.as_bytes());
    assert!(report.slots[0].error.is_some());
}

#[test]
fn auto_selects_by_model_host_and_strict() {
    let tools = corpus_tools();
    let cfg = fake(ToolSchemaLayer::auto());
    let chat = |model: &str| {
        let (body, _) = body_for(Api::OpenAiChat, &tools[..2]);
        let body = body.replace(r#""model":"gpt-4o""#, &format!(r#""model":"{model}""#));
        sanitize_body(cfg.config(), Some(Api::OpenAiChat), Bytes::from(body)).1
    };
    let r = chat("gpt-4o");
    assert_eq!(r.slots[0].profile, "openai");
    // response_format is strict: true.
    assert_eq!(
        r.slots.last().map(|s| s.profile.as_str()),
        Some("openai-strict")
    );
    assert_eq!(chat("gemini-2.5-flash").slots[0].profile, "gemini");
    assert_eq!(chat("grok-4").slots[0].profile, "xai");
    assert_eq!(chat("claude-opus-4").slots[0].profile, "anthropic");
    assert_eq!(chat("google/gemini-2.5-pro").slots[0].profile, "gemini");
    assert_eq!(chat("x-ai/grok-4").slots[0].profile, "xai");
    // Strict tools that cannot be strict go non-strict, with `strict: false`.
    let body = r#"{"model":"gpt-4o","messages":[],"tools":[{"type":"function","function":{"name":"a","strict":true,"parameters":{"anyOf":[{"type":"string"}]}}},{"type":"function","function":{"name":"b","strict":true,"parameters":{"type":"object"}}}]}"#;
    let (out, report) = sanitize_body(
        cfg.config(),
        Some(Api::OpenAiChat),
        Bytes::from_static(body.as_bytes()),
    );
    assert!(report.slots[0].strict_downgraded);
    assert_eq!(report.slots[0].profile, "openai");
    assert!(!report.slots[1].strict_downgraded);
    assert_eq!(report.slots[1].profile, "openai-strict");
    let parsed: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(parsed["tools"][0]["function"]["strict"], false);
    assert_eq!(parsed["tools"][1]["function"]["strict"], true);
}

#[test]
fn tool_name_problems_are_reported_not_renamed() {
    let long = "x".repeat(80);
    let body = format!(r#"{{"tools":[{{"name":"{long}","input_schema":{{"type":"object"}}}}]}}"#);
    let (out, report) = sanitize_body(
        fake(ToolSchemaLayer::anthropic()).config(),
        Some(Api::AnthropicMessages),
        Bytes::from(body),
    );
    assert!(report.slots[0].tool_name_problem.is_some());
    assert!(std::str::from_utf8(&out).unwrap().contains(&long));
}

#[test]
fn unchanged_body_is_the_same_bytes_and_cache_hits() {
    let layer = fake(ToolSchemaLayer::openai());
    let marked = r#"{"messages":[],"tools":[{"type":"function","function":{"name":"f","parameters":{"x-profile":"openai"}}}]}"#;
    let input = Bytes::from_static(marked.as_bytes());
    let (out, report) = sanitize_body(layer.config(), None, input.clone());
    assert_eq!(out.as_ptr(), input.as_ptr());
    assert_eq!(report.outcome, Outcome::Unchanged);
    assert!(!report.slots[0].cached);
    let (_, report) = sanitize_body(layer.config(), None, input.clone());
    assert!(report.slots[0].cached);
    // Clones share the cache.
    let clone = layer.clone();
    assert!(sanitize_body(clone.config(), None, input.clone()).1.slots[0].cached);
    // Off: never cached.
    let off = layer.cache(tower_toolschema::CacheConfig::disabled());
    sanitize_body(off.config(), None, input.clone());
    assert!(!sanitize_body(off.config(), None, input).1.slots[0].cached);
}

#[test]
fn odd_bodies_never_panic() {
    let cfg = Config::new(Target::Auto);
    let mut deep = String::from(r#"{"messages":"#);
    deep.push_str(&"[".repeat(1_000_000));
    deep.push_str(&"]".repeat(1_000_000));
    deep.push_str(
        r#","tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object"}}}]}"#,
    );
    let mut deep_slot =
        String::from(r#"{"tools":[{"type":"function","function":{"name":"f","parameters":"#);
    deep_slot.push_str(&"{\"items\":".repeat(200_000));
    deep_slot.push_str("{}");
    deep_slot.push_str(&"}".repeat(200_000));
    deep_slot.push_str("}}]}");
    for body in [
        deep,
        deep_slot,
        "{".into(),
        "[]".into(),
        "\"x\"".into(),
        r#"{"tools":[{"function":{"parameters":1}}]}"#.into(),
        "\u{feff}{}".into(),
    ] {
        for api in [None, Some(Api::OpenAiChat), Some(Api::Gemini)] {
            let input = Bytes::from(body.clone());
            let (out, _) = sanitize_body(&cfg, api, input.clone());
            // Nothing here can be rewritten by a real engine without a valid schema; at the
            // least, no panic and valid output.
            assert!(out.len() <= input.len() + 4096);
        }
    }
}
