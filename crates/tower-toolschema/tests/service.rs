//! The tower service: pass-through, rewrite, Content-Length, chunked, limits, errors, gzip,
//! trailers, and each fail-open and reject case.

mod common;

use std::convert::Infallible;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use bytes::Bytes;
use common::*;
use http::{HeaderMap, Method, Request, Response, StatusCode, header};
use http_body::Body;
use http_body_util::{BodyExt, Full};
use serde_json::Value;
use tower::{ServiceBuilder, ServiceExt};
use tower_toolschema::report::{Outcome, SkipReason};
use tower_toolschema::{SanitizeReport, ToolSchemaBody, ToolSchemaLayer};

/// What the inner service saw.
#[derive(Debug)]
struct Seen {
    body: Result<Bytes, String>,
    headers: HeaderMap,
    trailers: Option<HeaderMap>,
    report: Option<SanitizeReport>,
}

type Res = Response<Full<Bytes>>;

/// An echo inner service: records what it received in the response's extensions.
fn echo<B>(
    calls: Arc<AtomicUsize>,
) -> impl tower::Service<Request<ToolSchemaBody<B>>, Response = Res, Error = Infallible, Future: Send>
+ Clone
where
    B: Body<Data = Bytes> + Send + 'static,
    B::Error: Into<tower_toolschema::BoxError>,
{
    tower::service_fn(move |req: Request<ToolSchemaBody<B>>| {
        calls.fetch_add(1, Ordering::SeqCst);
        async move {
            let (parts, body) = req.into_parts();
            let (body, trailers) = match body.collect().await {
                Ok(c) => {
                    let t = c.trailers().cloned();
                    (Ok(c.to_bytes()), t)
                }
                Err(e) => (Err(e.to_string()), None),
            };
            let mut res = Response::new(Full::new(Bytes::new()));
            res.extensions_mut().insert(Arc::new(Seen {
                body,
                headers: parts.headers,
                trailers,
                report: parts.extensions.get::<SanitizeReport>().cloned(),
            }));
            Ok::<_, Infallible>(res)
        }
    })
}

fn seen<B>(res: &Response<B>) -> Arc<Seen> {
    res.extensions()
        .get::<Arc<Seen>>()
        .cloned()
        .expect("inner service was called")
}

fn post(path: &str, body: impl Into<Bytes>) -> Request<Full<Bytes>> {
    let body = body.into();
    Request::builder()
        .method(Method::POST)
        .uri(path)
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::CONTENT_LENGTH, body.len())
        .body(Full::new(body))
        .expect("request")
}

fn anthropic_request_body() -> String {
    anthropic_body(&corpus_tools()[..5])
}

async fn call<B>(
    layer: ToolSchemaLayer,
    req: Request<B>,
) -> Response<tower_toolschema::restore::RestoreBody<Full<Bytes>>>
where
    B: Body<Data = Bytes> + Send + 'static,
    B::Error: Into<tower_toolschema::BoxError>,
{
    let svc = ServiceBuilder::new()
        .layer(layer.sanitizer(Fake))
        .service(echo::<B>(Arc::default()));
    svc.oneshot(req).await.expect("infallible")
}

#[tokio::test]
async fn rewrite_sets_content_length() {
    let body = anthropic_request_body();
    let res = call(ToolSchemaLayer::auto(), post("/v1/messages", body.clone())).await;
    let seen = seen(&res);
    let out = seen.body.as_ref().expect("body");
    assert_ne!(&out[..], body.as_bytes());
    assert_eq!(
        seen.headers[header::CONTENT_LENGTH],
        out.len().to_string().as_str()
    );
    let report = seen.report.as_ref().expect("report");
    assert_eq!(
        report.outcome,
        Outcome::Rewritten {
            before: body.len(),
            after: out.len()
        }
    );
    let v: Value = serde_json::from_slice(out).unwrap();
    assert_eq!(v["tools"][0]["input_schema"]["x-profile"], "anthropic");
}

