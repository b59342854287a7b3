//! Streamable HTTP and HTTPS servers behind the proxy, and one that cannot be reached.

use crate::support::*;
use serde_json::{Value, json};
use toolschema::provider_rules::{self, Slot};

#[test]
fn streamable_http_servers_are_proxied_too() {
    let record = scratch("http");
    let mock = HttpMock::start(&record);
    let url = format!("http://127.0.0.1:{}/mcp", mock.port);
    let mut p = Proxy::start(&["--provider", "gemini", "--url", &url, "-H", "X-Test: yes"]);
    let init = p.initialize();
    assert_eq!(
        init["result"]["serverInfo"]["name"], "mock-upstream",
        "{init}"
    );
    let tools = p.list_all(1);
    assert_eq!(tools[0]["name"], "get_weather");
    let rules = provider_rules::profile("gemini").expect("gemini");
    for t in &tools {
        assert!(provider_rules::check(&t["inputSchema"], rules, Slot::Parameters).is_empty());
    }
    // Answered over SSE, under the server's own name.
    let r = p.call(10, "get_weather", json!({"city": "Oslo"}));
    let echoed: Value = serde_json::from_str(&text_of(&r)).expect("echo");
    assert_eq!(echoed["name"], "get weather");
    let r = p.call(11, "get_weather", json!({"town": "Oslo"}));
    assert_eq!(r["result"]["isError"], true);
    // list_changed arrives on the GET stream.
    p.mutate(12);
    let r = p.call(13, "translate", json!({"text": "hi"}));
    assert_eq!(r["result"]["isError"], true, "{r}");
    // A stream that ends without the answer: the request is answered with an error, not left hanging.
    let r = p.call(14, "vanish", json!({}));
    assert_eq!(r["error"]["code"], -32000, "{r}");
    assert!(
        r["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("ended before the answer"),
        "{r}"
    );
    let r = p.call(15, "shrug", json!({}));
    assert!(
        r["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("HTTP 202 without an answer"),
        "{r}"
    );
    assert_eq!(p.close().code(), Some(0));
    let got = received(&record);
    let calls: Vec<&Value> = got
        .iter()
        .filter(|r| r["msg"]["method"] == "tools/call")
        .collect();
    assert_eq!(calls.len(), 4, "{calls:?}");
    // Every request after initialize carried the session and the protocol version.
    for r in got.iter().filter(|r| r.get("msg").is_some()).skip(1) {
        assert_eq!(r["session"], "sess-1", "{r}");
    }
    assert!(
        got.iter()
            .any(|r| r["msg"]["method"] == "tools/list" && r["protocol"] == "2025-06-18")
    );
    assert!(
        got.iter().any(|r| r["delete"] == "sess-1"),
        "the session was not ended"
    );
}

#[test]
fn an_unreachable_http_server_is_answered_with_an_error_naming_it() {
    // A port that was just free: nothing listens there.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port");
    let url = format!("http://127.0.0.1:{port}/mcp");
    let mut p = Proxy::start(&[
        "--provider",
        "openai",
        "--url",
        &url,
        "--connect-timeout",
        "2",
    ]);
    let r = p.request(
        json!(1),
        "initialize",
        json!({"protocolVersion": "2025-06-18", "capabilities": {}}),
    );
    let msg = r["error"]["message"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(msg.contains(&url), "{r}");
    assert_eq!(r["error"]["code"], -32000);
    assert_eq!(p.close().code(), Some(0));
}

#[test]
fn https_servers_are_trusted_through_ca_cert() {
    let certified = rcgen::generate_simple_self_signed(vec!["localhost".to_owned()])
        .expect("a self-signed certificate");
    let cert = scratch("tls-cert").replace(".jsonl", ".pem");
    let key = scratch("tls-key").replace(".jsonl", ".pem");
    std::fs::write(&cert, certified.cert.pem()).expect("write cert");
    std::fs::write(&key, certified.signing_key.serialize_pem()).expect("write key");
    let record = scratch("https");
    let mock = HttpMock::start_with(
        &record,
        &["--tls-cert".into(), cert.clone(), "--tls-key".into(), key],
    );
    let url = format!("https://localhost:{}/mcp", mock.port);
    let init = json!({"protocolVersion": "2025-06-18", "capabilities": {}});
    // Not trusted without the certificate: the request is answered with the TLS cause.
    let mut p = Proxy::start(&["--provider", "gemini", "--url", &url]);
    let r = p.request(json!(1), "initialize", init.clone());
    let msg = r["error"]["message"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(
        msg.contains(&url) && msg.to_lowercase().contains("certificate"),
        "{r}"
    );
    assert_eq!(p.close().code(), Some(0));
    // Trusted with it.
    let mut p = Proxy::start(&["--provider", "gemini", "--url", &url, "--ca-cert", &cert]);
    let r = p.request(json!(1), "initialize", init);
    assert_eq!(r["result"]["serverInfo"]["name"], "mock-upstream", "{r}");
    p.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    assert_eq!(p.list_all(2)[0]["name"], "get_weather");
    assert_eq!(p.close().code(), Some(0));
}
