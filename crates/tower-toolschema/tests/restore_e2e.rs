//! The way back end to end on loopback: an axum upstream that answers every API with tool
//! calls under the names it received (as JSON, and as the SSE stream of OpenAI Chat, OpenAI
//! Responses, Anthropic Messages and Gemini), and clients through the layer (hyper-util) and
//! the reqwest middleware: the client sees the tools' own names.

#[path = "support/loopback.rs"]
mod loopback;

use std::net::SocketAddr;
use std::time::Duration;

use axum::Router;
use axum::body::Body as AxumBody;
use axum::extract::Request as AxumRequest;
use axum::routing::any;
use bytes::Bytes;
use http::{Request, header};
use http_body_util::{BodyExt, Full};
use serde_json::{Value, json};
use tower::{Service, ServiceBuilder, ServiceExt};
use tower_toolschema::ToolSchemaLayer;
use tower_toolschema::restore::RestoreReport;

/// Refused by every provider (a space), and over 128 characters.
const SPACED: &str = "fs read file";
fn long() -> String {
    "mcp__github_enterprise__add_pull_request_review_comment_to_pending_review".repeat(2)
}

/// (path, request body, pointer to the declarations, key of a declaration's name).
fn cases() -> Vec<(&'static str, String, &'static str, &'static str)> {
    let l = long();
    vec![
        ("/v1/chat/completions", json!({"model":"gpt-4o","messages":[],"tools":[{"type":"function","function":{"name":SPACED,"parameters":{"type":"object"}}},{"type":"function","function":{"name":l,"parameters":{"type":"object"}}}]}).to_string(), "/tools", "/function/name"),
        ("/v1/responses", json!({"model":"gpt-4o","input":[],"tools":[{"type":"function","name":SPACED,"parameters":{"type":"object"}},{"type":"function","name":l,"parameters":{"type":"object"}}]}).to_string(), "/tools", "/name"),
        ("/v1/messages", json!({"model":"claude-sonnet-4-5","messages":[],"tools":[{"name":SPACED,"input_schema":{"type":"object"}},{"name":l,"input_schema":{"type":"object"}}]}).to_string(), "/tools", "/name"),
        ("/v1beta/models/gemini-2.5-flash:generateContent", json!({"contents":[],"tools":[{"functionDeclarations":[{"name":SPACED,"parameters":{"type":"OBJECT"}},{"name":l,"parameters":{"type":"OBJECT"}}]}]}).to_string(), "/tools/0/functionDeclarations", "/name"),
        ("/v1internal:generateContent", json!({"model":"gemini-2.5-pro","request":{"contents":[],"tools":[{"functionDeclarations":[{"name":SPACED,"parameters":{"type":"OBJECT"}},{"name":l,"parameters":{"type":"OBJECT"}}]}]}}).to_string(), "/request/tools/0/functionDeclarations", "/name"),
        ("/model/anthropic.claude/converse", json!({"messages":[],"toolConfig":{"tools":[{"toolSpec":{"name":SPACED,"inputSchema":{"json":{"type":"object"}}}},{"toolSpec":{"name":l,"inputSchema":{"json":{"type":"object"}}}}]}}).to_string(), "/toolConfig/tools", "/toolSpec/name"),
    ]
}

/// The streamed requests: (path, request body) of OpenAI Chat, OpenAI Responses, Anthropic
/// Messages (`"stream": true`) and Gemini (`:streamGenerateContent?alt=sse`).
fn stream_cases() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (path, body, _, _) in cases().into_iter().take(4) {
        let mut v: Value = serde_json::from_str(&body).expect("json");
        let path = match path.strip_suffix(":generateContent") {
            Some(model) => format!("{model}:streamGenerateContent?alt=sse"),
            None => {
                v["stream"] = json!(true);
                path.to_owned()
            }
        };
        out.push((path, v.to_string()));
    }
    out
}

/// One SSE event (`kind`: its `event:` line, if any).
fn sse(kind: Option<&str>, data: Value) -> String {
    match kind {
        Some(k) => format!("event: {k}\ndata: {data}\n\n"),
        None => format!("data: {data}\n\n"),
    }
}

