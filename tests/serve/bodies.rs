//! Request bodies through the gateway: every API shape sanitized, compressed bodies, renamed
//! tool names mapped back, provider errors passed through.

use crate::support::*;
use crate::upstream;
use crate::upstream::REPLY;
use bytes::Bytes;
use serde_json::Value;
use std::io::Write;

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
