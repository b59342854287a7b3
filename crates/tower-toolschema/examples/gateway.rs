//! An axum gateway that sanitizes the tool schemas of every LLM request and forwards it.
//!
//! ```text
//! cargo run -p tower-toolschema --example gateway                       # demo: local echo upstream
//! cargo run -p tower-toolschema --example gateway -- --upstream http://127.0.0.1:11434 --listen 127.0.0.1:8787
//! UPSTREAM_URL=http://my-llm-proxy:8080 cargo run -p tower-toolschema --example gateway
//! cargo run -p tower-toolschema --example gateway -- --once             # demo, then exit
//! cargo run --release -p tower-toolschema --example gateway -- --verify --quiet   # load target
//! ```
//!
//! `--quiet` prints nothing per request. `--verify` (local echo upstream only) makes the echo
//! upstream check every body it receives: each schema slot the gateway reports passes
//! `provider_rules::check` for the profile it was sanitized for (the gateway passes the slots on
//! in an `x-toolschema-slots` header), and, when the client sent `x-expect-conversation:
//! <len>:<fnv1a-64 hex>`, the body's top-level `messages` / `contents` / `input` / `request`
//! bytes are exactly the ones the client sent. The counts are served at `GET /__stats` (through
//! the gateway too) and printed at shutdown (Ctrl-C / SIGTERM).
//!
//! With no upstream configured it starts a local echo upstream on loopback, sends one Gemini
//! request through the gateway and prints what the upstream received; then it keeps serving
//! (unless `--once`). The upstream is reached over plain HTTP (add a TLS connector to
//! hyper-util's client for https upstreams).

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::response::{IntoResponse, Response};
use axum::routing::any;
use http::{StatusCode, Uri, header};
use http_body_util::BodyExt;
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use tower_toolschema::{SanitizeReport, ToolSchemaLayer};

#[derive(Clone)]
struct Upstream {
    base: String,
    client: Client<HttpConnector, Body>,
    quiet: bool,
    /// Pass the slots' profiles on to the upstream (`--verify`).
    tell_slots: bool,
}

/// Forwards the (sanitized) request to the upstream.
async fn proxy(State(up): State<Upstream>, mut req: Request) -> Response {
    if up.tell_slots {
        let slots = req
            .extensions()
            .get::<SanitizeReport>()
            .map(|r| {
                r.slots
                    .iter()
                    .filter(|s| s.error.is_none())
                    .map(|s| {
                        let role = match s.role {
                            tower_toolschema::shapes::SlotRole::ToolParameters => "parameters",
                            _ => "schema",
                        };
                        format!("{} {} {role}", s.pointer, s.profile)
                    })
                    .collect::<Vec<_>>()
                    .join(";")
            })
            .unwrap_or_default();
        if let Ok(v) = http::HeaderValue::from_str(&slots) {
            req.headers_mut().insert("x-toolschema-slots", v);
        }
    }
    if let Some(report) = req
        .extensions()
        .get::<SanitizeReport>()
        .filter(|_| !up.quiet)
    {
        for slot in report.slots.iter().filter(|s| !s.changes.is_empty()) {
            println!(
                "gateway: {} {} ({}): {} change(s)",
                slot.profile,
                slot.pointer,
                slot.tool.as_deref().unwrap_or("-"),
                slot.changes.len()
            );
        }
    }
    let path = req
        .uri()
        .path_and_query()
        .map(|p| p.as_str())
        .unwrap_or("/");
    let Ok(uri) = format!("{}{}", up.base.trim_end_matches('/'), path).parse::<Uri>() else {
        return (StatusCode::BAD_GATEWAY, "bad upstream URL").into_response();
    };
    *req.uri_mut() = uri;
    req.headers_mut().remove(header::HOST);
    match up.client.request(req).await {
        Ok(res) => res.map(Body::new).into_response(),
        Err(e) => (StatusCode::BAD_GATEWAY, format!("upstream error: {e}")).into_response(),
    }
}

/// What the verifying echo upstream counted.
#[derive(Default)]
struct Stats {
    requests: AtomicU64,
    body_errors: AtomicU64,
    invalid_json: AtomicU64,
    slots_checked: AtomicU64,
    check_failures: AtomicU64,
    conversations_checked: AtomicU64,
    conversation_mismatches: AtomicU64,
}

