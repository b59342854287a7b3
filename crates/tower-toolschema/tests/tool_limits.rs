//! Issue 19: a request over the provider's documented tool count ("a max of 128 functions",
//! OpenAI's API reference) is reported by the layer, naming the limit and its source.

use bytes::Bytes;
use serde_json::json;
use tower_toolschema::shapes::{Api, SlotRole};
use tower_toolschema::{ToolSchemaLayer, sanitize_body};

fn openai_body(n: usize) -> Bytes {
    let tools: Vec<_> = (0..n)
        .map(|i| json!({"type": "function", "function": {"name": format!("t{i}"), "parameters": {"type": "object", "properties": {}}}}))
        .collect();
    Bytes::from(json!({"model": "gpt-4o", "messages": [], "tools": tools}).to_string())
}

#[test]
fn openai_a_max_of_128_functions_is_reported() {
    let (_, report) = sanitize_body(
        ToolSchemaLayer::openai().config(),
        Some(Api::OpenAiChat),
        openai_body(129),
    );
    let tools: Vec<_> = report
        .slots
        .iter()
        .filter(|s| s.role == SlotRole::ToolParameters)
        .collect();
    assert_eq!(tools.len(), 129);
    let said: Vec<&String> = tools.iter().flat_map(|s| s.unfixable.iter()).collect();
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(
        said[0].contains("129 tools") && said[0].contains("at most 128"),
        "{}",
        said[0]
    );
    assert!(
        said[0].contains("A max of 128 functions are supported"),
        "{}",
        said[0]
    );
    let (_, report) = sanitize_body(
        ToolSchemaLayer::openai().config(),
        Some(Api::OpenAiChat),
        openai_body(128),
    );
    assert!(report.slots.iter().all(|s| s.unfixable.is_empty()));
}
