//! Renaming on the request side: the [`SanitizeReport`] lists every renamed tool (original,
//! sent, why), tools declared without a parameters slot are renamed too, and through the
//! layer the upstream sees the sent names while the report rides in the request's extensions.

use std::convert::Infallible;
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use http::{Request, Response};
use http_body_util::{BodyExt, Full};
use serde_json::Value;
use tower::{Layer, ServiceExt};
use tower_toolschema::report::{RenameReason, SanitizeReport};
use tower_toolschema::restore::prepare_request;
use tower_toolschema::shapes::Api;
use tower_toolschema::{ToolSchemaBody, ToolSchemaLayer};

const LONG: &str = "mcp__github_enterprise__add_pull_request_review_comment_to_pending_review";

fn prepare(layer: ToolSchemaLayer, api: Api, body: &str) -> (Value, SanitizeReport) {
    let (out, report, _) = prepare_request(layer.config(), Some(api), Bytes::from(body.to_owned()));
    (serde_json::from_slice(&out).expect("JSON"), report)
}

fn why(report: &SanitizeReport) -> Vec<(&str, &str, Vec<RenameReason>)> {
    report
        .renames
        .iter()
        .map(|r| (r.original.as_str(), r.sent.as_str(), r.why.clone()))
        .collect()
}

#[test]
fn the_report_lists_each_rename_and_why() {
    let body = format!(
        r#"{{"model":"gpt-4o","messages":[],"tools":[
        {{"type":"function","function":{{"name":"{LONG}","parameters":{{"type":"object"}}}}}},
        {{"type":"function","function":{{"name":"fs.read","parameters":{{"type":"object"}}}}}},
        {{"type":"function","function":{{"name":"search","parameters":{{"type":"object"}}}}}},
        {{"type":"function","function":{{"name":"search","parameters":{{"type":"object"}}}}}},
        {{"type":"function","function":{{"name":"{LONG}.x","parameters":{{"type":"object"}}}}}},
        {{"type":"function","function":{{"name":"ok","parameters":{{"type":"object"}}}}}}]}}"#
    );
    let (sent, report) = prepare(ToolSchemaLayer::openai(), Api::OpenAiChat, &body);
    let got = why(&report);
    assert_eq!(got.len(), 4, "{got:?}");
    assert_eq!(got[0].0, LONG);
    assert_eq!(got[0].2, [RenameReason::Length]);
    assert_eq!(
        got[1],
        ("fs.read", "fs_read", vec![RenameReason::Characters])
    );
    assert_eq!(got[2].0, "search");
    assert_eq!(got[2].2, [RenameReason::Collision]);
    assert_ne!(got[2].1, "search");
    let both = format!("{LONG}.x");
    assert_eq!(got[3].0, both);
    assert_eq!(got[3].2, [RenameReason::Length, RenameReason::Characters]);
    // What the report says is what was sent.
    let names: Vec<&str> = sent["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [got[0].1, "fs_read", "search", got[2].1, got[3].1, "ok"]
    );
    assert!(names.iter().all(|n| n.len() <= 64));
}

#[test]
fn nothing_renamed_nothing_reported() {
    let body = r#"{"model":"gpt-4o","messages":[],"tools":[{"type":"function","function":{"name":"a","parameters":{"type":"object"}}}]}"#;
    let (_, report) = prepare(ToolSchemaLayer::openai(), Api::OpenAiChat, body);
    assert!(report.renames.is_empty());
    let off = body.replace("\"a\"", "\"a.b\"");
    let (sent, report) = prepare(
        ToolSchemaLayer::openai().rename_tools(false),
        Api::OpenAiChat,
        &off,
    );
    assert!(report.renames.is_empty());
    assert_eq!(sent["tools"][0]["function"]["name"], "a.b");
}

#[test]
fn a_tool_without_parameters_is_renamed_by_itself() {
    // OpenAI Chat: the only refused name is on a function with no `parameters`.
    let body = r#"{"model":"gpt-4o","messages":[
        {"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"clock.now","arguments":"{}"}}]}],
        "tools":[{"type":"function","function":{"name":"clock.now"}},
                 {"type":"function","function":{"name":"f","parameters":{"type":"object"}}}],
        "tool_choice":{"type":"function","function":{"name":"clock.now"}}}"#;
    let (sent, report) = prepare(ToolSchemaLayer::openai(), Api::OpenAiChat, body);
    assert_eq!(
        why(&report),
        [("clock.now", "clock_now", vec![RenameReason::Characters])]
    );
    assert_eq!(sent["tools"][0]["function"]["name"], "clock_now");
    assert_eq!(
        sent["messages"][0]["tool_calls"][0]["function"]["name"],
        "clock_now"
    );
    assert_eq!(sent["tool_choice"]["function"]["name"], "clock_now");

    // Gemini: a functionDeclaration without parameters, its name a digit first.
    let body = r#"{"contents":[],"tools":[{"functionDeclarations":[{"name":"1password_list"},{"name":"g","parameters":{"type":"object"}}]}],
        "toolConfig":{"functionCallingConfig":{"mode":"ANY","allowedFunctionNames":["1password_list"]}}}"#;
    let (sent, report) = prepare(ToolSchemaLayer::gemini(), Api::Gemini, body);
    assert_eq!(report.renames.len(), 1, "{:?}", report.renames);
    let to = report.renames[0].sent.clone();
    assert_ne!(to, "1password_list");
    assert_eq!(
        sent["tools"][0]["functionDeclarations"][0]["name"],
        to.as_str()
    );
    assert_eq!(
        sent["toolConfig"]["functionCallingConfig"]["allowedFunctionNames"][0],
        to.as_str()
    );

    // Two tools without parameters that share a name: a collision.
    let body = r#"{"model":"gpt-4o","messages":[],"tools":[{"type":"function","function":{"name":"now"}},{"type":"function","function":{"name":"now"}}]}"#;
    let (_, report) = prepare(ToolSchemaLayer::openai(), Api::OpenAiChat, body);
    assert_eq!(report.renames.len(), 1);
    assert_eq!(report.renames[0].why, [RenameReason::Collision]);
}

