//! [`ToolCallsBody`]: the response body behind [`ValidateToolCalls`](crate::ValidateToolCalls).

use std::fmt;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use http::HeaderMap;
use http_body::{Body, Frame, SizeHint};
use pin_project_lite::pin_project;

use crate::{BoxError, ToolSchemaBody};

pin_project! {
    /// The response body behind [`ValidateToolCalls`](crate::ValidateToolCalls): the upstream's
    /// body streaming on untouched, the very `Bytes` that were read to inspect it (and its
    /// trailers), a replay of what was read followed by the rest of the stream (over the limit),
    /// or a replay followed by the stream's error. The bytes are never changed.
    ///
    /// Opaque; `Data = Bytes`, `Error = BoxError`.
    ///
    /// ```
    /// use http_body_util::{BodyExt, Full};
    /// use tower_toolschema::ToolCallsBody;
    ///
    /// # #[tokio::main(flavor = "current_thread")] async fn main() {
    /// let body = ToolCallsBody::new(Full::new(bytes::Bytes::from_static(b"{}")));
    /// assert_eq!(body.collect().await.unwrap().to_bytes(), "{}");
    /// # }
    /// ```
    pub struct ToolCallsBody<B> {
        #[pin]
        inner: ToolSchemaBody<B>,
    }
}

impl<B> fmt::Debug for ToolCallsBody<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolCallsBody")
            .field("inner", &self.inner)
            .finish()
    }
}

impl<B> ToolCallsBody<B> {
    /// Wraps a body that goes on untouched (not inspected).
    ///
    /// ```
    /// use http_body::Body;
    /// let body = tower_toolschema::ToolCallsBody::new(String::from("{}"));
    /// assert_eq!(body.size_hint().exact(), Some(2));
    /// ```
    pub fn new(body: B) -> Self {
        ToolCallsBody {
            inner: ToolSchemaBody::new(body),
        }
    }

    /// The whole body, read: the very same `Bytes` go on.
    pub(crate) fn full(data: Bytes, trailers: Option<HeaderMap>) -> Self {
        ToolCallsBody {
            inner: ToolSchemaBody::full(data, trailers),
        }
    }

    /// What was read, then the rest of the stream.
    pub(crate) fn replay(prefix: Vec<Bytes>, rest: Pin<Box<B>>) -> Self {
        ToolCallsBody {
            inner: ToolSchemaBody::replay(prefix, rest),
        }
    }

    /// What was read, then the stream's error.
    pub(crate) fn failed(prefix: Vec<Bytes>, error: BoxError) -> Self {
        ToolCallsBody {
            inner: ToolSchemaBody::failed(prefix, error),
        }
    }
}

impl<B> Body for ToolCallsBody<B>
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
        self.project().inner.poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}
