//! Real stacks: an axum Router with the layer, a hyper-util client over a loopback socket, and
//! reqwest-middleware against a loopback server.

mod common;
#[path = "support/loopback.rs"]
mod loopback;

use axum::Router;
use axum::body::Body as AxumBody;
use axum::extract::Request as AxumRequest;
use axum::routing::any;
use bytes::Bytes;
use common::*;
use http::{Request, StatusCode, header};
use http_body_util::{BodyExt, Full};
use loopback::serve;
use serde_json::Value;
use tower::{Service, ServiceBuilder, ServiceExt};

use tower_toolschema::{SanitizeReport, ToolSchemaLayer};

/// Echoes the body it received; the `x-changes` header carries the report's change count.
async fn echo(req: AxumRequest) -> axum::response::Response {
    let changes = req
        .extensions()
        .get::<SanitizeReport>()
        .map(|r| r.change_count());
    let content_length = req.headers().get(header::CONTENT_LENGTH).cloned();
    let body = req
        .into_body()
        .collect()
        .await
        .map(|c| c.to_bytes())
        .unwrap_or_default();
    let mut res = axum::response::Response::new(AxumBody::from(body));
    if let Some(n) = changes {
        res.headers_mut().insert("x-changes", n.into());
    }
    if let Some(cl) = content_length {
        res.headers_mut().insert("x-seen-content-length", cl);
    }
    res
}

#[tokio::test]
async fn axum_router_with_the_layer() {
    let app = Router::new()
        .fallback(any(echo))
        .layer(ToolSchemaLayer::gemini().sanitizer(Fake));
    let (body, slots) = gemini_body(&corpus_tools()[..8], false);
    let req = Request::post("/v1beta/models/gemini-2.5-flash:generateContent")
        .header(header::CONTENT_TYPE, "application/json")
        .body(AxumBody::from(body.clone()))
        .unwrap();
    let res = app.clone().oneshot(req).await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["x-changes"], slots.to_string().as_str());
    let out = res.into_body().collect().await.unwrap().to_bytes();
    let v: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(
        v["tools"][0]["functionDeclarations"][0]["parameters"]["x-profile"],
        "gemini"
    );
    assert!(std::str::from_utf8(&out).unwrap().contains(GEMINI_HISTORY));

    // The same router with reject mode compiles and answers 400 on garbage.
    let strict = Router::new()
        .fallback(any(echo))
        .layer(ToolSchemaLayer::gemini().reject_invalid());
    let req = Request::post("/v1beta/models/g:generateContent")
        .body(AxumBody::from("{oops"))
        .unwrap();
    assert_eq!(
        strict.oneshot(req).await.unwrap().status(),
        StatusCode::BAD_REQUEST
    );
}

#[tokio::test]
async fn hyper_util_client_over_loopback() {
    use hyper_util::client::legacy::Client;
    use hyper_util::rt::TokioExecutor;

    let addr = serve(Router::new().fallback(any(echo))).await;
    let client = Client::builder(TokioExecutor::new()).build_http();
    let mut svc = ServiceBuilder::new()
        .layer(ToolSchemaLayer::gemini().sanitizer(Fake))
        .service(client);
    let (body, slots) = gemini_body(&corpus_tools()[..6], true);
    let req = Request::post(format!(
        "http://{addr}/v1beta/models/gemini-2.5-flash:streamGenerateContent"
    ))
    .header(header::CONTENT_TYPE, "application/json")
    .header(header::CONTENT_LENGTH, body.len())
    .body(Full::new(Bytes::from(body.clone())))
    .unwrap();
    let res = svc
        .ready()
        .await
        .unwrap()
        .call(req)
        .await
        .expect("loopback call");
    assert_eq!(res.status(), StatusCode::OK);
    let seen_cl: usize = res.headers()["x-seen-content-length"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    let out = res.into_body().collect().await.unwrap().to_bytes();
    assert_eq!(seen_cl, out.len(), "the server saw a fresh Content-Length");
    let v: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(
        v["tools"][0]["function_declarations"][0]["parameters"]["x-profile"],
        "gemini"
    );
    assert_eq!(
        v["tools"][2]["function_declarations"][0]["parameters_json_schema"]["x-profile"],
        "gemini-jsonschema"
    );
    let _ = slots;
}

#[cfg(feature = "reqwest")]
#[tokio::test]
async fn reqwest_middleware_against_loopback() {
    use reqwest_middleware::ClientBuilder;
    use tower_toolschema::reqwest::ToolSchemaMiddleware;

    let addr = serve(Router::new().fallback(any(echo))).await;
    // reqwest's TLS is built without a crypto provider in this workspace (`rustls-no-provider`,
    // for `toolschema mcp`): the process-wide one is ring, as everywhere here.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = ClientBuilder::new(reqwest::Client::new())
        .with(ToolSchemaMiddleware::new(
            ToolSchemaLayer::auto().sanitizer(Fake),
        ))
        .build();
    let (body, _) = body_for(
        tower_toolschema::shapes::Api::OpenAiChat,
        &corpus_tools()[..5],
    );
    // A stale explicit Content-Length is fixed.
    let res = client
        .post(format!("http://{addr}/v1/chat/completions"))
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::CONTENT_LENGTH, body.len())
        .body(body.clone())
        .send()
        .await
        .expect("loopback call");
    assert_eq!(res.status(), StatusCode::OK);
    let out = res.bytes().await.unwrap();
    let v: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(
        v["tools"][0]["function"]["parameters"]["x-profile"],
        "openai"
    );
    assert_eq!(
        v["response_format"]["json_schema"]["schema"]["x-profile"],
        "openai-strict"
    );
    assert!(std::str::from_utf8(&out).unwrap().contains(HISTORY));
    // Not a known API: untouched.
    let res = client
        .post(format!("http://{addr}/v1/embeddings"))
        .header(header::CONTENT_TYPE, "application/json")
        .body(body.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(res.bytes().await.unwrap(), body.as_bytes());
}
