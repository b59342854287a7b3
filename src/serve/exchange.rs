//! One request's life, from its arrival to the last byte of its answer (or the moment either side
//! went away): [`Exchange`] collects what happened and, when the response body is dropped,
//! writes the request's one log line and its metrics.

use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http::{Method, Request, Response};
use http_body::{Body, Frame, SizeHint};

use super::errors::Kind;
use super::headers::drop_hop_by_hop;
use super::limits::{IdleTimeoutError, Permits};
use super::metrics::Finished;
use super::proxy::{Failure, Shared};
use super::report::Summary;
use super::upstream::{BoxError, ProxyBody};

/// How a response body ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum End {
    /// Not yet (dropped like this: the client went away).
    Open,
    Complete,
    /// The upstream went silent past the idle timeout.
    UpstreamTimeout,
    /// The upstream's body failed (reset, closed early).
    UpstreamReset,
}

/// What is known of one request; logs and counts it when dropped.
pub(crate) struct Exchange {
    shared: Arc<Shared>,
    method: Method,
    /// The path without the query (`?key=` may carry an API key).
    path: String,
    start: Instant,
    route: Option<usize>,
    status: u16,
    headers_after: Option<Duration>,
    summary: Option<Summary>,
    /// The way back's report (renamed tools, restored calls), complete once the body ended.
    restore: Option<tower_toolschema::restore::RestoreReport>,
    failure: Option<(Kind, String)>,
    cut_cause: Option<String>,
    end: End,
    bytes: u64,
    _permits: Option<Permits>,
}

impl Exchange {
    pub(crate) fn new<B>(shared: Arc<Shared>, req: &Request<B>, start: Instant) -> Exchange {
        Exchange {
            shared,
            method: req.method().clone(),
            path: req.uri().path().to_owned(),
            start,
            route: None,
            status: 0,
            headers_after: None,
            summary: None,
            restore: None,
            failure: None,
            cut_cause: None,
            end: End::Open,
            bytes: 0,
            _permits: None,
        }
    }

    pub(crate) fn routed(&mut self, idx: usize) {
        self.route = Some(idx);
    }

    pub(crate) fn hold(&mut self, permits: Permits) {
        self._permits = Some(permits);
    }

    pub(crate) fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// The route's upstream, once routed.
    pub(crate) fn upstream(&self) -> Option<&str> {
        self.route
            .and_then(|i| self.shared.routes.get(i))
            .map(|r| r.route.upstream.authority().map_or("", |a| a.as_str()))
    }

    pub(crate) fn failed(&mut self, kind: Kind, cause: &str) {
        self.failure = Some((kind, cause.to_owned()));
    }

    /// The answer to send: hop-by-hop headers dropped, the body watched to its end.
    pub(crate) fn respond(mut self, mut res: Response<ProxyBody>) -> Response<ExchangeBody> {
        self.status = res.status().as_u16();
        self.headers_after = Some(self.start.elapsed());
        if let Some(s) = res.extensions_mut().remove::<Summary>() {
            self.summary = Some(s);
        }
        self.restore = res
            .extensions()
            .get::<tower_toolschema::restore::RestoreReport>()
            .cloned();
        if let Some(f) = res.extensions_mut().remove::<Failure>() {
            self.failure = Some((f.kind, f.cause));
        }
        if let (Some((kind, _)), Some(i)) = (&self.failure, self.route)
            && kind.is_upstream()
        {
            let route = &self.shared.routes[i].route.prefix;
            self.shared.metrics.upstream_error(route, kind.name());
        }
        drop_hop_by_hop(res.headers_mut());
        res.map(|body| {
            if body.is_end_stream() {
                self.end = End::Complete;
            }
            ExchangeBody {
                inner: body,
                exchange: Some(self),
            }
        })
    }

    fn route_name(&self) -> &str {
        self.route
            .and_then(|i| self.shared.routes.get(i))
            .map_or("-", |r| r.route.prefix.as_str())
    }

