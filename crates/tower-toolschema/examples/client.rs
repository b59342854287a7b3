//! A hyper-util client wrapped with `ServiceBuilder::new().layer(ToolSchemaLayer::gemini())`:
//! every request it sends has its tool schemas sanitized for Gemini.
//!
//! ```text
//! cargo run -p tower-toolschema --example client
//! ```
//!
//! Runs out of the box: it starts a local echo server on loopback standing in for the Gemini
//! API and prints what that server received.

use axum::Router;
use axum::body::Body;
use axum::extract::Request;
use axum::routing::any;
use bytes::Bytes;
use http::header;
use http_body_util::{BodyExt, Full};
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use tower::{Service, ServiceBuilder, ServiceExt};
use tower_toolschema::ToolSchemaLayer;

const BODY: &str = r#"{"contents":[{"role":"user","parts":[{"text":"weather in Paris?"}]}],
 "tools":[{"functionDeclarations":[{"name":"get_weather","parameters":{"type":"object",
   "properties":{"city":{"type":"string"},"unit":{"type":["string","null"],"enum":["c","f",null]},"days":{"type":"integer","minimum":1,"maximum":7}},
   "required":["city"],"additionalProperties":false}}]}]}"#;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // A stand-in for the Gemini API.
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

    // The client stack.
    let mut client = ServiceBuilder::new()
        .layer(ToolSchemaLayer::gemini())
        .service(Client::builder(TokioExecutor::new()).build_http());

    let req = http::Request::post(format!(
        "http://{addr}/v1beta/models/gemini-2.5-flash:generateContent"
    ))
    .header(header::CONTENT_TYPE, "application/json")
    .body(Full::new(Bytes::from_static(BODY.as_bytes())))?;
    println!("client sends:\n{BODY}\n");
    let res = client.ready().await?.call(req).await?;
    println!("status: {}", res.status());
    Ok(())
}