/// The stream of `path` with one call per name (each call's arguments in two fragments).
fn stream_answer(path: &str, names: &[String]) -> String {
    let mut out = String::new();
    for (i, n) in names.iter().enumerate() {
        let events = match path {
            "/v1/chat/completions" => vec![
                sse(
                    None,
                    json!({"choices":[{"index":0,"delta":{"tool_calls":[{"index":i,"id":i.to_string(),"function":{"name":n,"arguments":"{"}}]},"finish_reason":null}]}),
                ),
                sse(
                    None,
                    json!({"choices":[{"index":0,"delta":{"tool_calls":[{"index":i,"function":{"arguments":"}"}}]},"finish_reason":null}]}),
                ),
            ],
            "/v1/responses" => vec![
                sse(
                    Some("response.output_item.added"),
                    json!({"type":"response.output_item.added","output_index":i,"item":{"type":"function_call","id":format!("fc_{i}"),"call_id":format!("c_{i}"),"name":n,"arguments":""}}),
                ),
                sse(
                    Some("response.function_call_arguments.delta"),
                    json!({"type":"response.function_call_arguments.delta","output_index":i,"delta":"{"}),
                ),
                sse(
                    Some("response.function_call_arguments.delta"),
                    json!({"type":"response.function_call_arguments.delta","output_index":i,"delta":"}"}),
                ),
                sse(
                    Some("response.function_call_arguments.done"),
                    json!({"type":"response.function_call_arguments.done","output_index":i,"arguments":"{}"}),
                ),
                sse(
                    Some("response.output_item.done"),
                    json!({"type":"response.output_item.done","output_index":i,"item":{"type":"function_call","id":format!("fc_{i}"),"call_id":format!("c_{i}"),"name":n,"arguments":"{}"}}),
                ),
            ],
            "/v1/messages" => vec![
                sse(
                    Some("content_block_start"),
                    json!({"type":"content_block_start","index":i,"content_block":{"type":"tool_use","id":format!("t{i}"),"name":n,"input":{}}}),
                ),
                sse(
                    Some("content_block_delta"),
                    json!({"type":"content_block_delta","index":i,"delta":{"type":"input_json_delta","partial_json":"{"}}),
                ),
                sse(
                    Some("content_block_delta"),
                    json!({"type":"content_block_delta","index":i,"delta":{"type":"input_json_delta","partial_json":"}"}}),
                ),
                sse(
                    Some("content_block_stop"),
                    json!({"type":"content_block_stop","index":i}),
                ),
            ],
            _ => vec![sse(
                None,
                json!({"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":n,"args":{}}}]}}]}),
            )],
        };
        out.extend(events);
    }
    out.push_str(match path {
        "/v1/chat/completions" => "data: [DONE]\n\n",
        "/v1/messages" => "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
        _ => "",
    });
    out
}

/// Answers each API with one call per declared name, under the name it received.
async fn upstream(req: AxumRequest) -> axum::response::Response {
    let streamed = req.uri().path().ends_with(":streamGenerateContent");
    let path = req
        .uri()
        .path()
        .replace(":streamGenerateContent", ":generateContent");
    let body = req
        .into_body()
        .collect()
        .await
        .map(|c| c.to_bytes())
        .unwrap_or_default();
    let v: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let Some((_, _, at, key)) = cases().into_iter().find(|c| c.0 == path) else {
        return axum::response::Response::new(AxumBody::from("{}"));
    };
    let names: Vec<String> = v
        .pointer(at)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|t| t.pointer(key).and_then(Value::as_str).map(str::to_owned))
        .collect();
    let (content_type, answer) = if streamed || v["stream"] == true {
        ("text/event-stream", stream_answer(&path, &names))
    } else {
        ("application/json", json_answer(&path, &names).to_string())
    };
    let mut res = axum::response::Response::new(AxumBody::from(answer));
    res.headers_mut()
        .insert(header::CONTENT_TYPE, content_type.parse().expect("header"));
    // What the upstream was sent, for the test.
    let refused = names.iter().any(|n| n.contains(' ') || n.len() > 128);
    res.headers_mut().insert(
        "x-refused-name",
        refused.to_string().parse().expect("header"),
    );
    res
}

