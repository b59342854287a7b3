//! Send / Sync / Unpin bounds, checked statically.

use std::convert::Infallible;

use bytes::Bytes;
use http_body_util::Full;
use tower_toolschema::{ResponseFuture, ToolSchema, ToolSchemaBody, ToolSchemaLayer};

fn send<T: Send>() {}
fn sync<T: Sync>() {}
fn unpin<T: Unpin>() {}

#[test]
fn layer_service_body_and_future_bounds() {
    send::<ToolSchemaLayer>();
    sync::<ToolSchemaLayer>();
    send::<ToolSchemaLayer<tower_toolschema::policy::Reject>>();
    sync::<ToolSchemaLayer<tower_toolschema::policy::Reject>>();
    send::<ToolSchema<axum::routing::Route>>();
    sync::<ToolSchema<axum::routing::Route>>();
    // hyper-util's client needs Unpin; reqwest::Body::wrap needs Send + Sync.
    send::<ToolSchemaBody<Full<Bytes>>>();
    sync::<ToolSchemaBody<Full<Bytes>>>();
    unpin::<ToolSchemaBody<Full<Bytes>>>();
    send::<ToolSchemaBody<axum::body::Body>>();
    unpin::<ToolSchemaBody<axum::body::Body>>();
    // axum needs a Send future.
    send::<
        ResponseFuture<
            axum::routing::Route<Infallible>,
            axum::body::Body,
            tower_toolschema::policy::FailOpen,
        >,
    >();
    send::<
        ResponseFuture<
            axum::routing::Route<Infallible>,
            axum::body::Body,
            tower_toolschema::policy::Reject,
        >,
    >();
}

#[test]
fn axum_accepts_the_layer() {
    let _: axum::Router = axum::Router::new().layer(ToolSchemaLayer::auto());
    let _: axum::Router = axum::Router::new().layer(ToolSchemaLayer::openai().reject_invalid());
}