#[tokio::test]
async fn unchanged_json_forwards_the_same_bytes() {
    let body = Bytes::from_static(br#"{"messages":[{"role":"user","content":"hi"}],"tools":[{"name":"f","input_schema":{"x-profile":"anthropic"}}]}"#);
    let res = call(ToolSchemaLayer::auto(), post("/v1/messages", body.clone())).await;
    let seen = seen(&res);
    assert_eq!(seen.body.as_ref().unwrap().as_ptr(), body.as_ptr());
    assert_eq!(seen.report.as_ref().unwrap().outcome, Outcome::Unchanged);
}

#[tokio::test]
async fn requests_that_cannot_carry_tools_pass_through_zero_copy() {
    let body = Bytes::from(anthropic_request_body());
    // Not JSON.
    let mut req = post("/v1/messages", body.clone());
    req.headers_mut()
        .insert(header::CONTENT_TYPE, "text/plain".parse().unwrap());
    // Not POST.
    let mut get = post("/v1/messages", body.clone());
    *get.method_mut() = Method::GET;
    // Unknown path under auto.
    let unknown = post("/v1/embeddings", body.clone());
    for req in [req, get, unknown] {
        let res = call(ToolSchemaLayer::auto(), req).await;
        let seen = seen(&res);
        assert_eq!(seen.body.as_ref().unwrap().as_ptr(), body.as_ptr());
        assert!(seen.report.is_none());
    }
    // Unknown path under a fixed profile: recognised by its shape.
    let res = call(
        ToolSchemaLayer::anthropic(),
        post("/my/gateway", body.clone()),
    )
    .await;
    assert!(seen(&res).report.as_ref().unwrap().is_rewritten());
    // A predicate can opt out.
    let layer = ToolSchemaLayer::auto().inspect_when(|_, _, h| !h.contains_key("x-skip"));
    let mut req = post("/v1/messages", body.clone());
    req.headers_mut().insert("x-skip", "1".parse().unwrap());
    let res = call(layer, req).await;
    assert_eq!(seen(&res).body.as_ref().unwrap().as_ptr(), body.as_ptr());
}

#[tokio::test]
async fn chunked_body_is_rewritten_and_transfer_encoding_dropped() {
    let body = anthropic_request_body();
    let (a, b) = body.as_bytes().split_at(body.len() / 3);
    let (b, c) = b.split_at(7);
    let req = Request::builder()
        .method(Method::POST)
        .uri("http://api.anthropic.com/v1/messages")
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::TRANSFER_ENCODING, "chunked")
        .body(Frames::data(&[a, b, c]))
        .unwrap();
    let res = call(ToolSchemaLayer::auto(), req).await;
    let seen = seen(&res);
    let out = seen.body.as_ref().unwrap();
    assert!(seen.headers.get(header::TRANSFER_ENCODING).is_none());
    assert_eq!(
        seen.headers[header::CONTENT_LENGTH],
        out.len().to_string().as_str()
    );
    assert!(seen.report.as_ref().unwrap().is_rewritten());
}

#[tokio::test]
async fn chunked_unchanged_body_goes_on_whole() {
    let body = br#"{"tools":[{"name":"f","input_schema":{"x-profile":"anthropic"}}]}"#;
    let req = Request::post("/v1/messages")
        .body(Frames::data(&[&body[..10], &body[10..]]))
        .unwrap();
    let res = call(ToolSchemaLayer::auto(), req).await;
    assert_eq!(&seen(&res).body.as_ref().unwrap()[..], &body[..]);
}

