//! What to do with a body that cannot be inspected: go on untouched ([`FailOpen`], the default)
//! or answer with a clear JSON 4xx ([`Reject`]).
//!
//! ```
//! use tower_toolschema::ToolSchemaLayer;
//!
//! // Fail open: bodies over the limit, compressed, invalid JSON... go on untouched.
//! let open = ToolSchemaLayer::anthropic();
//! // Reject: 413 over the limit, 415 compressed, 400 invalid JSON / ambiguous / body error.
//! let strict = ToolSchemaLayer::anthropic().reject_invalid();
//! # let _ = (open, strict);
//! ```

use bytes::Bytes;
use http::{HeaderValue, Response, StatusCode, header};

use crate::report::SkipReason;

/// Decides whether a skipped request is answered instead of forwarded.
///
/// See the [module docs](crate::policy) for an example.
pub trait Policy<Res>: Clone {
    /// A response answering the request instead of forwarding it, or `None` to forward it
    /// untouched.
    fn on_skip(&self, reason: &SkipReason) -> Option<Res>;
}

/// Forward every request, untouched when it cannot be inspected (the default).
///
/// See the [module docs](crate::policy) for an example.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FailOpen;

impl<Res> Policy<Res> for FailOpen {
    fn on_skip(&self, _: &SkipReason) -> Option<Res> {
        None
    }
}

/// Answer requests that cannot be inspected with a JSON 4xx:
/// 413 over the limit, 415 compressed, 400 invalid JSON, an ambiguous duplicate key or a
/// failed body stream. Bodies with trailers still go on.
///
/// See the [module docs](crate::policy) for an example.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Reject;

impl<B: From<Bytes>> Policy<Response<B>> for Reject {
    fn on_skip(&self, reason: &SkipReason) -> Option<Response<B>> {
        let (status, kind) = match reason {
            SkipReason::TooLarge { .. } => (StatusCode::PAYLOAD_TOO_LARGE, "body_too_large"),
            SkipReason::Compressed(_) => (StatusCode::UNSUPPORTED_MEDIA_TYPE, "compressed_body"),
            SkipReason::InvalidJson(_) => (StatusCode::BAD_REQUEST, "invalid_json"),
            SkipReason::DuplicateKey(_) => (StatusCode::BAD_REQUEST, "duplicate_key"),
            SkipReason::BodyError(_) => (StatusCode::BAD_REQUEST, "body_error"),
            SkipReason::Trailers => return None,
        };
        Some(rejection(status, kind, &reason.to_string()))
    }
}

pub(crate) fn rejection<B: From<Bytes>>(
    status: StatusCode,
    kind: &str,
    message: &str,
) -> Response<B> {
    let body = serde_json::json!({
        "error": {
            "type": kind,
            "message": format!("tower-toolschema could not inspect this request's tool schemas: {message}"),
        }
    });
    let bytes = Bytes::from(body.to_string());
    let len = bytes.len();
    let mut res = Response::new(B::from(bytes));
    *res.status_mut() = status;
    res.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    res.headers_mut()
        .insert(header::CONTENT_LENGTH, HeaderValue::from(len));
    res
}
