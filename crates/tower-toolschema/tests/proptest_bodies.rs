//! Property tests over generated request bodies: random OpenAI Chat / Responses, Anthropic and
//! Gemini bodies whose tools carry generated schemas, and whose conversations are random JSON
//! with keyword-like keys, rendered with odd whitespace and escapes. For every body:
//! - the bytes outside the schema slots are unchanged (slots re-located independently, see
//!   `support/slot_mask.rs`), and the output is valid JSON;
//! - a second pass changes nothing;
//! - the report is empty (no slot changed, no strict flag downgraded) exactly when the bytes are
//!   unchanged, and a rewritten body's report counts its bytes;
//! - every slot passes `provider_rules::check` for the profile the report names.

#[path = "support/slot_mask.rs"]
mod slot_mask;

use bytes::Bytes;
use proptest::prelude::*;
use provider_rules::Slot;
use serde_json::{Map, Value, json};
use tower_toolschema::report::Outcome;
use tower_toolschema::shapes::{Api, Encoding, SlotRole};
use tower_toolschema::{SanitizeReport, ToolSchemaLayer, sanitize_body};

// ---- schemas ----

fn instance() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-5i64..5).prop_map(|n| json!(n)),
        Just(json!(1.5)),
        "[a-z]{0,3}".prop_map(Value::String),
        Just(json!([1, "a"])),
    ]
}

fn type_name() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!("string")),
        Just(json!("number")),
        Just(json!("integer")),
        Just(json!("boolean")),
        Just(json!("object")),
        Just(json!("array")),
        Just(json!("null")),
        Just(json!(["string", "null"])),
        Just(json!(["integer", "string"])),
    ]
}

/// Property names: plain, keyword-like, and ones that need escaping in a JSON pointer.
fn prop_name() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("a".to_owned()),
        Just("properties".to_owned()),
        Just("$ref".to_owned()),
        Just("required".to_owned()),
        Just("a/b~c".to_owned()),
        Just("q\"é".to_owned()),
        Just(String::new()),
    ]
}

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!({})),
        Just(json!(true)),
        type_name().prop_map(|t| json!({"type": t})),
        (type_name(), prop::collection::vec(instance(), 0..3))
            .prop_map(|(t, e)| json!({"type": t, "enum": e})),
        instance().prop_map(|c| json!({"const": c})),
        Just(json!({"type": "string", "format": "uri", "pattern": "^(a+)+$"})),
        Just(json!({"type": "number", "exclusiveMinimum": 0})),
        Just(json!({"$ref": "#/$defs/d"})),
        Just(json!({"$ref": "#"})),
        Just(json!({"type": "string", "nullable": true, "x-vendor": 1})),
    ]
}

fn schema() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(3, 24, 3, |inner| {
        prop_oneof![
            (
                prop::collection::vec((prop_name(), inner.clone()), 0..3),
                prop::collection::vec(prop_name(), 0..2),
                any::<bool>()
            )
                .prop_map(|(props, req, closed)| {
                    let mut o = json!({"type": "object", "properties": props.into_iter().collect::<Map<_, _>>(), "required": req});
                    if closed {
                        o["additionalProperties"] = json!(false);
                    }
                    o
                }),
            inner.clone().prop_map(|i| json!({"type": "array", "items": i})),
            prop::collection::vec(inner.clone(), 1..3).prop_map(|l| json!({"type": "array", "prefixItems": l})),
            prop::collection::vec(inner.clone(), 1..3).prop_map(|l| json!({"anyOf": l})),
            prop::collection::vec(inner.clone(), 1..3).prop_map(|l| json!({"allOf": l})),
            (inner.clone(), inner.clone()).prop_map(|(a, d)| json!({"$defs": {"d": d}, "properties": {"x": a}})),
        ]
    })
}

/// A tool's input schema: usually an object, sometimes anything (a schema that is a string,
/// a number, `null`...).
fn tool_schema() -> impl Strategy<Value = Value> {
    prop_oneof![
        8 => schema(),
        1 => prop_oneof![Just(json!("object")), Just(json!(3)), Just(Value::Null), Just(json!([]))],
    ]
}

// ---- conversations ----

