//! Reading a tool list straight from an MCP server over stdio (`--mcp -- COMMAND ...` of
//! `check`, `sanitize`, `diff` and `matrix`):
//! JSON-RPC 2.0, newline-delimited: `initialize`, `notifications/initialized`, then `tools/list`
//! following `nextCursor`. Time-bounded; the child is always killed and reaped, also on timeout
//! and error; its standard error is captured and shown when something goes wrong.

use super::error::CliError;
use serde::Deserialize;
use serde_json::json;
use serde_json::value::RawValue;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// The MCP protocol version this client speaks.
pub const PROTOCOL_VERSION: &str = "2025-06-18";
/// At most this many `tools/list` pages are read (a server repeating cursors cannot loop us).
const MAX_PAGES: usize = 1000;
/// At most this much of the server's standard error is kept (the tail).
const STDERR_KEEP: usize = 8 * 1024;

/// The tools an MCP server listed, as an MCP `tools/list` result's JSON text
/// (`{"server": ..., "tools": [...]}`), each tool's JSON kept as the server sent it.
/// `subcommand` names the command in messages.
pub fn fetch_tools(
    command: &[String],
    timeout: Duration,
    subcommand: &str,
) -> Result<String, CliError> {
    let Some((program, args)) = command.split_first() else {
        return Err(CliError::usage(format!(
            "--mcp needs the server's command after --, e.g. `toolschema {subcommand} --mcp -- npx -y @modelcontextprotocol/server-everything`"
        )));
    };
    let shown = command.join(" ");
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| {
            CliError::usage(format!(
                "cannot start the MCP server `{shown}`: {e} (check the command after --)"
            ))
        })?;
    let stdin = child.stdin.take();
    let stdout = child.stdout.take();
    let stderr = child.stderr.take();
    let mut session = Session {
        child: Some(child),
        stdin,
        lines: spawn_lines(stdout),
        stderr: spawn_stderr(stderr),
        deadline: Instant::now() + timeout,
        timeout,
        shown,
        next_id: 1,
    };
    let result = session.list_tools();
    match result {
        Ok(text) => {
            session.shutdown();
            Ok(text)
        }
        Err(msg) => {
            let status = session.kill();
            let mut msg = msg;
            if let Some((s, false)) = status
                && !s.success()
            {
                msg.push_str(&format!(" (the server exited with {s})"));
            }
            let tail = session.stderr_tail();
            if !tail.trim().is_empty() {
                msg.push_str("\nthe server's standard error ended with:\n");
                msg.push_str(tail.trim_end());
            }
            Err(CliError::usage(msg))
        }
    }
}

enum Event {
    Line(String),
    Eof,
}

fn spawn_lines(stdout: Option<impl Read + Send + 'static>) -> Receiver<Event> {
    let (tx, rx) = channel();
    if let Some(out) = stdout {
        thread::spawn(move || {
            let mut reader = BufReader::new(out);
            loop {
                let mut line = String::new();
                match reader.read_line(&mut line) {
                    Ok(0) | Err(_) => {
                        let _ = tx.send(Event::Eof);
                        return;
                    }
                    Ok(_) => {
                        if tx.send(Event::Line(line)).is_err() {
                            return;
                        }
                    }
                }
            }
        });
    } else {
        let _ = tx.send(Event::Eof);
    }
    rx
}

/// Captures the tail of the child's standard error; the receiver says when it reached EOF.
fn spawn_stderr(stderr: Option<impl Read + Send + 'static>) -> (Arc<Mutex<Vec<u8>>>, Receiver<()>) {
    let buf = Arc::new(Mutex::new(Vec::new()));
    let (tx, rx) = channel();
    if let Some(mut err) = stderr {
        let keep = Arc::clone(&buf);
        thread::spawn(move || {
            let mut chunk = [0u8; 4096];
            while let Ok(n) = err.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                if let Ok(mut b) = keep.lock() {
                    b.extend_from_slice(&chunk[..n]);
                    if b.len() > STDERR_KEEP {
                        let cut = b.len() - STDERR_KEEP;
                        b.drain(..cut);
                    }
                }
            }
            let _ = tx.send(());
        });
    } else {
        let _ = tx.send(());
    }
    (buf, rx)
}

struct Session {
    child: Option<Child>,
    stdin: Option<ChildStdin>,
    lines: Receiver<Event>,
    stderr: (Arc<Mutex<Vec<u8>>>, Receiver<()>),
    deadline: Instant,
    timeout: Duration,
    shown: String,
    next_id: u64,
}

#[derive(Deserialize)]
struct Message<'a> {
    #[serde(default)]
    id: Option<serde_json::Value>,
    #[serde(default)]
    method: Option<String>,
    #[serde(borrow, default)]
    result: Option<&'a RawValue>,
    #[serde(default)]
    error: Option<serde_json::Value>,
}

#[derive(Deserialize)]
struct Page<'a> {
    #[serde(borrow, default)]
    tools: Vec<&'a RawValue>,
    #[serde(rename = "nextCursor", default)]
    next_cursor: Option<String>,
}

#[derive(Deserialize)]
struct InitResult {
    #[serde(rename = "serverInfo", default)]
    server_info: Option<serde_json::Value>,
}

