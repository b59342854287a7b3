//! The harness: the mock MCP server's arguments and record, the proxy as a child process with
//! bounded waits, and readers of what the mock received.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::thread;
use std::time::{Duration, Instant};

pub(crate) const WAIT: Duration = Duration::from_secs(20);

pub(crate) fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub(crate) fn fixture(name: &str) -> String {
    root()
        .join("tests/fixtures")
        .join(name)
        .display()
        .to_string()
}

pub(crate) fn mock_args(record: &str) -> Vec<String> {
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
pub(crate) fn scratch(name: &str) -> String {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let p = dir.join(format!("mcp-proxy-{name}-{}.jsonl", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p.display().to_string()
}

pub(crate) fn lines_of(read: impl std::io::Read + Send + 'static) -> Receiver<String> {
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

pub(crate) struct Proxy {
    pub(crate) child: Child,
    pub(crate) stdin: Option<ChildStdin>,
    pub(crate) out: Receiver<String>,
    pub(crate) err: Receiver<String>,
}

impl Proxy {
    pub(crate) fn start(args: &[&str]) -> Proxy {
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

    pub(crate) fn stdio(provider: &str, record: &str) -> Proxy {
        let mut args = vec!["--provider", provider, "--", "python3"];
        let mock = mock_args(record);
        args.extend(mock.iter().map(String::as_str));
        Proxy::start(&args)
    }

    pub(crate) fn send_line(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("write to the proxy");
        stdin.flush().expect("flush");
    }

    pub(crate) fn send(&mut self, msg: &Value) {
        self.send_line(&msg.to_string());
    }

    /// The next line from the proxy, raw.
    pub(crate) fn next_line(&self) -> String {
        match self.out.recv_timeout(WAIT) {
            Ok(l) => l,
            Err(e) => panic!(
                "no line from the proxy within {WAIT:?} ({e}); stderr: {}",
                self.stderr()
            ),
        }
    }

    pub(crate) fn next(&self) -> Value {
        let line = self.next_line();
        serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("not JSON from the proxy: {e}: {line}"))
    }

    pub(crate) fn stderr(&self) -> String {
        self.err.try_iter().collect::<Vec<_>>().join("\n")
    }

    /// Sends a request and reads lines until its response.
    pub(crate) fn request(&mut self, id: Value, method: &str, params: Value) -> Value {
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let v = self.next();
            if v.get("id") == Some(&id) && v.get("method").is_none() {
                return v;
            }
        }
    }

    pub(crate) fn initialize(&mut self) -> Value {
        let r = self.request(
            json!(0),
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "0"}}),
        );
        self.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        r
    }

    /// Lists every page, following nextCursor.
    pub(crate) fn list_all(&mut self, first_id: i64) -> Vec<Value> {
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

    pub(crate) fn call(&mut self, id: i64, name: &str, args: Value) -> Value {
        self.request(
            json!(id),
            "tools/call",
            json!({"name": name, "arguments": args}),
        )
    }

    /// Calls the mock's `mutate` tool; returns once both its answer and the server's
    /// `notifications/tools/list_changed` (in either order) reached the client.
    pub(crate) fn mutate(&mut self, id: i64) {
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": "mutate", "arguments": {}}}));
        let (mut notice, mut answer) = (false, false);
        while !(notice && answer) {
            let v = self.next();
            notice |= v["method"] == "notifications/tools/list_changed";
            answer |= v["id"] == id;
        }
    }

    /// Waits (bounded) for the proxy to exit.
    pub(crate) fn wait(mut self) -> ExitStatus {
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

    pub(crate) fn close(mut self) -> ExitStatus {
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
pub(crate) fn received(record: &str) -> Vec<Value> {
    std::fs::read_to_string(record)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

pub(crate) fn calls_received(record: &str) -> Vec<Value> {
    received(record)
        .into_iter()
        .filter(|r| r["msg"]["method"] == "tools/call")
        .map(|r| r["msg"]["params"].clone())
        .collect()
}

pub(crate) fn text_of(resp: &Value) -> String {
    resp["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no text content: {resp}"))
        .to_owned()
}

pub(crate) fn originals() -> Vec<Value> {
    let text = std::fs::read_to_string(fixture("mcp_proxy_tools.json")).expect("fixture");
    let v: Value = serde_json::from_str(&text).expect("fixture JSON");
    v["tools"].as_array().cloned().unwrap_or_default()
}

/// The mock in HTTP mode; its port.
pub(crate) struct HttpMock {
    pub(crate) child: Child,
    pub(crate) port: u16,
}

impl HttpMock {
    pub(crate) fn start(record: &str) -> HttpMock {
        HttpMock::start_with(record, &[])
    }

    pub(crate) fn start_with(record: &str, extra: &[String]) -> HttpMock {
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