/// The JSON answer of `path` with one call per name.
fn json_answer(path: &str, names: &[String]) -> Value {
    match path {
        "/v1/chat/completions" => {
            json!({"choices":[{"message":{"tool_calls":names.iter().map(|n| json!({"type":"function","function":{"name":n,"arguments":"{}"}})).collect::<Vec<_>>()}}]})
        }
        "/v1/responses" => {
            json!({"output":names.iter().map(|n| json!({"type":"function_call","name":n,"arguments":"{}"})).collect::<Vec<_>>()})
        }
        "/v1/messages" => {
            json!({"content":names.iter().map(|n| json!({"type":"tool_use","id":"t","name":n,"input":{}})).collect::<Vec<_>>()})
        }
        "/v1internal:generateContent" => {
            json!({"response":{"candidates":[{"content":{"parts":names.iter().map(|n| json!({"functionCall":{"name":n,"args":{}}})).collect::<Vec<_>>()}}]}})
        }
        p if p.ends_with(":generateContent") => {
            json!({"candidates":[{"content":{"parts":names.iter().map(|n| json!({"functionCall":{"name":n,"args":{}}})).collect::<Vec<_>>()}}]})
        }
        _ => {
            json!({"output":{"message":{"content":names.iter().map(|n| json!({"toolUse":{"toolUseId":"t","name":n,"input":{}}})).collect::<Vec<_>>()}}})
        }
    }
}

async fn serve() -> SocketAddr {
    loopback::serve(Router::new().fallback(any(upstream))).await
}

fn check(path: &str, text: &str) {
    assert!(
        text.contains(&format!("\"name\":\"{SPACED}\"")),
        "{path}: {text}"
    );
    assert!(
        text.contains(&format!("\"name\":\"{}\"", long())),
        "{path}: {text}"
    );
}

#[tokio::test]
async fn hyper_client_through_the_layer_sees_the_tools_own_names() {
    use hyper_util::client::legacy::Client;
    use hyper_util::rt::TokioExecutor;
    let addr = serve().await;
    let client = Client::builder(TokioExecutor::new()).build_http();
    let svc = ServiceBuilder::new()
        .layer(ToolSchemaLayer::auto())
        .service(client);
    let all = cases()
        .into_iter()
        .map(|(path, body, _, _)| (path.to_owned(), body))
        .chain(stream_cases());
    for (path, body) in all {
        let req = Request::post(format!("http://{addr}{path}"))
            .header(header::CONTENT_TYPE, "application/json")
            .body(Full::new(Bytes::from(body)))
            .expect("request");
        let mut svc = svc.clone();
        let res = tokio::time::timeout(Duration::from_secs(10), async {
            svc.ready().await.expect("ready").call(req).await
        })
        .await
        .expect("in time")
        .expect("loopback call");
        assert_eq!(
            res.headers()["x-refused-name"],
            "false",
            "{path}: the upstream got a refused name"
        );
        assert!(res.extensions().get::<RestoreReport>().is_some(), "{path}");
        let text = res.into_body().collect().await.expect("body").to_bytes();
        check(&path, std::str::from_utf8(&text).expect("utf-8"));
    }
}

#[cfg(feature = "reqwest")]
#[tokio::test]
async fn reqwest_middleware_sees_the_tools_own_names() {
    use reqwest_middleware::ClientBuilder;
    use tower_toolschema::reqwest::ToolSchemaMiddleware;
    let addr = serve().await;
    // reqwest's TLS is built without a crypto provider in this workspace (`rustls-no-provider`,
    // for `toolschema mcp`): the process-wide one is ring, as everywhere here.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = ClientBuilder::new(reqwest::Client::new())
        .with(ToolSchemaMiddleware::new(ToolSchemaLayer::auto()))
        .build();
    let all = cases()
        .into_iter()
        .map(|(path, body, _, _)| (path.to_owned(), body))
        .chain(stream_cases());
    for (path, body) in all {
        let url = format!("http://{addr}{path}");
        let res = tokio::time::timeout(
            Duration::from_secs(10),
            client
                .post(&url)
                .header(header::CONTENT_TYPE, "application/json")
                .body(body)
                .send(),
        )
        .await
        .expect("in time")
        .expect("loopback call");
        assert_eq!(res.url().as_str(), url, "the URL survives the way back");
        assert_eq!(res.headers()["x-refused-name"], "false", "{path}");
        let text = res.text().await.expect("body");
        check(&path, &text);
    }
}
