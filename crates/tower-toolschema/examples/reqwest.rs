//! reqwest with reqwest-middleware and the `ToolSchemaMiddleware` adapter.
//!
//! ```text
//! cargo run -p tower-toolschema --features reqwest --example reqwest
//! ```
//!
//! Runs out of the box: it starts a local echo server on loopback standing in for an
//! OpenAI-compatible API serving a Gemini model, and prints what that server received.

use axum::Router;
use axum::body::Body;
use axum::extract::Request;
use axum::routing::any;
use http_body_util::BodyExt;
use reqwest_middleware::ClientBuilder;
use tower_toolschema::ToolSchemaLayer;
use tower_toolschema::reqwest::ToolSchemaMiddleware;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let server = Router::new().fallback(any(|req: Request| async move {
        let bytes = req
            .into_body()
            .collect()
            .await
            .map(|c| c.to_bytes())
            .unwrap_or_default();
        println!("server received:\n{}", String::from_utf8_lossy(&bytes));
        Body::from(bytes)
    }));
    tokio::spawn(async move { axum::serve(listener, server).await });

    // `auto`: the body's `model` (gemini-*) on an OpenAI-compatible path selects Gemini's rules.
    let client = ClientBuilder::new(reqwest::Client::new())
        .with(ToolSchemaMiddleware::new(ToolSchemaLayer::auto()))
        .build();
    let body = r#"{"model":"gemini-2.5-flash","messages":[{"role":"user","content":"hi"}],
      "tools":[{"type":"function","function":{"name":"search","parameters":{"type":"object",
        "properties":{"q":{"type":"string"},"filters":{"type":"array","prefixItems":[{"type":"string"},{"type":"number"}]},
                      "mode":{"const":"fast"}},"additionalProperties":false}}}]}"#;
    println!("client sends:\n{body}\n");
    let res = client
        .post(format!("http://{addr}/v1/chat/completions"))
        .header("content-type", "application/json")
        .body(body)
        .send()
        .await?;
    println!("status: {}", res.status());
    Ok(())
}