fn keyword_key() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("type".to_owned()),
        Just("title".to_owned()),
        Just("format".to_owned()),
        Just("default".to_owned()),
        Just("$ref".to_owned()),
        Just("properties".to_owned()),
        Just("parameters".to_owned()),
        Just("input_schema".to_owned()),
        Just("tools".to_owned()),
        Just("strict".to_owned()),
        Just("additionalProperties".to_owned()),
        "[a-z]{1,4}",
    ]
}

fn history_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i32>().prop_map(|n| json!(n)),
        Just(json!(1.0e-7)),
        "[ -~é\u{1F600}\"\\\\/]{0,8}".prop_map(Value::String),
        Just(json!(["string", "null"])),
    ];
    leaf.prop_recursive(4, 32, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((keyword_key(), inner), 0..4)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

/// Renders a JSON value with odd (but valid) whitespace and `\u` escapes, so that a
/// re-serialization anywhere outside the slots would show.
fn render(v: &Value, style: u8, out: &mut String) {
    let ws = match style % 3 {
        0 => "",
        1 => " ",
        _ => "\n\t ",
    };
    match v {
        Value::Object(m) => {
            out.push('{');
            for (i, (k, x)) in m.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(ws);
                render_str(k, style, out);
                out.push_str(ws);
                out.push(':');
                render(x, style.wrapping_add(1), out);
            }
            out.push_str(ws);
            out.push('}');
        }
        Value::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push_str(ws);
                    out.push(',');
                }
                render(x, style.wrapping_add(1), out);
            }
            out.push(']');
        }
        Value::String(s) => render_str(s, style, out),
        Value::Number(n) if style % 2 == 1 && n.is_i64() => {
            // `3` spelled `3.0e0`: means the same, reads differently.
            out.push_str(&format!("{n}.0e0"));
        }
        other => out.push_str(&other.to_string()),
    }
}

fn render_str(s: &str, style: u8, out: &mut String) {
    if style.is_multiple_of(2) {
        out.push_str(&serde_json::to_string(s).expect("string"));
        return;
    }
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_ascii_graphic() || c == ' ' => out.push(c),
            c => {
                let mut buf = [0u16; 2];
                for u in c.encode_utf16(&mut buf) {
                    out.push_str(&format!("\\u{u:04x}"));
                }
            }
        }
    }
    out.push('"');
}

fn rendered(v: &Value, style: u8) -> String {
    let mut s = String::new();
    render(v, style, &mut s);
    s
}

// ---- bodies ----

#[derive(Debug, Clone)]
struct Case {
    api: Api,
    body: String,
}

fn tools_strategy() -> impl Strategy<Value = Vec<(String, Value, bool)>> {
    prop::collection::vec(("[a-z_]{1,8}", tool_schema(), any::<bool>()), 0..4)
}

fn case() -> impl Strategy<Value = Case> {
    (
        0usize..5,
        tools_strategy(),
        history_value(),
        any::<u8>(),
        prop::option::of(schema()),
        prop::sample::select(vec![
            "gpt-4o",
            "gemini-2.5-flash",
            "grok-4",
            "claude-sonnet-4-5",
            "x-ai/grok-4",
        ]),
    )
        .prop_map(|(which, tools, history, style, out_schema, model)| {
            let hist = rendered(&json!([history]), style);
            let model = json!(model);
            let (api, body) = match which {
                0 => {
                    let t: Vec<Value> = tools
                        .iter()
                        .map(|(n, s, strict)| json!({"type": "function", "function": {"name": n, "strict": strict, "parameters": s}}))
                        .collect();
                    let mut b = format!(
                        r#"{{"model":{model}, "messages":{hist},"tools":{}"#,
                        rendered(&Value::Array(t), style)
                    );
                    if let Some(o) = &out_schema {
                        b.push_str(&format!(
                            r#","response_format":{{"type":"json_schema","json_schema":{{"name":"o","strict":true,"schema":{}}}}}"#,
                            rendered(o, style)
                        ));
                    }
                    b.push('}');
                    (Api::OpenAiChat, b)
                }
                1 => {
                    let t: Vec<Value> = tools
                        .iter()
                        .map(|(n, s, strict)| json!({"type": "function", "name": n, "strict": strict, "parameters": s}))
                        .collect();
                    (
                        Api::OpenAiResponses,
                        format!(
                            r#"{{"input":{hist},"model":{model},"tools":{}}}"#,
                            rendered(&Value::Array(t), style)
                        ),
                    )
                }
                2 => {
                    let t: Vec<Value> = tools
                        .iter()
                        .map(|(n, s, strict)| json!({"name": n, "strict": strict, "input_schema": s}))
                        .collect();
                    (
                        Api::AnthropicMessages,
                        format!(
                            r#"{{"model":{model},"max_tokens":5,"messages":{hist},"tools":{}}}"#,
                            rendered(&Value::Array(t), style)
                        ),
                    )
                }
                _ => {
                    // Gemini: `parameters` (Schema proto) or `parametersJsonSchema`.
                    let key = if which == 3 { "parameters" } else { "parametersJsonSchema" };
                    let decls: Vec<Value> = tools
                        .iter()
                        .map(|(n, s, _)| json!({"name": n, key: s}))
                        .collect();
                    let mut b = format!(
                        r#"{{"contents":{hist},"tools":[{{"functionDeclarations":{}}}]"#,
                        rendered(&Value::Array(decls), style)
                    );
                    if let Some(o) = &out_schema {
                        b.push_str(&format!(
                            r#","generationConfig":{{"responseSchema":{}}}"#,
                            rendered(o, style)
                        ));
                    }
                    b.push('}');
                    (Api::Gemini, b)
                }
            };
            Case { api, body }
        })
}

