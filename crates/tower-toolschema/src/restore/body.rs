//! [`RestoreBody`]: the response body of the layer.

use std::collections::VecDeque;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};

use bytes::Bytes;
use http_body::{Body, Frame, SizeHint};
use pin_project_lite::pin_project;

use super::events::StreamRestorer;
use super::{NotRestored, RestorePlan, RestoreReport};

enum Mode {
    /// The inner body, untouched from here on (what is queued goes first).
    Pass,
    /// A JSON body being read whole (up to the limit).
    Json {
        plan: Arc<RestorePlan>,
        chunks: Vec<Bytes>,
        len: usize,
        limit: usize,
    },
    /// An SSE stream, event by event.
    Sse(StreamRestorer),
    /// The inner body ended: what is queued goes, then the end.
    Ended,
}

/// What a body read through the way back keeps beside the inner body (one allocation per
/// restored response; an untouched body has none).
struct Reading<E> {
    mode: Mode,
    queue: VecDeque<Frame<Bytes>>,
    error: Option<E>,
    report: RestoreReport,
}

pin_project! {
    /// The response body of [`ToolSchema`](crate::ToolSchema): the upstream's body, untouched
    /// when nothing needs restoring (every frame is the inner body's, handed on by a plain
    /// delegation: nothing is done per frame), or read through the way back
    /// ([`crate::restore`]): a JSON body is read whole and sent as one frame, an SSE stream
    /// event by event. Trailers and errors are forwarded after what came before them.
    ///
    /// ```
    /// use http_body_util::{BodyExt, Full};
    /// use tower_toolschema::restore::RestoreBody;
    /// # #[tokio::main(flavor = "current_thread")] async fn main() {
    /// let body = RestoreBody::pass(Full::new(bytes::Bytes::from_static(b"{}")));
    /// assert_eq!(&body.collect().await.unwrap().to_bytes()[..], b"{}");
    /// # }
    /// ```
    pub struct RestoreBody<B: Body> {
        #[pin]
        kind: Kind<B>,
    }
}

pin_project! {
    #[project = KindProj]
    enum Kind<B: Body> {
        /// The inner body, untouched.
        Pass { #[pin] inner: B },
        /// The inner body read through the way back.
        Read { #[pin] inner: B, read: Box<Reading<B::Error>> },
    }
}

impl<B: Body> std::fmt::Debug for RestoreBody<B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RestoreBody").finish_non_exhaustive()
    }
}

impl<B: Body> RestoreBody<B> {
    /// The body untouched.
    ///
    /// ```
    /// use http_body::Body;
    /// use http_body_util::Full;
    /// use tower_toolschema::restore::RestoreBody;
    /// let body = RestoreBody::pass(Full::new(bytes::Bytes::from_static(b"{\"a\":1}")));
    /// // Every frame passes as it comes: the inner body's size is known as it was.
    /// assert_eq!(body.size_hint().exact(), Some(7));
    /// ```
    #[inline]
    pub fn pass(inner: B) -> Self {
        RestoreBody {
            kind: Kind::Pass { inner },
        }
    }

    fn read(inner: B, mode: Mode, report: RestoreReport) -> Self {
        let read = Box::new(Reading {
            mode,
            queue: VecDeque::new(),
            error: None,
            report,
        });
        RestoreBody {
            kind: Kind::Read { inner, read },
        }
    }

    pub(crate) fn json(
        inner: B,
        plan: Arc<RestorePlan>,
        limit: usize,
        report: RestoreReport,
    ) -> Self {
        let mode = Mode::Json {
            plan,
            chunks: Vec::new(),
            len: 0,
            limit,
        };
        Self::read(inner, mode, report)
    }

    pub(crate) fn sse(inner: B, plan: Arc<RestorePlan>, report: RestoreReport) -> Self {
        Self::read(inner, Mode::Sse(StreamRestorer::new(plan)), report)
    }
}

/// Ends the reading: what is held goes to `queue` (`cut`: the body failed or ended early, so
/// held data goes as it came).
fn finish(mode: &mut Mode, queue: &mut VecDeque<Frame<Bytes>>, report: &RestoreReport, cut: bool) {
    match std::mem::replace(mode, Mode::Ended) {
        Mode::Json { plan, chunks, .. } => {
            let whole = crate::future::concat(chunks.clone());
            let restored = if cut || whole.is_empty() {
                Ok((None, Vec::new()))
            } else {
                plan.restore_json(&whole)
            };
            match restored {
                Ok((Some(new), calls)) => {
                    queue.push_back(Frame::data(Bytes::from(new)));
                    record(report, calls, None);
                }
                Ok((None, calls)) => {
                    queue.extend(chunks.into_iter().map(Frame::data));
                    record(report, calls, None);
                }
                Err(why) => {
                    queue.extend(chunks.into_iter().map(Frame::data));
                    record(report, Vec::new(), Some(why));
                }
            }
        }
        Mode::Sse(mut r) => {
            queue.extend(r.finish(cut).into_iter().map(Frame::data));
            record(report, std::mem::take(&mut r.calls), None);
        }
        Mode::Pass | Mode::Ended => {}
    }
    report.update(|s| s.complete = true);
}

