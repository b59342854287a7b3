//! The request path: route, admit, rewrite the URI and headers, then decompression → body limit
//! → the tool-schema layer → [`Forward`] (the upstream client), and the answer back.

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http::{HeaderValue, Method, Request, Response, Version, header};
use http_body::Body;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use tokio::sync::Semaphore;
use tower::{Service, ServiceBuilder, ServiceExt};
use tower_toolschema::{SanitizeReport, ToolSchemaLayer};

use super::config::{Route, Settings};
use super::decompress;
use super::errors::{self, Kind};
use super::exchange::{Exchange, ExchangeBody};
use super::headers::drop_hop_by_hop;
use super::limits::{self, IdleTimeout};
use super::metrics::{self, Metrics};
use super::profiles;
use super::report::{Summary, WarnOnce};
use super::upstream::{self, BoxError, ProxyBody, UpstreamClient};

/// A route, ready to serve.
pub(crate) struct RouteState {
    pub(crate) route: Route,
    layer: ToolSchemaLayer,
    client: UpstreamClient,
    permits: Arc<Semaphore>,
}

/// What every request shares.
pub(crate) struct Shared {
    pub(crate) settings: Settings,
    pub(crate) routes: Vec<RouteState>,
    global: Arc<Semaphore>,
    pub(crate) metrics: Metrics,
    warn: WarnOnce,
}

impl Shared {
    pub(crate) fn new(settings: Settings) -> Result<Shared, super::ServeError> {
        let tls = upstream::tls_config(&settings.ca_certs)?;
        let routes = settings
            .routes
            .iter()
            .map(|r| RouteState {
                route: r.clone(),
                layer: profiles::layer(r.profile.as_deref(), r.limits.body_bytes, r.encode),
                client: upstream::client(&tls, r.limits.connect_timeout),
                permits: Arc::new(Semaphore::new(r.limits.concurrency.max(1))),
            })
            .collect();
        Ok(Shared {
            global: Arc::new(Semaphore::new(settings.concurrency.max(1))),
            settings,
            routes,
            metrics: Metrics::new(),
            warn: WarnOnce::default(),
        })
    }
}

/// The gateway's own answer for `GET /healthz` and `GET /metrics`, if the request is one.
fn local(shared: &Shared, req: &Request<Incoming>) -> Option<Response<ProxyBody>> {
    if req.method() != Method::GET {
        return None;
    }
    let (body, ct) = match req.uri().path() {
        "/healthz" => (r#"{"status":"ok"}"#.to_owned(), "application/json"),
        "/metrics" => (shared.metrics.render(), metrics::CONTENT_TYPE),
        _ => return None,
    };
    let mut res = Response::new(
        Full::new(Bytes::from(body))
            .map_err(|never| match never {})
            .boxed_unsync(),
    );
    res.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(ct));
    Some(res)
}

/// Serves one request from a client.
pub(crate) async fn handle(
    shared: Arc<Shared>,
    req: Request<Incoming>,
) -> Result<Response<ExchangeBody>, Infallible> {
    if let Some(res) = local(&shared, &req) {
        return Ok(res.map(ExchangeBody::local));
    }
    let start = Instant::now();
    shared.metrics.started();
    let mut ex = Exchange::new(Arc::clone(&shared), &req, start);
    let answer = route_and_forward(&shared, req, &mut ex).await;
    let res = match answer {
        Ok(res) => res,
        Err(failure) => failure,
    };
    Ok(ex.respond(res))
}

/// The gateway's own refusal, noted on the exchange.
fn refuse(
    ex: &mut Exchange,
    kind: Kind,
    message: &str,
    cause: Option<&str>,
) -> Response<ProxyBody> {
    ex.failed(kind, cause.unwrap_or(message));
    errors::respond(kind, message, ex.upstream(), cause)
}

