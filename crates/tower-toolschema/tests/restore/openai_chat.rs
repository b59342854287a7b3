//! OpenAI Chat Completions: names and strict nulls restored in a JSON answer and a stream;
//! a cut stream.

use crate::support::*;
use bytes::Bytes;
use http_body_util::BodyExt;
use provider_rules::Rules;
use serde_json::Value;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tower_toolschema::ToolSchemaLayer;
use tower_toolschema::restore::{RestoreBody, RestoreReport};

#[tokio::test]
async fn openai_chat_json_names_and_strict_nulls() {
    let strict = strict_tool();
    let nulls = all_null(&strict.2);
    let respond = {
        let nulls = nulls.clone();
        move |v: &Value| {
            let n = sent_names(v, "/tools", "/function/name");
            let args = serde_json::to_string(&nulls).expect("json");
            json_response(format!(
                r#"{{"id":"x","choices":[{{"index":0,"message":{{"role":"assistant","content":"ok {0} {2}","tool_calls":[{{"id":"a","type":"function","function":{{"name":"{0}","arguments":{args}}}}},{{"id":"b","type":"function","function":{{"name":"{1}","arguments":"{{\"q\":\"1\"}}"}}}},{{"id":"c","type":"function","function":{{"name":"{3}","arguments":"{{}}"}}}}]}},"finish_reason":"tool_calls"}}],"usage":{{"total_tokens":3}}}}"#,
                n[0], n[1], n[2], n[3]
            ))
        }
    };
    let (res, seen) = exchange(
        ToolSchemaLayer::openai(),
        "/v1/chat/completions",
        &openai_request(&strict),
        respond,
    )
    .await;
    let n = sent_names(&seen, "/tools", "/function/name");
    // The upstream got valid, unique names, in the history and the tool choice too.
    assert!(
        n.iter().all(|s| Rules::OPENAI.tool_names.accepts(s)),
        "{n:?}"
    );
    assert_eq!(n[2], "search");
    assert_ne!(n[3], "search");
    assert_eq!(seen["tool_choice"]["function"]["name"], n[0].as_str());
    assert_eq!(
        seen["messages"][1]["tool_calls"][0]["function"]["name"],
        n[1].as_str()
    );
    assert_eq!(
        seen["messages"][1]["tool_calls"][0]["function"]["arguments"],
        "{\"q\":\"filesystem.read_file\"}"
    );
    assert!(res.headers().get("content-length").is_none());
    let report = res
        .extensions()
        .get::<RestoreReport>()
        .cloned()
        .expect("report");
    let body = text(res).await;
    let want = format!(
        r#"{{"id":"x","choices":[{{"index":0,"message":{{"role":"assistant","content":"ok {0} search","tool_calls":[{{"id":"a","type":"function","function":{{"name":"{LONG}","arguments":"{{}}"}}}},{{"id":"b","type":"function","function":{{"name":"{DOTTED}","arguments":"{{\"q\":\"1\"}}"}}}},{{"id":"c","type":"function","function":{{"name":"search","arguments":"{{}}"}}}}]}},"finish_reason":"tool_calls"}}],"usage":{{"total_tokens":3}}}}"#,
        n[0]
    );
    assert_eq!(body, want);
    let s = report.summary();
    assert!(s.complete);
    assert_eq!(s.calls.len(), 3);
    assert!(s.calls[0].decoded && s.calls[0].renamed());
    assert_eq!(s.renamed.len(), 3);
}

fn chat_chunk(delta: &str, finish: &str) -> String {
    format!(
        "data: {{\"id\":\"x\",\"object\":\"chat.completion.chunk\",\"choices\":[{{\"index\":0,\"delta\":{delta},\"finish_reason\":{finish}}}]}}\n\n"
    )
}

