//! What goes on untouched: nothing to restore, a compressed answer, renaming turned off.

use crate::support::*;
use bytes::Bytes;
use http::Response;
use http_body_util::{BodyExt, Full};
use serde_json::Value;
use tower_toolschema::ToolSchemaLayer;
use tower_toolschema::restore::{NotRestored, RestoreReport};

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
    let (res, _) = anthropic_exchange(respond).await;
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
