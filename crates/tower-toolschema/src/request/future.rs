//! [`ResponseFuture`]: buffers an inspected body, rewrites it, then calls the inner service.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};

use bytes::{Bytes, BytesMut};
use http::{HeaderMap, HeaderValue, Request, header};
use http_body::Body;
use pin_project_lite::pin_project;
use tower_service::Service;

use crate::body::ToolSchemaBody;
use crate::config::{Config, RequestCtx};
use crate::policy::Policy;
use crate::report::{SanitizeReport, SkipReason};
use crate::restore::{RestorePlan, RestoreResponse};
use crate::{BoxError, rewrite};

pin_project! {
    /// The response future of [`ToolSchema`](crate::ToolSchema): reads an inspected body (up to
    /// the limit), rewrites its schema slots, then calls the inner service. Requests that are
    /// not inspected go straight to the inner service's future.
    ///
    /// ```
    /// use std::convert::Infallible;
    /// use tower::{Layer, Service, ServiceExt};
    /// use tower_toolschema::{ResponseFuture, ToolSchemaBody, ToolSchemaLayer};
    ///
    /// # #[tokio::main(flavor = "current_thread")] async fn main() {
    /// let echo = tower::service_fn(|req: http::Request<ToolSchemaBody<String>>| async move {
    ///     Ok::<_, Infallible>(http::Response::new(req.into_body()))
    /// });
    /// let mut svc = ToolSchemaLayer::auto().layer(echo);
    /// let req = http::Request::post("/v1/chat/completions").body(String::from(r#"{"messages":[]}"#)).unwrap();
    /// let future: ResponseFuture<_, String, _> = svc.ready().await.unwrap().call(req);
    /// let res = future.await.unwrap();
    /// assert_eq!(http_body::Body::size_hint(res.body()).exact(), Some(15));
    /// # }
    /// ```
    pub struct ResponseFuture<S, B, P>
    where
        S: Service<Request<ToolSchemaBody<B>>>,
    {
        #[pin]
        state: State<S, B, P, S::Future, S::Response>,
    }
}

pin_project! {
    #[project = StateProj]
    enum State<S, B, P, F, R> {
        Buffering { buf: Option<Buffer<S, B, P>> },
        // The request's plan for the way back travels with the call (no state elsewhere).
        Calling { #[pin] fut: F, plan: Option<Arc<RestorePlan>>, limit: usize },
        Answered { response: Option<R> },
    }
}

pub(crate) struct Buffer<S, B, P> {
    inner: S,
    parts: http::request::Parts,
    body: Pin<Box<B>>,
    chunks: Vec<Bytes>,
    len: usize,
    trailers: Option<HeaderMap>,
    config: Arc<Config>,
    ctx: RequestCtx,
    policy: P,
}

/// How reading a body ended.
pub(crate) enum Outcome {
    /// The whole body was read.
    Complete,
    /// It grew past the limit (what was read is kept for a replay).
    Overflow,
    /// The body failed (the error is forwarded after what was read).
    Failed(BoxError),
}

impl<S, B, P> Buffer<S, B, P>
where
    B: Body<Data = Bytes>,
    B::Error: Into<BoxError>,
{
    fn poll_body(&mut self, cx: &mut Context<'_>) -> Poll<Outcome> {
        poll_frames(
            self.body.as_mut(),
            &mut self.chunks,
            &mut self.len,
            &mut self.trailers,
            self.config.limit,
            cx,
        )
    }
}

impl<S, B, P> ResponseFuture<S, B, P>
where
    S: Service<Request<ToolSchemaBody<B>>>,
{
    pub(crate) fn called(fut: S::Future) -> Self {
        ResponseFuture {
            state: State::Calling {
                fut,
                plan: None,
                limit: 0,
            },
        }
    }

    pub(crate) fn answered(response: S::Response) -> Self {
        ResponseFuture {
            state: State::Answered {
                response: Some(response),
            },
        }
    }

    pub(crate) fn buffering(
        inner: S,
        parts: http::request::Parts,
        body: B,
        config: Arc<Config>,
        ctx: RequestCtx,
        policy: P,
    ) -> Self {
        let buf = Buffer {
            inner,
            parts,
            body: Box::pin(body),
            chunks: Vec::new(),
            len: 0,
            trailers: None,
            config,
            ctx,
            policy,
        };
        ResponseFuture {
            state: State::Buffering { buf: Some(buf) },
        }
    }
}

impl<S, B, P> fmt::Debug for ResponseFuture<S, B, P>
where
    S: Service<Request<ToolSchemaBody<B>>>,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ResponseFuture").finish_non_exhaustive()
    }
}