impl Stats {
    fn json(&self) -> String {
        let g = |a: &AtomicU64| a.load(Ordering::Relaxed);
        format!(
            r#"{{"requests":{},"body_errors":{},"invalid_json":{},"slots_checked":{},"check_failures":{},"conversations_checked":{},"conversation_mismatches":{}}}"#,
            g(&self.requests),
            g(&self.body_errors),
            g(&self.invalid_json),
            g(&self.slots_checked),
            g(&self.check_failures),
            g(&self.conversations_checked),
            g(&self.conversation_mismatches)
        )
    }
}

#[derive(Clone)]
struct Echo {
    quiet: bool,
    verify: bool,
    stats: Arc<Stats>,
}

/// FNV-1a, 64 bits: what the load generator's bodies announce their conversation with.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The raw bytes of the body's top-level conversation (the first of `messages`, `contents`,
/// `input`, `request` present), without building it.
fn conversation(body: &[u8]) -> Option<&[u8]> {
    #[derive(serde::Deserialize)]
    struct Top<'a> {
        #[serde(borrow)]
        messages: Option<&'a serde_json::value::RawValue>,
        #[serde(borrow)]
        contents: Option<&'a serde_json::value::RawValue>,
        #[serde(borrow)]
        input: Option<&'a serde_json::value::RawValue>,
        #[serde(borrow)]
        request: Option<&'a serde_json::value::RawValue>,
    }
    let top: Top<'_> = serde_json::from_slice(body).ok()?;
    let raw = top
        .messages
        .or(top.contents)
        .or(top.input)
        .or(top.request)?;
    Some(raw.get().as_bytes())
}

/// `--verify`: checks one body the gateway forwarded.
fn verify(parts: &http::request::Parts, bytes: &[u8], stats: &Stats) {
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(bytes) else {
        stats.invalid_json.fetch_add(1, Ordering::Relaxed);
        return;
    };
    let slots = parts
        .headers
        .get("x-toolschema-slots")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    for slot in slots.split(';').filter(|s| !s.is_empty()) {
        let mut it = slot.split(' ');
        let (Some(pointer), Some(profile), Some(role)) = (it.next(), it.next(), it.next()) else {
            continue;
        };
        stats.slots_checked.fetch_add(1, Ordering::Relaxed);
        let rules = provider_rules::profile(profile);
        let schema = value.pointer(pointer);
        let ok = match (rules, schema) {
            (Some(rules), Some(schema)) => {
                let kind = if role == "parameters" {
                    provider_rules::Slot::Parameters
                } else {
                    provider_rules::Slot::Schema
                };
                // Property keys that need renaming are reported as unfixable by the engine
                // (the response side must map them back): not counted against the gateway.
                let violations: Vec<_> = provider_rules::check(schema, rules, kind)
                    .into_iter()
                    .filter(|v| v.rule != "property-key")
                    .collect();
                if !violations.is_empty() {
                    eprintln!(
                        "verify: {} {pointer} ({profile}): {}",
                        parts.uri, violations[0]
                    );
                }
                violations.is_empty()
            }
            _ => false,
        };
        if !ok {
            stats.check_failures.fetch_add(1, Ordering::Relaxed);
        }
    }
    if let Some(expect) = parts
        .headers
        .get("x-expect-conversation")
        .and_then(|v| v.to_str().ok())
    {
        stats.conversations_checked.fetch_add(1, Ordering::Relaxed);
        let got = conversation(bytes).map(|c| format!("{}:{:016x}", c.len(), fnv1a(c)));
        if got.as_deref() != Some(expect) {
            stats
                .conversation_mismatches
                .fetch_add(1, Ordering::Relaxed);
            eprintln!(
                "verify: {} conversation {got:?}, expected {expect}",
                parts.uri
            );
        }
    } else {
        eprintln!(
            "verify: {} {} without x-expect-conversation",
            parts.method, parts.uri
        );
    }
}

