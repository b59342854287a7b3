//! A loopback upstream: an axum `Router` served on 127.0.0.1 (a free port) by a task of the
//! test's runtime. Shared by the tests that go through real sockets (included with `#[path]`).
#![allow(dead_code)]

use std::net::SocketAddr;

/// Serves `app` on loopback until the test's runtime ends; returns its address.
pub async fn serve(app: axum::Router) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind loopback");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    addr
}
