//! OpenAI Responses: a JSON answer and a stream.

use crate::support::*;
use bytes::Bytes;
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use tower_toolschema::ToolSchemaLayer;

#[tokio::test]
async fn openai_responses_json_and_stream() {
    let strict = strict_tool();
    let nulls = all_null(&strict.2);
    let request = json!({
        "model":"gpt-4.1","input":[{"type":"function_call","call_id":"c0","name":DOTTED,"arguments":"{}"}],
        "tools":[{"type":"function","name":LONG,"parameters":strict.1,"strict":true},{"type":"function","name":DOTTED,"parameters":{"type":"object"}}]
    })
    .to_string();
    let respond = {
        let nulls = nulls.clone();
        move |v: &Value| {
            let n = sent_names(v, "/tools", "/name");
            let args = serde_json::to_string(&nulls).expect("json");
            json_response(format!(
                r#"{{"id":"r","output":[{{"type":"message","content":[{{"type":"output_text","text":"{0}"}}]}},{{"type":"function_call","id":"fc","call_id":"c1","name":"{0}","arguments":{args}}},{{"type":"function_call","id":"fd","call_id":"c2","name":"{1}","arguments":"{{}}"}}]}}"#,
                n[0], n[1]
            ))
        }
    };
    let (res, seen) = exchange(
        ToolSchemaLayer::openai(),
        "/v1/responses",
        &request,
        respond,
    )
    .await;
    let n = sent_names(&seen, "/tools", "/name");
    assert_eq!(seen["input"][0]["name"], n[1].as_str());
    let body = text(res).await;
    assert_eq!(
        body,
        format!(
            r#"{{"id":"r","output":[{{"type":"message","content":[{{"type":"output_text","text":"{0}"}}]}},{{"type":"function_call","id":"fc","call_id":"c1","name":"{LONG}","arguments":"{{}}"}},{{"type":"function_call","id":"fd","call_id":"c2","name":"{DOTTED}","arguments":"{{}}"}}]}}"#,
            n[0]
        )
    );

    // The stream.
    let (tx, rx) = channel();
    let rx = Arc::new(Mutex::new(Some(rx)));
    let respond = move |_: &Value| sse_response(rx.lock().expect("lock").take().expect("one call"));
    let (res, _) = exchange(
        ToolSchemaLayer::openai(),
        "/v1/responses",
        &request,
        respond,
    )
    .await;
    let mut body = res.into_body();
    let ev = |t: &str, data: String| format!("event: {t}\ndata: {data}\n\n");
    let send = |s: &str| tx.send(Ok(Bytes::from(s.to_owned()))).expect("send");
    let text_ev = ev(
        "response.output_text.delta",
        r#"{"type":"response.output_text.delta","output_index":0,"delta":"Hi"}"#.to_owned(),
    );
    send(&text_ev);
    assert_eq!(next(&mut body).await.as_deref(), Some(text_ev.as_str()));
    let added = ev(
        "response.output_item.added",
        format!(
            r#"{{"type":"response.output_item.added","output_index":1,"item":{{"type":"function_call","id":"fc","call_id":"c1","name":"{}","arguments":""}}}}"#,
            n[0]
        ),
    );
    send(&added);
    assert_eq!(next(&mut body).await, Some(added.replace(&n[0], LONG)));
    let delta = |d: &str| {
        ev(
            "response.function_call_arguments.delta",
            format!(
                r#"{{"type":"response.function_call_arguments.delta","item_id":"fc","output_index":1,"delta":{}}}"#,
                serde_json::to_string(d).expect("json")
            ),
        )
    };
    let half = nulls.len() / 2;
    send(&delta(&nulls[..half]));
    send(&delta(&nulls[half..]));
    nothing_yet(&mut body).await;
    let done = ev(
        "response.function_call_arguments.done",
        format!(
            r#"{{"type":"response.function_call_arguments.done","item_id":"fc","output_index":1,"arguments":{}}}"#,
            serde_json::to_string(&nulls).expect("json")
        ),
    );
    send(&done);
    assert_eq!(next(&mut body).await, Some(delta("{}")));
    assert_eq!(
        next(&mut body).await,
        Some(ev(
            "response.function_call_arguments.done",
            r#"{"type":"response.function_call_arguments.done","item_id":"fc","output_index":1,"arguments":"{}"}"#.to_owned()
        ))
    );
    let completed = ev(
        "response.completed",
        format!(
            r#"{{"type":"response.completed","response":{{"output":[{{"type":"function_call","name":"{}","arguments":{}}}]}}}}"#,
            n[0],
            serde_json::to_string(&nulls).expect("json")
        ),
    );
    send(&completed);
    assert_eq!(
        next(&mut body).await,
        Some(ev(
            "response.completed",
            format!(
                r#"{{"type":"response.completed","response":{{"output":[{{"type":"function_call","name":"{LONG}","arguments":"{{}}"}}]}}}}"#
            )
        ))
    );
}
