//! [`ValidateResponseFuture`]: waits for the response, reads an inspectable body, validates its
//! tool calls, and hands the response on with the very same bytes.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, ready};

use bytes::Bytes;
use http::{HeaderMap, Response, header};
use http_body::Body;
use pin_project_lite::pin_project;

use super::{Capture, Inspection, NotInspected, ToolCallFindings, ToolCallsBody};
use crate::BoxError;
use crate::config::{content_encoding, is_json};
use crate::future::{Outcome, concat, poll_frames};

pin_project! {
    /// The response future of [`ValidateToolCalls`](crate::ValidateToolCalls): the inner
    /// service's future, then (for an inspectable response) the reading of its body; resolves to
    /// the response with [`ToolCallFindings`] in its extensions and a [`ToolCallsBody`].
    ///
    /// ```
    /// use std::convert::Infallible;
    /// use tower::{Service, ServiceExt};
    /// use tower_toolschema::{ValidateResponseFuture, ValidateToolCalls, validate::ToolCallFindings};
    ///
    /// # #[tokio::main(flavor = "current_thread")] async fn main() {
    /// let upstream = tower::service_fn(|_req: http::Request<String>| async {
    ///     Ok::<_, Infallible>(http::Response::builder().header("content-type", "application/json").body(String::from("{}")).unwrap())
    /// });
    /// let mut svc = ValidateToolCalls::new(upstream, 1024);
    /// let future: ValidateResponseFuture<_, _> = svc.ready().await.unwrap().call(http::Request::new(String::new()));
    /// let res = future.await.unwrap();
    /// assert!(res.extensions().get::<ToolCallFindings>().is_some());
    /// # }
    /// ```
    pub struct ValidateResponseFuture<F, B> {
        #[pin]
        state: State<F, B>,
    }
}

pin_project! {
    #[project = StateProj]
    enum State<F, B> {
        Waiting { #[pin] fut: F, capture: Option<Capture>, limit: usize },
        Reading { read: Option<Read<B>> },
        Done,
    }
}

/// A response body being read.
struct Read<B> {
    parts: http::response::Parts,
    body: Pin<Box<B>>,
    chunks: Vec<Bytes>,
    len: usize,
    trailers: Option<HeaderMap>,
    limit: usize,
    capture: Capture,
}

impl<B> Read<B>
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
            self.limit,
            cx,
        )
    }
}

impl<F, B> ValidateResponseFuture<F, B> {
    /// `capture`: `None` when validation is off (the response goes on as it is, no findings).
    pub(crate) fn new(fut: F, capture: Option<Capture>, limit: usize) -> Self {
        ValidateResponseFuture {
            state: State::Waiting {
                fut,
                capture,
                limit,
            },
        }
    }
}

impl<F, B> fmt::Debug for ValidateResponseFuture<F, B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ValidateResponseFuture")
            .finish_non_exhaustive()
    }
}

/// Why a response cannot be read, from its headers alone (no buffering then).
fn precheck<B: Body>(
    res: &Response<B>,
    capture: &Capture,
    limit: usize,
) -> Result<(), NotInspected> {
    super::request_tools(capture)?;
    let headers = res.headers();
    if let Some(ct) = headers.get(header::CONTENT_TYPE) {
        let ct = ct.to_str().unwrap_or("(not text)");
        let mime = ct.split(';').next().unwrap_or("").trim();
        if mime.eq_ignore_ascii_case("text/event-stream") {
            return Err(NotInspected::Streaming);
        }
        if !is_json(headers) {
            return Err(NotInspected::NotJson(ct.to_owned()));
        }
    }
    if let Some(enc) = content_encoding(headers) {
        return Err(NotInspected::Compressed(enc));
    }
    if crate::future::declared_over(&res.body().size_hint(), headers, limit) {
        return Err(NotInspected::TooLarge { limit });
    }
    Ok(())
}

fn with_findings<B>(
    mut parts: http::response::Parts,
    body: ToolCallsBody<B>,
    findings: ToolCallFindings,
) -> Response<ToolCallsBody<B>> {
    if let Inspection::NotInspected(reason) = &findings.inspection {
        tracing::debug!(target: "tower_toolschema", "response tool calls {reason}");
    }
    parts.extensions.insert(findings);
    Response::from_parts(parts, body)
}

impl<F, B, E> Future for ValidateResponseFuture<F, B>
where
    F: Future<Output = Result<Response<B>, E>>,
    B: Body<Data = Bytes>,
    B::Error: Into<BoxError>,
{
    type Output = Result<Response<ToolCallsBody<B>>, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let mut state = self.project().state;
        loop {
            match state.as_mut().project() {
                StateProj::Done => return Poll::Pending,
                StateProj::Waiting {
                    fut,
                    capture,
                    limit,
                } => {
                    let res = match ready!(fut.poll(cx)) {
                        Ok(res) => res,
                        Err(e) => {
                            state.set(State::Done);
                            return Poll::Ready(Err(e));
                        }
                    };
                    let limit = *limit;
                    let Some(capture) = capture.take() else {
                        state.set(State::Done);
                        return Poll::Ready(Ok(res.map(ToolCallsBody::new)));
                    };
                    if let Err(reason) = precheck(&res, &capture, limit) {
                        state.set(State::Done);
                        let (parts, body) = res.into_parts();
                        let findings = ToolCallFindings::not_inspected(reason);
                        return Poll::Ready(Ok(with_findings(
                            parts,
                            ToolCallsBody::new(body),
                            findings,
                        )));
                    }
                    let (parts, body) = res.into_parts();
                    state.set(State::Reading {
                        read: Some(Read {
                            parts,
                            body: Box::pin(body),
                            chunks: Vec::new(),
                            len: 0,
                            trailers: None,
                            limit,
                            capture,
                        }),
                    });
                }
                StateProj::Reading { read } => {
                    let Some(r) = read.as_mut() else {
                        return Poll::Pending;
                    };
                    let outcome = ready!(r.poll_body(cx));
                    let Some(Read {
                        parts,
                        body,
                        chunks,
                        trailers,
                        limit,
                        capture,
                        ..
                    }) = read.take()
                    else {
                        return Poll::Pending;
                    };
                    state.set(State::Done);
                    let (body, findings) = match outcome {
                        Outcome::Complete => {
                            let bytes = concat(chunks);
                            let findings = match super::request_tools(&capture)
                                .and_then(|tools| super::inspect(&bytes, tools))
                            {
                                Ok(calls) => ToolCallFindings {
                                    inspection: Inspection::Inspected,
                                    calls,
                                },
                                Err(reason) => ToolCallFindings::not_inspected(reason),
                            };
                            (ToolCallsBody::full(bytes, trailers), findings)
                        }
                        Outcome::Overflow => (
                            ToolCallsBody::replay(chunks, body),
                            ToolCallFindings::not_inspected(NotInspected::TooLarge { limit }),
                        ),
                        Outcome::Failed(e) => {
                            let reason = NotInspected::BodyError(e.to_string());
                            (
                                ToolCallsBody::failed(chunks, e),
                                ToolCallFindings::not_inspected(reason),
                            )
                        }
                    };
                    return Poll::Ready(Ok(with_findings(parts, body, findings)));
                }
            }
        }
    }
}
