//! The way back through the layer, per API, JSON and stream: tools from the corpus with a long
//! name (over OpenAI's 64), a dotted one, two that share a name, and a strict tool whose
//! optional properties the model fills with `null`. The upstream answers with the names it
//! received; the client must see the tools' own names and no injected null, every other byte as
//! the upstream sent it, and a stream's events in order, text unbuffered.

mod common;

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http::{Request, Response};
use http_body::{Body, Frame};
use http_body_util::{BodyExt, Full};
use provider_rules::{Rules, Slot};
use serde_json::{Value, json};
use tokio::sync::mpsc;
use tower::{Layer, ServiceExt};
use tower_toolschema::restore::{NotRestored, RestoreBody, RestoreReport};
use tower_toolschema::{ToolSchemaBody, ToolSchemaLayer};

const LONG: &str = "mcp__github_enterprise__add_pull_request_review_comment_to_pending_review";
const DOTTED: &str = "filesystem.read_file";

/// A corpus tool whose properties are all optional and become strict nulls: (name, schema,
/// property names).
fn strict_tool() -> (String, Value, Vec<String>) {
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
fn all_null(props: &[String]) -> String {
    let members: Vec<String> = props.iter().map(|p| format!("\"{p}\":null")).collect();
    format!("{{{}}}", members.join(","))
}

/// A body fed from a channel, frame by frame.
struct Channel(mpsc::UnboundedReceiver<Result<Bytes, std::io::Error>>);

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

type Sender = mpsc::UnboundedSender<Result<Bytes, std::io::Error>>;

fn channel() -> (Sender, Channel) {
    let (tx, rx) = mpsc::unbounded_channel();
    (tx, Channel(rx))
}

/// Sends `request` through `layer` to an upstream that answers `respond(received body)`.
async fn exchange<B>(
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

fn json_response(body: String) -> Response<Full<Bytes>> {
    Response::builder()
        .header("content-type", "application/json")
        .header("content-length", body.len())
        .body(Full::new(Bytes::from(body)))
        .expect("response")
}

fn sse_response(body: Channel) -> Response<Channel> {
    Response::builder()
        .header("content-type", "text/event-stream")
        .body(body)
        .expect("response")
}

async fn text<B: Body<Data = Bytes>>(res: Response<RestoreBody<B>>) -> String
where
    B::Error: std::fmt::Debug,
{
    let bytes = res.into_body().collect().await.expect("body").to_bytes();
    String::from_utf8(bytes.to_vec()).expect("utf-8")
}

/// The next frame's data, waiting at most a second.
async fn next(body: &mut RestoreBody<Channel>) -> Option<String> {
    let frame = tokio::time::timeout(Duration::from_secs(1), body.frame())
        .await
        .expect("a frame within a second")?;
    let data = frame.expect("no error").into_data().expect("data");
    Some(String::from_utf8(data.to_vec()).expect("utf-8"))
}

/// Nothing comes within 50 ms (a held fragment).
async fn nothing_yet(body: &mut RestoreBody<Channel>) {
    assert!(
        tokio::time::timeout(Duration::from_millis(50), body.frame())
            .await
            .is_err(),
        "a frame came that should be held"
    );
}

fn openai_request(strict: &(String, Value, Vec<String>)) -> String {
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
fn sent_names(v: &Value, pointer: &str, key: &str) -> Vec<String> {
    v.pointer(pointer)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|t| t.pointer(key).and_then(Value::as_str).map(str::to_owned))
        .collect()
}

#[tokio::test]
async fn openai_chat_json_names_and_strict_nulls() {
    let strict = strict_tool();
    let nulls = all_null(&strict.2);
    let respond = {
        let nulls = nulls.clone();
        move |v: &Value| {
            let n = sent_names(v, "/tools", "/function/name");
            let args = serde_json::to_string(&nulls).expect("json");
            json_response(format!(
                r#"{{"id":"x","choices":[{{"index":0,"message":{{"role":"assistant","content":"ok {0} {2}","tool_calls":[{{"id":"a","type":"function","function":{{"name":"{0}","arguments":{args}}}}},{{"id":"b","type":"function","function":{{"name":"{1}","arguments":"{{\"q\":\"1\"}}"}}}},{{"id":"c","type":"function","function":{{"name":"{3}","arguments":"{{}}"}}}}]}},"finish_reason":"tool_calls"}}],"usage":{{"total_tokens":3}}}}"#,
                n[0], n[1], n[2], n[3]
            ))
        }
    };
    let (res, seen) = exchange(
        ToolSchemaLayer::openai(),
        "/v1/chat/completions",
        &openai_request(&strict),
        respond,
    )
    .await;
    let n = sent_names(&seen, "/tools", "/function/name");
    // The upstream got valid, unique names, in the history and the tool choice too.
    assert!(
        n.iter().all(|s| Rules::OPENAI.tool_names.accepts(s)),
        "{n:?}"
    );
    assert_eq!(n[2], "search");
    assert_ne!(n[3], "search");
    assert_eq!(seen["tool_choice"]["function"]["name"], n[0].as_str());
    assert_eq!(
        seen["messages"][1]["tool_calls"][0]["function"]["name"],
        n[1].as_str()
    );
    assert_eq!(
        seen["messages"][1]["tool_calls"][0]["function"]["arguments"],
        "{\"q\":\"filesystem.read_file\"}"
    );
    assert!(res.headers().get("content-length").is_none());
    let report = res
        .extensions()
        .get::<RestoreReport>()
        .cloned()
        .expect("report");
    let body = text(res).await;
    let want = format!(
        r#"{{"id":"x","choices":[{{"index":0,"message":{{"role":"assistant","content":"ok {0} search","tool_calls":[{{"id":"a","type":"function","function":{{"name":"{LONG}","arguments":"{{}}"}}}},{{"id":"b","type":"function","function":{{"name":"{DOTTED}","arguments":"{{\"q\":\"1\"}}"}}}},{{"id":"c","type":"function","function":{{"name":"search","arguments":"{{}}"}}}}]}},"finish_reason":"tool_calls"}}],"usage":{{"total_tokens":3}}}}"#,
        n[0]
    );
    assert_eq!(body, want);
    let s = report.summary();
    assert!(s.complete);
    assert_eq!(s.calls.len(), 3);
    assert!(s.calls[0].decoded && s.calls[0].renamed());
    assert_eq!(s.renamed.len(), 3);
}

fn chat_chunk(delta: &str, finish: &str) -> String {
    format!(
        "data: {{\"id\":\"x\",\"object\":\"chat.completion.chunk\",\"choices\":[{{\"index\":0,\"delta\":{delta},\"finish_reason\":{finish}}}]}}\n\n"
    )
}

/// An OpenAI Chat request through the layer to an upstream streaming what the test sends:
/// the sender, the names the upstream received, and the client's body.
async fn chat_stream(
    strict: &(String, Value, Vec<String>),
) -> (Sender, Vec<String>, RestoreBody<Channel>) {
    let (tx, rx) = channel();
    let rx = Arc::new(Mutex::new(Some(rx)));
    let names: Arc<Mutex<Vec<String>>> = Arc::default();
    let respond = {
        let names = Arc::clone(&names);
        move |v: &Value| {
            *names.lock().expect("lock") = sent_names(v, "/tools", "/function/name");
            sse_response(rx.lock().expect("lock").take().expect("one call"))
        }
    };
    let (res, _) = exchange(
        ToolSchemaLayer::openai(),
        "/v1/chat/completions",
        &openai_request(strict),
        respond,
    )
    .await;
    let n = names.lock().expect("lock").clone();
    (tx, n, res.into_body())
}

#[tokio::test]
async fn openai_chat_stream_holds_only_the_strict_fragments() {
    let strict = strict_tool();
    let nulls = all_null(&strict.2);
    let (tx, n, mut body) = chat_stream(&strict).await;
    let send = |s: &str| tx.send(Ok(Bytes::from(s.to_owned()))).expect("send");

    // Text passes at once, byte for byte, even split mid-event.
    let text1 = chat_chunk(r#"{"role":"assistant","content":"Hel"}"#, "null");
    send(&text1[..10]);
    nothing_yet(&mut body).await;
    send(&text1[10..]);
    assert_eq!(next(&mut body).await.as_deref(), Some(text1.as_str()));
    // The call's first fragment: its name mapped back, in the same event.
    let start = chat_chunk(
        &format!(
            r#"{{"tool_calls":[{{"index":0,"id":"a","type":"function","function":{{"name":"{}","arguments":""}}}}]}}"#,
            n[0]
        ),
        "null",
    );
    send(&start);
    assert_eq!(
        next(&mut body).await.as_deref(),
        Some(start.replace(&n[0], LONG).as_str())
    );
    // Its argument fragments are held ...
    let mut frags = Vec::new();
    let third = nulls.len() / 3;
    for piece in [
        &nulls[..third],
        &nulls[third..2 * third],
        &nulls[2 * third..],
    ] {
        let f = chat_chunk(
            &format!(
                r#"{{"tool_calls":[{{"index":0,"function":{{"arguments":{}}}}}]}}"#,
                serde_json::to_string(piece).expect("json")
            ),
            "null",
        );
        send(&f);
        frags.push(f);
    }
    nothing_yet(&mut body).await;
    // ... and go as one, decoded, when the call completes.
    let finish = chat_chunk("{}", "\"tool_calls\"");
    send(&finish);
    let whole = next(&mut body).await.expect("the fragment");
    assert_eq!(
        whole,
        chat_chunk(
            r#"{"tool_calls":[{"index":0,"function":{"arguments":"{}"}}]}"#,
            "null"
        )
    );
    assert_eq!(next(&mut body).await.as_deref(), Some(finish.as_str()));
    send("data: [DONE]\n\n");
    assert_eq!(next(&mut body).await.as_deref(), Some("data: [DONE]\n\n"));
    drop(tx);
    assert!(next(&mut body).await.is_none());
}

#[tokio::test]
async fn a_cut_stream_ends_with_what_was_held_as_it_came() {
    let strict = strict_tool();
    let (tx, n, mut body) = chat_stream(&strict).await;
    let start = chat_chunk(
        &format!(
            r#"{{"tool_calls":[{{"index":0,"id":"a","type":"function","function":{{"name":"{}","arguments":"{{\"{}\":nu"}}}}]}}"#,
            n[0], strict.2[0]
        ),
        "null",
    );
    tx.send(Ok(Bytes::from(start))).expect("send");
    let first = next(&mut body).await.expect("the start");
    assert!(
        first.contains(LONG) && first.contains(r#""arguments":"""#),
        "{first}"
    );
    tx.send(Err(std::io::Error::other("connection reset")))
        .expect("send");
    // The held fragment, undecoded, then the error.
    let held = next(&mut body).await.expect("the held fragment");
    assert!(
        held.contains(&format!(r#""arguments":"{{\"{}\":nu""#, strict.2[0])),
        "{held}"
    );
    let end = tokio::time::timeout(Duration::from_secs(1), body.frame())
        .await
        .expect("ends");
    assert!(matches!(end, Some(Err(_))));
}

#[tokio::test]
async fn openai_responses_json_and_stream() {
    let strict = strict_tool();
    let nulls = all_null(&strict.2);
    let request = json!({
        "model":"gpt-4.1","input":[{"type":"function_call","call_id":"c0","name":DOTTED,"arguments":"{}"}],
        "tools":[{"type":"function","name":LONG,"parameters":strict.1,"strict":true},{"type":"function","name":DOTTED,"parameters":{"type":"object"}}]
    })
    .to_string();
    let respond = {
        let nulls = nulls.clone();
        move |v: &Value| {
            let n = sent_names(v, "/tools", "/name");
            let args = serde_json::to_string(&nulls).expect("json");
            json_response(format!(
                r#"{{"id":"r","output":[{{"type":"message","content":[{{"type":"output_text","text":"{0}"}}]}},{{"type":"function_call","id":"fc","call_id":"c1","name":"{0}","arguments":{args}}},{{"type":"function_call","id":"fd","call_id":"c2","name":"{1}","arguments":"{{}}"}}]}}"#,
                n[0], n[1]
            ))
        }
    };
    let (res, seen) = exchange(
        ToolSchemaLayer::openai(),
        "/v1/responses",
        &request,
        respond,
    )
    .await;
    let n = sent_names(&seen, "/tools", "/name");
    assert_eq!(seen["input"][0]["name"], n[1].as_str());
    let body = text(res).await;
    assert_eq!(
        body,
        format!(
            r#"{{"id":"r","output":[{{"type":"message","content":[{{"type":"output_text","text":"{0}"}}]}},{{"type":"function_call","id":"fc","call_id":"c1","name":"{LONG}","arguments":"{{}}"}},{{"type":"function_call","id":"fd","call_id":"c2","name":"{DOTTED}","arguments":"{{}}"}}]}}"#,
            n[0]
        )
    );

    // The stream.
    let (tx, rx) = channel();
    let rx = Arc::new(Mutex::new(Some(rx)));
    let respond = move |_: &Value| sse_response(rx.lock().expect("lock").take().expect("one call"));
    let (res, _) = exchange(
        ToolSchemaLayer::openai(),
        "/v1/responses",
        &request,
        respond,
    )
    .await;
    let mut body = res.into_body();
    let ev = |t: &str, data: String| format!("event: {t}\ndata: {data}\n\n");
    let send = |s: &str| tx.send(Ok(Bytes::from(s.to_owned()))).expect("send");
    let text_ev = ev(
        "response.output_text.delta",
        r#"{"type":"response.output_text.delta","output_index":0,"delta":"Hi"}"#.to_owned(),
    );
    send(&text_ev);
    assert_eq!(next(&mut body).await.as_deref(), Some(text_ev.as_str()));
    let added = ev(
        "response.output_item.added",
        format!(
            r#"{{"type":"response.output_item.added","output_index":1,"item":{{"type":"function_call","id":"fc","call_id":"c1","name":"{}","arguments":""}}}}"#,
            n[0]
        ),
    );
    send(&added);
    assert_eq!(next(&mut body).await, Some(added.replace(&n[0], LONG)));
    let delta = |d: &str| {
        ev(
            "response.function_call_arguments.delta",
            format!(
                r#"{{"type":"response.function_call_arguments.delta","item_id":"fc","output_index":1,"delta":{}}}"#,
                serde_json::to_string(d).expect("json")
            ),
        )
    };
    let half = nulls.len() / 2;
    send(&delta(&nulls[..half]));
    send(&delta(&nulls[half..]));
    nothing_yet(&mut body).await;
    let done = ev(
        "response.function_call_arguments.done",
        format!(
            r#"{{"type":"response.function_call_arguments.done","item_id":"fc","output_index":1,"arguments":{}}}"#,
            serde_json::to_string(&nulls).expect("json")
        ),
    );
    send(&done);
    assert_eq!(next(&mut body).await, Some(delta("{}")));
    assert_eq!(
        next(&mut body).await,
        Some(ev(
            "response.function_call_arguments.done",
            r#"{"type":"response.function_call_arguments.done","item_id":"fc","output_index":1,"arguments":"{}"}"#.to_owned()
        ))
    );
    let completed = ev(
        "response.completed",
        format!(
            r#"{{"type":"response.completed","response":{{"output":[{{"type":"function_call","name":"{}","arguments":{}}}]}}}}"#,
            n[0],
            serde_json::to_string(&nulls).expect("json")
        ),
    );
    send(&completed);
    assert_eq!(
        next(&mut body).await,
        Some(ev(
            "response.completed",
            format!(
                r#"{{"type":"response.completed","response":{{"output":[{{"type":"function_call","name":"{LONG}","arguments":"{{}}"}}]}}}}"#
            )
        ))
    );
}

fn anthropic_request() -> String {
    json!({
        "model":"claude-sonnet-4-5","max_tokens":10,
        "messages":[{"role":"assistant","content":[{"type":"tool_use","id":"t0","name":"a b","input":{"name":"a b"}}]},
                    {"role":"user","content":[{"type":"tool_result","tool_use_id":"t0","content":"ok"}]}],
        "tools":[{"name":"a b","input_schema":{"type":"object"}},{"name":LONG.repeat(2),"input_schema":{"type":"object"}}],
        "tool_choice":{"type":"tool","name":"a b"}
    })
    .to_string()
}

#[tokio::test]
async fn anthropic_messages_json_and_stream() {
    let long = LONG.repeat(2);
    let respond = |v: &Value| {
        let n = sent_names(v, "/tools", "/name");
        json_response(format!(
            r#"{{"content":[{{"type":"text","text":"a b"}},{{"type":"tool_use","id":"t1","name":"{}","input":{{"name":"a b"}}}},{{"type":"tool_use","id":"t2","name":"{}","input":{{}}}}],"stop_reason":"tool_use"}}"#,
            n[0], n[1]
        ))
    };
    let (res, seen) = exchange(
        ToolSchemaLayer::anthropic(),
        "/v1/messages",
        &anthropic_request(),
        respond,
    )
    .await;
    assert_eq!(seen["tools"][0]["name"], "a_b");
    assert_eq!(seen["messages"][0]["content"][0]["name"], "a_b");
    assert_eq!(seen["messages"][0]["content"][0]["input"]["name"], "a b");
    assert_eq!(seen["tool_choice"]["name"], "a_b");
    assert!(
        seen["tools"][1]["name"]
            .as_str()
            .is_some_and(|s| s.len() <= 128)
    );
    assert_eq!(
        text(res).await,
        format!(
            r#"{{"content":[{{"type":"text","text":"a b"}},{{"type":"tool_use","id":"t1","name":"a b","input":{{"name":"a b"}}}},{{"type":"tool_use","id":"t2","name":"{long}","input":{{}}}}],"stop_reason":"tool_use"}}"#
        )
    );

    let (tx, rx) = channel();
    let rx = Arc::new(Mutex::new(Some(rx)));
    let respond = move |_: &Value| sse_response(rx.lock().expect("lock").take().expect("one call"));
    let (res, _) = exchange(
        ToolSchemaLayer::anthropic(),
        "/v1/messages",
        &anthropic_request(),
        respond,
    )
    .await;
    let mut body = res.into_body();
    let events = [
        "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"content\":[]}}\n\n".to_owned(),
        "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t1\",\"name\":\"a_b\",\"input\":{}}}\n\n".to_owned(),
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"a\\\":\"}}\n\n".to_owned(),
        "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n".to_owned(),
    ];
    for e in &events {
        tx.send(Ok(Bytes::from(e.clone()))).expect("send");
        // No decoder: every event passes at once; the name is mapped back where it is.
        assert_eq!(next(&mut body).await, Some(e.replace("a_b", "a b")));
    }
}

#[tokio::test]
async fn gemini_json_stream_snake_and_code_assist() {
    let gemini_request = |snake: bool, envelope: bool| {
        let decl = if snake {
            "function_declarations"
        } else {
            "functionDeclarations"
        };
        let call = if snake {
            "function_call"
        } else {
            "functionCall"
        };
        let inner = format!(
            r#"{{"contents":[{{"role":"model","parts":[{{"{call}":{{"name":"{DOTTED} v2","args":{{}}}}}}]}}],"tools":[{{"{decl}":[{{"name":"{DOTTED} v2","parameters":{{"type":"OBJECT"}}}},{{"name":"1st","parameters":{{"type":"OBJECT"}}}}]}}]}}"#
        );
        if envelope {
            format!(r#"{{"model":"gemini-2.5-pro","project":"p","request":{inner}}}"#)
        } else {
            inner
        }
    };
    for (snake, envelope, path) in [
        (
            false,
            false,
            "/v1beta/models/gemini-2.5-flash:generateContent",
        ),
        (
            true,
            false,
            "/v1beta/models/gemini-2.5-flash:generateContent",
        ),
        (false, true, "/v1internal:generateContent"),
    ] {
        let call = if snake {
            "function_call"
        } else {
            "functionCall"
        };
        let prefix = if envelope { "/request" } else { "" };
        let decl = if snake {
            "function_declarations"
        } else {
            "functionDeclarations"
        };
        let respond = move |v: &Value| {
            let n = sent_names(v, &format!("{prefix}/tools/0/{decl}"), "/name");
            let inner = format!(
                r#"{{"candidates":[{{"content":{{"role":"model","parts":[{{"text":"{0}"}},{{"{call}":{{"name":"{0}","args":{{"x":null}}}}}},{{"{call}":{{"name":"{1}"}}}}]}}}}]}}"#,
                n[0], n[1]
            );
            json_response(if envelope {
                format!(r#"{{"response":{inner}}}"#)
            } else {
                inner
            })
        };
        let (res, seen) = exchange(
            ToolSchemaLayer::auto(),
            path,
            &gemini_request(snake, envelope),
            respond,
        )
        .await;
        let n = sent_names(&seen, &format!("{prefix}/tools/0/{decl}"), "/name");
        assert_eq!(n, ["filesystem.read_file_v2", "_1st"], "{path}");
        let inner = format!(
            r#"{{"candidates":[{{"content":{{"role":"model","parts":[{{"text":"{0}"}},{{"{call}":{{"name":"{DOTTED} v2","args":{{"x":null}}}}}},{{"{call}":{{"name":"1st"}}}}]}}}}]}}"#,
            n[0]
        );
        let want = if envelope {
            format!(r#"{{"response":{inner}}}"#)
        } else {
            inner
        };
        assert_eq!(text(res).await, want, "{path}");
    }

    // streamGenerateContent?alt=sse: every chunk restored as it comes.
    let (tx, rx) = channel();
    let rx = Arc::new(Mutex::new(Some(rx)));
    let respond = move |_: &Value| sse_response(rx.lock().expect("lock").take().expect("one call"));
    let (res, _) = exchange(
        ToolSchemaLayer::auto(),
        "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
        &gemini_request(false, false),
        respond,
    )
    .await;
    let mut body = res.into_body();
    let text_chunk =
        "data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"Hi\"}]}}]}\r\n\r\n";
    tx.send(Ok(Bytes::from_static(text_chunk.as_bytes())))
        .expect("send");
    assert_eq!(next(&mut body).await.as_deref(), Some(text_chunk));
    let call_chunk = "data: {\"candidates\":[{\"content\":{\"parts\":[{\"functionCall\":{\"name\":\"_1st\",\"args\":{}}}]}}]}\r\n\r\n";
    tx.send(Ok(Bytes::from_static(call_chunk.as_bytes())))
        .expect("send");
    assert_eq!(
        next(&mut body).await,
        Some(call_chunk.replace("_1st", "1st"))
    );
}

#[tokio::test]
async fn bedrock_converse_json() {
    let request = json!({
        "messages":[{"role":"assistant","content":[{"toolUse":{"toolUseId":"t0","name":DOTTED,"input":{}}}]}],
        "toolConfig":{"tools":[{"toolSpec":{"name":DOTTED,"inputSchema":{"json":{"type":"object"}}}}],"toolChoice":{"tool":{"name":DOTTED}}}
    })
    .to_string();
    let respond = |v: &Value| {
        let n = sent_names(v, "/toolConfig/tools", "/toolSpec/name");
        json_response(format!(
            r#"{{"output":{{"message":{{"role":"assistant","content":[{{"toolUse":{{"toolUseId":"t1","name":"{}","input":{{"path":"/"}}}}}}]}}}},"stopReason":"tool_use"}}"#,
            n[0]
        ))
    };
    let (res, seen) = exchange(
        ToolSchemaLayer::bedrock(),
        "/model/m/converse",
        &request,
        respond,
    )
    .await;
    assert_eq!(
        seen["toolConfig"]["toolChoice"]["tool"]["name"],
        "filesystem_read_file"
    );
    assert_eq!(
        seen["messages"][0]["content"][0]["toolUse"]["name"],
        "filesystem_read_file"
    );
    assert_eq!(
        text(res).await,
        format!(
            r#"{{"output":{{"message":{{"role":"assistant","content":[{{"toolUse":{{"toolUseId":"t1","name":"{DOTTED}","input":{{"path":"/"}}}}}}]}}}},"stopReason":"tool_use"}}"#
        )
    );
}

#[tokio::test]
async fn nothing_to_restore_leaves_the_body_untouched() {
    let body = Bytes::from_static(br#"{"choices":[{"message":{"tool_calls":[{"function":{"name":"ok","arguments":"{\"a\":null}"}}]}}]}"#);
    let ptr = body.as_ptr();
    let request = r#"{"model":"gpt-4o","messages":[],"tools":[{"type":"function","function":{"name":"ok","parameters":{"type":"object","properties":{"a":{"type":"string"}}}}}]}"#;
    let respond = move |_: &Value| {
        Response::builder()
            .header("content-type", "application/json")
            .header("content-length", body.len())
            .body(Full::new(body.clone()))
            .expect("response")
    };
    let (res, _) = exchange(
        ToolSchemaLayer::openai(),
        "/v1/chat/completions",
        request,
        respond,
    )
    .await;
    assert!(res.extensions().get::<RestoreReport>().is_none());
    assert!(res.headers().get("content-length").is_some());
    let mut body = res.into_body();
    let frame = body
        .frame()
        .await
        .expect("frame")
        .expect("data")
        .into_data()
        .expect("data");
    assert_eq!(frame.as_ptr(), ptr, "the very same bytes");
}

#[tokio::test]
async fn compressed_responses_go_on_untouched_and_are_reported() {
    let raw = Bytes::from_static(b"\x1f\x8b not really gzip");
    let respond = {
        let raw = raw.clone();
        move |_: &Value| {
            Response::builder()
                .header("content-type", "application/json")
                .header("content-encoding", "gzip")
                .body(Full::new(raw.clone()))
                .expect("response")
        }
    };
    let (res, _) = exchange(
        ToolSchemaLayer::anthropic(),
        "/v1/messages",
        &anthropic_request(),
        respond,
    )
    .await;
    let report = res
        .extensions()
        .get::<RestoreReport>()
        .cloned()
        .expect("report");
    assert!(
        matches!(report.summary().not_restored, Some(NotRestored::Compressed(ref e)) if e == "gzip")
    );
    assert_eq!(
        res.into_body().collect().await.expect("body").to_bytes(),
        raw
    );
}

#[tokio::test]
async fn renaming_can_be_turned_off() {
    let respond = |_: &Value| json_response("{}".to_owned());
    let (_, seen) = exchange(
        ToolSchemaLayer::anthropic().rename_tools(false),
        "/v1/messages",
        &anthropic_request(),
        respond,
    )
    .await;
    assert_eq!(seen["tools"][0]["name"], "a b");
}

/// The response validator sees the restored call: the tool's own name, no strict null, so the
/// arguments validate against the original schema.
#[cfg(feature = "validate")]
#[tokio::test]
async fn the_response_validator_validates_the_restored_arguments() {
    use tower_toolschema::validate::{CallOutcome, ToolCallFindings};
    let strict = strict_tool();
    let nulls = all_null(&strict.2);
    let upstream = tower::service_fn(move |req: Request<ToolSchemaBody<Full<Bytes>>>| {
        let nulls = nulls.clone();
        async move {
            let body = req.into_body().collect().await.expect("body").to_bytes();
            let v: Value = serde_json::from_slice(&body).expect("json");
            let n = sent_names(&v, "/tools", "/function/name");
            let args = serde_json::to_string(&nulls).expect("json");
            Ok::<_, Infallible>(json_response(format!(
                r#"{{"choices":[{{"message":{{"tool_calls":[{{"id":"a","type":"function","function":{{"name":"{}","arguments":{args}}}}}]}}}}]}}"#,
                n[0]
            )))
        }
    });
    let svc = ToolSchemaLayer::openai()
        .validate_tool_calls(true)
        .layer(upstream);
    let req = Request::post("/v1/chat/completions")
        .header("content-type", "application/json")
        .body(Full::new(Bytes::from(openai_request(&strict))))
        .expect("request");
    let res = svc.oneshot(req).await.expect("infallible");
    let findings = res
        .extensions()
        .get::<ToolCallFindings>()
        .expect("findings");
    assert_eq!(findings.calls.len(), 1);
    assert_eq!(findings.calls[0].tool, LONG);
    assert_eq!(findings.calls[0].outcome, CallOutcome::Valid);
}
