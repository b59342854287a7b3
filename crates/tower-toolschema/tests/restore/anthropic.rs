//! Anthropic Messages: a JSON answer and a stream.

use crate::support::*;
use bytes::Bytes;
use serde_json::Value;
use std::sync::{Arc, Mutex};

#[tokio::test]
async fn anthropic_messages_json_and_stream() {
    let long = LONG.repeat(2);
    let respond = |v: &Value| {
        let n = sent_names(v, "/tools", "/name");
        json_response(format!(
            r#"{{"content":[{{"type":"text","text":"a b"}},{{"type":"tool_use","id":"t1","name":"{}","input":{{"name":"a b"}}}},{{"type":"tool_use","id":"t2","name":"{}","input":{{}}}}],"stop_reason":"tool_use"}}"#,
            n[0], n[1]
        ))
    };
    let (res, seen) = anthropic_exchange(respond).await;
    assert_eq!(seen["tools"][0]["name"], "a_b");
    assert_eq!(seen["messages"][0]["content"][0]["name"], "a_b");
    assert_eq!(seen["messages"][0]["content"][0]["input"]["name"], "a b");
    assert_eq!(seen["tool_choice"]["name"], "a_b");
    assert!(
        seen["tools"][1]["name"]
            .as_str()
            .is_some_and(|s| s.len() <= 128)
    );
    assert_eq!(
        text(res).await,
        format!(
            r#"{{"content":[{{"type":"text","text":"a b"}},{{"type":"tool_use","id":"t1","name":"a b","input":{{"name":"a b"}}}},{{"type":"tool_use","id":"t2","name":"{long}","input":{{}}}}],"stop_reason":"tool_use"}}"#
        )
    );

    let (tx, rx) = channel();
    let rx = Arc::new(Mutex::new(Some(rx)));
    let respond = move |_: &Value| sse_response(rx.lock().expect("lock").take().expect("one call"));
    let (res, _) = anthropic_exchange(respond).await;
    let mut body = res.into_body();
    let events = [
        "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"content\":[]}}\n\n".to_owned(),
        "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t1\",\"name\":\"a_b\",\"input\":{}}}\n\n".to_owned(),
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"a\\\":\"}}\n\n".to_owned(),
        "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n".to_owned(),
    ];
    for e in &events {
        tx.send(Ok(Bytes::from(e.clone()))).expect("send");
        // No decoder: every event passes at once; the name is mapped back where it is.
        assert_eq!(next(&mut body).await, Some(e.replace("a_b", "a b")));
    }
}