#[tokio::test]
async fn over_the_limit_is_replayed_whole() {
    let body = anthropic_request_body();
    // Declared too large: never read.
    let res = call(
        ToolSchemaLayer::auto().limit(100),
        post("/v1/messages", body.clone()),
    )
    .await;
    let seen1 = seen(&res);
    assert_eq!(&seen1.body.as_ref().unwrap()[..], body.as_bytes());
    assert_eq!(
        seen1.report.as_ref().unwrap().outcome,
        Outcome::Skipped(SkipReason::TooLarge { limit: 100 })
    );
    // Streamed, no length: read up to the limit, then prefix + rest replayed.
    let chunks: Vec<&[u8]> = body.as_bytes().chunks(37).collect();
    let req = Request::post("/v1/messages")
        .body(Frames::data(&chunks))
        .unwrap();
    let res = call(ToolSchemaLayer::auto().limit(100), req).await;
    let seen2 = seen(&res);
    assert_eq!(&seen2.body.as_ref().unwrap()[..], body.as_bytes());
    assert!(matches!(
        seen2.report.as_ref().unwrap().outcome,
        Outcome::Skipped(SkipReason::TooLarge { .. })
    ));
}

#[tokio::test]
async fn body_stream_error_reaches_the_inner_service() {
    let req = Request::post("/v1/messages")
        .body(Frames::data(&[b"{\"tools\":", b"["]).with_error())
        .unwrap();
    let res = call(ToolSchemaLayer::auto(), req).await;
    let seen = seen(&res);
    assert_eq!(seen.body.as_ref().unwrap_err(), "connection reset");
    assert!(matches!(
        seen.report.as_ref().unwrap().outcome,
        Outcome::Skipped(SkipReason::BodyError(_))
    ));
}

#[tokio::test]
async fn invalid_truncated_or_duplicate_json_goes_on_untouched() {
    for body in [
        &b"{\"tools\":[{\"name\":\"f\",\"input_schema\":{}}"[..],
        b"not json",
        br#"{"tools":[],"tools":[{"input_schema":{}}]}"#,
    ] {
        let input = Bytes::from_static(body);
        let res = call(ToolSchemaLayer::auto(), post("/v1/messages", input.clone())).await;
        let seen = seen(&res);
        assert_eq!(seen.body.as_ref().unwrap().as_ptr(), input.as_ptr());
        assert!(matches!(
            seen.report.as_ref().unwrap().outcome,
            Outcome::Skipped(SkipReason::InvalidJson(_) | SkipReason::DuplicateKey(_))
        ));
    }
}

fn gzip(data: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(data).unwrap();
    enc.finish().unwrap()
}

#[tokio::test]
async fn gzip_passes_untouched() {
    let compressed = Bytes::from(gzip(anthropic_request_body().as_bytes()));
    let mut req = post("/v1/messages", compressed.clone());
    req.headers_mut()
        .insert(header::CONTENT_ENCODING, "gzip".parse().unwrap());
    let res = call(ToolSchemaLayer::auto(), req).await;
    let seen = seen(&res);
    assert_eq!(seen.body.as_ref().unwrap().as_ptr(), compressed.as_ptr());
    assert_eq!(seen.headers[header::CONTENT_ENCODING], "gzip");
    assert_eq!(
        seen.report.as_ref().unwrap().outcome,
        Outcome::Skipped(SkipReason::Compressed("gzip".into()))
    );
}

#[tokio::test]
async fn gzip_is_rewritten_behind_request_decompression() {
    let plain = anthropic_request_body();
    let mut req = post("/v1/messages", gzip(plain.as_bytes()));
    req.headers_mut()
        .insert(header::CONTENT_ENCODING, "gzip".parse().unwrap());
    let svc = ServiceBuilder::new()
        .layer(tower_http::decompression::RequestDecompressionLayer::new())
        .layer(ToolSchemaLayer::auto().sanitizer(Fake))
        .service(echo(Arc::default()));
    let res = svc.oneshot(req).await.unwrap();
    let seen = seen(&res);
    let out = seen.body.as_ref().unwrap();
    assert!(seen.report.as_ref().unwrap().is_rewritten());
    assert_eq!(
        seen.headers[header::CONTENT_LENGTH],
        out.len().to_string().as_str()
    );
    assert!(seen.headers.get(header::CONTENT_ENCODING).is_none());
}