async fn route_and_forward(
    shared: &Arc<Shared>,
    req: Request<Incoming>,
    ex: &mut Exchange,
) -> Result<Response<ProxyBody>, Response<ProxyBody>> {
    let path = req.uri().path();
    let Some(idx) = shared.settings.route_for(path) else {
        let prefixes: Vec<&str> = shared
            .routes
            .iter()
            .map(|r| r.route.prefix.as_str())
            .collect();
        let msg = format!(
            "no route for {path}; the routes are {}",
            prefixes.join(", ")
        );
        return Err(refuse(ex, Kind::NoRoute, &msg, None));
    };
    let rs = &shared.routes[idx];
    ex.routed(idx);
    let Some(permits) = limits::admit(&shared.global, &rs.permits) else {
        return Err(refuse(
            ex,
            Kind::Overloaded,
            "too many requests in flight; retry shortly",
            None,
        ));
    };
    ex.hold(permits);
    let limit = rs.route.limits.body_bytes;
    if limits::declared_too_large(req.headers(), limit) {
        let msg = format!("the request body is over the limit of {limit} bytes");
        return Err(refuse(ex, Kind::TooLarge, &msg, None));
    }
    let pq = req
        .uri()
        .path_and_query()
        .map_or_else(|| path.to_owned(), |p| p.as_str().to_owned());
    let Some(target) = rs.route.target(&pq) else {
        let msg = format!("cannot map {path} onto {}", rs.route.upstream);
        return Err(refuse(ex, Kind::NoRoute, &msg, None));
    };
    let (mut parts, body) = req.into_parts();
    parts.uri = target;
    // The pooled client picks HTTP/1.1 or HTTP/2 per upstream (ALPN), whatever the client spoke.
    parts.version = Version::HTTP_11;
    drop_hop_by_hop(&mut parts.headers);
    // The client sets `Host` (HTTP/1.1) or `:authority` (HTTP/2) from the upstream URI.
    parts.headers.remove(header::HOST);
    // Answered here already (hyper sends `100 Continue` when the body is first read); the
    // upstream gets the body without waiting.
    parts.headers.remove(header::EXPECT);
    let req = Request::from_parts(parts, body);

    let forward = Forward {
        shared: Arc::clone(shared),
        route: idx,
    };
    let svc = ServiceBuilder::new()
        .layer(decompress::layer())
        .map_request(move |req: Request<_>| req.map(|b| Limited::new(b, limit)))
        .layer(rs.layer.clone())
        .service(forward);
    let res = match svc.oneshot(req).await {
        // tower-http boxes the body in a type of its own.
        Ok(res) => res.map(BodyExt::boxed_unsync),
        Err(never) => match never {},
    };
    shared
        .metrics
        .headers(&rs.route.prefix, ex.elapsed().as_secs_f64());
    Ok(res)
}

/// Why the gateway answered instead of the upstream, in the response's extensions.
#[derive(Debug, Clone)]
pub(crate) struct Failure {
    pub(crate) kind: Kind,
    pub(crate) cause: String,
}

/// The innermost service: sends the (decompressed, sanitized) request upstream.
#[derive(Clone)]
struct Forward {
    shared: Arc<Shared>,
    route: usize,
}

impl<B> Service<Request<B>> for Forward
where
    B: Body<Data = Bytes> + Send + 'static,
    B::Error: Into<BoxError>,
{
    type Response = Response<ProxyBody>;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response<ProxyBody>, Infallible>> + Send>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, req: Request<B>) -> Self::Future {
        let shared = Arc::clone(&self.shared);
        let route = self.route;
        let summary = req.extensions().get::<SanitizeReport>().map(|r| {
            shared.warn.report(r);
            Summary::of(r)
        });
        let req = req.map(|b| b.map_err(Into::into).boxed_unsync());
        Box::pin(async move {
            let rs = &shared.routes[route];
            let idle = rs.route.limits.idle_timeout;
            let upstream = rs.route.upstream.to_string();
            let mut res = match tokio::time::timeout(idle, rs.client.request(req)).await {
                Ok(Ok(res)) => res.map(|b| IdleTimeout::new(b, idle).boxed_unsync()),
                Ok(Err(e)) => {
                    let kind = errors::classify(&e);
                    let cause = errors::chain(&e);
                    failure(kind, &message(kind, &upstream, idle, rs), &upstream, cause)
                }
                Err(_) => failure(
                    Kind::IdleTimeout,
                    &message(Kind::IdleTimeout, &upstream, idle, rs),
                    &upstream,
                    format!("no response headers within {idle:?}"),
                ),
            };
            if let Some(s) = summary {
                res.extensions_mut().insert(s);
            }
            Ok(res)
        })
    }
}

fn failure(kind: Kind, message: &str, upstream: &str, cause: String) -> Response<ProxyBody> {
    let mut res = errors::respond(kind, message, Some(upstream), Some(&cause));
    res.extensions_mut().insert(Failure { kind, cause });
    res
}

fn message(kind: Kind, upstream: &str, idle: Duration, rs: &RouteState) -> String {
    match kind {
        Kind::Tls => format!(
            "the TLS handshake with {upstream} failed (for a private CA, pass --ca-cert FILE)"
        ),
        Kind::ConnectTimeout => format!(
            "connecting to {upstream} took longer than {:?}",
            rs.route.limits.connect_timeout
        ),
        Kind::IdleTimeout => format!("{upstream} sent no response within {idle:?}"),
        Kind::TooLarge => format!(
            "the request body is over the limit of {} bytes",
            rs.route.limits.body_bytes
        ),
        _ => format!("{upstream} cannot be reached"),
    }
}
