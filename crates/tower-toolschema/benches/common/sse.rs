//! The 2 MB OpenAI Chat stream of the restore benches (`restore`, `restore_floor`): its request,
//! its events, its frames, and the client that reads them.

use std::hint::black_box;
use std::sync::Arc;

use bytes::Bytes;
use http_body::Body;
use http_body_util::BodyExt;
use tower_toolschema::restore::{RestorePlan, RestoreResponse};

use super::Chunked;

/// Tool calls in the stream (and tools in the request).
pub const CALLS: usize = 50;
/// The stream's size, about.
pub const SIZE: usize = 2 << 20;

/// The request: 50 tools, renamed and strict (`all`) or not (`nothing`).
pub fn request_body(all: bool) -> Bytes {
    let tools: Vec<String> = (0..CALLS)
        .map(|i| {
            let name = if all { format!("srv.tool_{i}") } else { format!("srv_tool_{i}") };
            format!(
                r#"{{"type":"function","function":{{"name":"{name}","strict":{all},"parameters":{{"type":"object","properties":{{"q":{{"type":"string"}},"cursor":{{"type":"string"}},"limit":{{"type":"integer"}}}},"required":["q"]}}}}}}"#
            )
        })
        .collect();
    Bytes::from(format!(
        r#"{{"model":"gpt-4o","stream":true,"messages":[],"tools":[{}]}}"#,
        tools.join(",")
    ))
}

/// One chunk event with `delta`.
pub fn chunk(delta: &str) -> String {
    format!(
        "data: {{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"choices\":[{{\"index\":0,\"delta\":{delta},\"finish_reason\":null}}]}}\n\n"
    )
}

/// The stream as the upstream sends it: frames of 16 KiB (slices).
pub fn frames(stream: &Bytes) -> Vec<Bytes> {
    (0..stream.len())
        .step_by(16 << 10)
        .map(|i| stream.slice(i..(i + (16 << 10)).min(stream.len())))
        .collect()
}

/// The response side alone: the upstream's frames through the layer's response body with
/// `plan` (`None`: the bare frames), read and copied out as a client does.
pub fn response_only(
    rt: &tokio::runtime::Runtime,
    stream: &Bytes,
    plan: Option<&Arc<RestorePlan>>,
) -> usize {
    let res = http::Response::builder()
        .header("content-type", "text/event-stream")
        .body(Chunked::new(stream, 16 << 10))
        .expect("response");
    match plan {
        Some(p) => drain(
            rt,
            res.restored(Some(Arc::clone(p)), usize::MAX).into_body(),
        ),
        None => drain(rt, res.into_body()),
    }
}

/// Reads every frame of `body` and copies it out; returns the bytes read.
pub fn drain<B>(rt: &tokio::runtime::Runtime, body: B) -> usize
where
    B: Body<Data = Bytes>,
    B::Error: std::fmt::Debug,
{
    thread_local! {
        static SINK: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    rt.block_on(async {
        let mut body = std::pin::pin!(body);
        SINK.with_borrow_mut(Vec::clear);
        while let Some(f) = body.frame().await {
            if let Ok(d) = f.expect("frame").into_data() {
                SINK.with_borrow_mut(|s| s.extend_from_slice(&d));
            }
        }
        SINK.with_borrow(|s| black_box(s.len()))
    })
}