/// One `Bytes` for the whole body: the chunk itself when there is one (no copy).
pub(crate) fn concat(mut chunks: Vec<Bytes>) -> Bytes {
    match chunks.len() {
        0 => Bytes::new(),
        1 => chunks.pop().unwrap_or_default(),
        _ => {
            let mut all = BytesMut::with_capacity(chunks.iter().map(Bytes::len).sum());
            for c in chunks {
                all.extend_from_slice(&c);
            }
            all.freeze()
        }
    }
}

/// After a rewrite: a fresh `Content-Length`, no `Transfer-Encoding` (a stale length hangs the
/// exchange; both together is a request-smuggling vector).
pub(crate) fn set_content_length(headers: &mut HeaderMap, len: usize) {
    headers.remove(header::TRANSFER_ENCODING);
    headers.insert(header::CONTENT_LENGTH, HeaderValue::from(len));
}

impl<S, B, P> Future for ResponseFuture<S, B, P>
where
    S: Service<Request<ToolSchemaBody<B>>>,
    S::Response: RestoreResponse,
    B: Body<Data = Bytes>,
    B::Error: Into<BoxError>,
    P: Policy<S::Response>,
{
    type Output = Result<<S::Response as RestoreResponse>::Restored, S::Error>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let mut state = self.project().state;
        loop {
            match state.as_mut().project() {
                StateProj::Calling { fut, plan, limit } => {
                    let res = ready!(fut.poll(cx))?;
                    return Poll::Ready(Ok(res.restored(plan.take(), *limit)));
                }
                StateProj::Answered { response } => {
                    return match response.take() {
                        Some(r) => Poll::Ready(Ok(r.restored(None, 0))),
                        // Polled after completion: stay pending rather than panic.
                        None => Poll::Pending,
                    };
                }
                StateProj::Buffering { buf } => {
                    let Some(b) = buf.as_mut() else {
                        return Poll::Pending;
                    };
                    let outcome = ready!(b.poll_body(cx));
                    let Some(Buffer {
                        mut inner,
                        mut parts,
                        body,
                        chunks,
                        trailers,
                        config,
                        ctx,
                        policy,
                        ..
                    }) = buf.take()
                    else {
                        return Poll::Pending;
                    };
                    let api = ctx.shape.map(|s| s.api);
                    // One span per request; its totals and events: `crate::log`.
                    let span = crate::log::request_span(api);
                    let mut plan: Option<Arc<RestorePlan>> = None;
                    let (body, report) = match outcome {
                        Outcome::Complete => {
                            let bytes = concat(chunks);
                            if trailers.is_some() {
                                (
                                    ToolSchemaBody::full(bytes, trailers),
                                    SanitizeReport::skipped(api, SkipReason::Trailers),
                                )
                            } else {
                                // The original tool schemas, when the response side asks.
                                #[cfg(feature = "validate")]
                                let mut tools =
                                    crate::validate::wants_tools(&parts.extensions).then(Vec::new);
                                #[cfg(not(feature = "validate"))]
                                let mut tools: Option<
                                    Vec<rewrite::OriginalTool>,
                                > = None;
                                let (new, mut report, needs) = span.in_scope(|| {
                                    rewrite::process_with(&config, &ctx, &bytes, tools.as_mut())
                                });
                                #[cfg(feature = "validate")]
                                crate::validate::record(&parts.extensions, &report, tools);
                                // The way back: the history's calls and names are read
                                // only where a tool has an encoding or a name is refused;
                                // nothing is done when the slots' result needs nothing.
                                let nothing = needs
                                    .as_deref()
                                    .is_some_and(crate::restore::needs::Needs::is_nothing);
                                let (rest, p) = if nothing {
                                    (None, None)
                                } else {
                                    let (rest, p) = crate::encoding::history::finish(
                                        &config,
                                        ctx.host.as_deref(),
                                        &|| match &new {
                                            Some(n) => Bytes::from(n.clone_vec(&bytes)),
                                            None => bytes.clone(),
                                        },
                                        &mut report,
                                        needs.as_deref(),
                                    );
                                    (rest, Some(p))
                                };
                                // Nothing to restore: no plan (the response goes on untouched).
                                plan = p.filter(|p| !p.is_empty()).map(Arc::new);
                                match (rest, new) {
                                    (Some(r), _) => {
                                        set_content_length(&mut parts.headers, r.len());
                                        (ToolSchemaBody::full(Bytes::from(r), None), report)
                                    }
                                    (None, Some(new)) => {
                                        set_content_length(&mut parts.headers, new.len());
                                        // The unchanged head and tail go on as slices of the
                                        // buffered body: no copy of the conversation.
                                        (ToolSchemaBody::parts(new.into_parts(&bytes)), report)
                                    }
                                    (None, None) => (ToolSchemaBody::full(bytes, None), report),
                                }
                            }
                        }
                        Outcome::Overflow => (
                            ToolSchemaBody::replay(chunks, body),
                            SanitizeReport::skipped(
                                api,
                                SkipReason::TooLarge {
                                    limit: config.limit,
                                },
                            ),
                        ),
                        Outcome::Failed(e) => {
                            let reason = SkipReason::BodyError(e.to_string());
                            (
                                ToolSchemaBody::failed(chunks, e),
                                SanitizeReport::skipped(api, reason),
                            )
                        }
                    };
                    // A skip leaves its reason for the response side (a no-op when recorded).
                    #[cfg(feature = "validate")]
                    crate::validate::record(&parts.extensions, &report, None);
                    crate::log::record(&span, &report);
                    if let crate::report::Outcome::Skipped(reason) = &report.outcome
                        && let Some(response) = policy.on_skip(reason)
                    {
                        state.set(State::Answered {
                            response: Some(response),
                        });
                        continue;
                    }
                    parts.extensions.insert(report);
                    let fut = inner.call(Request::from_parts(parts, body));
                    let limit = config.limit;
                    state.set(State::Calling { fut, plan, limit });
                }
            }
        }
    }
}

