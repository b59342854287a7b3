//! The history's earlier tool calls through the layer with encodings on (issue 16): an earlier
//! call to a map-typed tool goes out encoded (key/value entries, as the declaration now speaks),
//! every other byte as the slots alone leave it; the response's call comes back decoded. Per
//! API (OpenAI Chat and Responses, Anthropic, Gemini camel and snake case, Bedrock Converse),
//! in process and, for OpenAI Chat and Anthropic, on loopback.

#[path = "support/loopback.rs"]
mod loopback;
#[path = "support/exchange.rs"]
mod support;

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use http::{Request, header};
use http_body_util::{BodyExt, Full};
use provider_rules::{Encodings, Rules};
use support::exchange;
use tower::{Service, ServiceBuilder, ServiceExt};
use tower_toolschema::encoding::EncodingSanitizer;
use tower_toolschema::restore::prepare_request;
use tower_toolschema::shapes::Api;
use tower_toolschema::{Profile, Profiles, ToolSchemaLayer, sanitize_body};

/// A tool with a map: `env` is an object of string values.
const SCHEMA: &str = r#"{"type":"object","properties":{"env":{"type":"object","additionalProperties":{"type":"string"}},"q":{"type":"string"}},"required":["env","q"]}"#;
/// The earlier call's arguments in the tool's terms, and encoded.
const ARGS: &str = r#"{"env":{"A":"1"},"q":"x"}"#;
const ARGS_ENCODED: &str = r#"{"env":[{"key":"A","value":"1"}],"q":"x"}"#;
/// What the model answers (encoded), and what the client gets (decoded).
const SENT: &str = r#"{"env":[{"key":"B","value":"2"}],"q":"y"}"#;
const DECODED: &str = r#"{"env":{"B":"2"},"q":"y"}"#;

/// JSON text as a JSON string (OpenAI's `arguments`).
fn quoted(text: &str) -> String {
    serde_json::to_string(text).expect("a string")
}

/// One API's case: the layer, the path, the request (with one earlier call, arguments as
/// [`ARGS`] spell them in that API), the arguments' raw text in the request and encoded, the
/// response (one call sending [`SENT`]) and the decoded call the client must get.
struct Case {
    api: Api,
    layer: ToolSchemaLayer,
    path: &'static str,
    request: String,
    args: String,
    encoded: String,
    response: String,
    decoded: String,
}

fn bedrock_with_maps() -> ToolSchemaLayer {
    let rules = Rules {
        encodings: Encodings::STRICT,
        ..Rules::BEDROCK
    };
    ToolSchemaLayer::fixed(Profiles::single(Profile::custom("bedrock-maps", rules)))
        .sanitizer(EncodingSanitizer)
}