/// An OpenAI Chat request through the layer to an upstream streaming what the test sends:
/// the sender, the names the upstream received, and the client's body.
async fn chat_stream(
    strict: &(String, Value, Vec<String>),
) -> (Sender, Vec<String>, RestoreBody<Channel>) {
    let (tx, rx) = channel();
    let rx = Arc::new(Mutex::new(Some(rx)));
    let names: Arc<Mutex<Vec<String>>> = Arc::default();
    let respond = {
        let names = Arc::clone(&names);
        move |v: &Value| {
            *names.lock().expect("lock") = sent_names(v, "/tools", "/function/name");
            sse_response(rx.lock().expect("lock").take().expect("one call"))
        }
    };
    let (res, _) = exchange(
        ToolSchemaLayer::openai(),
        "/v1/chat/completions",
        &openai_request(strict),
        respond,
    )
    .await;
    let n = names.lock().expect("lock").clone();
    (tx, n, res.into_body())
}

#[tokio::test]
async fn openai_chat_stream_holds_only_the_strict_fragments() {
    let strict = strict_tool();
    let nulls = all_null(&strict.2);
    let (tx, n, mut body) = chat_stream(&strict).await;
    let send = |s: &str| tx.send(Ok(Bytes::from(s.to_owned()))).expect("send");

    // Text passes at once, byte for byte, even split mid-event.
    let text1 = chat_chunk(r#"{"role":"assistant","content":"Hel"}"#, "null");
    send(&text1[..10]);
    nothing_yet(&mut body).await;
    send(&text1[10..]);
    assert_eq!(next(&mut body).await.as_deref(), Some(text1.as_str()));
    // The call's first fragment: its name mapped back, in the same event.
    let start = chat_chunk(
        &format!(
            r#"{{"tool_calls":[{{"index":0,"id":"a","type":"function","function":{{"name":"{}","arguments":""}}}}]}}"#,
            n[0]
        ),
        "null",
    );
    send(&start);
    assert_eq!(
        next(&mut body).await.as_deref(),
        Some(start.replace(&n[0], LONG).as_str())
    );
    // Its argument fragments are held ...
    let mut frags = Vec::new();
    let third = nulls.len() / 3;
    for piece in [
        &nulls[..third],
        &nulls[third..2 * third],
        &nulls[2 * third..],
    ] {
        let f = chat_chunk(
            &format!(
                r#"{{"tool_calls":[{{"index":0,"function":{{"arguments":{}}}}}]}}"#,
                serde_json::to_string(piece).expect("json")
            ),
            "null",
        );
        send(&f);
        frags.push(f);
    }
    nothing_yet(&mut body).await;
    // ... and go as one, decoded, when the call completes.
    let finish = chat_chunk("{}", "\"tool_calls\"");
    send(&finish);
    let whole = next(&mut body).await.expect("the fragment");
    assert_eq!(
        whole,
        chat_chunk(
            r#"{"tool_calls":[{"index":0,"function":{"arguments":"{}"}}]}"#,
            "null"
        )
    );
    assert_eq!(next(&mut body).await.as_deref(), Some(finish.as_str()));
    send("data: [DONE]\n\n");
    assert_eq!(next(&mut body).await.as_deref(), Some("data: [DONE]\n\n"));
    drop(tx);
    assert!(next(&mut body).await.is_none());
}

#[tokio::test]
async fn a_cut_stream_ends_with_what_was_held_as_it_came() {
    let strict = strict_tool();
    let (tx, n, mut body) = chat_stream(&strict).await;
    let start = chat_chunk(
        &format!(
            r#"{{"tool_calls":[{{"index":0,"id":"a","type":"function","function":{{"name":"{}","arguments":"{{\"{}\":nu"}}}}]}}"#,
            n[0], strict.2[0]
        ),
        "null",
    );
    tx.send(Ok(Bytes::from(start))).expect("send");
    let first = next(&mut body).await.expect("the start");
    assert!(
        first.contains(LONG) && first.contains(r#""arguments":"""#),
        "{first}"
    );
    tx.send(Err(std::io::Error::other("connection reset")))
        .expect("send");
    // The held fragment, undecoded, then the error.
    let held = next(&mut body).await.expect("the held fragment");
    assert!(
        held.contains(&format!(r#""arguments":"{{\"{}\":nu""#, strict.2[0])),
        "{held}"
    );
    let end = tokio::time::timeout(Duration::from_secs(1), body.frame())
        .await
        .expect("ends");
    assert!(matches!(end, Some(Err(_))));
}
