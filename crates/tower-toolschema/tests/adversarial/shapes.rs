//! Unexpected shapes: `tools` that is not an array, a schema that is a string, number or
//! null, names with every escape.

use crate::support::*;
use serde_json::{Value, json};
use tower_toolschema::ToolSchemaLayer;
use tower_toolschema::report::Outcome;
use tower_toolschema::shapes::Api;

#[test]
fn tools_that_are_not_an_array() {
    let layer = ToolSchemaLayer::auto();
    for tools in [
        r#"{"input_schema":{"type":["string","null"]}}"#,
        r#""x""#,
        "null",
        "1",
        "true",
        "{}",
    ] {
        for (api, body) in [
            (
                Api::AnthropicMessages,
                format!(r#"{{"messages":[],"tools":{tools}}}"#),
            ),
            (
                Api::OpenAiChat,
                format!(r#"{{"messages":[],"tools":{tools},"functions":{tools}}}"#),
            ),
            (
                Api::Gemini,
                format!(r#"{{"contents":[],"tools":[{{"functionDeclarations":{tools}}}]}}"#),
            ),
        ] {
            let (out, report) = run(&layer, Some(api), body.as_bytes());
            assert_eq!(&out[..], body.as_bytes());
            assert_eq!(report.outcome, Outcome::Unchanged, "{body}");
            assert!(report.slots.is_empty());
        }
    }
}

#[test]
fn a_schema_that_is_a_string_number_or_null() {
    // A tool's parameters must be an object for every provider: whatever stands in the slot
    // becomes `{"type":"object"...}` (reported as lossy), and nothing outside the slot moves.
    let layer = ToolSchemaLayer::auto();
    for schema in [
        r#""object""#,
        "3",
        "-1.5e300",
        "null",
        "[]",
        "[{}]",
        "true",
        "false",
    ] {
        for api in [
            Api::AnthropicMessages,
            Api::Gemini,
            Api::OpenAiChat,
            Api::OpenAiResponses,
        ] {
            let body = match api {
                Api::Gemini => gemini("[]", &format!(r#"[{{"name":"f","parameters":{schema}}}]"#)),
                Api::OpenAiChat => format!(
                    r#"{{"messages":[],"tools":[{{"type":"function","function":{{"name":"f","parameters":{schema}}}}}]}}"#
                ),
                Api::OpenAiResponses => format!(
                    r#"{{"input":[],"tools":[{{"type":"function","name":"f","parameters":{schema}}}]}}"#
                ),
                _ => {
                    format!(r#"{{"messages":[],"tools":[{{"name":"f","input_schema":{schema}}}]}}"#)
                }
            };
            let (out, report) = run(&layer, Some(api), body.as_bytes());
            assert_eq!(report.slots.len(), 1, "{api} {schema}");
            let v: Value = serde_json::from_slice(&out).expect("json");
            let slot = v.pointer(&report.slots[0].pointer).expect("slot");
            assert!(
                report.slots[0].error.is_some() || slot["type"] == "object",
                "{api} {schema}: {slot}"
            );
            // And the output goes through unchanged a second time.
            let (again, _) = run(&layer, Some(api), &out);
            assert_eq!(again, out);
        }
    }
}

#[test]
fn property_and_tool_names_with_every_escape() {
    let names = [
        "", "~", "/", "~0", "~1", "a/b~c", "\"", "\\", "\u{1}", "é", "😀", "#", " ",
    ];
    let props: serde_json::Map<String, Value> = names
        .iter()
        .map(|n| {
            (
                (*n).to_owned(),
                json!({"type": ["string", "null"], "format": "uri"}),
            )
        })
        .collect();
    let schema = json!({"type": "object", "properties": props, "required": names, "additionalProperties": false,
        "allOf": [{"required": [""]}]});
    let history = json!([{"role": "user", "content": "x", "~/\"": {"": {"type": ["a"]}}}]);
    let layer = ToolSchemaLayer::auto();
    for (api, body) in [
        (
            Api::AnthropicMessages,
            json!({"messages": history, "tools": [{"name": "a/b~c\"é", "input_schema": schema}]}),
        ),
        (
            Api::OpenAiChat,
            json!({"messages": history, "tools": [{"type": "function", "function": {"name": "~1", "strict": true, "parameters": schema}}]}),
        ),
        (
            Api::Gemini,
            json!({"contents": history, "tools": [{"functionDeclarations": [{"name": "😀", "parameters": schema}]}]}),
        ),
    ] {
        let text = serde_json::to_string(&body).expect("json");
        let (out, report) = run(&layer, Some(api), text.as_bytes());
        assert!(report.is_rewritten(), "{api}");
        let v: Value = serde_json::from_slice(&out).expect("json");
        for slot in &report.slots {
            let s = v
                .pointer(&slot.pointer)
                .unwrap_or_else(|| panic!("{api}: {}", slot.pointer));
            let got: std::collections::BTreeSet<&String> = s["properties"]
                .as_object()
                .expect("properties")
                .keys()
                .collect();
            let want: std::collections::BTreeSet<String> =
                names.iter().map(|n| (*n).to_owned()).collect();
            assert_eq!(got, want.iter().collect(), "{api}: names kept");
            for c in slot.changes.iter() {
                let full = format!("{}{}", slot.pointer, c.pointer);
                let parent = full.rsplit_once('/').map_or("", |(p, _)| p).to_owned();
                assert!(
                    v.pointer(&full).is_some() || v.pointer(&parent).is_some(),
                    "{api}: change pointer {full:?} ({}) not in the output",
                    c.rule
                );
            }
        }
        assert!(report.slots.iter().all(|s| s.tool.is_some()));
    }
}
