//! What goes wrong: [`ServeError`] (the gateway cannot start) and the JSON answers a client
//! gets when a request cannot reach its upstream (502/504) or is refused (404/413/503).

use std::error::Error as StdError;
use std::fmt;

use bytes::Bytes;
use http::{HeaderValue, Response, StatusCode, header};
use http_body_util::{BodyExt, Full};

use super::upstream::ProxyBody;

/// Why the gateway cannot start.
///
/// ```
/// use toolschema::serve::{ServeError, Route};
/// let e = Route::new("/x", "ftp://example.com").unwrap_err();
/// assert!(matches!(e, ServeError::Config(_)));
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum ServeError {
    /// A flag or the configuration file is wrong.
    Config(String),
    /// The listen address cannot be bound.
    Bind(String),
    /// The trust store or a `--ca-cert` file cannot be used.
    Tls(String),
}

impl fmt::Display for ServeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServeError::Config(m) => write!(f, "configuration: {m}"),
            ServeError::Bind(m) => write!(f, "listen: {m}"),
            ServeError::Tls(m) => write!(f, "TLS: {m}"),
        }
    }
}

impl StdError for ServeError {}

/// What a failed or refused request is answered with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// The upstream cannot be reached (refused, DNS, reset before answering).
    Unreachable,
    /// The TLS handshake with the upstream failed (certificate, protocol).
    Tls,
    /// Connecting took longer than the connect timeout.
    ConnectTimeout,
    /// The upstream sent no response headers within the idle timeout.
    IdleTimeout,
    /// The request body is over the route's limit.
    TooLarge,
    /// No route takes this path.
    NoRoute,
    /// Too many requests in flight.
    Overloaded,
}

impl Kind {
    fn status(self) -> StatusCode {
        match self {
            Kind::Unreachable | Kind::Tls => StatusCode::BAD_GATEWAY,
            Kind::ConnectTimeout | Kind::IdleTimeout => StatusCode::GATEWAY_TIMEOUT,
            Kind::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            Kind::NoRoute => StatusCode::NOT_FOUND,
            Kind::Overloaded => StatusCode::SERVICE_UNAVAILABLE,
        }
    }

    /// The `type` of the JSON error, and the metrics' `cause` label.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Kind::Unreachable => "upstream_unreachable",
            Kind::Tls => "upstream_tls",
            Kind::ConnectTimeout => "upstream_connect_timeout",
            Kind::IdleTimeout => "upstream_timeout",
            Kind::TooLarge => "body_too_large",
            Kind::NoRoute => "no_route",
            Kind::Overloaded => "overloaded",
        }
    }

    /// Whether the upstream is to blame (counted as an upstream error).
    pub(crate) fn is_upstream(self) -> bool {
        matches!(
            self,
            Kind::Unreachable | Kind::Tls | Kind::ConnectTimeout | Kind::IdleTimeout
        )
    }
}

/// A JSON answer of the gateway's own, in the OpenAI error shape SDKs print:
/// `{"error":{"type","message","upstream","cause"}}`.
pub(crate) fn respond(
    kind: Kind,
    message: &str,
    upstream: Option<&str>,
    cause: Option<&str>,
) -> Response<ProxyBody> {
    let mut error = serde_json::Map::new();
    error.insert("type".into(), kind.name().into());
    error.insert("message".into(), message.into());
    if let Some(u) = upstream {
        error.insert("upstream".into(), u.into());
    }
    if let Some(c) = cause {
        error.insert("cause".into(), c.into());
    }
    let mut top = serde_json::Map::new();
    top.insert("error".into(), serde_json::Value::Object(error));
    let body = serde_json::Value::Object(top).to_string();
    let mut res = Response::new(
        Full::new(Bytes::from(body))
            .map_err(|never| match never {})
            .boxed_unsync(),
    );
    *res.status_mut() = kind.status();
    res.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    res.headers_mut()
        .insert("x-toolschema-error", HeaderValue::from_static(kind.name()));
    if kind == Kind::Overloaded {
        res.headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    }
    res
}

/// The error chain as one line: `a: b: c`, each message once.
pub(crate) fn chain(e: &(dyn StdError + 'static)) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut cur: Option<&(dyn StdError + 'static)> = Some(e);
    while let Some(err) = cur {
        let s = err.to_string();
        if !parts.iter().any(|p| p.contains(&s)) {
            parts.push(s);
        }
        cur = below(err);
    }
    parts.join(": ")
}

/// The next error down the chain. `io::Error::source` skips the error it wraps (it returns
/// that error's source), so for an I/O error the wrapped error comes next.
fn below<'a>(err: &'a (dyn StdError + 'static)) -> Option<&'a (dyn StdError + 'static)> {
    match err
        .downcast_ref::<std::io::Error>()
        .and_then(|io| io.get_ref())
    {
        Some(inner) => Some(inner),
        None => err.source(),
    }
}

/// What kind of failure an upstream request error is.
pub(crate) fn classify(e: &(dyn StdError + 'static)) -> Kind {
    let mut cur: Option<&(dyn StdError + 'static)> = Some(e);
    while let Some(err) = cur {
        if err.is::<http_body_util::LengthLimitError>() {
            return Kind::TooLarge;
        }
        if err.is::<rustls::Error>() {
            return Kind::Tls;
        }
        if err
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::TimedOut)
        {
            return Kind::ConnectTimeout;
        }
        cur = below(err);
    }
    Kind::Unreachable
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timeouts_are_504_and_tls_is_502() {
        let io = std::io::Error::new(std::io::ErrorKind::TimedOut, "connect timeout");
        assert_eq!(classify(&io), Kind::ConnectTimeout);
        assert_eq!(Kind::ConnectTimeout.status(), StatusCode::GATEWAY_TIMEOUT);
        // As hyper-rustls hands it over: an I/O error around tokio-rustls' I/O error.
        let tls = std::io::Error::other(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            rustls::Error::InvalidCertificate(rustls::CertificateError::UnknownIssuer),
        ));
        assert_eq!(classify(&tls), Kind::Tls);
        assert_eq!(Kind::Tls.status(), StatusCode::BAD_GATEWAY);
        let refused = std::io::Error::new(std::io::ErrorKind::ConnectionRefused, "refused");
        assert_eq!(classify(&refused), Kind::Unreachable);
    }
}
