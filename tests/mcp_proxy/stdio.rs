//! A stdio server behind the proxy: listings sanitized and renamed, calls checked and mapped
//! back, the session's end and everything else passed on byte for byte.

use crate::support::*;
use serde_json::{Value, json};
use toolschema::provider_rules::{self, Slot};

#[test]
fn tools_list_is_sanitized_and_renamed_for_each_provider() {
    let mut total = 0;
    for provider in [
        "gemini",
        "openai",
        "openai-strict",
        "anthropic",
        "xai",
        "bedrock",
    ] {
        let rules = provider_rules::profile(provider).expect("built-in profile");
        let record = scratch(&format!("list-{provider}"));
        let mut p = Proxy::stdio(provider, &record);
        p.initialize();
        let tools = p.list_all(1);
        let want = originals();
        assert_eq!(tools.len(), want.len(), "{provider}");
        for (got, orig) in tools.iter().zip(&want) {
            let name = got["name"].as_str().expect("name");
            assert!(rules.tool_names.accepts(name), "{provider}: {name}");
            assert_eq!(got["description"], orig["description"], "{provider}");
            assert_eq!(got["annotations"], orig["annotations"], "{provider}");
            let v = provider_rules::check(&got["inputSchema"], rules, Slot::Parameters);
            assert!(v.is_empty(), "{provider}: {name}: {v:?}");
            let rejected =
                !provider_rules::check(&orig["inputSchema"], rules, Slot::Parameters).is_empty();
            if rejected {
                assert_ne!(
                    got["inputSchema"], orig["inputSchema"],
                    "{provider}: {name}"
                );
                total += 1;
            }
        }
        assert_eq!(p.close().code(), Some(0), "{provider}");
    }
    assert!(
        total >= 6,
        "only {total} schemas needed sanitizing: the fixture tests too little"
    );
}

#[test]
fn a_renamed_tool_called_by_its_new_name_reaches_the_server_under_its_own() {
    let record = scratch("rename");
    let mut p = Proxy::stdio("openai", &record);
    p.initialize();
    let tools = p.list_all(1);
    assert_eq!(tools[0]["name"], "get_weather");
    let r = p.call(10, "get_weather", json!({"city": "Oslo", "days": 2}));
    assert_eq!(r["result"].get("isError"), None, "{r}");
    let echoed: Value = serde_json::from_str(&text_of(&r)).expect("the mock's echo");
    assert_eq!(
        echoed,
        json!({"name": "get weather", "arguments": {"city": "Oslo", "days": 2}})
    );
    assert_eq!(calls_received(&record)[0]["name"], "get weather");
    assert!(p.stderr().contains("is listed as \"get_weather\""));
}

