//! The gateway's own answers: TLS and HTTP/2 upstreams, an unreachable one, limits, unknown
//! routes, metrics.

use crate::support::*;
use crate::upstream;
use crate::upstream::{FIRST, LAST, REPLY};
use http::Version;
use serde_json::Value;
use std::io::Write;
use std::time::Duration;
use toolschema::serve::Route;

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

#[tokio::test]
async fn an_unreachable_upstream_is_a_502_naming_it_and_the_cause() {
    let dead = format!("http://127.0.0.1:{}", upstream::closed_port());
    let gw = Gateway::to(&dead).await;
    let res = post_empty(&gw, "/v1/messages", None).await;
    assert_eq!(res.status(), 502);
    let v: Value = serde_json::from_slice(&res.bytes().await.unwrap()).unwrap();
    assert_eq!(v["error"]["type"], "upstream_unreachable", "{v}");
    assert_eq!(v["error"]["upstream"], format!("{dead}/"));
    let cause = v["error"]["cause"].as_str().unwrap().to_lowercase();
    assert!(cause.contains("refused"), "{cause}");
    gw.stop().await;
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
    let res = post_empty(&gw, "/elsewhere/v1/messages", None).await;
    assert_eq!(res.status(), 404);
    let v: Value = serde_json::from_slice(&res.bytes().await.unwrap()).unwrap();
    assert!(
        v["error"]["message"].as_str().unwrap().contains("/local"),
        "{v}"
    );
    assert_eq!(up.state.count(), 0);
    let res = post_empty(&gw, "/local/v1/messages", None).await;
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
