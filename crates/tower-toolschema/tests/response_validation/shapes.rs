//! Each API shape: a valid and an invalid call, the findings, the response bytes untouched.

use crate::support::*;
use bytes::Bytes;
use tower_toolschema::ToolSchemaLayer;
use tower_toolschema::validate::{CallOutcome, Inspection};

/// One shape: a valid and an invalid call; the findings, the untouched bytes (same pointer).
async fn valid_and_invalid(
    layer: ToolSchemaLayer,
    path: &str,
    request: String,
    response: String,
    pointers: [&str; 2],
) -> Bytes {
    let canned = Bytes::from(response);
    let (res, seen) = exchange(
        layer.validate_tool_calls(true),
        path,
        request,
        json_response(canned.clone()),
    )
    .await;
    let f = findings(&res).clone();
    assert_eq!(f.inspection, Inspection::Inspected);
    assert_eq!(f.calls.len(), 2, "{f:#?}");
    assert_eq!(f.calls[0].tool, "resolve-library-id");
    assert_eq!(f.calls[0].pointer, pointers[0]);
    assert_eq!(f.calls[0].outcome, CallOutcome::Valid);
    assert_eq!(f.calls[1].pointer, pointers[1]);
    let CallOutcome::Invalid(err) = &f.calls[1].outcome else {
        panic!("{:?}", f.calls[1].outcome)
    };
    let msg = err.to_string();
    assert!(msg.contains(FIX), "{msg}");
    assert!(
        msg.ends_with(r#"Expected {"query":"<string>","libraryName":"<string>"}"#),
        "{msg}"
    );
    assert_eq!(f.problems().count(), 1);
    // The very same bytes go on.
    let (data, err) = frames(res.into_body()).await;
    assert!(err.is_none());
    assert_eq!(data.len(), 1);
    assert_eq!(data[0], canned);
    assert_eq!(data[0].as_ptr(), canned.as_ptr());
    seen.expect("the upstream was called")
}

#[tokio::test]
async fn openai_chat_calls() {
    valid_and_invalid(
        ToolSchemaLayer::openai(),
        "/v1/chat/completions",
        chat_request(),
        chat_response(&[
            ("resolve-library-id", VALID_ARGS),
            ("resolve-library-id", INVALID_ARGS),
        ]),
        [
            "/choices/0/message/tool_calls/0",
            "/choices/0/message/tool_calls/1",
        ],
    )
    .await;
}

#[tokio::test]
async fn openai_responses_calls() {
    valid_and_invalid(
        ToolSchemaLayer::auto(),
        "/v1/responses",
        responses_request(),
        responses_response(&[
            ("resolve-library-id", VALID_ARGS),
            ("resolve-library-id", INVALID_ARGS),
        ]),
        ["/output/1", "/output/2"],
    )
    .await;
}

#[tokio::test]
async fn anthropic_calls() {
    valid_and_invalid(
        ToolSchemaLayer::anthropic(),
        "/v1/messages",
        anthropic_request(),
        anthropic_response(&[
            ("resolve-library-id", VALID_ARGS),
            ("resolve-library-id", INVALID_ARGS),
        ]),
        ["/content/1", "/content/2"],
    )
    .await;
}

#[tokio::test]
async fn gemini_calls() {
    valid_and_invalid(
        ToolSchemaLayer::gemini(),
        "/v1beta/models/gemini-2.5-flash:generateContent",
        gemini_request(),
        gemini_response(&[
            ("resolve-library-id", VALID_ARGS),
            ("resolve-library-id", INVALID_ARGS),
        ]),
        [
            "/candidates/0/content/parts/0/functionCall",
            "/candidates/0/content/parts/1/functionCall",
        ],
    )
    .await;
}
