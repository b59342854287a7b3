//! `toolschema serve` as a process: the flags, a `--config` route with a fixed profile, the JSON
//! log (one line per request, warnings once, no API keys), and SIGTERM during a stream.

#[path = "fixtures/serve_upstream.rs"]
mod upstream;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bytes::Bytes;
use serde_json::Value;
use toolschema::tower_toolschema::{ToolSchemaLayer, sanitize_body, shapes::Api};
use upstream::{FIRST, LAST};

const BOUND: Duration = Duration::from_secs(10);

struct Proc {
    child: Child,
    lines: Arc<Mutex<Vec<String>>>,
    reader: Option<std::thread::JoinHandle<()>>,
}

impl Proc {
    /// Runs `toolschema ARGS` with `RUST_LOG` set to `rust_log` (unset for `None`).
    fn start(args: &[&str], rust_log: Option<&str>) -> Proc {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_toolschema"));
        match rust_log {
            Some(filter) => cmd.env("RUST_LOG", filter),
            None => cmd.env_remove("RUST_LOG"),
        };
        let mut child = cmd
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("runs the binary");
        let stderr = child.stderr.take().unwrap();
        let lines = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&lines);
        let reader = std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                sink.lock().unwrap().push(line);
            }
        });
        Proc {
            child,
            lines,
            reader: Some(reader),
        }
    }

    fn log(&self) -> Vec<String> {
        self.lines.lock().unwrap().clone()
    }

    /// Waits (bounded) for the line announcing the address.
    fn address(&self) -> String {
        let deadline = Instant::now() + BOUND;
        loop {
            if let Some(addr) = self
                .log()
                .iter()
                .find_map(|l| l.split("listening on http://").nth(1).map(str::to_owned))
            {
                return addr.trim().to_owned();
            }
            assert!(Instant::now() < deadline, "no address: {:?}", self.log());
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn wait(&mut self) -> std::process::ExitStatus {
        let deadline = Instant::now() + BOUND;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                // Every line written before the exit is read.
                if let Some(reader) = self.reader.take() {
                    let _ = reader.join();
                }
                return status;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("did not exit: {:?}", self.log());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

const BODY: &str = r##"{"model":"gpt-4o","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"pick","parameters":{"type":"object","properties":{"when":{"type":["string","null"],"pattern":"^[0-9]+$"},"n":{"type":"integer","exclusiveMinimum":0},"tags":{"type":"array","items":{"type":"string"},"uniqueItems":true}}}}}]}"##;

#[tokio::test]
async fn the_binary_routes_by_config_logs_json_without_keys_and_drains_on_sigterm() {
    let up = upstream::plain().await;
    let config = upstream::temp_file(
        "serve.toml",
        &format!(
            "[[routes]]\nprefix = \"/local\"\nupstream = \"{}\"\nprofile = \"gemini\"\n",
            up.url
        ),
    );
    let mut p = Proc::start(
        &[
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--config",
            config.to_str().unwrap(),
            "--log-format",
            "json",
        ],
        Some("debug"),
    );
    let addr = p.address();
    // reqwest's TLS is built without a crypto provider in this workspace (`rustls-no-provider`,
    // for `toolschema mcp`): the process-wide one is ring, as everywhere here.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let c = reqwest::Client::builder().timeout(BOUND).build().unwrap();
    for _ in 0..2 {
        let res = c
            .post(format!(
                "http://{addr}/local/v1/chat/completions?key=k-query"
            ))
            .header("content-type", "application/json")
            .header("authorization", "Bearer sk-secret")
            .header("x-api-key", "sk-ant-secret")
            .header("x-goog-api-key", "goog-secret")
            .body(BODY)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 201);
    }
    // The route fixes the gemini profile, whatever the path says.
    let want = sanitize_body(
        ToolSchemaLayer::gemini().config(),
        Some(Api::OpenAiChat),
        Bytes::from_static(BODY.as_bytes()),
    )
    .0;
    assert_ne!(want, BODY.as_bytes());
    let seen = up.state.last();
    assert_eq!(seen.body, want);
    assert_eq!(seen.headers["authorization"], "Bearer sk-secret");

    // A stream in flight when SIGTERM comes runs to its end; new connections are refused.
    let mut res = c
        .post(format!("http://{addr}/local/v1/chat/completions"))
        .header("x-test-mode", "sse")
        .body("{}")
        .send()
        .await
        .unwrap();
    assert_eq!(res.chunk().await.unwrap().unwrap(), FIRST.as_bytes());
    let killed = Command::new("kill")
        .args(["-TERM", &p.child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let deadline = Instant::now() + BOUND;
    while tokio::net::TcpStream::connect(&addr).await.is_ok() {
        assert!(Instant::now() < deadline, "still accepting after SIGTERM");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(
        p.child.try_wait().unwrap().is_none(),
        "waits for the stream"
    );
    up.state.release.notify_one();
    let rest = upstream::drain(&mut res).await;
    assert_eq!(rest, LAST.as_bytes());
    let status = p.wait();
    assert!(status.success(), "{status:?}: {:?}", p.log());

    let log = p.log();
    let all = log.join("\n");
    for secret in ["sk-secret", "sk-ant-secret", "goog-secret", "k-query"] {
        assert!(!all.contains(secret), "{secret} in the log:\n{all}");
    }
    let events: Vec<Value> = log
        .iter()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    let requests: Vec<&Value> = events
        .iter()
        .filter(|e| e["message"] == "request" && e["status"] == 201)
        .collect();
    assert_eq!(requests.len(), 2, "{all}");
    for r in &requests {
        assert_eq!(r["profile"], "gemini", "{r}");
        assert_eq!(r["route"], "/local", "{r}");
        assert_eq!(r["status"], 201, "{r}");
        assert_eq!(r["tools"], 1, "{r}");
        assert_eq!(r["changed"], 1, "{r}");
        assert!(r["lossy"].as_u64().unwrap() >= 1, "{r}");
        assert_eq!(r["path"], "/local/v1/chat/completions", "{r}");
        assert!(
            r["ms"].as_f64().unwrap() >= r["headers_ms"].as_f64().unwrap(),
            "{r}"
        );
    }
    // The same lost constraint twice: warned once.
    let warnings: Vec<String> = events
        .iter()
        .filter(|e| {
            e["level"] == "WARN" && e["target"] == "toolschema::serve" && e["tool"] == "pick"
        })
        .map(|e| format!("{} {} {}", e["profile"], e["rule"], e["pointer"]))
        .collect();
    assert!(!warnings.is_empty(), "{all}");
    let mut distinct = warnings.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), warnings.len(), "{warnings:?}");
    let streamed = events
        .iter()
        .find(|e| e["message"] == "request" && e["bytes"] == (FIRST.len() + LAST.len()) as u64)
        .unwrap_or_else(|| panic!("the stream's line: {all}"));
    assert_eq!(streamed["end"], "complete");
}

#[tokio::test]
async fn the_text_log_has_one_line_per_request_and_the_layer_quiet_by_default() {
    let up = upstream::plain().await;
    let mut p = Proc::start(
        &["serve", "--listen", "127.0.0.1:0", "--upstream", &up.url],
        None,
    );
    let addr = p.address();
    // reqwest's TLS is built without a crypto provider in this workspace (`rustls-no-provider`,
    // for `toolschema mcp`): the process-wide one is ring, as everywhere here.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let c = reqwest::Client::builder().timeout(BOUND).build().unwrap();
    for _ in 0..3 {
        let res = c
            .post(format!("http://{addr}/v1beta/models/gemini-2.5-flash:generateContent"))
            .body(r#"{"contents":[],"tools":[{"functionDeclarations":[{"name":"pick","parameters":{"type":"object","properties":{"t":{"type":"array","uniqueItems":true}}}}]}]}"#)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 201);
    }
    let killed = Command::new("kill")
        .args(["-TERM", &p.child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    assert!(p.wait().success());
    let log = p.log();
    let requests: Vec<&String> = log.iter().filter(|l| l.contains(" request ")).collect();
    assert_eq!(requests.len(), 3, "{log:#?}");
    for r in requests {
        for field in [
            "api=\"gemini\"",
            "profile=\"gemini\"",
            "tools=1",
            "changed=1",
            "status=201",
        ] {
            assert!(r.contains(field), "{field} in {r}");
        }
    }
    let lost: Vec<&String> = log
        .iter()
        .filter(|l| l.contains("schema constraint lost"))
        .collect();
    assert_eq!(
        lost.len(),
        1,
        "warned once, by serve, not per request by the layer: {log:#?}"
    );
    assert!(!log.iter().any(|l| l.contains("DEBUG")), "{log:#?}");
}

#[test]
fn bad_flags_exit_2_with_a_message() {
    let run = |args: &[&str]| {
        let o = Command::new(env!("CARGO_BIN_EXE_toolschema"))
            .args(args)
            .output()
            .unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    let (code, err) = run(&["serve", "--log-format", "xml"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("xml"), "{err}");
    let (code, err) = run(&["serve", "--upstream", "ftp://example.com"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("ftp://example.com"), "{err}");
    let (code, err) = run(&[
        "serve",
        "--ca-cert",
        "no-such-file.pem",
        "--listen",
        "127.0.0.1:0",
    ]);
    assert_eq!(code, Some(2));
    assert!(err.contains("no-such-file.pem"), "{err}");
    let (code, err) = run(&["serve", "--listen", "not-an-address"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("not-an-address"), "{err}");
}
