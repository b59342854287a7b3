//! A [tower](https://docs.rs/tower) layer that rewrites the tool JSON Schemas inside LLM API request bodies into the
//! dialect the target provider accepts, so that one schema the provider dislikes no longer
//! fails the whole request.
//!
//! - Knows where schemas sit in the bodies of OpenAI Chat / Responses, Anthropic Messages,
//!   Gemini (camelCase and snake_case, `countTokens`, `cachedContents`, Code Assist's
//!   `v1internal` envelope), Vertex, Bedrock Converse / InvokeModel, Ollama's native
//!   `/api/chat`, Cohere Chat v2 and every OpenAI-compatible gateway: the
//!   [API-shape table](shapes), every SDK's spelling (camelCase, snake_case and the mixes,
//!   like google-genai for Python's `functionDeclarations[].parameters_json_schema`).
//! - [`locate()`] finds the slots of a body (byte ranges, pointers, tool names, `strict` flags)
//!   and [`plan()`] says which profile each takes and whether it goes strict: the layer, the
//!   CLI and [`sanitize_body`] all stand on them.
//! - Only schema slots change; every other byte of the body is kept (conversation history holds
//!   tool-call arguments with keys like `title`, `format`, `default`). When nothing changes, the
//!   very same bytes go on. After a rewrite, `Content-Length` is set anew and
//!   `Transfer-Encoding` dropped.
//! - The conversation is never built into a tree: slots are located over the raw bytes and
//!   spliced back; sanitized slots are [cached](cache) by their bytes.
//! - Fails open: bodies over the limit, compressed, invalid or of an unknown shape go on
//!   untouched, and the layer adds no error type (`Error = S::Error`). Optionally,
//!   [reject](ToolSchemaLayer::reject_invalid) them with a clear 4xx instead.
//! - Reports what changed: a [`SanitizeReport`] in the request's extensions and `tracing`
//!   events in a span per request: one summary at info (API, profile, slots, changed, lossy,
//!   downgraded, cached), each change at debug, a warning when meaning was lost the first time
//!   a schema is sanitized (not again when it comes from the cache).
//! - Maps back what comes back ([the way back](restore)): tool names the provider would refuse
//!   are renamed in the request (declarations and history) and mapped back in the response;
//!   strict nulls the tool's own schema does not allow are removed from the arguments; JSON and
//!   SSE responses, byte-identical elsewhere, untouched when nothing needs restoring.
//! - With the lossless encodings ([`encoding::EncodingSanitizer`]), the tool calls of the
//!   responses are decoded back to the tools' terms and the history's earlier calls encoded on
//!   the way out, so the model sees one consistent form.
//! - Optionally (feature `validate`, [`validate_tool_calls`]), validates the
//!   tool calls of non-streaming responses against the original schemas of their request and
//!   attaches the findings to the response's extensions, never changing the response: see
//!   the `validate` module.
//!
//! # On an axum router (a gateway)
//! ```
//! use axum::{Router, body::Bytes, routing::post};
//! use tower_toolschema::ToolSchemaLayer;
//!
//! let app: Router = Router::new()
//!     .route("/v1beta/models/{model}", post(|body: Bytes| async move { body }))
//!     .layer(ToolSchemaLayer::gemini());
//! # let _ = app;
//! ```
//!
//! # On a client
//! ```
//! use tower::ServiceBuilder;
//! use tower_toolschema::ToolSchemaLayer;
//! # type Client = tower::util::BoxCloneService<http::Request<tower_toolschema::ToolSchemaBody<String>>, http::Response<()>, std::convert::Infallible>;
//! # fn client() -> Client { tower::util::BoxCloneService::new(tower::service_fn(|_| async { Ok(http::Response::new(())) })) }
//!
//! let client = ServiceBuilder::new().layer(ToolSchemaLayer::auto()).service(client());
//! # let _ = client;
//! ```
//!
//! # On a body directly
//! ```
//! use tower_toolschema::{ToolSchemaLayer, shapes::Api, sanitize_body};
//!
//! let body = br#"{"contents":[],"tools":[{"functionDeclarations":[{"name":"f","parameters":{"type":"object"}}]}]}"#;
//! let (out, report) = sanitize_body(ToolSchemaLayer::gemini().config(), Some(Api::Gemini), bytes::Bytes::from_static(body));
//! assert_eq!(report.slots.len(), 1);
//! # let _ = out;
//! ```
//!
//! Compressed bodies go on untouched: put
//! `tower_http::decompression::RequestDecompressionLayer` in front of this layer to have them
//! inspected.
//!
// The method exists with feature `validate` only: without it, the link goes to docs.rs.
#![cfg_attr(
    feature = "validate",
    doc = "[`validate_tool_calls`]: ToolSchemaLayer::validate_tool_calls"
)]
#![cfg_attr(
    not(feature = "validate"),
    doc = "[`validate_tool_calls`]: https://docs.rs/tower-toolschema/latest/tower_toolschema/struct.ToolSchemaLayer.html#method.validate_tool_calls"
)]
#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

