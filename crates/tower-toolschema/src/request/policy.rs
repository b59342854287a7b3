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
/// ```
/// use tower_toolschema::policy::{FailOpen, Policy, Reject};
/// use tower_toolschema::report::SkipReason;
///
/// let reason = SkipReason::Compressed("gzip".into());
/// let forwarded: Option<http::Response<bytes::Bytes>> = FailOpen.on_skip(&reason);
/// assert!(forwarded.is_none());
/// let answered: http::Response<bytes::Bytes> = Reject.on_skip(&reason).unwrap();
/// assert_eq!(answered.status(), http::StatusCode::UNSUPPORTED_MEDIA_TYPE);
/// ```
pub trait Policy<Res>: Clone {
    /// A response answering the request instead of forwarding it, or `None` to forward it
    /// untouched.
    fn on_skip(&self, reason: &SkipReason) -> Option<Res>;
}

/// Forward every request, untouched when it cannot be inspected (the default).
///
/// ```
/// use tower_toolschema::{ToolSchemaLayer, policy::FailOpen};
/// let layer: ToolSchemaLayer<FailOpen> = ToolSchemaLayer::auto();
/// # let _ = layer;
/// ```
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
/// ```
/// use tower_toolschema::policy::{Policy, Reject};
/// use tower_toolschema::report::SkipReason;
///
/// let res: http::Response<bytes::Bytes> = Reject.on_skip(&SkipReason::TooLarge { limit: 1024 }).unwrap();
/// assert_eq!(res.status(), http::StatusCode::PAYLOAD_TOO_LARGE);
/// assert!(String::from_utf8_lossy(res.body()).contains("body_too_large"));
/// // A body with trailers still goes on.
/// assert!(Policy::<http::Response<bytes::Bytes>>::on_skip(&Reject, &SkipReason::Trailers).is_none());
/// ```
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
