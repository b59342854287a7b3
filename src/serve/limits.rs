//! Limits on a request: its body size (declared and decompressed), how long the upstream may
//! stay silent, and how many requests may be in flight.

use std::fmt;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};
use std::time::Duration;

use bytes::Bytes;
use http::{HeaderMap, header};
use http_body::{Body, Frame, SizeHint};
use pin_project_lite::pin_project;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::{Instant, Sleep};

use super::upstream::BoxError;

/// Whether the declared `Content-Length` is over `limit` (a body declared too large is never
/// read).
pub(crate) fn declared_too_large(headers: &HeaderMap, limit: usize) -> bool {
    headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok())
        .is_some_and(|n| n > limit as u64)
}

/// One slot of the gateway-wide and one of the route's concurrency, or `None` when either is
/// full. Released when the response body is done.
pub(crate) fn admit(global: &Arc<Semaphore>, route: &Arc<Semaphore>) -> Option<Permits> {
    let g = Arc::clone(global).try_acquire_owned().ok()?;
    let r = Arc::clone(route).try_acquire_owned().ok()?;
    Some(Permits {
        _global: g,
        _route: r,
    })
}

/// The concurrency slots a request holds.
#[derive(Debug)]
pub(crate) struct Permits {
    _global: OwnedSemaphorePermit,
    _route: OwnedSemaphorePermit,
}

/// The upstream went silent for longer than the idle timeout in the middle of its body.
#[derive(Debug)]
pub(crate) struct IdleTimeoutError(pub(crate) Duration);

impl fmt::Display for IdleTimeoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the upstream sent nothing for {:?} (idle timeout)",
            self.0
        )
    }
}

impl std::error::Error for IdleTimeoutError {}

pin_project! {
    /// A body that fails with [`IdleTimeoutError`] when no frame comes for `idle`.
    pub(crate) struct IdleTimeout<B> {
        #[pin]
        inner: B,
        #[pin]
        sleep: Sleep,
        idle: Duration,
        done: bool,
    }
}

impl<B> IdleTimeout<B> {
    pub(crate) fn new(inner: B, idle: Duration) -> Self {
        IdleTimeout {
            inner,
            sleep: tokio::time::sleep(idle),
            idle,
            done: false,
        }
    }
}

impl<B> Body for IdleTimeout<B>
where
    B: Body<Data = Bytes>,
    B::Error: Into<BoxError>,
{
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        let this = self.project();
        if *this.done {
            return Poll::Ready(None);
        }
        match this.inner.poll_frame(cx) {
            Poll::Ready(frame) => {
                let idle = *this.idle;
                this.sleep.reset(Instant::now() + idle);
                Poll::Ready(frame.map(|r| r.map_err(Into::into)))
            }
            Poll::Pending => {
                ready!(this.sleep.poll(cx));
                *this.done = true;
                Poll::Ready(Some(Err(Box::new(IdleTimeoutError(*this.idle)))))
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        self.done || self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::BodyExt;

    #[test]
    fn declared_lengths() {
        let mut h = HeaderMap::new();
        assert!(!declared_too_large(&h, 10));
        h.insert(header::CONTENT_LENGTH, "11".parse().unwrap());
        assert!(declared_too_large(&h, 10));
        assert!(!declared_too_large(&h, 11));
    }

    #[tokio::test]
    async fn a_silent_body_times_out() {
        let (_tx, body) = http_body_util::channel::Channel::<Bytes, BoxError>::new(1);
        let mut body = std::pin::pin!(IdleTimeout::new(body, Duration::from_millis(20)));
        let err = tokio::time::timeout(Duration::from_secs(5), BodyExt::frame(&mut body))
            .await
            .expect("the idle timeout fires")
            .expect("a frame")
            .unwrap_err();
        assert!(err.is::<IdleTimeoutError>(), "{err}");
    }

    #[test]
    fn permits_run_out() {
        let g = Arc::new(Semaphore::new(2));
        let r = Arc::new(Semaphore::new(1));
        let first = admit(&g, &r);
        assert!(first.is_some());
        assert!(admit(&g, &r).is_none(), "the route is full");
        drop(first);
        assert!(admit(&g, &r).is_some());
    }
}