#[test]
fn invalid_arguments_are_answered_with_the_fix_and_never_forwarded() {
    let record = scratch("invalid");
    let mut p = Proxy::stdio("gemini", &record);
    p.initialize();
    p.list_all(1);
    let r = p.call(11, "get_weather", json!({"City": "Oslo", "days": 40}));
    assert_eq!(r["result"]["isError"], true, "{r}");
    let text = text_of(&r);
    assert!(
        text.starts_with("Invalid arguments for tool \"get_weather\""),
        "{text}"
    );
    assert!(
        text.contains(r#""city" is missing — you sent "City"; the field is "city""#),
        "{text}"
    );
    assert!(text.contains("\"days\""), "{text}");
    assert!(text.contains("Expected {\"city\":\"<string>\""), "{text}");
    // A constraint Gemini cannot express (the ref'd enum) is still enforced.
    let r = p.call(
        12,
        "search",
        json!({"query": "x", "filter": {"state": "merged"}}),
    );
    assert_eq!(r["result"]["isError"], true, "{r}");
    assert!(text_of(&r).contains("\"filter.state\""), "{}", text_of(&r));
    // A valid call goes through; only it reached the server.
    let r = p.call(
        13,
        "search",
        json!({"query": "x", "filter": {"state": "open"}}),
    );
    assert_eq!(r["result"].get("isError"), None, "{r}");
    let calls = calls_received(&record);
    assert_eq!(calls.len(), 1, "{calls:?}");
    assert_eq!(calls[0]["name"], "search");
}

#[test]
fn strict_nulls_for_optional_fields_are_dropped_before_forwarding() {
    let record = scratch("nulls");
    let mut p = Proxy::stdio("openai-strict", &record);
    p.initialize();
    let tools = p.list_all(1);
    let required = tools[1]["inputSchema"]["required"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(required.contains(&json!("filter")), "{}", tools[1]);
    // `filter` is optional and not nullable in the original: its null means "left out".
    let r = p.call(
        14,
        "search",
        json!({"query": "x", "filter": null, "site": null}),
    );
    assert_eq!(r["result"].get("isError"), None, "{r}");
    // `days` allows null in the original: kept.
    p.call(15, "get_weather", json!({"city": "Oslo", "days": null}));
    let calls = calls_received(&record);
    assert_eq!(calls[0]["arguments"], json!({"query": "x"}));
    assert_eq!(calls[1]["arguments"], json!({"city": "Oslo", "days": null}));
}

#[test]
fn list_changed_makes_the_proxy_list_again() {
    let record = scratch("changed");
    let mut p = Proxy::stdio("gemini", &record);
    p.initialize();
    p.list_all(1);
    p.mutate(20);
    // Without the client listing again, the proxy knows the new schema and checks calls by it.
    let r = p.call(21, "translate", json!({"text": "hi", "to": "es"}));
    assert_eq!(r["result"]["isError"], true, "{r}");
    assert!(text_of(&r).contains("\"to\""), "{}", text_of(&r));
    assert!(
        calls_received(&record)
            .iter()
            .all(|c| c["name"] != "translate")
    );
    // The proxy's own listing never reached the client; the client's next listing is sanitized.
    let tools = p.list_all(30);
    assert_eq!(tools[0]["name"], "translate");
    let lists = received(&record)
        .into_iter()
        .filter(|r| r["msg"]["method"] == "tools/list")
        .count();
    assert_eq!(
        lists, 8,
        "two pages each: the proxy's at the start, the client's first, the proxy's after the change, the client's second"
    );
}

#[test]
fn a_call_sent_before_any_listing_is_still_checked() {
    let record = scratch("early");
    let mut p = Proxy::stdio("gemini", &record);
    // The client never lists: the proxy did, as soon as the session opened.
    p.initialize();
    let r = p.call(1, "get_weather", json!({"City": "Oslo"}));
    assert_eq!(r["result"]["isError"], true, "{r}");
    let r = p.call(2, "get_weather", json!({"city": "Oslo"}));
    let echoed: Value = serde_json::from_str(&text_of(&r)).expect("echo");
    assert_eq!(echoed["name"], "get weather");
    // Lines sent back to back, before any answer: the call waits for the listing it needs.
    p.send_line(r#"{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{}}"#);
    p.send_line(r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"get_weather","arguments":{"town":"Oslo"}}}"#);
    let answers: Vec<Value> = (0..2).map(|_| p.next()).collect();
    assert_eq!(answers[0]["id"], 3);
    assert_eq!(answers[1]["result"]["isError"], true, "{}", answers[1]);
    assert_eq!(calls_received(&record).len(), 1);
    // Even a call written right behind initialize, before any answer, waits and is checked.
    let record = scratch("early-piped");
    let mut p = Proxy::stdio("gemini", &record);
    p.send_line(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{}}}"#);
    p.send_line(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    p.send_line(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_weather","arguments":{"City":"Oslo"}}}"#);
    assert_eq!(p.next()["id"], 0);
    let r = p.next();
    assert_eq!(r["result"]["isError"], true, "{r}");
    assert!(calls_received(&record).is_empty());
}

/// Writes a whole session and closes the input at once; every request is still answered.
fn piped_session(mut p: Proxy, record: &str) {
    p.send_line(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{}}}"#);
    p.send_line(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    p.send_line(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_weather","arguments":{"City":"Oslo"}}}"#);
    p.send_line(r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_weather","arguments":{"city":"Oslo"}}}"#);
    p.stdin = None;
    let answers: Vec<Value> = (0..3).map(|_| p.next()).collect();
    assert_eq!(answers[0]["id"], 0);
    assert_eq!(answers[1]["id"], 1);
    assert_eq!(answers[1]["result"]["isError"], true, "{}", answers[1]);
    assert_eq!(answers[2]["id"], 2);
    assert!(
        text_of(&answers[2]).contains("get weather"),
        "{}",
        answers[2]
    );
    assert_eq!(p.wait().code(), Some(0));
    assert_eq!(calls_received(record).len(), 1);
}

#[test]
fn input_closed_right_after_the_last_request_still_gets_every_answer() {
    let record = scratch("piped-stdio");
    piped_session(Proxy::stdio("gemini", &record), &record);
    let record = scratch("piped-http");
    let mock = HttpMock::start(&record);
    let url = format!("http://127.0.0.1:{}/mcp", mock.port);
    piped_session(
        Proxy::start(&["--provider", "gemini", "--url", &url]),
        &record,
    );
    assert!(received(&record).iter().any(|r| r["delete"] == "sess-1"));
}

#[test]
fn the_server_exiting_ends_the_proxy_with_its_status() {
    let record = scratch("exit");
    let mut p = Proxy::stdio("anthropic", &record);
    p.initialize();
    p.list_all(1);
    p.send(&json!({"jsonrpc": "2.0", "id": 40, "method": "tools/call", "params": {"name": "quit", "arguments": {"code": 7}}}));
    assert_eq!(p.wait().code(), Some(7));
}

#[test]
fn everything_else_passes_byte_for_byte() {
    let record = scratch("passthrough");
    let mut p = Proxy::stdio("gemini", &record);
    p.initialize();
    // Key order the mock wrote (z before a) survives: the line was not re-serialized.
    p.send_line(r#"{"jsonrpc":"2.0","id":"r-1","method":"resources/list","params":{"cursor":"c 1","_meta":{"k":[1,2]}}}"#);
    assert_eq!(
        p.next_line(),
        r#"{"jsonrpc": "2.0", "id": "r-1", "result": {"z": 1, "a": 2, "echo": {"cursor": "c 1", "_meta": {"k": [1, 2]}}}}"#
    );
    // A batch of two requests: both reach the server, as sent.
    p.send_line(r#"[{"jsonrpc":"2.0","id":50,"method":"prompts/list"},{"jsonrpc":"2.0","id":51,"method":"ping"}]"#);
    let ids: Vec<Value> = (0..2).map(|_| p.next()["id"].clone()).collect();
    assert_eq!(ids, vec![json!(50), json!(51)]);
    let got = received(&record);
    assert_eq!(
        got.last().map(|r| r["msg"]["method"].clone()),
        Some(json!("ping"))
    );
    // A batch with an invalid call: the proxy answers it in a batch of its own; the rest goes on.
    p.send_line(r#"[{"jsonrpc":"2.0","id":60,"method":"tools/call","params":{"name":"get_weather","arguments":{}}},{"jsonrpc":"2.0","id":61,"method":"prompts/list"}]"#);
    let first = p.next();
    assert_eq!(first[0]["id"], 60, "{first}");
    assert_eq!(first[0]["result"]["isError"], true, "{first}");
    assert_eq!(p.next()["id"], 61);
    assert_eq!(
        received(&record).last().map(|r| r["msg"]["id"].clone()),
        Some(json!(61))
    );
    // The server's log line on stdout was not passed on, but shown.
    assert!(p.stderr().contains("a log line on stdout"));
    assert_eq!(p.close().code(), Some(0));
}

#[test]
fn a_server_that_cannot_start_is_a_usage_error() {
    let p = Proxy::start(&["--provider", "gemini", "--", "./no-such-mcp-server"]);
    let status = p.wait();
    assert_eq!(status.code(), Some(2));
}
