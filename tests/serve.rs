//! `toolschema serve` in process: a gateway on a loopback port in front of a loopback upstream
//! (plain or TLS), a reqwest client through it. Every wait is bounded.

#[path = "fixtures/serve_upstream.rs"]
mod upstream;

use std::io::Write;
use std::time::Duration;

use bytes::Bytes;
use http::Version;
use serde_json::Value;
use tokio::sync::oneshot;
use toolschema::serve::{Route, ServeError, Server, Settings};
use toolschema::tower_toolschema::{ToolSchemaLayer, sanitize_body, shapes::Api};
use upstream::{FIRST, LAST, REPLY};

/// Everything in these tests ends well within this.
const BOUND: Duration = Duration::from_secs(10);

struct Gateway {
    url: String,
    stop: Option<oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<Result<(), ServeError>>,
}

impl Gateway {
    async fn start(settings: Settings) -> Gateway {
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

    async fn to(upstream: &str) -> Gateway {
        Gateway::start(settings(upstream)).await
    }

    async fn stop(mut self) {
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
    async fn metrics_with(&self, lines: &[&str]) -> String {
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

    async fn metrics(&self) -> String {
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
async fn mode(gw: &Gateway, mode: &str) -> reqwest::Response {
    client()
        .post(format!("{}/v1/chat/completions", gw.url))
        .header("x-test-mode", mode)
        .body("{}")
        .send()
        .await
        .unwrap()
}

/// A stream that brings the first event and then fails (not a clean end).
async fn cut_after_first(mut res: reqwest::Response) {
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

fn settings(upstream: &str) -> Settings {
    let mut s = Settings::single("127.0.0.1:0".parse().unwrap(), upstream).unwrap();
    s.shutdown_grace = Duration::from_secs(5);
    s
}

fn client() -> reqwest::Client {
    // reqwest's TLS is built without a crypto provider in this workspace (`rustls-no-provider`,
    // for `toolschema mcp`): the process-wide one is ring, as everywhere here.
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder().timeout(BOUND).build().unwrap()
}

/// A schema every profile has something to change in.
const SCHEMA: &str = r##"{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","additionalProperties":false,"properties":{"when":{"type":["string","null"],"format":"date-time"},"n":{"type":"integer","exclusiveMinimum":0},"pair":{"type":"array","prefixItems":[{"type":"string"},{"type":"number"}]},"tag":{"const":"x"},"list":{"type":"array"},"obj":{"type":"object"},"ref":{"$ref":"#/$defs/x"}},"required":["when"],"$defs":{"x":{"type":"string"}}}"##;

/// (API, path, body with `#S#` for the schema): one per API shape.
const SHAPES: &[(Api, &str, &str)] = &[
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

fn body_for(template: &str) -> Bytes {
    Bytes::from(template.replace("#S#", SCHEMA))
}

/// What the layer makes of this body (auto, as the gateway applies it).
fn expected(api: Api, body: &Bytes) -> Bytes {
    sanitize_body(ToolSchemaLayer::auto().config(), Some(api), body.clone()).0
}

#[tokio::test]
async fn every_api_shape_is_sanitized_and_the_rest_goes_on_byte_identical() {
    let up = upstream::plain().await;
    let gw = Gateway::to(&up.url).await;
    let c = client();
    for (api, path, template) in SHAPES {
        let body = body_for(template);
        let want = expected(*api, &body);
        assert_ne!(want, body, "{api}: the test schema needs changes");
        let res = c
            .post(format!("{}{path}?alt=sse&key=k-query", gw.url))
            .header("content-type", "application/json")
            .header("authorization", "Bearer sk-secret")
            .header("x-api-key", "sk-ant-secret")
            .header("x-goog-api-key", "goog-secret")
            .header("x-custom", "kept as is")
            .header("connection", "x-hop")
            .header("x-hop", "dropped")
            .body(body.clone())
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 201, "{api}");
        assert_eq!(res.headers()["x-upstream"], "yes");
        assert_eq!(res.bytes().await.unwrap(), REPLY.as_bytes(), "{api}: reply");
        let seen = up.state.last();
        assert_eq!(seen.uri, format!("{path}?alt=sse&key=k-query"), "{api}");
        assert_eq!(seen.body, want, "{api}: the body the layer makes");
        let h = &seen.headers;
        assert_eq!(h["authorization"], "Bearer sk-secret");
        assert_eq!(h["x-api-key"], "sk-ant-secret");
        assert_eq!(h["x-goog-api-key"], "goog-secret");
        assert_eq!(h["x-custom"], "kept as is");
        assert_eq!(h["host"], up.addr.to_string(), "Host is the upstream's");
        assert!(!h.contains_key("x-hop"), "hop-by-hop headers go");
        assert_eq!(h["content-length"], want.len().to_string());
    }
    // Not a schema-carrying request: untouched, whatever it holds.
    let odd = Bytes::from_static(br#"{"tools":[{"type":["a","b"]}], "x": 1.0e0}"#);
    let res = c
        .post(format!("{}/v1/embeddings", gw.url))
        .header("content-type", "application/json")
        .body(odd.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    assert_eq!(up.state.last().body, odd);
    gw.stop().await;
}

#[tokio::test]
async fn a_tls_upstream_is_reached_over_http2_with_the_ca_cert_and_refused_without() {
    let up = upstream::tls().await;
    let ca = up.ca_pem.clone().unwrap();
    let mut s = settings(&up.url);
    s.ca_certs = vec![ca];
    let gw = Gateway::start(s).await;
    let (api, path, template) = SHAPES[0];
    let body = body_for(template);
    let res = client()
        .post(format!("{}{path}", gw.url))
        .header("content-type", "application/json")
        .body(body.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    assert_eq!(res.bytes().await.unwrap(), REPLY.as_bytes());
    let seen = up.state.last();
    assert_eq!(seen.version, Version::HTTP_2, "ALPN picked HTTP/2");
    assert_eq!(seen.body, expected(api, &body));
    gw.stop().await;

    // Without the CA: a 502 naming the upstream and the cause.
    let gw = Gateway::to(&up.url).await;
    let res = client()
        .post(format!("{}{path}", gw.url))
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 502);
    let v: Value = serde_json::from_slice(&res.bytes().await.unwrap()).unwrap();
    assert_eq!(v["error"]["type"], "upstream_tls", "{v}");
    assert_eq!(v["error"]["upstream"], format!("{}/", up.url), "{v}");
    let cause = v["error"]["cause"].as_str().unwrap();
    assert!(cause.to_lowercase().contains("certificate"), "{cause}");
    gw.stop().await;
}

#[tokio::test]
async fn sse_streams_the_first_event_before_the_upstream_sends_the_last() {
    let up = upstream::plain().await;
    let gw = Gateway::to(&up.url).await;
    let mut res = client()
        .post(format!(
            "{}/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
            gw.url
        ))
        .header("x-test-mode", "sse")
        .body(body_for(SHAPES[3].2))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["content-type"], "text/event-stream");
    // The upstream holds its last event until it is released, which happens only once the
    // first has arrived here: a gateway that buffered would time out.
    let first = tokio::time::timeout(BOUND, res.chunk())
        .await
        .expect("the first event arrives while the upstream waits")
        .unwrap()
        .unwrap();
    assert_eq!(first, FIRST.as_bytes());
    up.state.release.notify_one();
    let rest = upstream::drain(&mut res).await;
    assert_eq!(rest, LAST.as_bytes());
    gw.stop().await;
}

#[tokio::test]
async fn compressed_bodies_are_sanitized_too() {
    let up = upstream::plain().await;
    let gw = Gateway::to(&up.url).await;
    let (api, path, template) = SHAPES[2];
    let body = body_for(template);
    let gzip = {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(&body).unwrap();
        e.finish().unwrap()
    };
    let deflate = {
        let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(&body).unwrap();
        e.finish().unwrap()
    };
    let br = {
        let mut out = Vec::new();
        let mut w = brotli::CompressorWriter::new(&mut out, 4096, 5, 22);
        w.write_all(&body).unwrap();
        drop(w);
        out
    };
    let zstd = zstd::encode_all(&body[..], 3).unwrap();
    for (enc, bytes) in [
        ("gzip", gzip),
        ("deflate", deflate),
        ("br", br),
        ("zstd", zstd),
    ] {
        let res = client()
            .post(format!("{}{path}", gw.url))
            .header("content-type", "application/json")
            .header("content-encoding", enc)
            .body(bytes)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 201, "{enc}");
        let seen = up.state.last();
        assert_eq!(seen.body, expected(api, &body), "{enc}");
        assert!(!seen.headers.contains_key("content-encoding"), "{enc}");
    }
    gw.stop().await;
}

#[tokio::test]
async fn metrics_count_requests_changes_and_upstream_errors() {
    let up = upstream::plain().await;
    let mut s = settings(&up.url);
    let dead = format!("http://127.0.0.1:{}", upstream::closed_port());
    s.routes.insert(0, Route::new("/dead", &dead).unwrap());
    let gw = Gateway::start(s).await;
    let c = client();
    let (_, path, template) = SHAPES[3];
    for _ in 0..3 {
        let res = c
            .post(format!("{}{path}", gw.url))
            .body(body_for(template))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 201);
    }
    let res = c
        .post(format!("{}/dead/v1/chat/completions", gw.url))
        .body(body_for(SHAPES[0].2))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 502);
    let health = c.get(format!("{}/healthz", gw.url)).send().await.unwrap();
    assert_eq!(health.status(), 200);
    let m = gw
        .metrics_with(&[
            r#"toolschema_serve_requests_total{route="/",api="gemini",status="201"} 3"#,
            r#"toolschema_serve_slots_changed_total{profile="gemini"} 3"#,
            r#"toolschema_serve_upstream_errors_total{route="/dead",cause="upstream_unreachable"} 1"#,
            r#"toolschema_serve_response_headers_seconds_count{route="/"} 3"#,
            "toolschema_serve_in_flight 0",
        ])
        .await;
    assert!(
        m.lines()
            .any(|l| l.starts_with("toolschema_serve_lossy_changes_total{profile=\"gemini\"}")),
        "{m}"
    );
    gw.stop().await;
}

/// A tool name OpenAI refuses (`^[a-zA-Z0-9_-]{1,64}$`) is renamed on the way up and mapped
/// back in the answer: the client sees its own name, the upstream only the valid one, and the
/// log line and `/metrics` count both.
#[tokio::test]
async fn a_refused_tool_name_is_renamed_upstream_and_mapped_back_for_the_client() {
    let up = upstream::plain().await;
    let gw = Gateway::to(&up.url).await;
    let body = r#"{"model":"gpt-4o","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"github.create issue","parameters":{"type":"object","properties":{}}}}]}"#;
    let res = client()
        .post(format!("{}/v1/chat/completions", gw.url))
        .header("x-test-mode", "tool-call")
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let answer: Value = serde_json::from_slice(&res.bytes().await.unwrap()).unwrap();
    let sent: Value = serde_json::from_slice(&up.state.last().body).unwrap();
    let upstream_name = sent["tools"][0]["function"]["name"].as_str().unwrap();
    assert_ne!(upstream_name, "github.create issue");
    assert!(
        upstream_name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-'),
        "{upstream_name}"
    );
    assert_eq!(
        answer["choices"][0]["message"]["tool_calls"][0]["function"]["name"], "github.create issue",
        "{answer}"
    );
    gw.metrics_with(&[
        "toolschema_serve_tools_renamed_total 1",
        "toolschema_serve_calls_restored_total 1",
    ])
    .await;
    gw.stop().await;
}

#[tokio::test]
async fn an_unreachable_upstream_is_a_502_naming_it_and_the_cause() {
    let dead = format!("http://127.0.0.1:{}", upstream::closed_port());
    let gw = Gateway::to(&dead).await;
    let res = client()
        .post(format!("{}/v1/messages", gw.url))
        .body("{}")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 502);
    let v: Value = serde_json::from_slice(&res.bytes().await.unwrap()).unwrap();
    assert_eq!(v["error"]["type"], "upstream_unreachable", "{v}");
    assert_eq!(v["error"]["upstream"], format!("{dead}/"));
    let cause = v["error"]["cause"].as_str().unwrap().to_lowercase();
    assert!(cause.contains("refused"), "{cause}");
    gw.stop().await;
}

#[tokio::test]
async fn a_stalled_upstream_is_a_504_and_a_stall_mid_stream_cuts_the_stream() {
    let up = upstream::plain().await;
    let mut s = settings(&up.url);
    s.routes[0].limits.idle_timeout = Duration::from_secs(1);
    let gw = Gateway::start(s).await;
    let res = mode(&gw, "stall").await;
    assert_eq!(res.status(), 504);
    let v: Value = serde_json::from_slice(&res.bytes().await.unwrap()).unwrap();
    assert_eq!(v["error"]["type"], "upstream_timeout", "{v}");

    cut_after_first(mode(&gw, "stall-mid").await).await;
    gw.metrics_with(&[
        r#"toolschema_serve_streams_cut_total{route="/",cause="upstream_timeout"} 1"#,
    ])
    .await;
    gw.stop().await;
}

#[tokio::test]
async fn provider_errors_pass_through_unchanged() {
    let up = upstream::plain().await;
    let gw = Gateway::to(&up.url).await;
    let res = mode(&gw, "500").await;
    assert_eq!(res.status(), 500);
    assert_eq!(res.headers()["x-provider-request-id"], "req_123");
    assert!(!res.headers().contains_key("x-toolschema-error"));
    assert_eq!(
        res.text().await.unwrap(),
        r#"{"error":{"message":"boom","type":"server_error"}}"#
    );
    gw.stop().await;
}

#[tokio::test]
async fn an_upstream_reset_mid_stream_reaches_the_client_as_an_error_and_serving_goes_on() {
    let up = upstream::plain().await;
    let gw = Gateway::to(&up.url).await;
    cut_after_first(mode(&gw, "reset").await).await;
    let res = mode(&gw, "echo").await;
    assert_eq!(res.status(), 201, "the next request is served");
    gw.metrics_with(&[r#"toolschema_serve_streams_cut_total{route="/",cause="upstream_reset"} 1"#])
        .await;
    gw.stop().await;
}

#[tokio::test]
async fn a_client_leaving_mid_stream_releases_the_upstream() {
    let up = upstream::plain().await;
    let gw = Gateway::to(&up.url).await;
    let mut res = mode(&gw, "sse-forever").await;
    assert_eq!(res.chunk().await.unwrap().unwrap(), FIRST.as_bytes());
    drop(res);
    tokio::time::timeout(BOUND, up.state.gone.notified())
        .await
        .expect("the upstream's stream is dropped when the client leaves");
    gw.metrics_with(&[
        r#"toolschema_serve_streams_cut_total{route="/",cause="client_gone"} 1"#,
        "toolschema_serve_in_flight 0",
    ])
    .await;
    gw.stop().await;
}

#[tokio::test]
async fn shutdown_lets_a_stream_finish_and_refuses_new_connections() {
    let up = upstream::plain().await;
    let gw = Gateway::to(&up.url).await;
    let addr = gw.url.trim_start_matches("http://").to_owned();
    let mut res = mode(&gw, "sse").await;
    assert_eq!(res.chunk().await.unwrap().unwrap(), FIRST.as_bytes());
    let Gateway {
        mut stop, mut task, ..
    } = gw;
    let _ = stop.take().unwrap().send(());
    // The listener closes: a new connection is refused, while the stream is still open.
    let deadline = tokio::time::Instant::now() + BOUND;
    while tokio::net::TcpStream::connect(&addr).await.is_ok() {
        assert!(tokio::time::Instant::now() < deadline, "still accepting");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(!task.is_finished(), "waits for the stream");
    up.state.release.notify_one();
    let rest = upstream::drain(&mut res).await;
    assert_eq!(rest, LAST.as_bytes(), "the stream in flight finished");
    tokio::time::timeout(BOUND, &mut task)
        .await
        .expect("stops once the stream is done")
        .unwrap()
        .unwrap();
}

#[tokio::test]
async fn bodies_over_the_limit_and_requests_over_the_concurrency_are_refused() {
    let up = upstream::plain().await;
    let mut s = settings(&up.url);
    s.routes[0].limits.body_bytes = 64;
    s.routes[0].limits.concurrency = 1;
    let gw = Gateway::start(s).await;
    let big = "x".repeat(200);
    let res = client()
        .post(format!("{}/v1/chat/completions", gw.url))
        .body(big.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 413);
    // Compressed small, large once decompressed: refused as well, nothing forwarded whole.
    let gzip = {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        e.write_all(format!("{{\"model\":\"{big}\"}}").as_bytes())
            .unwrap();
        e.finish().unwrap()
    };
    assert!(gzip.len() < 64);
    let res = client()
        .post(format!("{}/v1/chat/completions", gw.url))
        .header("content-type", "application/json")
        .header("content-encoding", "gzip")
        .body(gzip)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 413);
    let v: Value = serde_json::from_slice(&res.bytes().await.unwrap()).unwrap();
    assert_eq!(v["error"]["type"], "body_too_large", "{v}");

    // One stream holds the route's only slot: the next request is a 503.
    let mut held = mode(&gw, "sse").await;
    assert_eq!(held.chunk().await.unwrap().unwrap(), FIRST.as_bytes());
    let res = mode(&gw, "echo").await;
    assert_eq!(res.status(), 503);
    assert_eq!(res.headers()["retry-after"], "1");
    up.state.release.notify_one();
    assert_eq!(upstream::drain(&mut held).await, LAST.as_bytes());
    // The slot is free again once the gateway has dropped the finished stream.
    let deadline = tokio::time::Instant::now() + BOUND;
    while mode(&gw, "echo").await.status() != 201 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the slot stays taken"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    gw.stop().await;
}

#[tokio::test]
async fn an_unknown_prefix_is_a_404_listing_the_routes() {
    let up = upstream::plain().await;
    let mut s = settings(&up.url);
    s.routes = vec![Route::new("/local", &up.url).unwrap()];
    let gw = Gateway::start(s).await;
    let res = client()
        .post(format!("{}/elsewhere/v1/messages", gw.url))
        .body("{}")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 404);
    let v: Value = serde_json::from_slice(&res.bytes().await.unwrap()).unwrap();
    assert!(
        v["error"]["message"].as_str().unwrap().contains("/local"),
        "{v}"
    );
    assert_eq!(up.state.count(), 0);
    let res = client()
        .post(format!("{}/local/v1/messages", gw.url))
        .body("{}")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    assert_eq!(up.state.last().uri, "/v1/messages");
    gw.stop().await;
}

#[tokio::test]
async fn an_http2_client_reaches_an_http1_upstream() {
    let up = upstream::plain().await;
    let gw = Gateway::to(&up.url).await;
    // reqwest's TLS is built without a crypto provider in this workspace (`rustls-no-provider`,
    // for `toolschema mcp`): the process-wide one is ring, as everywhere here.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let h2 = reqwest::Client::builder()
        .http2_prior_knowledge()
        .timeout(BOUND)
        .build()
        .unwrap();
    let (api, path, template) = SHAPES[1];
    let body = body_for(template);
    let res = h2
        .post(format!("{}{path}", gw.url))
        .header("content-type", "application/json")
        .body(body.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(res.version(), Version::HTTP_2);
    assert_eq!(res.status(), 201);
    assert_eq!(res.bytes().await.unwrap(), REPLY.as_bytes());
    let seen = up.state.last();
    assert_eq!(seen.version, Version::HTTP_11);
    assert_eq!(seen.headers["host"], up.addr.to_string());
    assert_eq!(seen.body, expected(api, &body));
    gw.stop().await;
}