/// A stand-in upstream that prints what it received and echoes it back (and, with `--verify`,
/// checks it).
async fn echo_upstream(State(echo): State<Echo>, req: Request) -> Response {
    if req.uri().path() == "/__stats" {
        return echo.stats.json().into_response();
    }
    let (parts, body) = req.into_parts();
    echo.stats.requests.fetch_add(1, Ordering::Relaxed);
    let bytes = match body.collect().await {
        Ok(c) => c.to_bytes(),
        Err(_) => {
            echo.stats.body_errors.fetch_add(1, Ordering::Relaxed);
            Default::default()
        }
    };
    if echo.verify {
        verify(&parts, &bytes, &echo.stats);
    }
    if echo.quiet {
        return Response::new(Body::from(bytes));
    }
    println!("upstream received: {} {}", parts.method, parts.uri);
    println!(
        "  content-length: {:?}",
        parts.headers.get(header::CONTENT_LENGTH)
    );
    println!("  body: {}", String::from_utf8_lossy(&bytes));
    Response::new(Body::from(bytes))
}

/// Ctrl-C, or (on Unix) SIGTERM.
async fn shutdown_signal() -> std::io::Result<()> {
    #[cfg(unix)]
    {
        let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
        tokio::select! {
            r = tokio::signal::ctrl_c() => r,
            _ = term.recv() => Ok(()),
        }
    }
    #[cfg(not(unix))]
    {
        tokio::signal::ctrl_c().await
    }
}

async fn spawn(app: Router, addr: &str) -> std::io::Result<SocketAddr> {
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let local = listener.local_addr()?;
    tokio::spawn(async move {
        if let Err(e) = axum::serve(listener, app).await {
            eprintln!("server error: {e}");
        }
    });
    Ok(local)
}

const DEMO_BODY: &str = r##"{"contents":[{"role":"user","parts":[{"text":"What's on my calendar?"}]},
 {"role":"model","parts":[{"functionCall":{"name":"list_events","args":{"title":"kept as is","format":"date","$ref":"#/x"}}}]}],
 "tools":[{"functionDeclarations":[{"name":"list_events","description":"List calendar events",
   "parameters":{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","additionalProperties":false,
     "properties":{"day":{"type":["string","null"],"format":"date"},"limit":{"type":"integer","exclusiveMinimum":0},
                   "range":{"type":"array","prefixItems":[{"type":"string"},{"type":"string"}]}},
     "required":["day"]}}]}]}"##;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let flag = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let once = args.iter().any(|a| a == "--once");
    let verify = args.iter().any(|a| a == "--verify");
    let quiet = verify || args.iter().any(|a| a == "--quiet");
    let stats = Arc::new(Stats::default());
    let listen = flag("--listen").unwrap_or_else(|| "127.0.0.1:8787".to_owned());
    let configured = flag("--upstream").or_else(|| std::env::var("UPSTREAM_URL").ok());

    let (base, demo) = match configured {
        Some(url) => (url, false),
        None => {
            let echo = Echo {
                quiet,
                verify,
                stats: Arc::clone(&stats),
            };
            let addr = spawn(
                Router::new().fallback(any(echo_upstream)).with_state(echo),
                "127.0.0.1:0",
            )
            .await?;
            println!("no upstream configured: started a local echo upstream on http://{addr}");
            (format!("http://{addr}"), true)
        }
    };
    let client = Client::builder(TokioExecutor::new()).build_http();
    let app = Router::new()
        .fallback(any(proxy))
        .with_state(Upstream {
            base: base.clone(),
            client,
            quiet,
            tell_slots: verify,
        })
        .layer(ToolSchemaLayer::auto());
    // Port taken? Fall back to any free port.
    let gateway = match spawn(app.clone(), &listen).await {
        Ok(a) => a,
        Err(_) => spawn(app, "127.0.0.1:0").await?,
    };
    println!("gateway listening on http://{gateway}, forwarding to {base}");

    if demo {
        let client: Client<HttpConnector, Body> =
            Client::builder(TokioExecutor::new()).build_http();
        let req = http::Request::post(format!(
            "http://{gateway}/v1beta/models/gemini-2.5-flash:generateContent"
        ))
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(DEMO_BODY))?;
        println!("sending a Gemini request through the gateway...");
        let res = client.request(req).await?;
        println!("gateway answered {}", res.status());
    }
    if once {
        return Ok(());
    }
    println!("(Ctrl-C to stop)");
    shutdown_signal().await?;
    if demo {
        println!("upstream stats: {}", stats.json());
    }
    Ok(())
}