fn layers() -> Vec<ToolSchemaLayer> {
    vec![
        ToolSchemaLayer::auto(),
        ToolSchemaLayer::gemini(),
        ToolSchemaLayer::openai(),
        ToolSchemaLayer::anthropic(),
        ToolSchemaLayer::xai(),
        ToolSchemaLayer::bedrock(),
    ]
}

fn report_is_empty(r: &SanitizeReport) -> bool {
    r.slots
        .iter()
        .all(|s| s.changes.is_empty() && !s.strict_downgraded)
}

/// Every slot the report names passes the check of the profile it was sanitized for.
fn slots_pass_check(out: &[u8], report: &SanitizeReport, api: Api) -> Result<(), String> {
    let v: Value = serde_json::from_slice(out).map_err(|e| e.to_string())?;
    for slot in &report.slots {
        if slot.error.is_some() {
            continue;
        }
        let spec_json = api
            .shape()
            .slots
            .iter()
            .all(|s| s.encoding == Encoding::Json);
        if !spec_json {
            continue;
        }
        let Some(rules) = tower_toolschema::Profile::builtin(&slot.profile) else {
            continue;
        };
        let Some(schema) = v.pointer(&slot.pointer) else {
            return Err(format!("slot {} not in the output", slot.pointer));
        };
        let kind = match slot.role {
            SlotRole::ToolParameters => Slot::Parameters,
            _ => Slot::Schema,
        };
        // Property keys needing renaming are reported, never renamed by a request-side layer.
        let violations: Vec<_> = provider_rules::check(schema, rules.rules(), kind)
            .into_iter()
            .filter(|v| v.rule != "property-key")
            .collect();
        if !violations.is_empty() {
            return Err(format!(
                "{} at {}: {}\n  schema: {schema}",
                slot.profile,
                slot.pointer,
                violations
                    .iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join("; ")
            ));
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 512,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x00b0_d1e5),
        ..ProptestConfig::default()
    })]

    #[test]
    fn only_slots_change_and_a_second_pass_changes_nothing(c in case(), pick in 0usize..6) {
        let layer = &layers()[pick];
        let input = Bytes::from(c.body.clone());
        prop_assert!(slot_mask::valid_json(&input), "generator made invalid JSON: {}", c.body);
        for api in [Some(c.api), None] {
            let (out, report) = sanitize_body(layer.config(), api, input.clone());
            let shapes = slot_mask::shapes_for(api);
            if let Err(e) = slot_mask::check_only_slots_changed(&input, &out, &shapes) {
                prop_assert!(false, "{e}\n in:  {}\n out: {}", c.body, String::from_utf8_lossy(&out));
            }
            prop_assert!(slot_mask::valid_json(&out));
            // Report empty ⇔ bytes unchanged; the very same bytes when unchanged.
            prop_assert_eq!(report_is_empty(&report), out == input, "{:?}", report);
            prop_assert_eq!(report.is_rewritten(), out != input);
            if out == input {
                prop_assert_eq!(out.as_ptr(), input.as_ptr(), "unchanged but copied");
            } else {
                prop_assert_eq!(
                    &report.outcome,
                    &Outcome::Rewritten { before: input.len(), after: out.len() }
                );
            }
            if let Err(e) = slots_pass_check(&out, &report, c.api) {
                prop_assert!(false, "{e}\n in: {}", c.body);
            }
            // Idempotent: the output goes through unchanged.
            let (again, r2) = sanitize_body(layer.config(), api, out.clone());
            prop_assert!(again == out, "second pass changed the body: {:?}\n once:  {}\n twice: {}",
                r2, String::from_utf8_lossy(&out), String::from_utf8_lossy(&again));
            prop_assert!(report_is_empty(&r2), "second pass reported changes: {:?}", r2);
            // Deterministic, also through a fresh cache.
            let fresh = layers().swap_remove(pick);
            let (det, _) = sanitize_body(fresh.config(), api, input.clone());
            prop_assert!(det == out, "not deterministic across caches");
        }
    }
}

