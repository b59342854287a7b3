//! The way back's OpenAI Chat stream reader on the chunks its one-pass reader hands to
//! serde_json (escaped keys, surrogate escapes) and on the spellings it reads itself (spacing,
//! member order, escapes in fragments): the calls are restored the same, at any chunking.

use provider_rules::{Decoder, NameMap, Rules};
use tower_toolschema::restore::RestorePlan;
use tower_toolschema::shapes::Api;

fn plan() -> RestorePlan {
    let names = NameMap::new(&Rules::OPENAI.tool_names, ["srv.tool"]);
    let strict = Decoder {
        drop_null: vec!["cursor".into()],
        ..Decoder::default()
    };
    RestorePlan::new(Api::OpenAiChat, names, [("srv.tool".to_owned(), strict)])
}

fn event(json: &str) -> String {
    format!("data: {json}\n\n")
}

/// The stream read whole, and read one byte at a time.
fn restored(stream: &str) -> String {
    let whole = {
        let mut s = plan().stream();
        let mut out = s.push(stream.as_bytes()).concat();
        out.extend(s.finish(false).concat());
        out
    };
    let mut s = plan().stream();
    let mut bytes = Vec::new();
    for b in stream.as_bytes() {
        bytes.extend(s.push(std::slice::from_ref(b)).concat());
    }
    bytes.extend(s.finish(false).concat());
    assert_eq!(bytes, whole, "one byte at a time");
    String::from_utf8(whole).expect("UTF-8")
}

/// The arguments of the restored stream's call events, joined, as JSON.
fn arguments(out: &str) -> serde_json::Value {
    let mut args = String::new();
    for line in out.lines() {
        let Some(data) = line.strip_prefix("data: ") else {
            continue;
        };
        let Ok(v) = serde_json::from_str::<serde_json::Value>(data) else {
            continue;
        };
        if let Some(a) = v.pointer("/choices/0/delta/tool_calls/0/function/arguments") {
            args.push_str(a.as_str().expect("arguments are a string"));
        }
    }
    serde_json::from_str(&args).expect("whole arguments")
}

#[test]
fn calls_restore_the_same_whichever_reader_reads_their_chunks() {
    let name = |tool_calls: &str| {
        event(&format!(
            r#"{{"choices":[{{"index":0,"delta":{{"{tool_calls}":[{{"index":0,"id":"c","type":"function","function":{{"name":"srv_tool","arguments":""}}}}]}},"finish_reason":null}}]}}"#
        ))
    };
    let fragment = |args: &str| {
        event(&format!(
            r#"{{"choices":[{{"index":0,"delta":{{"tool_calls":[{{"index":0,"function":{{"arguments":"{args}"}}}}]}},"finish_reason":null}}]}}"#
        ))
    };
    let done = event(r#"{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}"#);
    let want = serde_json::json!({"q": "\u{1F600} caf\u{e9} \"x\"\n"});
    for (what, stream) in [
        (
            "plain",
            [
                name("tool_calls"),
                fragment(r#"{\"q\":\"\\ud83d\\ude00 caf\\u00e9 \\\"x\\\"\\n\","#),
                fragment(r#"\"cursor\":null}"#),
                done.clone(),
            ]
            .concat(),
        ),
        (
            // A fragment without escapes, one with a surrogate escape (serde_json's to read).
            "surrogates",
            [
                name("tool_calls"),
                fragment(r#"{\"q\":"#),
                fragment(r#"\"\ud83d\ude00 caf\u00e9 \\\"x\\\"\\n\",\"cursor\":null}"#),
                done.clone(),
            ]
            .concat(),
        ),
        (
            // Spacing, member order and an escaped key the one-pass reader leaves to serde_json.
            "spelled otherwise",
            [
                event(
                    r#" { "choices" : [ { "delta" : { "tool_calls" : [ { "function" : { "arguments" : "" , "name" : "srv_tool" } , "index" : 0 } ] } , "ind\u0065x" : 0 } ] } "#,
                ),
                fragment(r#"{\"q\":\"\ud83d\ude00 caf\u00e9 \\\"x\\\"\\n\","#),
                event(
                    r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"function":{"arguments":"\"cursor\":null}"},"index":0}]}}]}"#,
                ),
                done.clone(),
            ]
            .concat(),
        ),
    ] {
        let out = restored(&stream);
        assert!(out.contains(r#""srv.tool""#), "{what}: {out}");
        assert!(!out.contains("srv_tool"), "{what}: {out}");
        assert_eq!(arguments(&out), want, "{what}: {out}");
        assert!(out.ends_with(&done), "{what}: the last event goes on as it came");
    }
}

#[test]
fn a_chunk_that_is_not_json_completes_the_held_call() {
    let stream = [
        event(
            r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"name":"srv_tool","arguments":"{\"q\":1,"}}]}}]}"#,
        ),
        event(r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"cursor\":null}"}}]}}]}"#),
        event(r#"{"choices":[{"delta":{"tool_calls":[]}},]}"#),
        "data: [DONE]\n\n".to_owned(),
    ]
    .concat();
    let out = restored(&stream);
    assert_eq!(arguments(&out), serde_json::json!({"q": 1}), "{out}");
    // The invalid chunk and `[DONE]` go on as they came, after the released call.
    assert!(out.ends_with(&format!(
        "{}data: [DONE]\n\n",
        event(r#"{"choices":[{"delta":{"tool_calls":[]}},]}"#)
    )));
}
