//! Responses that go on untouched: SSE, gzip, chunks with trailers, a body error, a body over
//! the limit.

use crate::support::*;
use bytes::Bytes;
use http::{HeaderMap, Response};
use http_body::{Body, Frame, SizeHint};
use http_body_util::{BodyExt, Full};
use serde_json::json;
use std::collections::VecDeque;
use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};
use tower_toolschema::ToolSchemaLayer;
use tower_toolschema::validate::{Inspection, NotInspected};

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
    let (res, _) = exchange_chat(chat_request(), response).await;
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
    let (res, _) = exchange_chat(chat_request(), response).await;
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
    let response = json_response_of(chunks);
    let (res, _) = exchange_chat(chat_request(), response).await;
    assert_eq!(findings(&res).problems().count(), 1);
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    assert_eq!(bytes, canned.as_bytes());

    // Trailers survive too.
    let mut trailers = HeaderMap::new();
    trailers.insert("x-checksum", "1".parse().unwrap());
    let body = Full::new(Bytes::from(canned.clone()))
        .with_trailers(std::future::ready(Some(Ok::<_, Infallible>(trailers))));
    let response = json_response_of(body);
    let (res, _) = exchange_chat(chat_request(), response).await;
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
    let (res, _) = exchange_chat(chat_request(), response).await;
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