#[tokio::test]
async fn trailers_survive() {
    let body = anthropic_request_body();
    let req = Request::post("/v1/messages")
        .body(Frames::data(&[body.as_bytes()]).with_trailers())
        .unwrap();
    let res = call(ToolSchemaLayer::auto(), req).await;
    let seen = seen(&res);
    assert_eq!(&seen.body.as_ref().unwrap()[..], body.as_bytes());
    assert_eq!(seen.trailers.as_ref().unwrap()["x-checksum"], "abc");
    assert_eq!(
        seen.report.as_ref().unwrap().outcome,
        Outcome::Skipped(SkipReason::Trailers)
    );
}

#[tokio::test]
async fn deep_nesting_passes_through() {
    let mut body = String::from(r#"{"messages":"#);
    body.push_str(&"[".repeat(1_000_000));
    body.push_str(&"]".repeat(1_000_000));
    body.push_str(r#","tools":[{"name":"f","input_schema":{"type":"object"}}]}"#);
    let res = call(ToolSchemaLayer::auto(), post("/v1/messages", body.clone())).await;
    let seen = seen(&res);
    let out = seen.body.as_ref().unwrap();
    assert!(out.starts_with(&body.as_bytes()[..2_000_000]));
}

async fn reject_status<B>(req: Request<B>, limit: usize) -> (StatusCode, Value, usize)
where
    B: Body<Data = Bytes> + Send + 'static,
    B::Error: Into<tower_toolschema::BoxError>,
{
    let calls = Arc::new(AtomicUsize::new(0));
    let svc = ServiceBuilder::new()
        .layer(
            ToolSchemaLayer::auto()
                .limit(limit)
                .sanitizer(Fake)
                .reject_invalid(),
        )
        .service(echo::<B>(Arc::clone(&calls)));
    let res = svc.oneshot(req).await.unwrap();
    let status = res.status();
    let body = res.into_body().collect().await.unwrap().to_bytes();
    let v = if body.is_empty() {
        Value::Null
    } else {
        serde_json::from_slice(&body).unwrap()
    };
    (status, v, calls.load(Ordering::SeqCst))
}

#[tokio::test]
async fn reject_mode_answers_with_clear_4xx() {
    let body = anthropic_request_body();
    let (s, v, calls) = reject_status(post("/v1/messages", body.clone()), 100).await;
    assert_eq!((s, calls), (StatusCode::PAYLOAD_TOO_LARGE, 0));
    assert_eq!(v["error"]["type"], "body_too_large");
    let req = Request::post("/v1/messages")
        .body(Frames::data(
            &body.as_bytes().chunks(50).collect::<Vec<_>>(),
        ))
        .unwrap();
    assert_eq!(
        reject_status(req, 100).await.0,
        StatusCode::PAYLOAD_TOO_LARGE
    );
    let mut gz = post("/v1/messages", gzip(body.as_bytes()));
    gz.headers_mut()
        .insert(header::CONTENT_ENCODING, "gzip".parse().unwrap());
    let (s, v, _) = reject_status(gz, 1 << 20).await;
    assert_eq!(s, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert_eq!(v["error"]["type"], "compressed_body");
    let (s, v, _) = reject_status(post("/v1/messages", "{\"tools\":["), 1 << 20).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert_eq!(v["error"]["type"], "invalid_json");
    let (s, v, _) =
        reject_status(post("/v1/messages", r#"{"tools":[],"tools":[]}"#), 1 << 20).await;
    assert_eq!(
        (s, &v["error"]["type"]),
        (StatusCode::BAD_REQUEST, &Value::from("duplicate_key"))
    );
    let req = Request::post("/v1/messages")
        .body(Frames::data(&[b"{"]).with_error())
        .unwrap();
    let (s, v, _) = reject_status(req, 1 << 20).await;
    assert_eq!(
        (s, &v["error"]["type"]),
        (StatusCode::BAD_REQUEST, &Value::from("body_error"))
    );
    // Good requests still go through, rewritten.
    let (s, _, calls) = reject_status(post("/v1/messages", body), 1 << 20).await;
    assert_eq!((s, calls), (StatusCode::OK, 1));
}
