//! What the way-back tests share: the corpus's strict tool, a channel-fed body, one exchange
//! through the layer, and readers of what the client gets.

use crate::common;
use bytes::Bytes;
use http::{Request, Response};
use http_body::{Body, Frame};
use http_body_util::{BodyExt, Full};
use provider_rules::{Rules, Slot};
use serde_json::{Value, json};
use std::convert::Infallible;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::sync::mpsc;
use tower::{Layer, ServiceExt};
use tower_toolschema::restore::RestoreBody;
use tower_toolschema::{ToolSchemaBody, ToolSchemaLayer};

pub(crate) const LONG: &str =
    "mcp__github_enterprise__add_pull_request_review_comment_to_pending_review";
pub(crate) const DOTTED: &str = "filesystem.read_file";

/// A corpus tool whose properties are all optional and become strict nulls: (name, schema,
/// property names).
pub(crate) fn strict_tool() -> (String, Value, Vec<String>) {
    for t in common::corpus_tools() {
        let Some(props) = t.schema.get("properties").and_then(Value::as_object) else {
            continue;
        };
        let required = t.schema.get("required").and_then(Value::as_array);
        if props.len() < 2 || required.is_some_and(|r| !r.is_empty()) {
            continue;
        }
        let parsed = schema_core::Schema::from_str(&t.schema.to_string()).expect("schema");
        let out = provider_rules::sanitize(&parsed, &Rules::OPENAI_STRICT, Slot::Parameters);
        if out.report.strict_compatible
            && out.decoder.drop_null.len() == props.len()
            && out.decoder.properties.is_empty()
        {
            let names = props.keys().cloned().collect();
            return (t.name, t.schema.clone(), names);
        }
    }
    panic!("no corpus tool with only optional properties");
}

/// What a strict model sends for that tool: every property `null`.
pub(crate) fn all_null(props: &[String]) -> String {
    let members: Vec<String> = props.iter().map(|p| format!("\"{p}\":null")).collect();
    format!("{{{}}}", members.join(","))
}

/// A body fed from a channel, frame by frame.
pub(crate) struct Channel(mpsc::UnboundedReceiver<Result<Bytes, std::io::Error>>);

impl Body for Channel {
    type Data = Bytes;
    type Error = std::io::Error;
    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, std::io::Error>>> {
        self.0.poll_recv(cx).map(|o| o.map(|r| r.map(Frame::data)))
    }
}

pub(crate) type Sender = mpsc::UnboundedSender<Result<Bytes, std::io::Error>>;

pub(crate) fn channel() -> (Sender, Channel) {
    let (tx, rx) = mpsc::unbounded_channel();
    (tx, Channel(rx))
}

/// Sends `request` through `layer` to an upstream that answers `respond(received body)`.
pub(crate) async fn exchange<B>(
    layer: ToolSchemaLayer,
    path: &str,
    request: &str,
    respond: impl Fn(&Value) -> Response<B> + Clone + Send + 'static,
) -> (Response<RestoreBody<B>>, Value)
where
    B: Body<Data = Bytes> + Send + 'static,
{
    let seen: Arc<Mutex<Option<Value>>> = Arc::default();
    let upstream = {
        let seen = Arc::clone(&seen);
        tower::service_fn(move |req: Request<ToolSchemaBody<Full<Bytes>>>| {
            let seen = Arc::clone(&seen);
            let respond = respond.clone();
            async move {
                let body = req.into_body().collect().await.expect("body").to_bytes();
                let v: Value = serde_json::from_slice(&body).expect("the upstream gets JSON");
                let res = respond(&v);
                *seen.lock().expect("lock") = Some(v);
                Ok::<_, Infallible>(res)
            }
        })
    };
    let req = Request::post(path)
        .header("content-type", "application/json")
        .body(Full::new(Bytes::from(request.to_owned())))
        .expect("request");
    let res = layer
        .layer(upstream)
        .oneshot(req)
        .await
        .expect("infallible");
    let seen = seen.lock().expect("lock").take().expect("upstream called");
    (res, seen)
}