/// Keeps one data frame of a body read whole (up to `limit`): `true` once the bytes read, `len`,
/// are past the limit (the frame is kept then too, for a replay). The one place a read body is
/// counted against its limit: the request side, the response validator and the way back's JSON
/// bodies.
pub(crate) fn keep_data(
    chunks: &mut Vec<Bytes>,
    len: &mut usize,
    data: Bytes,
    limit: usize,
) -> bool {
    *len = len.saturating_add(data.len());
    if !data.is_empty() {
        chunks.push(data);
    }
    *len > limit
}

/// Whether a body declares (by its exact size hint, else `Content-Length`) more than `limit`
/// bytes: such a body is never read.
pub(crate) fn declared_over(hint: &http_body::SizeHint, headers: &HeaderMap, limit: usize) -> bool {
    hint.exact()
        .or_else(|| crate::config::content_length(headers))
        .is_some_and(|n| n > limit as u64)
}

/// Reads `body`'s frames into `chunks` (data) and `trailers` until it ends, fails, or `len`
/// passes `limit`. Shared by the request side and the response side (feature `validate`).
pub(crate) fn poll_frames<B>(
    mut body: Pin<&mut B>,
    chunks: &mut Vec<Bytes>,
    len: &mut usize,
    trailers: &mut Option<HeaderMap>,
    limit: usize,
    cx: &mut Context<'_>,
) -> Poll<Outcome>
where
    B: Body<Data = Bytes>,
    B::Error: Into<BoxError>,
{
    loop {
        match ready!(body.as_mut().poll_frame(cx)) {
            None => return Poll::Ready(Outcome::Complete),
            Some(Err(e)) => return Poll::Ready(Outcome::Failed(e.into())),
            Some(Ok(frame)) => match frame.into_data() {
                Ok(data) => {
                    if keep_data(chunks, len, data, limit) {
                        return Poll::Ready(Outcome::Overflow);
                    }
                }
                Err(frame) => {
                    if let Ok(t) = frame.into_trailers() {
                        match trailers {
                            Some(all) => all.extend(t),
                            None => *trailers = Some(t),
                        }
                    }
                }
            },
        }
    }
}
