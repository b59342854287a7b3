//! `toolschema serve` with the encodings on (`--encode`, the config's `encode`), in process on
//! loopback: a strict tool with a map goes up strict and encoded, the history's earlier call
//! encoded too, and the model's call comes back to the client decoded; off (the default), the
//! same request goes up without encodings and its history as it came. Every wait is bounded.

#[path = "fixtures/serve_upstream.rs"]
mod upstream;

use std::io::Write;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::sync::oneshot;
use toolschema::serve::{ServeError, Server, Settings};

const BOUND: Duration = Duration::from_secs(10);

/// The tool's earlier call, in its own terms, and as the encoded declaration speaks.
const ARGS: &str = r#"{"env":{"A":"1"}}"#;
const ARGS_ENCODED: &str = r#"{"env":[{"key":"A","value":"1"}]}"#;

fn request() -> String {
    json!({"model": "gpt-4o", "messages": [
        {"role": "user", "content": "set A"},
        {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function",
            "function": {"name": "set_env", "arguments": ARGS}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "ok"}],
      "tools": [{"type": "function", "function": {"name": "set_env", "strict": true,
        "parameters": {"type": "object", "properties": {
            "env": {"type": "object", "additionalProperties": {"type": "string"}}},
          "required": ["env"]}}}]})
    .to_string()
}

async fn start(
    settings: Settings,
) -> (
    String,
    oneshot::Sender<()>,
    tokio::task::JoinHandle<Result<(), ServeError>>,
) {
    let server = Server::bind(settings).await.expect("binds");
    let url = format!("http://{}", server.local_addr());
    let (tx, rx) = oneshot::channel::<()>();
    let task = tokio::spawn(server.run(async {
        let _ = rx.await;
    }));
    (url, tx, task)
}

fn settings(upstream: &str, encode: bool) -> Settings {
    let mut s = Settings::single("127.0.0.1:0".parse().expect("addr"), upstream)
        .expect("settings")
        .encode_all(encode);
    s.shutdown_grace = Duration::from_secs(5);
    s
}

/// One exchange through a gateway (encodings `encode`): what the upstream got, what the client
/// got.
async fn through(encode: bool, answer_args: &str) -> (Value, Value) {
    let up = upstream::plain().await;
    let (url, stop, task) = start(settings(&up.url, encode)).await;
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = reqwest::Client::builder()
        .timeout(BOUND)
        .build()
        .expect("client");
    let res = client
        .post(format!("{url}/v1/chat/completions"))
        .header("content-type", "application/json")
        .header("x-test-mode", "tool-call")
        .header("x-test-args", answer_args)
        .body(request())
        .send()
        .await
        .expect("through the gateway");
    assert_eq!(res.status(), 200);
    let back: Value = serde_json::from_slice(&res.bytes().await.expect("body")).expect("JSON");
    let sent: Value = serde_json::from_slice(&up.state.last().body).expect("JSON");
    let _ = stop.send(());
    tokio::time::timeout(BOUND, task)
        .await
        .expect("shuts down in time")
        .expect("joins")
        .expect("runs cleanly");
    (sent, back)
}

#[tokio::test]
async fn with_encode_the_tool_stays_strict_its_history_is_encoded_and_the_call_decoded() {
    let (sent, back) = through(true, r#"{"env":[{"key":"B","value":"2"}]}"#).await;
    let tool = &sent["tools"][0]["function"];
    assert_eq!(tool["strict"], true, "{tool}");
    assert_eq!(
        tool["parameters"]["properties"]["env"]["type"], "array",
        "{tool}"
    );
    assert_eq!(
        sent["messages"][1]["tool_calls"][0]["function"]["arguments"],
        ARGS_ENCODED
    );
    assert_eq!(
        back["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"],
        r#"{"env":{"B":"2"}}"#,
        "{back}"
    );
}

#[tokio::test]
async fn without_encode_nothing_is_encoded() {
    let (sent, back) = through(false, ARGS).await;
    let tool = &sent["tools"][0]["function"];
    assert_ne!(
        tool["parameters"]["properties"]["env"]["type"], "array",
        "{tool}"
    );
    assert_eq!(
        sent["messages"][1]["tool_calls"][0]["function"]["arguments"],
        ARGS
    );
    assert_eq!(
        back["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"],
        ARGS
    );
}

#[test]
fn the_config_file_turns_encodings_on_for_all_routes_or_one() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join(format!("serve-encode-{}.toml", std::process::id()));
    let mut f = std::fs::File::create(&path).expect("create");
    writeln!(
        f,
        "encode = true\n[[routes]]\nprefix = \"/plain\"\nupstream = \"http://127.0.0.1:9\"\nencode = false\n[[routes]]\nprefix = \"/enc\"\nupstream = \"http://127.0.0.1:9\""
    )
    .expect("write");
    drop(f);
    let s = Settings::load(Some("127.0.0.1:0"), None, Some(&path), &[]).expect("loads");
    let encode = |prefix: &str| {
        s.routes
            .iter()
            .find(|r| r.prefix == prefix)
            .map(|r| r.encode)
    };
    assert_eq!(encode("/plain"), Some(false));
    assert_eq!(encode("/enc"), Some(true));
    // The built-in routes follow the file's `encode`.
    assert_eq!(encode("/openai"), Some(true));
    // Without the key: off; the flag turns every route on.
    let s =
        Settings::load(Some("127.0.0.1:0"), Some("http://127.0.0.1:9"), None, &[]).expect("loads");
    assert!(s.routes.iter().all(|r| !r.encode));
    assert!(s.encode_all(true).routes.iter().all(|r| r.encode));
    let _ = std::fs::remove_file(&path);
}

#[test]
fn serve_help_says_what_encode_does_and_its_default() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_toolschema"))
        .args(["serve", "--help"])
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("--encode"), "{text}");
    assert!(text.contains("Off by default"), "{text}");
}
