//! What the findings say: checked against the original schema, unknown tools named with the
//! closest, tools without a schema, and nothing when off or when the request was not inspected.

use crate::support::*;
use bytes::Bytes;
use http::Response;
use http_body_util::Full;
use serde_json::{Value, json};
use tower_toolschema::ToolSchemaLayer;
use tower_toolschema::validate::{CallOutcome, Inspection, NotInspected, ToolCallFindings};

#[tokio::test]
async fn calls_are_checked_against_the_original_schema_not_the_sanitized_one() {
    // Gemini's Schema proto has no `additionalProperties`: the upstream never sees it, yet an
    // unknown field is caught, with the field meant; so is `maximum` in the original.
    let canned = Bytes::from(gemini_response(&[
        ("get_recent_tool_calls", r#"{"toolname":"x"}"#),
        ("get_recent_tool_calls", r#"{"maxResults":5000}"#),
    ]));
    let (res, seen) = exchange(
        ToolSchemaLayer::gemini().validate_tool_calls(true),
        "/v1beta/models/gemini-2.5-flash:generateContent",
        gemini_request(),
        json_response(canned),
    )
    .await;
    let sent: Value = serde_json::from_slice(&seen.unwrap()).unwrap();
    let params = &sent["tools"][0]["functionDeclarations"][1]["parameters"];
    assert!(params.get("additionalProperties").is_none(), "{params}");
    let f = findings(&res);
    let msgs: Vec<String> = f.calls.iter().map(|c| c.outcome.to_string()).collect();
    assert!(
        msgs[0].contains("\"toolname\"") && msgs[0].contains("toolName"),
        "{msgs:?}"
    );
    assert!(msgs[1].contains("1000"), "{msgs:?}");
}

#[tokio::test]
async fn an_unknown_tool_is_named_with_the_closest_tools() {
    let canned = Bytes::from(chat_response(&[("resolve_library_id", VALID_ARGS)]));
    let (res, _) = exchange_chat(chat_request(), json_response(canned)).await;
    let f = findings(&res);
    assert_eq!(f.calls.len(), 1);
    assert_eq!(f.calls[0].tool, "resolve_library_id");
    let CallOutcome::UnknownTool { name, available } = &f.calls[0].outcome else {
        panic!("{:?}", f.calls[0].outcome)
    };
    assert_eq!(name, "resolve_library_id");
    assert_eq!(available[0], "resolve-library-id");
    assert_eq!(
        f.calls[0].outcome.to_string(),
        r#"Tool not found: "resolve_library_id". Tools in this request: resolve-library-id, get_recent_tool_calls, company_research_exa"#
    );
}

#[tokio::test]
async fn a_tool_declared_without_a_schema_is_known() {
    // An Anthropic server tool (no input_schema) and an OpenAI function with no parameters.
    let canned = Bytes::from(anthropic_response(&[("web_search", r#"{"query":"x"}"#)]));
    let (res, _) = exchange(
        ToolSchemaLayer::anthropic().validate_tool_calls(true),
        "/v1/messages",
        anthropic_request(),
        json_response(canned),
    )
    .await;
    assert_eq!(findings(&res).calls[0].outcome, CallOutcome::Valid);

    let request = json!({"model":"gpt-4o","messages":[],"tools":[{"type":"function","function":{"name":"now"}}]}).to_string();
    let canned = Bytes::from(chat_response(&[("now", "")]));
    let (res, _) = exchange_chat(request, json_response(canned)).await;
    assert_eq!(findings(&res).calls[0].outcome, CallOutcome::Valid);
}

#[tokio::test]
async fn when_off_or_the_request_was_not_inspected() {
    let canned = Bytes::from(chat_response(&[("resolve-library-id", INVALID_ARGS)]));
    // Off: no findings, the same bytes.
    let (res, _) = exchange(
        ToolSchemaLayer::openai().validate_tool_calls(false),
        "/v1/chat/completions",
        chat_request(),
        json_response(canned.clone()),
    )
    .await;
    assert!(res.extensions().get::<ToolCallFindings>().is_none());
    let (data, _) = frames(res.into_body()).await;
    assert_eq!(data[0].as_ptr(), canned.as_ptr());

    // A path `auto` does not know: the request was not inspected, so neither is the response.
    let (res, _) = exchange(
        ToolSchemaLayer::auto().validate_tool_calls(true),
        "/v1/unknown",
        chat_request(),
        json_response(canned.clone()),
    )
    .await;
    assert_eq!(
        findings(&res).inspection,
        Inspection::NotInspected(NotInspected::RequestNotInspected)
    );

    // A request body that is not JSON: skipped, and said so.
    let (res, _) = exchange_chat("{not json".to_owned(), json_response(canned.clone())).await;
    assert!(matches!(
        findings(&res).inspection,
        Inspection::NotInspected(NotInspected::RequestSkipped(_))
    ));

    // No tools in the request.
    let (res, _) = exchange_chat(
        json!({"model":"gpt-4o","messages":[]}).to_string(),
        json_response(canned.clone()),
    )
    .await;
    assert_eq!(
        findings(&res).inspection,
        Inspection::NotInspected(NotInspected::NoTools)
    );

    // A response that is not JSON, and one that is invalid JSON.
    let text = Response::builder()
        .header("content-type", "text/plain")
        .body(Full::new(Bytes::from_static(b"oops")))
        .unwrap();
    let (res, _) = exchange_chat(chat_request(), text).await;
    assert_eq!(
        findings(&res).inspection,
        Inspection::NotInspected(NotInspected::NotJson("text/plain".into()))
    );
    let (res, _) = exchange_chat(
        chat_request(),
        json_response(Bytes::from_static(b"{\"choices\":")),
    )
    .await;
    assert!(matches!(
        findings(&res).inspection,
        Inspection::NotInspected(NotInspected::InvalidJson(_))
    ));
}
