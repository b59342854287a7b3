//! The harness: corpus tools, requests and responses per API shape, one exchange through the
//! layers around a canned upstream, and readers of the findings and the body's frames.

use bytes::Bytes;
use http::Response;
use http_body::Body;
use http_body_util::{BodyExt, Full};
use serde_json::{Value, json};
use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tower::{Layer, ServiceExt};
use tower_toolschema::validate::ToolCallFindings;
use tower_toolschema::{ToolCallsBody, ToolSchemaBody, ToolSchemaLayer, ValidateToolCallsLayer};

pub(crate) const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/corpus");

/// A corpus tool's input schema.
pub(crate) fn corpus_schema(file: &str, tool: &str) -> Value {
    let v: Value = serde_json::from_slice(
        &std::fs::read(format!("{CORPUS}/mcp/{file}")).expect("corpus file"),
    )
    .expect("corpus JSON");
    v["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == tool)
        .unwrap_or_else(|| panic!("{tool} not in {file}"))["inputSchema"]
        .clone()
}

/// `resolve-library-id` (required `query`, `libraryName`), `get_recent_tool_calls`
/// (`additionalProperties: false`, `maxResults` in 1..=1000), `company_research_exa`.
pub(crate) fn tools() -> Vec<(&'static str, Value)> {
    vec![
        (
            "resolve-library-id",
            corpus_schema("context7-mcp.json", "resolve-library-id"),
        ),
        (
            "get_recent_tool_calls",
            corpus_schema("desktop-commander.json", "get_recent_tool_calls"),
        ),
        (
            "company_research_exa",
            corpus_schema("exa-mcp-server.json", "company_research_exa"),
        ),
    ]
}

pub(crate) const VALID_ARGS: &str = r#"{"query":"async runtime","libraryName":"tokio"}"#;

pub(crate) const INVALID_ARGS: &str = r#"{"query":"async runtime","name":"tokio"}"#;

pub(crate) const FIX: &str =
    r#""libraryName" is missing — you sent "name"; the field is "libraryName""#;

pub(crate) fn chat_request() -> String {
    let tools: Vec<Value> = tools()
        .into_iter()
        .map(|(n, s)| json!({"type":"function","function":{"name":n,"description":"d","parameters":s}}))
        .collect();
    json!({"model":"gpt-4o","messages":[{"role":"user","content":"find tokio"}],"tools":tools})
        .to_string()
}

pub(crate) fn responses_request() -> String {
    let tools: Vec<Value> = tools()
        .into_iter()
        .map(|(n, s)| json!({"type":"function","name":n,"description":"d","parameters":s}))
        .collect();
    json!({"model":"gpt-5","input":[{"role":"user","content":"find tokio"}],"tools":tools})
        .to_string()
}

pub(crate) fn anthropic_request() -> String {
    let tools: Vec<Value> = tools()
        .into_iter()
        .map(|(n, s)| json!({"name":n,"description":"d","input_schema":s}))
        .chain([json!({"type":"web_search_20250305","name":"web_search"})])
        .collect();
    json!({"model":"claude-sonnet-4-5","max_tokens":1024,"messages":[{"role":"user","content":"find tokio"}],"tools":tools}).to_string()
}

pub(crate) fn gemini_request() -> String {
    let decls: Vec<Value> = tools()
        .into_iter()
        .map(|(n, s)| json!({"name":n,"description":"d","parameters":s}))
        .collect();
    json!({"contents":[{"role":"user","parts":[{"text":"find tokio"}]}],"tools":[{"functionDeclarations":decls}]}).to_string()
}

pub(crate) fn chat_response(calls: &[(&str, &str)]) -> String {
    let calls: Vec<Value> = calls
        .iter()
        .enumerate()
        .map(|(i, (n, a))| json!({"id":format!("call_{i}"),"type":"function","function":{"name":n,"arguments":a}}))
        .collect();
    json!({"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"gpt-4o","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":calls},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}}).to_string()
}

pub(crate) fn responses_response(calls: &[(&str, &str)]) -> String {
    let mut output = vec![json!({"type":"reasoning","id":"rs_1","summary":[]})];
    output.extend(calls.iter().enumerate().map(|(i, (n, a))| json!({"type":"function_call","id":format!("fc_{i}"),"call_id":format!("call_{i}"),"name":n,"arguments":a,"status":"completed"})));
    json!({"id":"resp_1","object":"response","status":"completed","model":"gpt-5","output":output})
        .to_string()
}

pub(crate) fn anthropic_response(calls: &[(&str, &str)]) -> String {
    let mut content = vec![json!({"type":"text","text":"Looking it up."})];
    content.extend(calls.iter().enumerate().map(|(i, (n, a))| {
        json!({"type":"tool_use","id":format!("toolu_{i}"),"name":n,"input":serde_json::from_str::<Value>(a).unwrap()})
    }));
    json!({"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":content,"stop_reason":"tool_use"}).to_string()
}

pub(crate) fn gemini_response(calls: &[(&str, &str)]) -> String {
    let parts: Vec<Value> = calls
        .iter()
        .map(|(n, a)| json!({"functionCall":{"name":n,"args":serde_json::from_str::<Value>(a).unwrap()}}))
        .collect();
    json!({"candidates":[{"content":{"role":"model","parts":parts},"finishReason":"STOP"}],"modelVersion":"gemini-2.5-flash"}).to_string()
}

/// What the upstream received.
pub(crate) type Seen = Arc<Mutex<Option<Bytes>>>;

/// What an exchange gives back: the response and what the upstream received.
pub(crate) type Exchanged<B> = (
    Response<ToolCallsBody<tower_toolschema::restore::RestoreBody<B>>>,
    Option<Bytes>,
);

/// Sends `request` to `path` through `layer` around an upstream answering `response`; returns
/// the response and what the upstream received.
pub(crate) async fn exchange<B>(
    layer: ValidateToolCallsLayer,
    path: &str,
    request: String,
    response: Response<B>,
) -> Exchanged<B>
where
    B: Body<Data = Bytes> + Send + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let seen: Seen = Arc::default();
    let canned = Arc::new(Mutex::new(Some(response)));
    let upstream = {
        let seen = Arc::clone(&seen);
        tower::service_fn(move |req: http::Request<ToolSchemaBody<Full<Bytes>>>| {
            let seen = Arc::clone(&seen);
            let canned = Arc::clone(&canned);
            async move {
                let body = req.into_body().collect().await.unwrap().to_bytes();
                *seen.lock().unwrap() = Some(body);
                Ok::<_, Infallible>(canned.lock().unwrap().take().expect("one call"))
            }
        })
    };
    let req = http::Request::post(path)
        .header("content-type", "application/json")
        .body(Full::new(Bytes::from(request)))
        .unwrap();
    let res = tokio::time::timeout(Duration::from_secs(10), layer.layer(upstream).oneshot(req))
        .await
        .expect("the response future resolves")
        .unwrap();
    let seen = seen.lock().unwrap().take();
    (res, seen)
}

/// [`exchange`] through the OpenAI layer with validation on, to `/v1/chat/completions`.
pub(crate) async fn exchange_chat<B>(request: String, response: Response<B>) -> Exchanged<B>
where
    B: Body<Data = Bytes> + Send + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    exchange(
        ToolSchemaLayer::openai().validate_tool_calls(true),
        "/v1/chat/completions",
        request,
        response,
    )
    .await
}

pub(crate) fn json_response(body: Bytes) -> Response<Full<Bytes>> {
    json_response_of(Full::new(body))
}

/// A `200` JSON response around `body`.
pub(crate) fn json_response_of<B>(body: B) -> Response<B> {
    Response::builder()
        .header("content-type", "application/json")
        .body(body)
        .unwrap()
}

pub(crate) fn findings<B>(res: &Response<B>) -> &ToolCallFindings {
    res.extensions()
        .get::<ToolCallFindings>()
        .expect("findings in the response's extensions")
}

/// The response's body: its data frames (to compare pointers) and errors.
pub(crate) async fn frames<B>(body: B) -> (Vec<Bytes>, Option<String>)
where
    B: Body<Data = Bytes> + Unpin,
    B::Error: std::fmt::Display,
{
    let mut body = body;
    let mut data = Vec::new();
    while let Some(frame) = body.frame().await {
        match frame {
            Ok(f) => {
                if let Ok(d) = f.into_data() {
                    data.push(d);
                }
            }
            Err(e) => return (data, Some(e.to_string())),
        }
    }
    (data, None)
}
