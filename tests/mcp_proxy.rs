//! `toolschema mcp` against a mock MCP server (tests/fixtures/mock_mcp_upstream.py), over stdio
//! and Streamable HTTP on 127.0.0.1. Every wait is bounded.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::thread;
use std::time::{Duration, Instant};
use toolschema::provider_rules::{self, Slot};

const WAIT: Duration = Duration::from_secs(20);

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn fixture(name: &str) -> String {
    root()
        .join("tests/fixtures")
        .join(name)
        .display()
        .to_string()
}

fn mock_args(record: &str) -> Vec<String> {
    vec![
        fixture("mock_mcp_upstream.py"),
        "--tools".into(),
        fixture("mcp_proxy_tools.json"),
        "--tools2".into(),
        fixture("mcp_proxy_tools2.json"),
        "--record".into(),
        record.into(),
        // Two tools a page: listings (the client's and the proxy's own) follow cursors.
        "--page-size".into(),
        "2".into(),
    ]
}

/// A scratch file path under the target directory, unique per test.
fn scratch(name: &str) -> String {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let p = dir.join(format!("mcp-proxy-{name}-{}.jsonl", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p.display().to_string()
}

fn lines_of(read: impl std::io::Read + Send + 'static) -> Receiver<String> {
    let (tx, rx) = channel();
    thread::spawn(move || {
        for line in BufReader::new(read).lines() {
            let Ok(line) = line else { return };
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    rx
}

struct Proxy {
    child: Child,
    stdin: Option<ChildStdin>,
    out: Receiver<String>,
    err: Receiver<String>,
}

impl Proxy {
    fn start(args: &[&str]) -> Proxy {
        let mut child = Command::new(env!("CARGO_BIN_EXE_toolschema"))
            .arg("mcp")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn toolschema mcp");
        let stdin = child.stdin.take();
        let out = lines_of(child.stdout.take().expect("stdout"));
        let err = lines_of(child.stderr.take().expect("stderr"));
        Proxy {
            child,
            stdin,
            out,
            err,
        }
    }

    fn stdio(provider: &str, record: &str) -> Proxy {
        let mut args = vec!["--provider", provider, "--", "python3"];
        let mock = mock_args(record);
        args.extend(mock.iter().map(String::as_str));
        Proxy::start(&args)
    }

    fn send_line(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("write to the proxy");
        stdin.flush().expect("flush");
    }

    fn send(&mut self, msg: &Value) {
        self.send_line(&msg.to_string());
    }

    /// The next line from the proxy, raw.
    fn next_line(&self) -> String {
        match self.out.recv_timeout(WAIT) {
            Ok(l) => l,
            Err(e) => panic!(
                "no line from the proxy within {WAIT:?} ({e}); stderr: {}",
                self.stderr()
            ),
        }
    }

    fn next(&self) -> Value {
        let line = self.next_line();
        serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("not JSON from the proxy: {e}: {line}"))
    }

    fn stderr(&self) -> String {
        self.err.try_iter().collect::<Vec<_>>().join("\n")
    }

    /// Sends a request and reads lines until its response.
    fn request(&mut self, id: Value, method: &str, params: Value) -> Value {
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let v = self.next();
            if v.get("id") == Some(&id) && v.get("method").is_none() {
                return v;
            }
        }
    }

    fn initialize(&mut self) -> Value {
        let r = self.request(
            json!(0),
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "0"}}),
        );
        self.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        r
    }

    /// Lists every page, following nextCursor.
    fn list_all(&mut self, first_id: i64) -> Vec<Value> {
        let mut tools = Vec::new();
        let mut cursor: Option<String> = None;
        for i in 0..50 {
            let params = match &cursor {
                Some(c) => json!({"cursor": c}),
                None => json!({}),
            };
            let r = self.request(json!(first_id + i), "tools/list", params);
            tools.extend(r["result"]["tools"].as_array().cloned().unwrap_or_default());
            match r["result"]["nextCursor"].as_str() {
                Some(c) => cursor = Some(c.to_owned()),
                None => return tools,
            }
        }
        panic!("too many pages")
    }

    fn call(&mut self, id: i64, name: &str, args: Value) -> Value {
        self.request(
            json!(id),
            "tools/call",
            json!({"name": name, "arguments": args}),
        )
    }

    /// Calls the mock's `mutate` tool; returns once both its answer and the server's
    /// `notifications/tools/list_changed` (in either order) reached the client.
    fn mutate(&mut self, id: i64) {
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": "mutate", "arguments": {}}}));
        let (mut notice, mut answer) = (false, false);
        while !(notice && answer) {
            let v = self.next();
            notice |= v["method"] == "notifications/tools/list_changed";
            answer |= v["id"] == id;
        }
    }

    /// Waits (bounded) for the proxy to exit.
    fn wait(mut self) -> ExitStatus {
        let until = Instant::now() + WAIT;
        loop {
            if let Some(s) = self.child.try_wait().expect("try_wait") {
                return s;
            }
            if Instant::now() > until {
                let _ = self.child.kill();
                panic!(
                    "the proxy did not exit within {WAIT:?}; stderr: {}",
                    self.stderr()
                );
            }
            thread::sleep(Duration::from_millis(20));
        }
    }

    fn close(mut self) -> ExitStatus {
        self.stdin = None;
        self.wait()
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What the mock recorded: the messages it received.
fn received(record: &str) -> Vec<Value> {
    std::fs::read_to_string(record)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

fn calls_received(record: &str) -> Vec<Value> {
    received(record)
        .into_iter()
        .filter(|r| r["msg"]["method"] == "tools/call")
        .map(|r| r["msg"]["params"].clone())
        .collect()
}

fn text_of(resp: &Value) -> String {
    resp["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no text content: {resp}"))
        .to_owned()
}

fn originals() -> Vec<Value> {
    let text = std::fs::read_to_string(fixture("mcp_proxy_tools.json")).expect("fixture");
    let v: Value = serde_json::from_str(&text).expect("fixture JSON");
    v["tools"].as_array().cloned().unwrap_or_default()
}

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

/// The mock in HTTP mode; its port.
struct HttpMock {
    child: Child,
    port: u16,
}

impl HttpMock {
    fn start(record: &str) -> HttpMock {
        HttpMock::start_with(record, &[])
    }

    fn start_with(record: &str, extra: &[String]) -> HttpMock {
        let mut child = Command::new("python3")
            .args(mock_args(record))
            .arg("--http")
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .spawn()
            .expect("spawn the HTTP mock");
        let out = lines_of(child.stdout.take().expect("stdout"));
        let line = out.recv_timeout(WAIT).expect("the mock's port");
        let port = line
            .strip_prefix("port ")
            .and_then(|p| p.parse().ok())
            .expect("port N");
        HttpMock { child, port }
    }
}

impl Drop for HttpMock {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

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
fn a_server_that_cannot_start_is_a_usage_error() {
    let p = Proxy::start(&["--provider", "gemini", "--", "./no-such-mcp-server"]);
    let status = p.wait();
    assert_eq!(status.code(), Some(2));
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

/// `--encode`: the listing speaks the encoded form (a map as key/value entries, a numeric enum
/// as strings) and a call in that form reaches the server decoded; without it, nothing is.
#[test]
fn with_encode_the_listing_is_encoded_and_calls_reach_the_server_decoded() {
    let start = |encode: bool, record: &str| {
        let tools = fixture("mcp_proxy_tools_maps.json");
        let mock = fixture("mock_mcp_upstream.py");
        let mut args = vec!["--provider", "gemini"];
        if encode {
            args.push("--encode");
        }
        args.extend([
            "--", "python3", &mock, "--tools", &tools, "--record", record,
        ]);
        Proxy::start(&args)
    };
    let record = scratch("encode");
    let mut p = start(true, &record);
    p.initialize();
    let tools = p.list_all(1);
    let schema = &tools[0]["inputSchema"];
    assert_eq!(schema["properties"]["env"]["type"], "array", "{schema}");
    assert_eq!(
        schema["properties"]["level"]["enum"],
        json!(["1", "2"]),
        "{schema}"
    );
    let r = p.call(
        5,
        "configure",
        json!({"env": [{"key": "A", "value": "1"}], "level": "2"}),
    );
    assert_eq!(r["result"].get("isError"), None, "{r}");
    // A call already in the tool's own terms has nothing to decode: valid, it goes on as is.
    let r = p.call(6, "configure", json!({"env": {"A": "1"}, "level": 2}));
    assert_eq!(r["result"].get("isError"), None, "{r}");
    // Encoded but invalid for the tool once decoded (level 3): answered, never sent.
    let r = p.call(7, "configure", json!({"env": [], "level": "3"}));
    assert_eq!(r["result"]["isError"], true, "{r}");
    let calls = calls_received(&record);
    assert_eq!(calls.len(), 2, "{calls:?}");
    for c in &calls {
        assert_eq!(c["arguments"], json!({"env": {"A": "1"}, "level": 2}));
    }

    let record = scratch("no-encode");
    let mut p = start(false, &record);
    p.initialize();
    let tools = p.list_all(1);
    assert_ne!(
        tools[0]["inputSchema"]["properties"]["env"]["type"],
        "array"
    );
    p.call(5, "configure", json!({"env": {"A": "1"}, "level": 2}));
    let calls = calls_received(&record);
    assert_eq!(
        calls[0]["arguments"],
        json!({"env": {"A": "1"}, "level": 2})
    );
}
