//! Gemini: JSON, a stream, snake_case keys and Code Assist's envelope.

use crate::support::*;
use bytes::Bytes;
use serde_json::Value;
use std::sync::{Arc, Mutex};
use tower_toolschema::ToolSchemaLayer;

#[tokio::test]
async fn gemini_json_stream_snake_and_code_assist() {
    let gemini_request = |snake: bool, envelope: bool| {
        let decl = if snake {
            "function_declarations"
        } else {
            "functionDeclarations"
        };
        let call = if snake {
            "function_call"
        } else {
            "functionCall"
        };
        let inner = format!(
            r#"{{"contents":[{{"role":"model","parts":[{{"{call}":{{"name":"{DOTTED} v2","args":{{}}}}}}]}}],"tools":[{{"{decl}":[{{"name":"{DOTTED} v2","parameters":{{"type":"OBJECT"}}}},{{"name":"1st","parameters":{{"type":"OBJECT"}}}}]}}]}}"#
        );
        if envelope {
            format!(r#"{{"model":"gemini-2.5-pro","project":"p","request":{inner}}}"#)
        } else {
            inner
        }
    };
    for (snake, envelope, path) in [
        (
            false,
            false,
            "/v1beta/models/gemini-2.5-flash:generateContent",
        ),
        (
            true,
            false,
            "/v1beta/models/gemini-2.5-flash:generateContent",
        ),
        (false, true, "/v1internal:generateContent"),
    ] {
        let call = if snake {
            "function_call"
        } else {
            "functionCall"
        };
        let prefix = if envelope { "/request" } else { "" };
        let decl = if snake {
            "function_declarations"
        } else {
            "functionDeclarations"
        };
        let respond = move |v: &Value| {
            let n = sent_names(v, &format!("{prefix}/tools/0/{decl}"), "/name");
            let inner = format!(
                r#"{{"candidates":[{{"content":{{"role":"model","parts":[{{"text":"{0}"}},{{"{call}":{{"name":"{0}","args":{{"x":null}}}}}},{{"{call}":{{"name":"{1}"}}}}]}}}}]}}"#,
                n[0], n[1]
            );
            json_response(if envelope {
                format!(r#"{{"response":{inner}}}"#)
            } else {
                inner
            })
        };
        let (res, seen) = exchange(
            ToolSchemaLayer::auto(),
            path,
            &gemini_request(snake, envelope),
            respond,
        )
        .await;
        let n = sent_names(&seen, &format!("{prefix}/tools/0/{decl}"), "/name");
        assert_eq!(n, ["filesystem.read_file_v2", "_1st"], "{path}");
        let inner = format!(
            r#"{{"candidates":[{{"content":{{"role":"model","parts":[{{"text":"{0}"}},{{"{call}":{{"name":"{DOTTED} v2","args":{{"x":null}}}}}},{{"{call}":{{"name":"1st"}}}}]}}}}]}}"#,
            n[0]
        );
        let want = if envelope {
            format!(r#"{{"response":{inner}}}"#)
        } else {
            inner
        };
        assert_eq!(text(res).await, want, "{path}");
    }

    // streamGenerateContent?alt=sse: every chunk restored as it comes.
    let (tx, rx) = channel();
    let rx = Arc::new(Mutex::new(Some(rx)));
    let respond = move |_: &Value| sse_response(rx.lock().expect("lock").take().expect("one call"));
    let (res, _) = exchange(
        ToolSchemaLayer::auto(),
        "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
        &gemini_request(false, false),
        respond,
    )
    .await;
    let mut body = res.into_body();
    let text_chunk =
        "data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"Hi\"}]}}]}\r\n\r\n";
    tx.send(Ok(Bytes::from_static(text_chunk.as_bytes())))
        .expect("send");
    assert_eq!(next(&mut body).await.as_deref(), Some(text_chunk));
    let call_chunk = "data: {\"candidates\":[{\"content\":{\"parts\":[{\"functionCall\":{\"name\":\"_1st\",\"args\":{}}}]}}]}\r\n\r\n";
    tx.send(Ok(Bytes::from_static(call_chunk.as_bytes())))
        .expect("send");
    assert_eq!(
        next(&mut body).await,
        Some(call_chunk.replace("_1st", "1st"))
    );
}