fn record(report: &RestoreReport, calls: Vec<super::RestoredCall>, why: Option<NotRestored>) {
    report.update(|s| {
        s.calls.extend(calls);
        if why.is_some() {
            s.not_restored = why;
        }
    });
}

impl<E> Reading<E> {
    /// The next frame of a body read through the way back (out of line: the untouched body's
    /// delegation stays small enough to inline where it is read).
    #[inline(never)]
    fn poll_frame<B>(
        &mut self,
        mut inner: Pin<&mut B>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, E>>>
    where
        B: Body<Data = Bytes, Error = E>,
    {
        loop {
            if let Some(f) = self.queue.pop_front() {
                return Poll::Ready(Some(Ok(f)));
            }
            if let Some(e) = self.error.take() {
                return Poll::Ready(Some(Err(e)));
            }
            match self.mode {
                Mode::Pass => return inner.as_mut().poll_frame(cx),
                Mode::Ended => return Poll::Ready(None),
                Mode::Json { .. } | Mode::Sse(_) => {}
            }
            match ready!(inner.as_mut().poll_frame(cx)) {
                None => finish(&mut self.mode, &mut self.queue, &self.report, false),
                Some(Err(e)) => {
                    finish(&mut self.mode, &mut self.queue, &self.report, true);
                    self.error = Some(e);
                }
                Some(Ok(frame)) => match frame.into_data() {
                    Ok(data) => self.data(data),
                    // Trailers: what is held goes first.
                    Err(frame) => {
                        finish(&mut self.mode, &mut self.queue, &self.report, false);
                        self.queue.push_back(frame);
                        self.mode = Mode::Pass;
                    }
                },
            }
        }
    }

    /// One data frame of the inner body, read.
    fn data(&mut self, data: Bytes) {
        match &mut self.mode {
            Mode::Json {
                chunks, len, limit, ..
            } => {
                if crate::future::keep_data(chunks, len, data, *limit) {
                    let limit = *limit;
                    self.queue
                        .extend(std::mem::take(chunks).into_iter().map(Frame::data));
                    self.mode = Mode::Pass;
                    record(
                        &self.report,
                        Vec::new(),
                        Some(NotRestored::TooLarge { limit }),
                    );
                }
            }
            Mode::Sse(r) => {
                self.queue
                    .extend(r.push_bytes(data).into_iter().map(Frame::data));
                let calls = std::mem::take(&mut r.calls);
                if !calls.is_empty() {
                    record(&self.report, calls, None);
                }
            }
            Mode::Pass | Mode::Ended => self.queue.push_back(Frame::data(data)),
        }
    }

    fn is_end_stream(&self, inner: impl FnOnce() -> bool) -> bool {
        match self.mode {
            Mode::Pass => self.queue.is_empty() && self.error.is_none() && inner(),
            Mode::Ended => self.queue.is_empty() && self.error.is_none(),
            _ => false,
        }
    }
}

impl<B> Body for RestoreBody<B>
where
    B: Body<Data = Bytes>,
{
    type Data = Bytes;
    type Error = B::Error;

    #[inline]
    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, B::Error>>> {
        match self.project().kind.project() {
            KindProj::Pass { inner } => inner.poll_frame(cx),
            KindProj::Read { inner, read } => read.poll_frame(inner, cx),
        }
    }

    #[inline]
    fn is_end_stream(&self) -> bool {
        match &self.kind {
            Kind::Pass { inner } => inner.is_end_stream(),
            Kind::Read { inner, read } => read.is_end_stream(|| inner.is_end_stream()),
        }
    }

    #[inline]
    fn size_hint(&self) -> SizeHint {
        match &self.kind {
            Kind::Pass { inner } => inner.size_hint(),
            Kind::Read { inner, read } => match read.mode {
                Mode::Pass if read.queue.is_empty() => inner.size_hint(),
                _ => SizeHint::default(),
            },
        }
    }
}
