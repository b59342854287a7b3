//! An axum gateway that sanitizes the tool schemas of every LLM request and forwards it.
//!
//! ```text
//! cargo run -p tower-toolschema --example gateway                       # demo: local echo upstream
//! cargo run -p tower-toolschema --example gateway -- --upstream http://127.0.0.1:11434 --listen 127.0.0.1:8787
//! UPSTREAM_URL=http://my-llm-proxy:8080 cargo run -p tower-toolschema --example gateway
//! cargo run -p tower-toolschema --example gateway -- --once             # demo, then exit
//! ```
//!
//! With no upstream configured it starts a local echo upstream on loopback, sends one Gemini
//! request through the gateway and prints what the upstream received; then it keeps serving
//! (unless `--once`). The upstream is reached over plain HTTP (add a TLS connector to
//! hyper-util's client for https upstreams).

use std::net::SocketAddr;

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
}

/// Forwards the (sanitized) request to the upstream.
async fn proxy(State(up): State<Upstream>, mut req: Request) -> Response {
    if let Some(report) = req.extensions().get::<SanitizeReport>() {
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

/// A stand-in upstream that prints what it received and echoes it back.
async fn echo_upstream(req: Request) -> Response {
    let (parts, body) = req.into_parts();
    let bytes = body
        .collect()
        .await
        .map(|c| c.to_bytes())
        .unwrap_or_default();
    println!("upstream received: {} {}", parts.method, parts.uri);
    println!(
        "  content-length: {:?}",
        parts.headers.get(header::CONTENT_LENGTH)
    );
    println!("  body: {}", String::from_utf8_lossy(&bytes));
    Response::new(Body::from(bytes))
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
    let listen = flag("--listen").unwrap_or_else(|| "127.0.0.1:8787".to_owned());
    let configured = flag("--upstream").or_else(|| std::env::var("UPSTREAM_URL").ok());

    let (base, demo) = match configured {
        Some(url) => (url, false),
        None => {
            let addr = spawn(Router::new().fallback(any(echo_upstream)), "127.0.0.1:0").await?;
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
    tokio::signal::ctrl_c().await?;
    Ok(())
}
