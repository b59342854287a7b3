//! The response validator (feature `validate`) sees the restored call.

use crate::support::*;
use bytes::Bytes;
use http::Request;
use http_body_util::{BodyExt, Full};
use serde_json::Value;
use std::convert::Infallible;
use tower::{Layer, ServiceExt};
use tower_toolschema::{ToolSchemaBody, ToolSchemaLayer};

/// The response validator sees the restored call: the tool's own name, no strict null, so the
/// arguments validate against the original schema.
#[cfg(feature = "validate")]
#[tokio::test]
async fn the_response_validator_validates_the_restored_arguments() {
    use tower_toolschema::validate::{CallOutcome, ToolCallFindings};
    let strict = strict_tool();
    let nulls = all_null(&strict.2);
    let upstream = tower::service_fn(move |req: Request<ToolSchemaBody<Full<Bytes>>>| {
        let nulls = nulls.clone();
        async move {
            let body = req.into_body().collect().await.expect("body").to_bytes();
            let v: Value = serde_json::from_slice(&body).expect("json");
            let n = sent_names(&v, "/tools", "/function/name");
            let args = serde_json::to_string(&nulls).expect("json");
            Ok::<_, Infallible>(json_response(format!(
                r#"{{"choices":[{{"message":{{"tool_calls":[{{"id":"a","type":"function","function":{{"name":"{}","arguments":{args}}}}}]}}}}]}}"#,
                n[0]
            )))
        }
    });
    let svc = ToolSchemaLayer::openai()
        .validate_tool_calls(true)
        .layer(upstream);
    let req = Request::post("/v1/chat/completions")
        .header("content-type", "application/json")
        .body(Full::new(Bytes::from(openai_request(&strict))))
        .expect("request");
    let res = svc.oneshot(req).await.expect("infallible");
    let findings = res
        .extensions()
        .get::<ToolCallFindings>()
        .expect("findings");
    assert_eq!(findings.calls.len(), 1);
    assert_eq!(findings.calls[0].tool, LONG);
    assert_eq!(findings.calls[0].outcome, CallOutcome::Valid);
}
