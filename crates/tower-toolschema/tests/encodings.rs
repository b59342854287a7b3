//! The encodings through the layer (issue 16): with [`EncodingSanitizer`], a strict tool with a
//! map and an any-value property goes out strict and encoded, and the model's call comes back
//! decoded, in OpenAI Chat JSON and SSE and in Gemini JSON.

#[path = "support/exchange.rs"]
mod support;

use bytes::Bytes;
use serde_json::{Value, json};
use tower_toolschema::ToolSchemaLayer;
use tower_toolschema::encoding::EncodingSanitizer;

fn tool_schema() -> Value {
    json!({"type": "object", "properties": {
        "env": {"type": "object", "additionalProperties": {"type": "string"}},
        "data": {},
        "level": {"type": "integer", "enum": [1, 2]}},
      "required": ["env", "data", "level"]})
}

/// One exchange through `layer` (see the shared helper): what the upstream got, as JSON, and
/// what the client gets.
async fn exchange(
    layer: ToolSchemaLayer,
    path: &str,
    request: Value,
    response: String,
) -> (Value, Bytes) {
    let (seen, body) = support::exchange(layer, path, request.to_string(), response).await;
    (serde_json::from_slice(&seen).expect("json"), body)
}

fn chat_request() -> Value {
    json!({"model": "gpt-4o", "messages": [{"role": "user", "content": "go"}], "tools": [
        {"type": "function", "function": {"name": "set_env", "strict": true, "parameters": tool_schema()}}]})
}

const SENT: &str = r#"{"env":[{"key":"A","value":"1"}],"data":"{\"k\":[1]}","level":2}"#;
const DECODED: &str = r#"{"env":{"A":"1"},"data":{"k":[1]},"level":2}"#;

#[tokio::test]
async fn openai_chat_json_strict_tool_goes_out_encoded_and_comes_back_decoded() {
    let layer = ToolSchemaLayer::for_provider("openai")
        .expect("openai")
        .sanitizer(EncodingSanitizer);
    let response = json!({"choices": [{"message": {"role": "assistant", "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "set_env", "arguments": SENT}}]}}]});
    let (seen, body) = exchange(
        layer,
        "/v1/chat/completions",
        chat_request(),
        response.to_string(),
    )
    .await;
    let f = &seen["tools"][0]["function"];
    assert_eq!(f["strict"], json!(true));
    assert_eq!(f["parameters"]["properties"]["env"]["type"], json!("array"));
    // `data` is any value: JSON text, or `null` (which the original takes as it is).
    assert_eq!(
        f["parameters"]["properties"]["data"]["type"],
        json!(["string", "null"])
    );
    let got: Value = serde_json::from_slice(&body).expect("json");
    let args = got["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"]
        .as_str()
        .expect("arguments");
    assert_eq!(args, DECODED);
}

#[tokio::test]
async fn openai_chat_stream_arguments_are_decoded_when_the_call_is_complete() {
    let layer = ToolSchemaLayer::for_provider("openai")
        .expect("openai")
        .sanitizer(EncodingSanitizer);
    let (a, b) = SENT.split_at(17);
    let event = |delta: Value| {
        format!(
            "data: {}\n\n",
            json!({"choices": [{"index": 0, "delta": delta}]})
        )
    };
    let stream = [
        event(json!({"role": "assistant", "content": "ok"})),
        event(json!({"tool_calls": [{"index": 0, "id": "c1", "type": "function", "function": {"name": "set_env", "arguments": a}}]})),
        event(json!({"tool_calls": [{"index": 0, "function": {"arguments": b}}]})),
        "data: [DONE]\n\n".to_owned(),
    ]
    .concat();
    let (_, body) = exchange(layer, "/v1/chat/completions", chat_request(), stream).await;
    let text = String::from_utf8(body.to_vec()).expect("utf-8");
    let mut args = String::new();
    for line in text.lines().filter_map(|l| l.strip_prefix("data: ")) {
        if let Ok(v) = serde_json::from_str::<Value>(line)
            && let Some(s) =
                v["choices"][0]["delta"]["tool_calls"][0]["function"]["arguments"].as_str()
        {
            args.push_str(s);
        }
    }
    assert_eq!(args, DECODED, "{text}");
    assert!(text.contains(r#""content":"ok""#));
    assert!(text.ends_with("data: [DONE]\n\n"));
}

#[tokio::test]
async fn gemini_json_enum_and_map_come_back_in_the_tools_terms() {
    let layer = ToolSchemaLayer::for_provider("gemini")
        .expect("gemini")
        .sanitizer(EncodingSanitizer);
    let request = json!({"contents": [{"role": "user", "parts": [{"text": "go"}]}], "tools": [
        {"functionDeclarations": [{"name": "set_env", "parameters": tool_schema()}]}]});
    let response = json!({"candidates": [{"content": {"role": "model", "parts": [
        {"functionCall": {"name": "set_env", "args": serde_json::from_str::<Value>(&SENT.replace(r#""level":2"#, r#""level":"2""#)).expect("json")}}]}}]});
    let (seen, body) = exchange(
        layer,
        "/v1beta/models/gemini-2.5-flash:generateContent",
        request,
        response.to_string(),
    )
    .await;
    let p = &seen["tools"][0]["functionDeclarations"][0]["parameters"]["properties"];
    assert_eq!(p["level"]["enum"], json!(["1", "2"]));
    assert_eq!(p["env"]["type"], json!("array"));
    let got: Value = serde_json::from_slice(&body).expect("json");
    let args = &got["candidates"][0]["content"]["parts"][0]["functionCall"]["args"];
    assert_eq!(args, &serde_json::from_str::<Value>(DECODED).expect("json"));
}
