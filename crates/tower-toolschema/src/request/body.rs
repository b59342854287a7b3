//! [`ToolSchemaBody`]: the request body the inner service receives.

use std::collections::VecDeque;
use std::fmt;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use http::HeaderMap;
use http_body::{Body, Frame, SizeHint};
use pin_project_lite::pin_project;

use crate::BoxError;

pin_project! {
    /// The request body behind a [`ToolSchemaLayer`](crate::ToolSchemaLayer): the original body
    /// streaming on untouched, the original or rewritten bytes, a replay of what was read
    /// followed by the rest of the stream, or a replay followed by the stream's error.
    ///
    /// Opaque; `Data = Bytes`, `Error = BoxError`. It is `Send`, `Sync` and `Unpin` when `B` is.
    ///
    /// ```
    /// use http_body_util::{BodyExt, Full};
    /// use tower_toolschema::ToolSchemaBody;
    ///
    /// # #[tokio::main(flavor = "current_thread")] async fn main() {
    /// let body = ToolSchemaBody::new(Full::new(bytes::Bytes::from_static(b"{}")));
    /// assert_eq!(body.collect().await.unwrap().to_bytes(), "{}");
    /// # }
    /// ```
    pub struct ToolSchemaBody<B> {
        #[pin]
        inner: Inner<B>,
    }
}

pin_project! {
    #[project = InnerProj]
    enum Inner<B> {
        Passthrough { #[pin] body: B },
        Full { data: Option<Bytes>, trailers: Option<HeaderMap> },
        Parts { parts: VecDeque<Bytes> },
        Replay { prefix: VecDeque<Bytes>, rest: Pin<Box<B>> },
        Failed { prefix: VecDeque<Bytes>, error: Option<BoxError> },
    }
}

impl<B> fmt::Debug for ToolSchemaBody<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match &self.inner {
            Inner::Passthrough { .. } => "Passthrough",
            Inner::Full { .. } => "Full",
            Inner::Parts { .. } => "Parts",
            Inner::Replay { .. } => "Replay",
            Inner::Failed { .. } => "Failed",
        };
        f.debug_struct("ToolSchemaBody")
            .field("kind", &kind)
            .finish_non_exhaustive()
    }
}

impl<B> ToolSchemaBody<B> {
    /// Wraps a body that goes on untouched.
    ///
    /// ```
    /// use http_body::Body;
    /// let body = tower_toolschema::ToolSchemaBody::new(String::from("{}"));
    /// assert_eq!(body.size_hint().exact(), Some(2));
    /// ```
    pub fn new(body: B) -> Self {
        ToolSchemaBody {
            inner: Inner::Passthrough { body },
        }
    }

    pub(crate) fn full(data: Bytes, trailers: Option<HeaderMap>) -> Self {
        ToolSchemaBody {
            inner: Inner::Full {
                data: (!data.is_empty()).then_some(data),
                trailers,
            },
        }
    }

    /// A rewritten body in pieces (slices of the original around the rewritten region).
    pub(crate) fn parts(parts: Vec<Bytes>) -> Self {
        ToolSchemaBody {
            inner: Inner::Parts {
                parts: parts.into_iter().filter(|p| !p.is_empty()).collect(),
            },
        }
    }

    pub(crate) fn replay(prefix: Vec<Bytes>, rest: Pin<Box<B>>) -> Self {
        ToolSchemaBody {
            inner: Inner::Replay {
                prefix: prefix.into(),
                rest,
            },
        }
    }

    pub(crate) fn failed(prefix: Vec<Bytes>, error: BoxError) -> Self {
        ToolSchemaBody {
            inner: Inner::Failed {
                prefix: prefix.into(),
                error: Some(error),
            },
        }
    }
}

impl<B> Body for ToolSchemaBody<B>
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
        match self.project().inner.project() {
            InnerProj::Passthrough { body } => body.poll_frame(cx).map_err(Into::into),
            InnerProj::Full { data, trailers } => {
                if let Some(d) = data.take() {
                    return Poll::Ready(Some(Ok(Frame::data(d))));
                }
                Poll::Ready(trailers.take().map(|t| Ok(Frame::trailers(t))))
            }
            InnerProj::Parts { parts } => {
                Poll::Ready(parts.pop_front().map(|d| Ok(Frame::data(d))))
            }
            InnerProj::Replay { prefix, rest } => {
                if let Some(d) = prefix.pop_front() {
                    return Poll::Ready(Some(Ok(Frame::data(d))));
                }
                rest.as_mut().poll_frame(cx).map_err(Into::into)
            }
            InnerProj::Failed { prefix, error } => {
                if let Some(d) = prefix.pop_front() {
                    return Poll::Ready(Some(Ok(Frame::data(d))));
                }
                Poll::Ready(error.take().map(Err))
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        match &self.inner {
            Inner::Passthrough { body } => body.is_end_stream(),
            Inner::Full { data, trailers } => data.is_none() && trailers.is_none(),
            Inner::Parts { parts } => parts.is_empty(),
            Inner::Replay { prefix, rest } => prefix.is_empty() && rest.is_end_stream(),
            Inner::Failed { prefix, error } => prefix.is_empty() && error.is_none(),
        }
    }

    fn size_hint(&self) -> SizeHint {
        match &self.inner {
            Inner::Passthrough { body } => body.size_hint(),
            Inner::Full { data, .. } => {
                SizeHint::with_exact(data.as_ref().map_or(0, |d| d.len() as u64))
            }
            Inner::Parts { parts } => {
                SizeHint::with_exact(parts.iter().map(|b| b.len() as u64).sum())
            }
            Inner::Replay { prefix, rest } => {
                let read: u64 = prefix.iter().map(|b| b.len() as u64).sum();
                let rest = rest.size_hint();
                let mut hint = SizeHint::new();
                hint.set_lower(read.saturating_add(rest.lower()));
                if let Some(upper) = rest.upper() {
                    hint.set_upper(read.saturating_add(upper));
                }
                hint
            }
            Inner::Failed { prefix, .. } => {
                let mut hint = SizeHint::new();
                hint.set_lower(prefix.iter().map(|b| b.len() as u64).sum());
                hint
            }
        }
    }
}
