//! The response-side hook (feature `validate`, issue 9): tool calls of non-streaming responses
//! are validated against the original schemas of the request's tools; the findings go in the
//! response's extensions and the response bytes go on untouched (the very same `Bytes`).

use std::collections::VecDeque;
use std::convert::Infallible;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http::{HeaderMap, Response};
use http_body::{Body, Frame, SizeHint};
use http_body_util::{BodyExt, Full};
use serde_json::{Value, json};
use tower::{Layer, ServiceExt};
use tower_toolschema::validate::{CallOutcome, Inspection, NotInspected, ToolCallFindings};
use tower_toolschema::{ToolCallsBody, ToolSchemaBody, ToolSchemaLayer, ValidateToolCallsLayer};

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/corpus");

/// A corpus tool's input schema.
fn corpus_schema(file: &str, tool: &str) -> Value {
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
fn tools() -> Vec<(&'static str, Value)> {
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

const VALID_ARGS: &str = r#"{"query":"async runtime","libraryName":"tokio"}"#;
const INVALID_ARGS: &str = r#"{"query":"async runtime","name":"tokio"}"#;
const FIX: &str = r#""libraryName" is missing — you sent "name"; the field is "libraryName""#;

fn chat_request() -> String {
    let tools: Vec<Value> = tools()
        .into_iter()
        .map(|(n, s)| json!({"type":"function","function":{"name":n,"description":"d","parameters":s}}))
        .collect();
    json!({"model":"gpt-4o","messages":[{"role":"user","content":"find tokio"}],"tools":tools})
        .to_string()
}

fn responses_request() -> String {
    let tools: Vec<Value> = tools()
        .into_iter()
        .map(|(n, s)| json!({"type":"function","name":n,"description":"d","parameters":s}))
        .collect();
    json!({"model":"gpt-5","input":[{"role":"user","content":"find tokio"}],"tools":tools})
        .to_string()
}

fn anthropic_request() -> String {
    let tools: Vec<Value> = tools()
        .into_iter()
        .map(|(n, s)| json!({"name":n,"description":"d","input_schema":s}))
        .chain([json!({"type":"web_search_20250305","name":"web_search"})])
        .collect();
    json!({"model":"claude-sonnet-4-5","max_tokens":1024,"messages":[{"role":"user","content":"find tokio"}],"tools":tools}).to_string()
}

fn gemini_request() -> String {
    let decls: Vec<Value> = tools()
        .into_iter()
        .map(|(n, s)| json!({"name":n,"description":"d","parameters":s}))
        .collect();
    json!({"contents":[{"role":"user","parts":[{"text":"find tokio"}]}],"tools":[{"functionDeclarations":decls}]}).to_string()
}

fn chat_response(calls: &[(&str, &str)]) -> String {
    let calls: Vec<Value> = calls
        .iter()
        .enumerate()
        .map(|(i, (n, a))| json!({"id":format!("call_{i}"),"type":"function","function":{"name":n,"arguments":a}}))
        .collect();
    json!({"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"gpt-4o","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":calls},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}}).to_string()
}

fn responses_response(calls: &[(&str, &str)]) -> String {
    let mut output = vec![json!({"type":"reasoning","id":"rs_1","summary":[]})];
    output.extend(calls.iter().enumerate().map(|(i, (n, a))| json!({"type":"function_call","id":format!("fc_{i}"),"call_id":format!("call_{i}"),"name":n,"arguments":a,"status":"completed"})));
    json!({"id":"resp_1","object":"response","status":"completed","model":"gpt-5","output":output})
        .to_string()
}

fn anthropic_response(calls: &[(&str, &str)]) -> String {
    let mut content = vec![json!({"type":"text","text":"Looking it up."})];
    content.extend(calls.iter().enumerate().map(|(i, (n, a))| {
        json!({"type":"tool_use","id":format!("toolu_{i}"),"name":n,"input":serde_json::from_str::<Value>(a).unwrap()})
    }));
    json!({"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":content,"stop_reason":"tool_use"}).to_string()
}

fn gemini_response(calls: &[(&str, &str)]) -> String {
    let parts: Vec<Value> = calls
        .iter()
        .map(|(n, a)| json!({"functionCall":{"name":n,"args":serde_json::from_str::<Value>(a).unwrap()}}))
        .collect();
    json!({"candidates":[{"content":{"role":"model","parts":parts},"finishReason":"STOP"}],"modelVersion":"gemini-2.5-flash"}).to_string()
}

/// What the upstream received.
type Seen = Arc<Mutex<Option<Bytes>>>;

/// Sends `request` to `path` through `layer` around an upstream answering `response`; returns
/// the response and what the upstream received.
async fn exchange<B>(
    layer: ValidateToolCallsLayer,
    path: &str,
    request: String,
    response: Response<B>,
) -> (
    Response<ToolCallsBody<tower_toolschema::restore::RestoreBody<B>>>,
    Option<Bytes>,
)
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

fn json_response(body: Bytes) -> Response<Full<Bytes>> {
    Response::builder()
        .header("content-type", "application/json")
        .body(Full::new(body))
        .unwrap()
}

fn findings<B>(res: &Response<B>) -> &ToolCallFindings {
    res.extensions()
        .get::<ToolCallFindings>()
        .expect("findings in the response's extensions")
}

/// The response's body: its data frames (to compare pointers) and errors.
async fn frames<B>(body: B) -> (Vec<Bytes>, Option<String>)
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

/// One shape: a valid and an invalid call; the findings, the untouched bytes (same pointer).
async fn valid_and_invalid(
    layer: ToolSchemaLayer,
    path: &str,
    request: String,
    response: String,
    pointers: [&str; 2],
) -> Bytes {
    let canned = Bytes::from(response);
    let (res, seen) = exchange(
        layer.validate_tool_calls(true),
        path,
        request,
        json_response(canned.clone()),
    )
    .await;
    let f = findings(&res).clone();
    assert_eq!(f.inspection, Inspection::Inspected);
    assert_eq!(f.calls.len(), 2, "{f:#?}");
    assert_eq!(f.calls[0].tool, "resolve-library-id");
    assert_eq!(f.calls[0].pointer, pointers[0]);
    assert_eq!(f.calls[0].outcome, CallOutcome::Valid);
    assert_eq!(f.calls[1].pointer, pointers[1]);
    let CallOutcome::Invalid(err) = &f.calls[1].outcome else {
        panic!("{:?}", f.calls[1].outcome)
    };
    let msg = err.to_string();
    assert!(msg.contains(FIX), "{msg}");
    assert!(
        msg.ends_with(r#"Expected {"query":"<string>","libraryName":"<string>"}"#),
        "{msg}"
    );
    assert_eq!(f.problems().count(), 1);
    // The very same bytes go on.
    let (data, err) = frames(res.into_body()).await;
    assert!(err.is_none());
    assert_eq!(data.len(), 1);
    assert_eq!(data[0], canned);
    assert_eq!(data[0].as_ptr(), canned.as_ptr());
    seen.expect("the upstream was called")
}

#[tokio::test]
async fn openai_chat_calls() {
    valid_and_invalid(
        ToolSchemaLayer::openai(),
        "/v1/chat/completions",
        chat_request(),
        chat_response(&[
            ("resolve-library-id", VALID_ARGS),
            ("resolve-library-id", INVALID_ARGS),
        ]),
        [
            "/choices/0/message/tool_calls/0",
            "/choices/0/message/tool_calls/1",
        ],
    )
    .await;
}

#[tokio::test]
async fn openai_responses_calls() {
    valid_and_invalid(
        ToolSchemaLayer::auto(),
        "/v1/responses",
        responses_request(),
        responses_response(&[
            ("resolve-library-id", VALID_ARGS),
            ("resolve-library-id", INVALID_ARGS),
        ]),
        ["/output/1", "/output/2"],
    )
    .await;
}

#[tokio::test]
async fn anthropic_calls() {
    valid_and_invalid(
        ToolSchemaLayer::anthropic(),
        "/v1/messages",
        anthropic_request(),
        anthropic_response(&[
            ("resolve-library-id", VALID_ARGS),
            ("resolve-library-id", INVALID_ARGS),
        ]),
        ["/content/1", "/content/2"],
    )
    .await;
}

#[tokio::test]
async fn gemini_calls() {
    valid_and_invalid(
        ToolSchemaLayer::gemini(),
        "/v1beta/models/gemini-2.5-flash:generateContent",
        gemini_request(),
        gemini_response(&[
            ("resolve-library-id", VALID_ARGS),
            ("resolve-library-id", INVALID_ARGS),
        ]),
        [
            "/candidates/0/content/parts/0/functionCall",
            "/candidates/0/content/parts/1/functionCall",
        ],
    )
    .await;
}

#[tokio::test]
async fn calls_are_checked_against_the_original_schema_not_the_sanitized_one() {
    // Gemini's Schema proto has no `additionalProperties`: the upstream never sees it, yet an
    // unknown field is caught, with the field meant; so is `maximum` in the original.
    let canned = Bytes::from(gemini_response(&[
        ("get_recent_tool_calls", r#"{"toolname":"x"}"#),
        ("get_recent_tool_calls", r#"{"maxResults":5000}"#),
    ]));
    let (res, seen) = exchange(
        ToolSchemaLayer::gemini().validate_tool_calls(true),
        "/v1beta/models/gemini-2.5-flash:generateContent",
        gemini_request(),
        json_response(canned),
    )
    .await;
    let sent: Value = serde_json::from_slice(&seen.unwrap()).unwrap();
    let params = &sent["tools"][0]["functionDeclarations"][1]["parameters"];
    assert!(params.get("additionalProperties").is_none(), "{params}");
    let f = findings(&res);
    let msgs: Vec<String> = f.calls.iter().map(|c| c.outcome.to_string()).collect();
    assert!(
        msgs[0].contains("\"toolname\"") && msgs[0].contains("toolName"),
        "{msgs:?}"
    );
    assert!(msgs[1].contains("1000"), "{msgs:?}");
}

#[tokio::test]
async fn an_unknown_tool_is_named_with_the_closest_tools() {
    let canned = Bytes::from(chat_response(&[("resolve_library_id", VALID_ARGS)]));
    let (res, _) = exchange(
        ToolSchemaLayer::openai().validate_tool_calls(true),
        "/v1/chat/completions",
        chat_request(),
        json_response(canned),
    )
    .await;
    let f = findings(&res);
    assert_eq!(f.calls.len(), 1);
    assert_eq!(f.calls[0].tool, "resolve_library_id");
    let CallOutcome::UnknownTool { name, available } = &f.calls[0].outcome else {
        panic!("{:?}", f.calls[0].outcome)
    };
    assert_eq!(name, "resolve_library_id");
    assert_eq!(available[0], "resolve-library-id");
    assert_eq!(
        f.calls[0].outcome.to_string(),
        r#"Tool not found: "resolve_library_id". Tools in this request: resolve-library-id, get_recent_tool_calls, company_research_exa"#
    );
}

#[tokio::test]
async fn a_tool_declared_without_a_schema_is_known() {
    // An Anthropic server tool (no input_schema) and an OpenAI function with no parameters.
    let canned = Bytes::from(anthropic_response(&[("web_search", r#"{"query":"x"}"#)]));
    let (res, _) = exchange(
        ToolSchemaLayer::anthropic().validate_tool_calls(true),
        "/v1/messages",
        anthropic_request(),
        json_response(canned),
    )
    .await;
    assert_eq!(findings(&res).calls[0].outcome, CallOutcome::Valid);

    let request = json!({"model":"gpt-4o","messages":[],"tools":[{"type":"function","function":{"name":"now"}}]}).to_string();
    let canned = Bytes::from(chat_response(&[("now", "")]));
    let (res, _) = exchange(
        ToolSchemaLayer::openai().validate_tool_calls(true),
        "/v1/chat/completions",
        request,
        json_response(canned),
    )
    .await;
    assert_eq!(findings(&res).calls[0].outcome, CallOutcome::Valid);
}

/// A body yielding its chunks, then an error or (with `stall`) pending forever.
struct Chunks {
    chunks: VecDeque<Bytes>,
    error: Option<&'static str>,
    stall: bool,
}

impl Body for Chunks {
    type Data = Bytes;
    type Error = Box<dyn std::error::Error + Send + Sync>;
    fn poll_frame(
        mut self: Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        if let Some(c) = self.chunks.pop_front() {
            return Poll::Ready(Some(Ok(Frame::data(c))));
        }
        if let Some(e) = self.error.take() {
            return Poll::Ready(Some(Err(e.into())));
        }
        if self.stall {
            return Poll::Pending;
        }
        Poll::Ready(None)
    }
    fn size_hint(&self) -> SizeHint {
        SizeHint::new()
    }
}

#[tokio::test]
async fn an_sse_response_streams_on_untouched_and_is_not_inspected() {
    let events = [
        Bytes::from_static(b"data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"name\":\"resolve-library-id\",\"arguments\":\"\"}}]}}]}\n\n"),
        Bytes::from_static(b"data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{}\"}}]}}]}\n\n"),
    ];
    let response = Response::builder()
        .header("content-type", "text/event-stream; charset=utf-8")
        .body(Chunks {
            chunks: events.iter().cloned().collect(),
            error: None,
            // The stream is still open: the response must not wait for its end.
            stall: true,
        })
        .unwrap();
    let (res, _) = exchange(
        ToolSchemaLayer::openai().validate_tool_calls(true),
        "/v1/chat/completions",
        chat_request(),
        response,
    )
    .await;
    let f = findings(&res);
    assert_eq!(
        f.inspection,
        Inspection::NotInspected(NotInspected::Streaming)
    );
    assert!(f.calls.is_empty());
    assert!(f.inspection != Inspection::Inspected);
    assert_eq!(
        NotInspected::Streaming.to_string(),
        "not inspected: a streaming (text/event-stream) response"
    );
    let mut body = res.into_body();
    for e in &events {
        let frame = body.frame().await.unwrap().unwrap().into_data().unwrap();
        assert_eq!(frame.as_ptr(), e.as_ptr());
    }
}

#[tokio::test]
async fn a_gzip_response_goes_on_untouched() {
    use std::io::Write;
    let plain = chat_response(&[("resolve-library-id", INVALID_ARGS)]);
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(plain.as_bytes()).unwrap();
    let gzipped = Bytes::from(gz.finish().unwrap());
    let response = Response::builder()
        .header("content-type", "application/json")
        .header("content-encoding", "gzip")
        .body(Full::new(gzipped.clone()))
        .unwrap();
    let (res, _) = exchange(
        ToolSchemaLayer::openai().validate_tool_calls(true),
        "/v1/chat/completions",
        chat_request(),
        response,
    )
    .await;
    assert_eq!(
        findings(&res).inspection,
        Inspection::NotInspected(NotInspected::Compressed("gzip".into()))
    );
    assert_eq!(res.headers()["content-encoding"], "gzip");
    let (data, _) = frames(res.into_body()).await;
    assert_eq!(data.len(), 1);
    assert_eq!(data[0], gzipped);
    assert_eq!(data[0].as_ptr(), gzipped.as_ptr());
}

#[tokio::test]
async fn a_response_in_chunks_goes_on_byte_identical_with_its_trailers() {
    let canned = chat_response(&[("resolve-library-id", INVALID_ARGS)]);
    let (a, b) = canned.as_bytes().split_at(canned.len() / 2);
    let chunks = Chunks {
        chunks: [Bytes::copy_from_slice(a), Bytes::copy_from_slice(b)].into(),
        error: None,
        stall: false,
    };
    let response = Response::builder()
        .header("content-type", "application/json")
        .body(chunks)
        .unwrap();
    let (res, _) = exchange(
        ToolSchemaLayer::openai().validate_tool_calls(true),
        "/v1/chat/completions",
        chat_request(),
        response,
    )
    .await;
    assert_eq!(findings(&res).problems().count(), 1);
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    assert_eq!(bytes, canned.as_bytes());

    // Trailers survive too.
    let mut trailers = HeaderMap::new();
    trailers.insert("x-checksum", "1".parse().unwrap());
    let body = Full::new(Bytes::from(canned.clone()))
        .with_trailers(std::future::ready(Some(Ok::<_, Infallible>(trailers))));
    let response = Response::builder()
        .header("content-type", "application/json")
        .body(body)
        .unwrap();
    let (res, _) = exchange(
        ToolSchemaLayer::openai().validate_tool_calls(true),
        "/v1/chat/completions",
        chat_request(),
        response,
    )
    .await;
    assert!(findings(&res).is_inspected());
    let collected = res.into_body().collect().await.unwrap();
    assert_eq!(collected.trailers().unwrap()["x-checksum"], "1");
    assert_eq!(collected.to_bytes(), canned.as_bytes());
}

#[tokio::test]
async fn a_response_body_error_is_forwarded_after_the_bytes_read() {
    let response = Response::builder()
        .header("content-type", "application/json")
        .body(Chunks {
            chunks: [Bytes::from_static(b"{\"choices\":[")].into(),
            error: Some("upstream reset"),
            stall: false,
        })
        .unwrap();
    let (res, _) = exchange(
        ToolSchemaLayer::openai().validate_tool_calls(true),
        "/v1/chat/completions",
        chat_request(),
        response,
    )
    .await;
    assert!(matches!(
        &findings(&res).inspection,
        Inspection::NotInspected(NotInspected::BodyError(e)) if e.contains("upstream reset")
    ));
    let (data, err) = frames(res.into_body()).await;
    assert_eq!(data, [Bytes::from_static(b"{\"choices\":[")]);
    assert_eq!(err.as_deref(), Some("upstream reset"));
}

#[tokio::test]
async fn a_response_over_the_limit_is_replayed_whole() {
    let canned = chat_response(&[("resolve-library-id", INVALID_ARGS)]);
    let limit = canned.len() / 2;
    let pieces: VecDeque<Bytes> = canned
        .as_bytes()
        .chunks(limit / 3)
        .map(Bytes::copy_from_slice)
        .collect();
    let response = Response::builder()
        .header("content-type", "application/json")
        .body(Chunks {
            chunks: pieces,
            error: None,
            stall: false,
        })
        .unwrap();
    // The request is small enough for the same limit.
    let request = json!({"model":"gpt-4o","messages":[],"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object"}}}]}).to_string();
    assert!(request.len() < limit);
    let (res, _) = exchange(
        ToolSchemaLayer::openai()
            .limit(limit)
            .validate_tool_calls(true),
        "/v1/chat/completions",
        request.clone(),
        response,
    )
    .await;
    assert_eq!(
        findings(&res).inspection,
        Inspection::NotInspected(NotInspected::TooLarge { limit })
    );
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    assert_eq!(bytes, canned.as_bytes());

    // Declared larger: not read at all.
    let (res, _) = exchange(
        ToolSchemaLayer::openai()
            .limit(limit)
            .validate_tool_calls(true),
        "/v1/chat/completions",
        request,
        json_response(Bytes::from(canned.clone())),
    )
    .await;
    assert_eq!(
        findings(&res).inspection,
        Inspection::NotInspected(NotInspected::TooLarge { limit })
    );
}

#[tokio::test]
async fn when_off_or_the_request_was_not_inspected() {
    let canned = Bytes::from(chat_response(&[("resolve-library-id", INVALID_ARGS)]));
    // Off: no findings, the same bytes.
    let (res, _) = exchange(
        ToolSchemaLayer::openai().validate_tool_calls(false),
        "/v1/chat/completions",
        chat_request(),
        json_response(canned.clone()),
    )
    .await;
    assert!(res.extensions().get::<ToolCallFindings>().is_none());
    let (data, _) = frames(res.into_body()).await;
    assert_eq!(data[0].as_ptr(), canned.as_ptr());

    // A path `auto` does not know: the request was not inspected, so neither is the response.
    let (res, _) = exchange(
        ToolSchemaLayer::auto().validate_tool_calls(true),
        "/v1/unknown",
        chat_request(),
        json_response(canned.clone()),
    )
    .await;
    assert_eq!(
        findings(&res).inspection,
        Inspection::NotInspected(NotInspected::RequestNotInspected)
    );

    // A request body that is not JSON: skipped, and said so.
    let (res, _) = exchange(
        ToolSchemaLayer::openai().validate_tool_calls(true),
        "/v1/chat/completions",
        "{not json".to_owned(),
        json_response(canned.clone()),
    )
    .await;
    assert!(matches!(
        findings(&res).inspection,
        Inspection::NotInspected(NotInspected::RequestSkipped(_))
    ));

    // No tools in the request.
    let (res, _) = exchange(
        ToolSchemaLayer::openai().validate_tool_calls(true),
        "/v1/chat/completions",
        json!({"model":"gpt-4o","messages":[]}).to_string(),
        json_response(canned.clone()),
    )
    .await;
    assert_eq!(
        findings(&res).inspection,
        Inspection::NotInspected(NotInspected::NoTools)
    );

    // A response that is not JSON, and one that is invalid JSON.
    let text = Response::builder()
        .header("content-type", "text/plain")
        .body(Full::new(Bytes::from_static(b"oops")))
        .unwrap();
    let (res, _) = exchange(
        ToolSchemaLayer::openai().validate_tool_calls(true),
        "/v1/chat/completions",
        chat_request(),
        text,
    )
    .await;
    assert_eq!(
        findings(&res).inspection,
        Inspection::NotInspected(NotInspected::NotJson("text/plain".into()))
    );
    let (res, _) = exchange(
        ToolSchemaLayer::openai().validate_tool_calls(true),
        "/v1/chat/completions",
        chat_request(),
        json_response(Bytes::from_static(b"{\"choices\":")),
    )
    .await;
    assert!(matches!(
        findings(&res).inspection,
        Inspection::NotInspected(NotInspected::InvalidJson(_))
    ));
}

/// axum end to end over a loopback socket: the router with the layer, an echo-ish upstream
/// handler answering a canned response, a middleware outside turning the findings into a
/// header, a hyper client.
#[tokio::test]
async fn axum_end_to_end() {
    use axum::{Router, middleware::map_response, routing::post};
    use hyper_util::client::legacy::Client;
    use hyper_util::rt::TokioExecutor;

    let canned = chat_response(&[
        ("resolve-library-id", VALID_ARGS),
        ("resolve-library-id", INVALID_ARGS),
    ]);
    let handler_canned = canned.clone();
    let app = Router::new()
        .route(
            "/v1/chat/completions",
            post(move |body: Bytes| {
                let canned = handler_canned.clone();
                async move {
                    // Echo-ish: the upstream checks it got the sanitized tools, then answers.
                    let v: Value = serde_json::from_slice(&body).unwrap();
                    assert_eq!(v["tools"].as_array().unwrap().len(), 3);
                    ([("content-type", "application/json")], canned)
                }
            }),
        )
        .layer(ToolSchemaLayer::openai().validate_tool_calls(true))
        .layer(map_response(
            |mut res: axum::response::Response| async move {
                let header = res
                    .extensions()
                    .get::<ToolCallFindings>()
                    .map(|f| {
                        f.problems()
                            .map(|c| format!("{} {}", c.pointer, c.outcome))
                            .collect::<Vec<_>>()
                            .join(" | ")
                    })
                    .unwrap_or_else(|| "none".to_owned());
                let header = header.replace('\n', " ");
                res.headers_mut().insert(
                    "x-tool-call-problems",
                    http::HeaderValue::from_str(&header).unwrap_or_else(|_| {
                        http::HeaderValue::from_bytes(header.as_bytes()).unwrap()
                    }),
                );
                res
            },
        ));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });

    let client = Client::builder(TokioExecutor::new()).build_http::<Full<Bytes>>();
    let req = http::Request::post(format!("http://{addr}/v1/chat/completions"))
        .header("content-type", "application/json")
        .body(Full::new(Bytes::from(chat_request())))
        .unwrap();
    let res = tokio::time::timeout(Duration::from_secs(10), client.request(req))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(res.status(), 200);
    let problems =
        String::from_utf8(res.headers()["x-tool-call-problems"].as_bytes().to_vec()).unwrap();
    assert!(
        problems.starts_with("/choices/0/message/tool_calls/1 "),
        "{problems}"
    );
    assert!(problems.contains(FIX), "{problems}");
    let body = res.into_body().collect().await.unwrap().to_bytes();
    assert_eq!(body, canned.as_bytes());
    server.abort();
}