fn cases() -> Vec<Case> {
    let openai = || ToolSchemaLayer::openai().sanitizer(EncodingSanitizer);
    let anthropic = || ToolSchemaLayer::anthropic().sanitizer(EncodingSanitizer);
    let gemini = || ToolSchemaLayer::gemini().sanitizer(EncodingSanitizer);
    let chat = format!(
        r#"{{"model":"gpt-4o","messages":[{{"role":"user","content":"set A"}},{{"role":"assistant","content":null,"tool_calls":[{{"id":"c1","type":"function","function":{{"name":"set_env","arguments":{}}}}}]}},{{"role":"tool","tool_call_id":"c1","content":"ok"}}],"tools":[{{"type":"function","function":{{"name":"set_env","strict":true,"parameters":{SCHEMA}}}}}]}}"#,
        quoted(ARGS)
    );
    let responses = format!(
        r#"{{"model":"gpt-4o","input":[{{"role":"user","content":"set A"}},{{"type":"function_call","call_id":"c1","name":"set_env","arguments":{}}},{{"type":"function_call_output","call_id":"c1","output":"ok"}}],"tools":[{{"type":"function","name":"set_env","strict":true,"parameters":{SCHEMA}}}]}}"#,
        quoted(ARGS)
    );
    let messages = format!(
        r#"{{"model":"claude-sonnet-4-5","max_tokens":64,"messages":[{{"role":"user","content":"set A"}},{{"role":"assistant","content":[{{"type":"text","text":"ok"}},{{"type":"tool_use","id":"t1","name":"set_env","input":{ARGS}}}]}},{{"role":"user","content":[{{"type":"tool_result","tool_use_id":"t1","content":"ok"}}]}}],"tools":[{{"name":"set_env","strict":true,"input_schema":{SCHEMA}}}]}}"#
    );
    let gemini_body = |call: &str, decl: &str| {
        format!(
            r#"{{"contents":[{{"role":"user","parts":[{{"text":"set A"}}]}},{{"role":"model","parts":[{{"{call}":{{"name":"set_env","args":{ARGS}}}}}]}},{{"role":"user","parts":[{{"functionResponse":{{"name":"set_env","response":{{"ok":true}}}}}}]}}],"tools":[{{"{decl}":[{{"name":"set_env","parameters":{SCHEMA}}}]}}]}}"#
        )
    };
    let gemini_response = format!(
        r#"{{"candidates":[{{"content":{{"role":"model","parts":[{{"functionCall":{{"name":"set_env","args":{SENT}}}}}]}}}}]}}"#
    );
    let converse = format!(
        r#"{{"messages":[{{"role":"user","content":[{{"text":"set A"}}]}},{{"role":"assistant","content":[{{"toolUse":{{"toolUseId":"t1","name":"set_env","input":{ARGS}}}}}]}}],"toolConfig":{{"tools":[{{"toolSpec":{{"name":"set_env","inputSchema":{{"json":{SCHEMA}}}}}}}]}}}}"#
    );
    vec![
        Case {
            api: Api::OpenAiChat,
            layer: openai(),
            path: "/v1/chat/completions",
            request: chat,
            args: quoted(ARGS),
            encoded: quoted(ARGS_ENCODED),
            response: format!(
                r#"{{"choices":[{{"index":0,"message":{{"role":"assistant","tool_calls":[{{"id":"c2","type":"function","function":{{"name":"set_env","arguments":{}}}}}]}}}}]}}"#,
                quoted(SENT)
            ),
            decoded: format!(r#""arguments":{}"#, quoted(DECODED)),
        },
        Case {
            api: Api::OpenAiResponses,
            layer: openai(),
            path: "/v1/responses",
            request: responses,
            args: quoted(ARGS),
            encoded: quoted(ARGS_ENCODED),
            response: format!(
                r#"{{"output":[{{"type":"function_call","call_id":"c2","name":"set_env","arguments":{}}}]}}"#,
                quoted(SENT)
            ),
            decoded: format!(r#""arguments":{}"#, quoted(DECODED)),
        },
        Case {
            api: Api::AnthropicMessages,
            layer: anthropic(),
            path: "/v1/messages",
            request: messages,
            args: ARGS.to_owned(),
            encoded: ARGS_ENCODED.to_owned(),
            response: format!(
                r#"{{"content":[{{"type":"tool_use","id":"t2","name":"set_env","input":{SENT}}}],"stop_reason":"tool_use"}}"#
            ),
            decoded: format!(r#""input":{DECODED}"#),
        },
        Case {
            api: Api::Gemini,
            layer: gemini(),
            path: "/v1beta/models/gemini-2.5-flash:generateContent",
            request: gemini_body("functionCall", "functionDeclarations"),
            args: ARGS.to_owned(),
            encoded: ARGS_ENCODED.to_owned(),
            response: gemini_response.clone(),
            decoded: format!(r#""args":{DECODED}"#),
        },
        Case {
            api: Api::Gemini,
            layer: gemini(),
            path: "/v1beta/models/gemini-2.5-flash:generateContent",
            request: gemini_body("function_call", "function_declarations"),
            args: ARGS.to_owned(),
            encoded: ARGS_ENCODED.to_owned(),
            response: gemini_response,
            decoded: format!(r#""args":{DECODED}"#),
        },
        Case {
            api: Api::BedrockConverse,
            layer: bedrock_with_maps(),
            path: "/model/anthropic.claude-sonnet-4/converse",
            request: converse,
            args: ARGS.to_owned(),
            encoded: ARGS_ENCODED.to_owned(),
            response: format!(
                r#"{{"output":{{"message":{{"role":"assistant","content":[{{"toolUse":{{"toolUseId":"t2","name":"set_env","input":{SENT}}}}}]}}}},"stopReason":"tool_use"}}"#
            ),
            decoded: format!(r#""input":{DECODED}"#),
        },
    ]
}

/// What the layer must send: the body as the slots alone leave it, with the earlier call's
/// arguments (there once) encoded.
fn expected(case: &Case) -> String {
    let (slots_only, report) = sanitize_body(
        case.layer.config(),
        Some(case.api),
        Bytes::from(case.request.clone()),
    );
    assert!(
        report.is_rewritten(),
        "{}: the declaration is encoded",
        case.path
    );
    let text = String::from_utf8(slots_only.to_vec()).expect("utf-8");
    assert_eq!(text.matches(&case.args).count(), 1, "{}: {text}", case.path);
    text.replace(&case.args, &case.encoded)
}

#[tokio::test]
async fn every_api_sends_earlier_calls_encoded_and_gets_the_call_back_decoded() {
    for case in cases() {
        let want = expected(&case);
        let (seen, back) = exchange(
            case.layer.clone(),
            case.path,
            case.request.clone(),
            case.response.clone(),
        )
        .await;
        let seen = String::from_utf8(seen.to_vec()).expect("utf-8");
        assert_eq!(seen, want, "{}", case.path);
        let back = String::from_utf8(back.to_vec()).expect("utf-8");
        assert!(back.contains(&case.decoded), "{}: {back}", case.path);
        // The same through the one-body entry point, with the report.
        let (out, report, _) = prepare_request(
            case.layer.config(),
            Some(case.api),
            Bytes::from(case.request.clone()),
        );
        assert_eq!(out, want.as_bytes(), "{}", case.path);
        assert_eq!(report.history.len(), 1, "{}", case.path);
        assert_eq!(report.history[0].tool, "set_env");
        assert_eq!(report.history[0].error, None);
    }
}

#[test]
fn without_encodings_the_history_goes_on_as_it_came() {
    for case in cases() {
        // The default sanitizer: no encodings (the strict tools still take strict nulls).
        let layer = match case.api {
            Api::BedrockConverse => ToolSchemaLayer::bedrock(),
            Api::Gemini => ToolSchemaLayer::gemini(),
            Api::AnthropicMessages => ToolSchemaLayer::anthropic(),
            _ => ToolSchemaLayer::openai(),
        };
        let (out, report, _) = prepare_request(
            layer.config(),
            Some(case.api),
            Bytes::from(case.request.clone()),
        );
        let text = String::from_utf8(out.to_vec()).expect("utf-8");
        assert_eq!(text.matches(&case.args).count(), 1, "{}: {text}", case.path);
        assert!(report.history.is_empty(), "{}", case.path);
    }
}

#[test]
fn calls_of_other_tools_and_arguments_that_are_not_json_go_on_as_they_came() {
    let case = &cases()[0];
    // An earlier call of a tool not declared, one of `set_env` with broken arguments.
    let broken = quoted(r#"{"env":{"A""#);
    let body = case.request.replacen(
        r#"{"role":"tool","tool_call_id":"c1","content":"ok"}"#,
        &format!(
            r#"{{"role":"tool","tool_call_id":"c1","content":"ok"}},{{"role":"assistant","tool_calls":[{{"id":"c3","type":"function","function":{{"name":"other","arguments":{a}}}}},{{"id":"c4","type":"function","function":{{"name":"set_env","arguments":{broken}}}}}]}}"#,
            a = quoted(ARGS)
        ),
        1,
    );
    let (out, report, _) = prepare_request(case.layer.config(), Some(case.api), Bytes::from(body));
    let text = String::from_utf8(out.to_vec()).expect("utf-8");
    // The first call encoded; `other`'s as it came; the broken one as it came, reported.
    assert_eq!(text.matches(&quoted(ARGS_ENCODED)).count(), 1, "{text}");
    assert_eq!(text.matches(&quoted(ARGS)).count(), 1, "{text}");
    assert!(text.contains(&broken), "{text}");
    assert_eq!(report.history.len(), 2);
    assert!(report.history[0].error.is_none());
    let error = report.history[1].error.as_deref().unwrap_or_default();
    assert!(error.contains("not JSON"), "{error}");
}

#[test]
fn a_renamed_tool_has_its_earlier_calls_renamed_and_encoded() {
    let case = &cases()[0];
    let body = case.request.replace("set_env", "set env");
    let (out, report, plan) =
        prepare_request(case.layer.config(), Some(case.api), Bytes::from(body));
    let text = String::from_utf8(out.to_vec()).expect("utf-8");
    assert!(!text.contains("set env"), "{text}");
    assert_eq!(text.matches(r#""name":"set_env""#).count(), 2, "{text}");
    assert_eq!(text.matches(&quoted(ARGS_ENCODED)).count(), 1, "{text}");
    assert_eq!(report.history[0].tool, "set env");
    assert_eq!(plan.original("set_env"), Some("set env"));
    assert!(plan.decoder("set env").is_some());
}

/// A loopback upstream that answers every request with `response`, recording the bodies.
async fn serve(response: String, seen: Arc<Mutex<Vec<Bytes>>>) -> SocketAddr {
    use axum::Router;
    use axum::extract::Request as AxumRequest;
    use axum::routing::any;
    let app = Router::new().fallback(any(move |req: AxumRequest| {
        let (response, seen) = (response.clone(), Arc::clone(&seen));
        async move {
            let body = req
                .into_body()
                .collect()
                .await
                .map(|c| c.to_bytes())
                .unwrap_or_default();
            seen.lock().expect("lock").push(body);
            axum::response::Response::builder()
                .header(header::CONTENT_TYPE, "application/json")
                .body(axum::body::Body::from(response))
                .unwrap_or_default()
        }
    }));
    loopback::serve(app).await
}

#[tokio::test]
async fn loopback_openai_chat_and_anthropic_through_a_hyper_client() {
    use hyper_util::client::legacy::Client;
    use hyper_util::rt::TokioExecutor;
    for case in cases()
        .into_iter()
        .filter(|c| matches!(c.api, Api::OpenAiChat | Api::AnthropicMessages))
    {
        let seen: Arc<Mutex<Vec<Bytes>>> = Arc::default();
        let addr = serve(case.response.clone(), Arc::clone(&seen)).await;
        let client = Client::builder(TokioExecutor::new()).build_http();
        let mut svc = ServiceBuilder::new()
            .layer(case.layer.clone())
            .service(client);
        let req = Request::post(format!("http://{addr}{}", case.path))
            .header(header::CONTENT_TYPE, "application/json")
            .body(Full::new(Bytes::from(case.request.clone())))
            .expect("request");
        let res = tokio::time::timeout(Duration::from_secs(10), async {
            svc.ready().await.expect("ready").call(req).await
        })
        .await
        .expect("in time")
        .expect("loopback call");
        let back = tokio::time::timeout(Duration::from_secs(10), res.into_body().collect())
            .await
            .expect("in time")
            .expect("body")
            .to_bytes();
        let back = String::from_utf8(back.to_vec()).expect("utf-8");
        assert!(back.contains(&case.decoded), "{}: {back}", case.path);
        let got = seen.lock().expect("lock").pop().expect("upstream called");
        assert_eq!(got, expected(&case).as_bytes(), "{}", case.path);
    }
}
