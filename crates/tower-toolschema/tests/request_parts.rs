//! `restore::prepare_request_parts`: the body to send in parts, as the layer sends it. The
//! parts put together are the very bytes the layer's upstream receives (schemas sanitized,
//! names renamed, the history encoded), and the unchanged conversation before the first slot
//! is the input's own bytes, not a copy.

use std::convert::Infallible;
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use http::{Request, Response};
use http_body_util::{BodyExt, Full};
use tower::{Layer, ServiceExt};
use tower_toolschema::encoding::EncodingSanitizer;
use tower_toolschema::restore::{prepare_request, prepare_request_parts};
use tower_toolschema::shapes::Api;
use tower_toolschema::{ToolSchemaBody, ToolSchemaLayer};

/// The body the layer's upstream receives for `body` posted to `path`.
async fn through_layer(layer: ToolSchemaLayer, path: &str, body: &str) -> Bytes {
    let seen: Arc<Mutex<Option<Bytes>>> = Arc::default();
    let upstream = {
        let seen = Arc::clone(&seen);
        tower::service_fn(move |req: Request<ToolSchemaBody<Full<Bytes>>>| {
            let seen = Arc::clone(&seen);
            async move {
                let body = req.into_body().collect().await.expect("body").to_bytes();
                *seen.lock().expect("lock") = Some(body);
                Ok::<_, Infallible>(Response::new(Full::new(Bytes::new())))
            }
        })
    };
    let req = Request::post(path)
        .header("content-type", "application/json")
        .body(Full::new(Bytes::from(body.to_owned())))
        .expect("request");
    layer
        .layer(upstream)
        .oneshot(req)
        .await
        .expect("infallible");
    seen.lock().expect("lock").take().expect("called")
}

const CONVERSATION: &str =
    r#"{"role":"user","content":"a long conversation: \"type\":\"object\", \u00e9"}"#;

/// What, the layer, the API, the path, the body.
type Case = (
    &'static str,
    fn() -> ToolSchemaLayer,
    Api,
    &'static str,
    String,
);

fn cases() -> Vec<Case> {
    let chat = |name: &str, schema: &str| {
        format!(
            r#"{{"messages":[{CONVERSATION}],"model":"gpt-4o","tools":[{{"type":"function","function":{{"name":"{name}","parameters":{schema}}}}},{{"type":"function","function":{{"name":"b","parameters":{{"type":"object","properties":{{}}}}}}}}]}}"#
        )
    };
    let changed = r#"{"type":"object","additionalProperties":false,"properties":{"a":{"type":"string","format":"email"}}}"#;
    vec![
        (
            "a schema changed",
            ToolSchemaLayer::gemini,
            Api::OpenAiChat,
            "/v1/chat/completions",
            chat("a", changed),
        ),
        (
            "nothing to change",
            ToolSchemaLayer::openai,
            Api::OpenAiChat,
            "/v1/chat/completions",
            chat("a", r#"{"type":"object","properties":{}}"#),
        ),
        (
            "a name renamed",
            ToolSchemaLayer::openai,
            Api::OpenAiChat,
            "/v1/chat/completions",
            chat("fs.read", changed),
        ),
        (
            "the history encoded",
            || ToolSchemaLayer::openai().sanitizer(EncodingSanitizer),
            Api::OpenAiChat,
            "/v1/chat/completions",
            r#"{"messages":[{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"set_env","arguments":"{\"env\":{\"A\":\"1\"}}"}}]}],"model":"gpt-4o","tools":[{"type":"function","function":{"name":"set_env","strict":true,"parameters":{"type":"object","properties":{"env":{"type":"object","additionalProperties":{"type":"string"}}},"required":["env"],"additionalProperties":false}}}]}"#.to_owned(),
        ),
    ]
}

#[tokio::test]
async fn the_parts_are_what_the_layer_sends() {
    for (what, layer, api, path, body) in cases() {
        let input = Bytes::from(body.clone());
        let (parts, report, _) = prepare_request_parts(layer().config(), Some(api), input.clone());
        let sent = through_layer(layer(), path, &body).await;
        assert_eq!(
            String::from_utf8(parts.concat()).expect("UTF-8"),
            String::from_utf8(sent.to_vec()).expect("UTF-8"),
            "{what}"
        );
        let (whole, _, _) = prepare_request(layer().config(), Some(api), input.clone());
        assert_eq!(whole, parts.concat(), "{what}");
        match what {
            "nothing to change" => {
                assert!(!report.is_rewritten(), "{what}");
                assert_eq!(parts.len(), 1, "{what}");
                assert_eq!(
                    parts[0].as_ptr(),
                    input.as_ptr(),
                    "{what}: the input itself"
                );
            }
            "a schema changed" => {
                assert!(report.is_rewritten(), "{what}");
                // The conversation is the input's head, sliced, not copied.
                assert_eq!(parts[0].as_ptr(), input.as_ptr(), "{what}");
                assert!(parts[0].len() > CONVERSATION.len(), "{what}");
                assert!(
                    !parts
                        .concat()
                        .windows(20)
                        .any(|w| w == b"additionalProperties")
                );
            }
            "a name renamed" => {
                assert_eq!(report.renames.len(), 1, "{what}");
                assert!(
                    String::from_utf8(parts.concat())
                        .expect("UTF-8")
                        .contains(r#""name":"fs_read""#)
                );
            }
            _ => {
                assert!(
                    !String::from_utf8(parts.concat())
                        .expect("UTF-8")
                        .contains(r#"{\"env\":{\"A\":\"1\"}}"#),
                    "{what}: the history's call is encoded"
                );
            }
        }
    }
}
