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
    /// The inner body, untouched.
    Pass,
    /// A JSON body being read whole (up to the limit).
    Json {
        plan: Arc<RestorePlan>,
        chunks: Vec<Bytes>,
        len: usize,
        limit: usize,
    },
    /// An SSE stream, event by event.
    Sse(Box<StreamRestorer>),
    /// The inner body ended: what is queued goes, then the end.
    Ended,
}

pin_project! {
    /// The response body of [`ToolSchema`](crate::ToolSchema): the upstream's body, untouched
    /// when nothing needs restoring (every frame passes as it comes), or read through the way
    /// back ([`crate::restore`]): a JSON body is read whole and sent as one frame, an SSE
    /// stream event by event. Trailers and errors are forwarded after what came before them.
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
        inner: B,
        mode: Mode,
        queue: VecDeque<Frame<Bytes>>,
        error: Option<B::Error>,
        report: Option<RestoreReport>,
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
    pub fn pass(inner: B) -> Self {
        Self::with(inner, Mode::Pass, None)
    }

    fn with(inner: B, mode: Mode, report: Option<RestoreReport>) -> Self {
        RestoreBody {
            inner,
            mode,
            queue: VecDeque::new(),
            error: None,
            report,
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
        Self::with(inner, mode, Some(report))
    }

    pub(crate) fn sse(inner: B, plan: Arc<RestorePlan>, report: RestoreReport) -> Self {
        let mode = Mode::Sse(Box::new(StreamRestorer::new(plan)));
        Self::with(inner, mode, Some(report))
    }
}

/// Ends the reading: what is held goes to `queue` (`cut`: the body failed or ended early, so
/// held data goes as it came).
fn finish(
    mode: &mut Mode,
    queue: &mut VecDeque<Frame<Bytes>>,
    report: Option<&RestoreReport>,
    cut: bool,
) {
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
    if let Some(r) = report {
        r.update(|s| s.complete = true);
    }
}

fn record(
    report: Option<&RestoreReport>,
    calls: Vec<super::RestoredCall>,
    why: Option<NotRestored>,
) {
    if let Some(r) = report {
        r.update(|s| {
            s.calls.extend(calls);
            if why.is_some() {
                s.not_restored = why;
            }
        });
    }
}

impl<B> Body for RestoreBody<B>
where
    B: Body<Data = Bytes>,
{
    type Data = Bytes;
    type Error = B::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, B::Error>>> {
        let mut this = self.project();
        loop {
            if let Some(f) = this.queue.pop_front() {
                return Poll::Ready(Some(Ok(f)));
            }
            if let Some(e) = this.error.take() {
                return Poll::Ready(Some(Err(e)));
            }
            match this.mode {
                Mode::Pass => return this.inner.as_mut().poll_frame(cx),
                Mode::Ended => return Poll::Ready(None),
                Mode::Json { .. } | Mode::Sse(_) => {}
            }
            match ready!(this.inner.as_mut().poll_frame(cx)) {
                None => finish(this.mode, this.queue, this.report.as_ref(), false),
                Some(Err(e)) => {
                    finish(this.mode, this.queue, this.report.as_ref(), true);
                    *this.error = Some(e);
                }
                Some(Ok(frame)) => match frame.into_data() {
                    Ok(data) => match this.mode {
                        Mode::Json {
                            chunks, len, limit, ..
                        } => {
                            if crate::future::keep_data(chunks, len, data, *limit) {
                                let limit = *limit;
                                this.queue
                                    .extend(std::mem::take(chunks).into_iter().map(Frame::data));
                                *this.mode = Mode::Pass;
                                record(
                                    this.report.as_ref(),
                                    Vec::new(),
                                    Some(NotRestored::TooLarge { limit }),
                                );
                            }
                        }
                        Mode::Sse(r) => {
                            this.queue
                                .extend(r.push_bytes(data).into_iter().map(Frame::data));
                            let calls = std::mem::take(&mut r.calls);
                            if !calls.is_empty() {
                                record(this.report.as_ref(), calls, None);
                            }
                        }
                        Mode::Pass | Mode::Ended => this.queue.push_back(Frame::data(data)),
                    },
                    // Trailers: what is held goes first.
                    Err(frame) => {
                        finish(this.mode, this.queue, this.report.as_ref(), false);
                        this.queue.push_back(frame);
                        *this.mode = Mode::Pass;
                    }
                },
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        match self.mode {
            Mode::Pass => {
                self.queue.is_empty() && self.error.is_none() && self.inner.is_end_stream()
            }
            Mode::Ended => self.queue.is_empty() && self.error.is_none(),
            _ => false,
        }
    }

    fn size_hint(&self) -> SizeHint {
        match self.mode {
            Mode::Pass if self.queue.is_empty() => self.inner.size_hint(),
            _ => SizeHint::default(),
        }
    }
}