/// The generator is worth something: most bodies get rewritten, some keep their bytes, and
/// both strict flags and `Rewritten` outcomes occur.
#[test]
fn generated_bodies_exercise_rewrites() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::{TestRng, TestRunner};
    let mut runner = TestRunner::new_with_rng(
        ProptestConfig::default(),
        TestRng::deterministic_rng(proptest::test_runner::RngAlgorithm::ChaCha),
    );
    let strategy = case();
    let layer = ToolSchemaLayer::auto();
    let (mut rewritten, mut unchanged, mut downgraded, mut slots) = (0, 0, 0, 0);
    for _ in 0..200 {
        let c = strategy.new_tree(&mut runner).expect("tree").current();
        let (out, report) = sanitize_body(layer.config(), Some(c.api), Bytes::from(c.body.clone()));
        slots += report.slots.len();
        downgraded += report.slots.iter().filter(|s| s.strict_downgraded).count();
        if out == c.body.as_bytes() {
            unchanged += 1;
        } else {
            rewritten += 1;
        }
    }
    println!(
        "{rewritten} rewritten, {unchanged} unchanged, {slots} slots, {downgraded} strict downgrades"
    );
    assert!(rewritten > 60, "{rewritten} rewritten");
    assert!(unchanged > 5, "{unchanged} unchanged");
    assert!(slots > 200, "{slots} slots");
    assert!(downgraded > 0, "no strict downgrade");
}

/// The checker itself: a change outside the slots, a strict flag turned on, or an invalid
/// slot is caught; a changed slot and a `true` → `false` strict flag are not.
#[test]
fn the_slot_checker_catches_changes_outside_slots() {
    let shapes = slot_mask::shapes_for(Some(Api::OpenAiChat));
    let input = br#"{"messages":[{"parameters":{"type":"x"}}],"tools":[{"function":{"strict":true,"parameters":{"a":1}}}]}"#;
    let ok: &[&[u8]] = &[
        br#"{"messages":[{"parameters":{"type":"x"}}],"tools":[{"function":{"strict":true,"parameters":{"b":[2,3]}}}]}"#,
        br#"{"messages":[{"parameters":{"type":"x"}}],"tools":[{"function":{"strict":false,"parameters":{"a":1}}}]}"#,
    ];
    for out in ok {
        slot_mask::check_only_slots_changed(input, out, &shapes).expect("allowed change");
    }
    let bad: &[&[u8]] = &[
        br#"{"messages":[{"parameters":{"type":"y"}}],"tools":[{"function":{"strict":true,"parameters":{"a":1}}}]}"#,
        br#"{"messages":[{"parameters":{"type":"x"}}],"tools":[{"function":{"strict":true,"parameters":{"a":1}}}] }"#,
        br#"{"messages":[{"parameters":{"type":"x"}}],"tools":[{"function":{"strict":true,"parameters":{"a":1}},"x":1}]}"#,
        br#"{"messages":[{"parameters":{"type":"x"}}],"tools":[{"function":{"strict":true,"parameters":{"a":}}}]}"#,
    ];
    for out in bad {
        assert!(
            slot_mask::check_only_slots_changed(input, out, &shapes).is_err(),
            "{}",
            String::from_utf8_lossy(out)
        );
    }
    let off = br#"{"tools":[{"function":{"strict":false,"parameters":{}}}]}"#;
    let on = br#"{"tools":[{"function":{"strict":true,"parameters":{}}}]}"#;
    assert!(slot_mask::check_only_slots_changed(off, on, &shapes).is_err());
}