pub(crate) fn json_response(body: String) -> Response<Full<Bytes>> {
    Response::builder()
        .header("content-type", "application/json")
        .header("content-length", body.len())
        .body(Full::new(Bytes::from(body)))
        .expect("response")
}

pub(crate) fn sse_response(body: Channel) -> Response<Channel> {
    Response::builder()
        .header("content-type", "text/event-stream")
        .body(body)
        .expect("response")
}

pub(crate) async fn text<B: Body<Data = Bytes>>(res: Response<RestoreBody<B>>) -> String
where
    B::Error: std::fmt::Debug,
{
    let bytes = res.into_body().collect().await.expect("body").to_bytes();
    String::from_utf8(bytes.to_vec()).expect("utf-8")
}

/// The next frame's data, waiting at most a second.
pub(crate) async fn next(body: &mut RestoreBody<Channel>) -> Option<String> {
    let frame = tokio::time::timeout(Duration::from_secs(1), body.frame())
        .await
        .expect("a frame within a second")?;
    let data = frame.expect("no error").into_data().expect("data");
    Some(String::from_utf8(data.to_vec()).expect("utf-8"))
}

/// Nothing comes within 50 ms (a held fragment).
pub(crate) async fn nothing_yet(body: &mut RestoreBody<Channel>) {
    assert!(
        tokio::time::timeout(Duration::from_millis(50), body.frame())
            .await
            .is_err(),
        "a frame came that should be held"
    );
}

pub(crate) fn openai_request(strict: &(String, Value, Vec<String>)) -> String {
    let tool = |name: &str, schema: &Value, strict: bool| json!({"type":"function","function":{"name":name,"description":"d","parameters":schema,"strict":strict}});
    let any = json!({"type":"object","properties":{"q":{"type":"string"}},"required":["q"]});
    json!({
        "model": "gpt-4o",
        "messages": [
            {"role":"user","content":"hi"},
            {"role":"assistant","tool_calls":[{"id":"c0","type":"function","function":{"name":DOTTED,"arguments":"{\"q\":\"filesystem.read_file\"}"}}]},
            {"role":"tool","tool_call_id":"c0","content":"ok"}
        ],
        "tools": [tool(LONG, &strict.1, true), tool(DOTTED, &any, false), tool("search", &any, false), tool("search", &any, false)],
        "tool_choice": {"type":"function","function":{"name":LONG}}
    })
    .to_string()
}

/// The names the upstream received, in declaration order.
pub(crate) fn sent_names(v: &Value, pointer: &str, key: &str) -> Vec<String> {
    v.pointer(pointer)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|t| t.pointer(key).and_then(Value::as_str).map(str::to_owned))
        .collect()
}

pub(crate) fn anthropic_request() -> String {
    json!({
        "model":"claude-sonnet-4-5","max_tokens":10,
        "messages":[{"role":"assistant","content":[{"type":"tool_use","id":"t0","name":"a b","input":{"name":"a b"}}]},
                    {"role":"user","content":[{"type":"tool_result","tool_use_id":"t0","content":"ok"}]}],
        "tools":[{"name":"a b","input_schema":{"type":"object"}},{"name":LONG.repeat(2),"input_schema":{"type":"object"}}],
        "tool_choice":{"type":"tool","name":"a b"}
    })
    .to_string()
}

/// [`exchange`] of [`anthropic_request`] through the Anthropic layer.
pub(crate) async fn anthropic_exchange<B>(
    respond: impl Fn(&Value) -> Response<B> + Clone + Send + 'static,
) -> (Response<RestoreBody<B>>, Value)
where
    B: Body<Data = Bytes> + Send + 'static,
{
    exchange(
        ToolSchemaLayer::anthropic(),
        "/v1/messages",
        &anthropic_request(),
        respond,
    )
    .await
}
