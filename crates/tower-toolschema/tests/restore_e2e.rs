//! The way back end to end on loopback: an axum upstream that answers every API with tool
//! calls under the names it received, and clients through the layer (hyper-util) and the
//! reqwest middleware: the client sees the tools' own names.

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

/// Answers each API with one call per declared name, under the name it received.
async fn upstream(req: AxumRequest) -> axum::response::Response {
    let path = req.uri().path().to_owned();
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
    let answer = match path.as_str() {
        "/v1/chat/completions" if v["stream"] == true => {
            let events: String = names
                .iter()
                .enumerate()
                .map(|(i, n)| format!("data: {}\n\n", json!({"choices":[{"index":0,"delta":{"tool_calls":[{"index":i,"id":i.to_string(),"function":{"name":n,"arguments":"{}"}}]},"finish_reason":null}]})))
                .chain(["data: [DONE]\n\n".to_owned()])
                .collect();
            return axum::response::Response::builder()
                .header(header::CONTENT_TYPE, "text/event-stream")
                .body(AxumBody::from(events))
                .unwrap_or_default();
        }
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
    };
    let mut res = axum::response::Response::new(AxumBody::from(answer.to_string()));
    res.headers_mut().insert(
        header::CONTENT_TYPE,
        "application/json".parse().expect("header"),
    );
    // What the upstream was sent, for the test.
    let refused = names.iter().any(|n| n.contains(' ') || n.len() > 128);
    res.headers_mut().insert(
        "x-refused-name",
        refused.to_string().parse().expect("header"),
    );
    res
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
    let mut cases = cases();
    // A stream too.
    let mut chat: Value = serde_json::from_str(&cases[0].1).expect("json");
    chat["stream"] = json!(true);
    cases.push(("/v1/chat/completions", chat.to_string(), "", ""));
    for (path, body, _, _) in cases {
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
        // (The stream's answer carries no such header.)
        if let Some(v) = res.headers().get("x-refused-name") {
            assert_eq!(v, "false", "{path}: the upstream got a refused name");
        }
        assert!(res.extensions().get::<RestoreReport>().is_some(), "{path}");
        let text = res.into_body().collect().await.expect("body").to_bytes();
        check(path, std::str::from_utf8(&text).expect("utf-8"));
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
    for (path, body, _, _) in cases() {
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
        check(path, &text);
    }
}