impl Session {
    fn list_tools(&mut self) -> Result<String, String> {
        let init = self.request(
            "initialize",
            json!({
                "protocolVersion": PROTOCOL_VERSION,
                "capabilities": {},
                "clientInfo": {"name": "toolschema", "version": env!("CARGO_PKG_VERSION")},
            }),
        )?;
        let server = serde_json::from_str::<InitResult>(&init)
            .ok()
            .and_then(|i| i.server_info)
            .and_then(|s| s.get("name").and_then(|n| n.as_str()).map(str::to_owned))
            .unwrap_or_else(|| self.shown.clone());
        self.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))?;
        let mut tools: Vec<String> = Vec::new();
        let mut cursor: Option<String> = None;
        let mut seen: Vec<String> = Vec::new();
        for _ in 0..MAX_PAGES {
            let params = match &cursor {
                Some(c) => json!({"cursor": c}),
                None => json!({}),
            };
            let text = self.request("tools/list", params)?;
            let page: Page<'_> = serde_json::from_str(&text).map_err(|e| {
                format!(
                    "the MCP server `{}` answered tools/list with something that is not a tool list: {e}",
                    self.shown
                )
            })?;
            tools.extend(page.tools.iter().map(|t| t.get().to_owned()));
            match page.next_cursor {
                Some(next) if !seen.contains(&next) => {
                    seen.push(next.clone());
                    cursor = Some(next);
                }
                _ => break,
            }
        }
        let mut out = format!(
            "{{\"server\":{},\"tools\":[",
            serde_json::to_string(&server).unwrap_or_else(|_| "\"mcp\"".to_owned())
        );
        out.push_str(&tools.join(","));
        out.push_str("]}");
        Ok(out)
    }

    fn send(&mut self, msg: &serde_json::Value) -> Result<(), String> {
        let line = format!("{msg}\n");
        let shown = &self.shown;
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| format!("the MCP server `{shown}` has no standard input"))?;
        stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.flush())
            .map_err(|e| format!("the MCP server `{shown}` stopped reading its input: {e}"))
    }

    /// Sends a request and waits for its response; the `result`'s JSON text.
    fn request(&mut self, method: &str, params: serde_json::Value) -> Result<String, String> {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))?;
        loop {
            let now = Instant::now();
            let left = self.deadline.saturating_duration_since(now);
            let event = match self.lines.recv_timeout(left) {
                Ok(e) => e,
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!(
                        "the MCP server `{}` did not answer {method} within {} s (raise --timeout, or check that the command starts an MCP server speaking JSON-RPC over stdio)",
                        self.shown,
                        self.timeout.as_secs_f64()
                    ));
                }
                Err(RecvTimeoutError::Disconnected) => Event::Eof,
            };
            let line = match event {
                Event::Line(l) => l,
                Event::Eof => {
                    return Err(format!(
                        "the MCP server `{}` closed its output before answering {method}",
                        self.shown
                    ));
                }
            };
            let Ok(msg) = serde_json::from_str::<Message<'_>>(line.trim()) else {
                continue; // not JSON-RPC (a log line on stdout): skip it
            };
            match (&msg.id, &msg.method) {
                // A request from the server (ping, roots/list, ...): this client offers nothing.
                (Some(req_id), Some(m)) => {
                    let reply = if m == "ping" {
                        json!({"jsonrpc": "2.0", "id": req_id, "result": {}})
                    } else {
                        json!({"jsonrpc": "2.0", "id": req_id, "error": {"code": -32601, "message": "method not found"}})
                    };
                    self.send(&reply)?;
                }
                (Some(resp_id), None) if resp_id.as_u64() == Some(id) => {
                    if let Some(err) = msg.error {
                        return Err(format!(
                            "the MCP server `{}` answered {method} with an error: {err}",
                            self.shown
                        ));
                    }
                    return Ok(msg.result.map_or("null", |r| r.get()).to_owned());
                }
                _ => {} // a notification or someone else's response
            }
        }
    }

    /// Closes the server's input and gives it a moment to exit, then kills it; always reaps.
    fn shutdown(&mut self) {
        self.stdin = None;
        if let Some(child) = self.child.as_mut() {
            let until = Instant::now() + Duration::from_millis(1000);
            while Instant::now() < until {
                match child.try_wait() {
                    Ok(Some(_)) | Err(_) => break,
                    Ok(None) => thread::sleep(Duration::from_millis(10)),
                }
            }
        }
        self.kill();
    }

    /// Kills (if still running) and reaps the child: its exit status, and whether this
    /// killed it.
    fn kill(&mut self) -> Option<(ExitStatus, bool)> {
        self.stdin = None;
        let mut child = self.child.take()?;
        // A child that closed its output may be exiting on its own: a moment to see its status.
        let until = Instant::now() + Duration::from_millis(100);
        loop {
            match child.try_wait() {
                Ok(Some(status)) => return Some((status, false)),
                Ok(None) if Instant::now() < until => thread::sleep(Duration::from_millis(5)),
                _ => break,
            }
        }
        let _ = child.kill();
        child.wait().ok().map(|s| (s, true))
    }

    fn stderr_tail(&self) -> String {
        // The pipe closes when the child is gone; wait briefly for the reader to finish.
        let _ = self.stderr.1.recv_timeout(Duration::from_millis(500));
        let bytes = self.stderr.0.lock().map(|b| b.clone()).unwrap_or_default();
        String::from_utf8_lossy(&bytes).into_owned()
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.kill();
    }
}