/// What the upstream saw: the body, and the sent names the report in its extensions lists.
type Seen = (Value, Vec<String>);

/// Through the layer: the request's extensions carry the renames, the upstream gets the sent
/// name, and the response maps the call on a tool without parameters back.
#[tokio::test]
async fn through_the_layer_the_report_has_the_renames_and_the_call_comes_back() {
    let seen: Arc<Mutex<Option<Seen>>> = Arc::default();
    let upstream = {
        let seen = Arc::clone(&seen);
        tower::service_fn(move |req: Request<ToolSchemaBody<Full<Bytes>>>| {
            let seen = Arc::clone(&seen);
            async move {
                let renames = req
                    .extensions()
                    .get::<SanitizeReport>()
                    .map(|r| r.renames.iter().map(|r| r.sent.clone()).collect())
                    .unwrap_or_default();
                let body = req.into_body().collect().await.expect("body").to_bytes();
                let v: Value = serde_json::from_slice(&body).expect("JSON");
                let name = v["tools"][0]["function"]["name"]
                    .as_str()
                    .unwrap_or("")
                    .to_owned();
                *seen.lock().expect("lock") = Some((v, renames));
                let answer = format!(
                    r#"{{"choices":[{{"message":{{"tool_calls":[{{"id":"c","type":"function","function":{{"name":"{name}","arguments":"{{}}"}}}}]}}}}]}}"#
                );
                Ok::<_, Infallible>(
                    Response::builder()
                        .header("content-type", "application/json")
                        .body(Full::new(Bytes::from(answer)))
                        .expect("response"),
                )
            }
        })
    };
    let body = r#"{"model":"gpt-4o","messages":[],"tools":[{"type":"function","function":{"name":"clock.now"}}]}"#;
    let req = Request::post("/v1/chat/completions")
        .header("content-type", "application/json")
        .body(Full::new(Bytes::from_static(body.as_bytes())))
        .expect("request");
    let res = ToolSchemaLayer::openai()
        .layer(upstream)
        .oneshot(req)
        .await
        .expect("infallible");
    let text = res.into_body().collect().await.expect("body").to_bytes();
    let text = String::from_utf8(text.to_vec()).expect("UTF-8");
    let (v, renames) = seen.lock().expect("lock").take().expect("called");
    assert_eq!(v["tools"][0]["function"]["name"], "clock_now");
    assert_eq!(renames, ["clock_now"]);
    assert!(text.contains(r#""name":"clock.now""#), "{text}");
}

#[test]
fn a_rename_alone_is_a_rewrite_and_the_lengths_are_the_bodies() {
    // Nothing in the schema changes; only the name does: the report says the body was rewritten.
    let body = r#"{"model":"gpt-4o","messages":[],"tools":[{"type":"function","function":{"name":"brow;er_run"}}]}"#;
    let (out, report, _) = prepare_request(
        ToolSchemaLayer::openai().config(),
        Some(Api::OpenAiChat),
        Bytes::from(body.to_owned()),
    );
    assert_eq!(report.renames.len(), 1, "{:?}", report.renames);
    assert!(report.is_rewritten(), "{:?}", report.outcome);
    assert_eq!(
        report.outcome,
        tower_toolschema::report::Outcome::Rewritten {
            before: body.len(),
            after: out.len()
        }
    );
    // A schema rewrite and a rename: `before` is still the body the client sent.
    let body = r#"{"model":"gpt-4o","messages":[],"tools":[{"type":"function","function":{"name":"a.b","parameters":{"type":"object","properties":{"x":{"type":"string","format":"email","minLength":1}}}}}]}"#;
    let (out, report, _) = prepare_request(
        ToolSchemaLayer::gemini().config(),
        Some(Api::OpenAiChat),
        Bytes::from(body.to_owned()),
    );
    if let tower_toolschema::report::Outcome::Rewritten { before, after } = report.outcome {
        assert_eq!((before, after), (body.len(), out.len()));
    } else {
        panic!("not rewritten: {:?}", report.outcome);
    }
}