    fn cut(&self) -> Option<&'static str> {
        match self.end {
            End::Complete => None,
            End::Open => Some("client_gone"),
            End::UpstreamTimeout => Some("upstream_timeout"),
            End::UpstreamReset => Some("upstream_reset"),
        }
    }

    /// Tool names renamed in the request, tool calls restored in the response.
    fn restored(&self) -> (u64, u64) {
        self.restore.as_ref().map_or((0, 0), |r| {
            let s = r.summary();
            (s.renamed.len() as u64, s.calls.len() as u64)
        })
    }

    fn log(&self) {
        let s = self.summary.as_ref();
        let (renamed, restored) = self.restored();
        // Milliseconds, to a tenth.
        let ms = |d: Duration| (d.as_secs_f64() * 10_000.0).round() / 10.0;
        let total = ms(self.start.elapsed());
        let headers = self.headers_after.map_or(total, ms);
        let error = self
            .failure
            .as_ref()
            .map(|(_, c)| c.as_str())
            .or(self.cut_cause.as_deref());
        macro_rules! line {
            ($level:ident) => {
                tracing::$level!(
                    target: "toolschema::serve",
                    method = %self.method,
                    path = %self.path,
                    route = self.route_name(),
                    upstream = self.upstream().unwrap_or("-"),
                    status = self.status,
                    api = s.map_or("-", |s| s.api),
                    profile = s.map_or("-", |s| s.profiles.as_str()),
                    tools = s.map_or(0, |s| s.tools),
                    slots = s.map_or(0, |s| s.slots),
                    changed = s.map_or(0, |s| s.changed),
                    renamed,
                    restored,
                    downgraded = s.map_or(0, |s| s.downgraded),
                    lossy = s.map_or(0, |s| s.lossy),
                    skipped = s.and_then(|s| s.skipped.as_deref()),
                    headers_ms = headers,
                    ms = total,
                    bytes = self.bytes,
                    end = self.cut().unwrap_or("complete"),
                    error,
                    "request"
                )
            };
        }
        if self.failure.is_some() || self.cut().is_some() {
            line!(warn);
        } else {
            line!(info);
        }
    }
}

impl Drop for Exchange {
    fn drop(&mut self) {
        self.log();
        let (renamed, restored) = self.restored();
        self.shared.metrics.finished(&Finished {
            route: self.route_name(),
            status: self.status,
            summary: self.summary.as_ref(),
            bytes: self.bytes,
            secs: self.start.elapsed().as_secs_f64(),
            cut: self.cut(),
            renamed,
            restored,
        });
    }
}

/// A response body on its way to the client, watched by its [`Exchange`].
pub(crate) struct ExchangeBody {
    inner: ProxyBody,
    exchange: Option<Exchange>,
}

impl ExchangeBody {
    /// A body of the gateway's own (`/healthz`, `/metrics`): not logged.
    pub(crate) fn local(inner: ProxyBody) -> ExchangeBody {
        ExchangeBody {
            inner,
            exchange: None,
        }
    }
}

impl Body for ExchangeBody {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        let this = &mut *self;
        let polled = Pin::new(&mut this.inner).poll_frame(cx);
        if let (Poll::Ready(frame), Some(ex)) = (&polled, this.exchange.as_mut()) {
            match frame {
                None => ex.end = End::Complete,
                Some(Ok(f)) => {
                    if let Some(d) = f.data_ref() {
                        ex.bytes += d.len() as u64;
                    }
                    if this.inner.is_end_stream() {
                        ex.end = End::Complete;
                    }
                }
                Some(Err(e)) => {
                    ex.end = if e.is::<IdleTimeoutError>() {
                        End::UpstreamTimeout
                    } else {
                        End::UpstreamReset
                    };
                    ex.cut_cause = Some(super::errors::chain(e.as_ref()));
                }
            }
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}
