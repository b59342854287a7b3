//! A loopback upstream for `scripts/load_serve.sh`: answers every request `200 {"ok":true}`,
//! and checks what `toolschema serve` forwarded: the body is JSON, and when the client sent
//! `x-expect-conversation: <len>:<fnv1a-64 hex>`, the body's top-level `messages` / `contents`
//! / `input` / `request` bytes are exactly the ones the client sent. `GET /__stats` gives the
//! counts.
//!
//! ```text
//! cargo run --release --example load_upstream -- 127.0.0.1:0    # prints "upstream on http://ADDR"
//! ```

use std::convert::Infallible;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use bytes::Bytes;
use http::{Request, Response};
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto;
use serde_json::value::RawValue;

#[derive(Default)]
struct Stats {
    requests: AtomicU64,
    body_errors: AtomicU64,
    invalid_json: AtomicU64,
    conversations_checked: AtomicU64,
    conversation_mismatches: AtomicU64,
}

impl Stats {
    fn json(&self) -> String {
        let g = |a: &AtomicU64| a.load(Ordering::Relaxed);
        format!(
            r#"{{"requests":{},"body_errors":{},"invalid_json":{},"conversations_checked":{},"conversation_mismatches":{}}}"#,
            g(&self.requests),
            g(&self.body_errors),
            g(&self.invalid_json),
            g(&self.conversations_checked),
            g(&self.conversation_mismatches)
        )
    }
}

/// FNV-1a, 64 bits: what the load bodies announce their conversation with.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The raw bytes of the body's top-level conversation, without building it.
fn conversation(body: &[u8]) -> Result<Option<&[u8]>, serde_json::Error> {
    let top: std::collections::HashMap<&str, &RawValue> = serde_json::from_slice(body)?;
    Ok(["messages", "contents", "input", "request"]
        .iter()
        .find_map(|k| top.get(k))
        .map(|raw| raw.get().as_bytes()))
}

async fn answer(
    stats: Arc<Stats>,
    req: Request<Incoming>,
) -> Result<Response<Full<Bytes>>, Infallible> {
    if req.uri().path() == "/__stats" {
        return Ok(Response::new(Full::new(Bytes::from(stats.json()))));
    }
    stats.requests.fetch_add(1, Ordering::Relaxed);
    let (parts, body) = req.into_parts();
    let Ok(body) = body.collect().await.map(|c| c.to_bytes()) else {
        stats.body_errors.fetch_add(1, Ordering::Relaxed);
        return Ok(Response::new(Full::new(Bytes::from_static(b"{}"))));
    };
    match conversation(&body) {
        Err(_) => {
            stats.invalid_json.fetch_add(1, Ordering::Relaxed);
        }
        Ok(conv) => {
            if let Some(expect) = parts
                .headers
                .get("x-expect-conversation")
                .and_then(|v| v.to_str().ok())
            {
                stats.conversations_checked.fetch_add(1, Ordering::Relaxed);
                let got = conv.map(|c| format!("{}:{:016x}", c.len(), fnv1a(c)));
                if got.as_deref() != Some(expect) {
                    stats
                        .conversation_mismatches
                        .fetch_add(1, Ordering::Relaxed);
                }
            }
        }
    }
    let mut res = Response::new(Full::new(Bytes::from_static(br#"{"ok":true}"#)));
    res.headers_mut().insert(
        "content-type",
        http::HeaderValue::from_static("application/json"),
    );
    Ok(res)
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let addr = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:0".to_owned());
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    println!("upstream on http://{}", listener.local_addr()?);
    let stats = Arc::new(Stats::default());
    loop {
        let (stream, _) = listener.accept().await?;
        let _ = stream.set_nodelay(true);
        let stats = Arc::clone(&stats);
        tokio::spawn(async move {
            let svc = hyper::service::service_fn(move |req| answer(Arc::clone(&stats), req));
            let _ = auto::Builder::new(TokioExecutor::new())
                .serve_connection(TokioIo::new(stream), svc)
                .await;
        });
    }
}
