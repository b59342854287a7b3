//! axum end to end over a loopback socket.

use crate::support::*;
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use serde_json::Value;
use std::time::Duration;
use tower_toolschema::ToolSchemaLayer;
use tower_toolschema::validate::ToolCallFindings;

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
