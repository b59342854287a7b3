//! Cohere's request-wide field limit (providers.md §7 "Cohere": "you can define a maximum of
//! 200 fields across all tools"): counted over every tool of a request, nested properties
//! included, and said in the last tool's report; under the limit, nothing is said.

use bytes::Bytes;
use serde_json::{Value, json};
use tower_toolschema::shapes::Api;
use tower_toolschema::{ToolSchemaLayer, sanitize_body};

/// A Cohere v2 body of `tools` tools, each with `flat` top-level properties and one object
/// property holding `nested` more (so `flat + 1 + nested` fields per tool).
fn cohere_body(tools: usize, flat: usize, nested: usize) -> Bytes {
    let tools: Vec<Value> = (0..tools)
        .map(|t| {
            let mut props = serde_json::Map::new();
            for i in 0..flat {
                props.insert(format!("p{i}"), json!({"type": "string"}));
            }
            let inner: serde_json::Map<String, Value> = (0..nested)
                .map(|i| (format!("n{i}"), json!({"type": "integer"})))
                .collect();
            props.insert(
                "inner".to_owned(),
                json!({"type": "object", "properties": inner}),
            );
            json!({"type": "function", "function": {"name": format!("tool_{t}"),
                "parameters": {"type": "object", "properties": props}}})
        })
        .collect();
    Bytes::from(json!({"model": "command-a-03-2025", "messages": [], "tools": tools}).to_string())
}

fn field_problems(body: Bytes) -> Vec<Vec<String>> {
    let layer = ToolSchemaLayer::for_provider("cohere").expect("cohere is a provider");
    let (_, report) = sanitize_body(layer.config(), Some(Api::CohereChat), body);
    assert_eq!(report.api, Some(Api::CohereChat));
    report
        .slots
        .iter()
        .map(|s| {
            s.unfixable
                .iter()
                .filter(|m| m.contains("fields"))
                .cloned()
                .collect()
        })
        .collect()
}

#[test]
fn two_hundred_fields_across_the_tools_pass() {
    // 4 tools x (40 + 1 + 9) = 200.
    let found = field_problems(cohere_body(4, 40, 9));
    assert_eq!(found.len(), 4);
    assert!(found.iter().all(Vec::is_empty), "{found:?}");
}

#[test]
fn the_two_hundred_and_first_field_is_reported_on_the_last_tool() {
    // 4 tools x (40 + 1 + 10) = 204, nested ones counted.
    let found = field_problems(cohere_body(4, 40, 10));
    assert!(found[..3].iter().all(Vec::is_empty), "{found:?}");
    assert_eq!(found[3].len(), 1, "{found:?}");
    assert!(
        found[3][0].contains("204 fields") && found[3][0].contains("cohere accepts at most 200"),
        "{}",
        found[3][0]
    );
}

#[test]
fn other_providers_have_no_field_limit() {
    let layer = ToolSchemaLayer::openai();
    let (_, report) = sanitize_body(
        layer.config(),
        Some(Api::OpenAiChat),
        cohere_body(4, 60, 10),
    );
    assert!(report.slots.iter().all(|s| s.unfixable.is_empty()));
}
