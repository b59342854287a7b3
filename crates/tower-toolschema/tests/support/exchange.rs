//! One exchange through a layer to an in-process upstream that records the body it got and
//! answers a fixed response (`text/event-stream` when it starts with `data:`, else JSON):
//! shared by the encodings' and the history's tests (included with `#[path]`).
#![allow(dead_code)]

use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use http::{Request, Response, header};
use http_body_util::{BodyExt, Full};
use tower::{Layer, ServiceExt};
use tower_toolschema::{ToolSchemaBody, ToolSchemaLayer};

/// Sends `request` to `path` through `layer` to an upstream answering `response`: what the
/// upstream got, and what the client gets (bounded: 20 s).
pub async fn exchange(
    layer: ToolSchemaLayer,
    path: &str,
    request: String,
    response: String,
) -> (Bytes, Bytes) {
    let seen: Arc<Mutex<Option<Bytes>>> = Arc::default();
    let upstream = {
        let seen = Arc::clone(&seen);
        tower::service_fn(move |req: Request<ToolSchemaBody<Full<Bytes>>>| {
            let seen = Arc::clone(&seen);
            let response = response.clone();
            async move {
                let body = req.into_body().collect().await.expect("body").to_bytes();
                *seen.lock().expect("lock") = Some(body);
                let content_type = if response.starts_with("data:") {
                    "text/event-stream"
                } else {
                    "application/json"
                };
                Ok::<_, Infallible>(
                    Response::builder()
                        .header(header::CONTENT_TYPE, content_type)
                        .body(Full::new(Bytes::from(response)))
                        .expect("response"),
                )
            }
        })
    };
    let req = Request::post(path)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Full::new(Bytes::from(request)))
        .expect("request");
    let res = tokio::time::timeout(Duration::from_secs(20), layer.layer(upstream).oneshot(req))
        .await
        .expect("in time")
        .expect("infallible");
    let body = res.into_body().collect().await.expect("body").to_bytes();
    let seen = seen.lock().expect("lock").take().expect("upstream called");
    (seen, body)
}
