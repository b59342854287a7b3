//! The harness: a gateway on a loopback port in front of the loopback upstream, a client, and
//! the request bodies (one per API shape) with what the layer makes of them.

use crate::upstream::FIRST;
use bytes::Bytes;
use std::time::Duration;
use tokio::sync::oneshot;
use toolschema::serve::{ServeError, Server, Settings};
use toolschema::tower_toolschema::{ToolSchemaLayer, sanitize_body, shapes::Api};

/// Everything in these tests ends well within this.
pub(crate) const BOUND: Duration = Duration::from_secs(10);

pub(crate) struct Gateway {
    pub(crate) url: String,
    pub(crate) stop: Option<oneshot::Sender<()>>,
    pub(crate) task: tokio::task::JoinHandle<Result<(), ServeError>>,
}

impl Gateway {
    pub(crate) async fn start(settings: Settings) -> Gateway {
        let server = Server::bind(settings).await.expect("binds");
        let url = format!("http://{}", server.local_addr());
        let (tx, rx) = oneshot::channel::<()>();
        let task = tokio::spawn(server.run(async {
            let _ = rx.await;
        }));
        Gateway {
            url,
            stop: Some(tx),
            task,
        }
    }

    pub(crate) async fn to(upstream: &str) -> Gateway {
        Gateway::start(settings(upstream)).await
    }

    pub(crate) async fn stop(mut self) {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
        tokio::time::timeout(BOUND, &mut self.task)
            .await
            .expect("shuts down in time")
            .expect("joins")
            .expect("runs cleanly");
    }

    /// The metrics once every one of `lines` is among them (counted when a response body is
    /// dropped, a moment after the client read it), within the bound.
    pub(crate) async fn metrics_with(&self, lines: &[&str]) -> String {
        let deadline = tokio::time::Instant::now() + BOUND;
        loop {
            let m = self.metrics().await;
            if lines.iter().all(|want| m.lines().any(|l| l == *want)) {
                return m;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "expected {lines:?} in\n{m}"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    pub(crate) async fn metrics(&self) -> String {
        client()
            .get(format!("{}/metrics", self.url))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap()
    }
}

/// A `{}` POST to `/v1/chat/completions`, answered as `x-test-mode` says.
pub(crate) async fn mode(gw: &Gateway, mode: &str) -> reqwest::Response {
    post_empty(gw, "/v1/chat/completions", Some(mode)).await
}

/// A `{}` POST to `path` on the gateway, with `x-test-mode` when `mode` is given.
pub(crate) async fn post_empty(gw: &Gateway, path: &str, mode: Option<&str>) -> reqwest::Response {
    let req = client().post(format!("{}{path}", gw.url));
    let req = match mode {
        Some(mode) => req.header("x-test-mode", mode),
        None => req,
    };
    req.body("{}").send().await.unwrap()
}

/// A stream that brings the first event and then fails (not a clean end).
pub(crate) async fn cut_after_first(mut res: reqwest::Response) {
    assert_eq!(res.status(), 200);
    assert_eq!(res.chunk().await.unwrap().unwrap(), FIRST.as_bytes());
    let next = tokio::time::timeout(BOUND, res.chunk())
        .await
        .expect("ends in time");
    assert!(
        next.is_err(),
        "a cut stream is an error, not a clean end: {next:?}"
    );
}

pub(crate) fn settings(upstream: &str) -> Settings {
    let mut s = Settings::single("127.0.0.1:0".parse().unwrap(), upstream).unwrap();
    s.shutdown_grace = Duration::from_secs(5);
    s
}

pub(crate) fn client() -> reqwest::Client {
    // reqwest's TLS is built without a crypto provider in this workspace (`rustls-no-provider`,
    // for `toolschema mcp`): the process-wide one is ring, as everywhere here.
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder().timeout(BOUND).build().unwrap()
}

/// A schema every profile has something to change in.
pub(crate) const SCHEMA: &str = r##"{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","additionalProperties":false,"properties":{"when":{"type":["string","null"],"format":"date-time"},"n":{"type":"integer","exclusiveMinimum":0},"pair":{"type":"array","prefixItems":[{"type":"string"},{"type":"number"}]},"tag":{"const":"x"},"list":{"type":"array"},"obj":{"type":"object"},"ref":{"$ref":"#/$defs/x"}},"required":["when"],"$defs":{"x":{"type":"string"}}}"##;

/// (API, path, body with `#S#` for the schema): one per API shape.
pub(crate) const SHAPES: &[(Api, &str, &str)] = &[
    (
        Api::OpenAiChat,
        "/v1/chat/completions",
        r#"{"model":"gpt-4o","messages":[{"role":"user","content":"hi"},{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{\"format\":\"x\"}"}}]}],"tools":[{"type":"function","function":{"name":"f","parameters":#S#}}]}"#,
    ),
    (
        Api::OpenAiResponses,
        "/v1/responses",
        r#"{"model":"gpt-4o","input":"hi","tools":[{"type":"function","name":"f","parameters":#S#}]}"#,
    ),
    (
        Api::AnthropicMessages,
        "/v1/messages",
        r#"{"model":"claude-sonnet-4","max_tokens":10,"messages":[{"role":"user","content":"hi"}],"tools":[{"name":"f","strict":true,"input_schema":#S#}]}"#,
    ),
    (
        Api::Gemini,
        "/v1beta/models/gemini-2.5-flash:generateContent",
        r#"{"contents":[{"role":"user","parts":[{"text":"hi"}]}],"tools":[{"functionDeclarations":[{"name":"f","parameters":#S#}]}]}"#,
    ),
    (
        Api::CodeAssist,
        "/v1internal:generateContent",
        r#"{"model":"gemini-2.5-pro","project":"p","request":{"contents":[],"tools":[{"functionDeclarations":[{"name":"f","parameters":#S#}]}]}}"#,
    ),
    (
        Api::VertexGemini,
        "/v1/projects/p/locations/us-central1/publishers/google/models/gemini-2.5-flash:generateContent",
        r#"{"contents":[],"tools":[{"functionDeclarations":[{"name":"f","parameters":#S#}]}]}"#,
    ),
    (
        Api::BedrockConverse,
        "/model/anthropic.claude-sonnet-4/converse",
        r#"{"messages":[],"toolConfig":{"tools":[{"toolSpec":{"name":"f","inputSchema":{"json":#S#}}}]}}"#,
    ),
    (
        Api::OllamaChat,
        "/api/chat",
        r#"{"model":"llama3","messages":[],"tools":[{"type":"function","function":{"name":"f","parameters":#S#}}]}"#,
    ),
    (
        Api::CohereChat,
        "/v2/chat",
        r#"{"model":"command-r","messages":[],"tools":[{"type":"function","function":{"name":"f","parameters":#S#}}]}"#,
    ),
];

pub(crate) fn body_for(template: &str) -> Bytes {
    Bytes::from(template.replace("#S#", SCHEMA))
}

/// What the layer makes of this body (auto, as the gateway applies it).
pub(crate) fn expected(api: Api, body: &Bytes) -> Bytes {
    sanitize_body(ToolSchemaLayer::auto().config(), Some(api), body.clone()).0
}
