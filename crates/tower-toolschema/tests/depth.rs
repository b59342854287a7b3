//! A tool schema nested past the parser's depth limit (64 schema levels) going through the
//! layer: the request comes out with the cut in the slot's report (rule `depth`, lossy), the
//! hint in the rewritten schema, and a slot the provider's check accepts (peers.md §3 #54).

use std::convert::Infallible;

use bytes::Bytes;
use http::{Method, Request, Response, header};
use http_body_util::{BodyExt, Full};
use serde_json::Value;
use tower::{ServiceBuilder, ServiceExt};
use tower_toolschema::report::Outcome;
use tower_toolschema::{Profile, SanitizeReport, ToolSchemaBody, ToolSchemaLayer};

const HINT: &str = "Nested deeper than 64 levels; not described.";

/// `levels` objects, each holding the next as property `a`, around a string.
fn nested_objects(levels: usize) -> String {
    format!(
        "{}{}{}",
        r#"{"type":"object","properties":{"a":"#.repeat(levels),
        r#"{"type":"string"}"#,
        "}}".repeat(levels)
    )
}

/// JSON past serde_json's default limit of 128 levels (a 64-level schema in a body is deeper).
fn parse_deep(bytes: &[u8]) -> Value {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    de.disable_recursion_limit();
    serde::Deserialize::deserialize(&mut de).expect("JSON")
}

/// Sends `body` through `layer` to an inner service that hands back what it received: the
/// body and the report the layer put in the request's extensions.
async fn through(layer: ToolSchemaLayer, path: &str, body: String) -> (Bytes, SanitizeReport) {
    let svc = ServiceBuilder::new()
        .layer(layer)
        .service(tower::service_fn(
            |req: Request<ToolSchemaBody<Full<Bytes>>>| async move {
                let (parts, body) = req.into_parts();
                let body = body.collect().await.map(|c| c.to_bytes()).ok();
                let report = parts.extensions.get::<SanitizeReport>().cloned();
                let mut res = Response::new(http_body_util::Empty::<Bytes>::new());
                res.extensions_mut().insert((body, report));
                Ok::<_, Infallible>(res)
            },
        ));
    let req = Request::builder()
        .method(Method::POST)
        .uri(path)
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::CONTENT_LENGTH, body.len())
        .body(Full::new(Bytes::from(body)))
        .expect("request");
    let res = svc.oneshot(req).await.expect("infallible");
    let (body, report) = res
        .extensions()
        .get::<(Option<Bytes>, Option<SanitizeReport>)>()
        .cloned()
        .expect("inner service was called");
    (body.expect("body"), report.expect("report"))
}

#[tokio::test]
async fn a_seventy_level_tool_schema_reports_the_cut() {
    let schema = nested_objects(70);
    let cases = [
        (
            ToolSchemaLayer::gemini(),
            "/v1beta/models/gemini-2.5-flash:generateContent",
            format!(
                r#"{{"contents":[{{"role":"user","parts":[{{"text":"hi"}}]}}],"tools":[{{"functionDeclarations":[{{"name":"deep","parameters":{schema}}}]}}]}}"#
            ),
            "/tools/0/functionDeclarations/0/parameters",
            58,
        ),
        (
            ToolSchemaLayer::anthropic(),
            "/v1/messages",
            format!(
                r#"{{"model":"m","max_tokens":1,"messages":[],"tools":[{{"name":"deep","input_schema":{schema}}}]}}"#
            ),
            "/tools/0/input_schema",
            64,
        ),
        (
            ToolSchemaLayer::openai(),
            "/v1/chat/completions",
            format!(
                r#"{{"model":"m","messages":[],"tools":[{{"type":"function","function":{{"name":"deep","parameters":{schema}}}}}]}}"#
            ),
            "/tools/0/function/parameters",
            64,
        ),
    ];
    for (layer, path, body, slot_pointer, level) in cases {
        let (out, report) = through(layer, path, body.clone()).await;
        assert!(
            matches!(report.outcome, Outcome::Rewritten { .. }),
            "{path}: {:?}",
            report.outcome
        );
        let slot = report
            .slots
            .iter()
            .find(|s| s.pointer == slot_pointer)
            .unwrap_or_else(|| panic!("{path}: no slot {slot_pointer}: {report:?}"));
        assert!(slot.error.is_none(), "{path}: {:?}", slot.error);
        let cut = slot
            .changes
            .iter()
            .find(|c| c.rule == "depth")
            .unwrap_or_else(|| panic!("{path}: no depth change: {:?}", slot.changes));
        assert!(cut.lossy, "{path}");
        assert_eq!(cut.pointer, "/properties/a".repeat(level), "{path}");
        // The rewritten slot carries the hint where the cut is, and passes the profile's check.
        let v = parse_deep(&out);
        let sent = v.pointer(slot_pointer).expect("slot").to_string();
        let node = v
            .pointer(&format!("{slot_pointer}{}", cut.pointer))
            .expect("node at the cut");
        assert!(node.to_string().contains(HINT), "{path}: {node}");
        let profile = Profile::builtin(&slot.profile).expect("builtin");
        let found = provider_rules::check_slice(
            sent.as_bytes(),
            profile.rules(),
            provider_rules::Slot::Parameters,
        )
        .expect("valid JSON");
        assert!(found.is_empty(), "{path} ({}): {found:?}", slot.profile);
        // Everything around the slot is kept.
        assert_eq!(v["tools"][0].as_object().map(|o| o.len()), {
            let input = parse_deep(body.as_bytes());
            input["tools"][0].as_object().map(|o| o.len())
        });
    }
}

#[tokio::test]
async fn within_the_limit_a_tool_schema_is_not_cut() {
    let body = format!(
        r#"{{"model":"m","max_tokens":1,"messages":[],"tools":[{{"name":"ok","input_schema":{}}}]}}"#,
        nested_objects(60)
    );
    let (_, report) = through(ToolSchemaLayer::anthropic(), "/v1/messages", body).await;
    assert_eq!(report.slots.len(), 1);
    assert!(
        report.slots[0].changes.iter().all(|c| c.rule != "depth"),
        "{:?}",
        report.slots[0].changes
    );
}