mod config;
pub mod encoding;
mod lex;
mod log;
pub mod profile;
mod rename;
mod rename_memo;
pub mod report;
mod request;
pub mod restore;
pub mod sanitizer;
mod slots;

// `request/` (the middleware) and `slots/` (no HTTP) are private folders: their public modules
// keep the paths users call (`tower_toolschema::shapes::Api`, `tower_toolschema::policy`, ...),
// and the crate reaches the private ones by the same short paths.
pub use request::policy;
pub(crate) use request::{body, future, layer, service};
pub(crate) use slots::rewrite;
pub use slots::{cache, locate, plan, shapes, shapes_response};

#[cfg(feature = "reqwest")]
#[cfg_attr(docsrs, doc(cfg(feature = "reqwest")))]
pub mod reqwest;

#[cfg(feature = "validate")]
#[cfg_attr(docsrs, doc(cfg(feature = "validate")))]
pub mod validate;

pub use body::ToolSchemaBody;
pub use cache::CacheConfig;
pub use config::{Config, DEFAULT_LIMIT, Target, auto_provider};
pub use future::ResponseFuture;
pub use layer::ToolSchemaLayer;
pub use locate::{Located, locate};
pub use plan::{SlotPlan, plan};
pub use profile::{Profile, Profiles, UnknownProvider};
pub use report::SanitizeReport;
pub use service::ToolSchema;
#[cfg(feature = "validate")]
#[cfg_attr(docsrs, doc(cfg(feature = "validate")))]
pub use validate::{
    ToolCallFindings, ToolCallsBody, ValidateResponseFuture, ValidateToolCalls,
    ValidateToolCallsLayer,
};

/// The error type of [`ToolSchemaBody`].
///
/// ```
/// let error: tower_toolschema::BoxError = "the body stream failed".into();
/// assert_eq!(error.to_string(), "the body stream failed");
/// ```
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// Sanitizes the schema slots of one request body, as the layer does: `api` names the shape
/// (`None`: recognised by its shape). Returns the body to send (the very same `Bytes` when
/// nothing changed) and the report.
///
/// ```
/// use bytes::Bytes;
/// use tower_toolschema::{ToolSchemaLayer, sanitize_body, shapes::Api};
///
/// // Gemini's Schema proto takes no `additionalProperties`: it goes (into the description).
/// let body = br#"{"tools":[{"functionDeclarations":[{"name":"f","parameters":{"type":"object","additionalProperties":false}}]}]}"#;
/// let (out, report) = sanitize_body(ToolSchemaLayer::gemini().config(), Some(Api::Gemini), Bytes::from_static(body));
/// assert!(report.is_rewritten());
/// assert!(!String::from_utf8_lossy(&out).contains("additionalProperties"));
///
/// // Nothing to change: the very same bytes go on.
/// let same = Bytes::from_static(br#"{"contents":[],"tools":[]}"#);
/// let (out, report) = sanitize_body(ToolSchemaLayer::gemini().config(), None, same.clone());
/// assert_eq!(out.as_ptr(), same.as_ptr());
/// assert!(!report.is_rewritten());
/// ```
pub fn sanitize_body(
    config: &Config,
    api: Option<shapes::Api>,
    body: bytes::Bytes,
) -> (bytes::Bytes, SanitizeReport) {
    // No request here, so no host: the profile is the config's, or `auto`'s by the body.
    let ctx = config::RequestCtx {
        shape: api.map(shapes::Api::shape),
        host: None,
    };
    match rewrite::process(config, &ctx, &body) {
        (Some(new), report) => (bytes::Bytes::from(new.into_vec(&body)), report),
        (None, report) => (body, report),
    }
}
