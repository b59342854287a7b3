//! [`ValidateToolCallsLayer`] and [`ValidateToolCalls`]: the response-side hook around the
//! request-side [`ToolSchema`](crate::ToolSchema).

use std::task::{Context, Poll};

use bytes::Bytes;
use http::{Request, Response};
use http_body::Body;
use tower_layer::Layer;
use tower_service::Service;

use super::{Capture, ValidateResponseFuture};
use crate::policy::FailOpen;
use crate::service::ToolSchema;
use crate::{BoxError, ToolCallsBody, ToolSchemaLayer};

/// A [`ToolSchemaLayer`] that also validates the tool calls of the responses against the
/// original schemas of their requests; built by [`ToolSchemaLayer::validate_tool_calls`].
///
/// Its services are [`ValidateToolCalls`] around [`ToolSchema`]. Configure the
/// [`ToolSchemaLayer`] (limit, profiles, policy) before turning validation on; the response
/// side uses the same body limit.
///
/// ```
/// use tower::Layer;
/// use tower_toolschema::{ToolSchemaLayer, ValidateToolCallsLayer};
///
/// let layer: ValidateToolCallsLayer = ToolSchemaLayer::auto().validate_tool_calls(true);
/// let svc = layer.layer("upstream");
/// // A `ValidateToolCalls` around the `ToolSchema` around the upstream.
/// assert_eq!(*svc.get_ref().get_ref(), "upstream");
/// ```
#[derive(Debug, Clone)]
pub struct ValidateToolCallsLayer<P = FailOpen> {
    layer: ToolSchemaLayer<P>,
    on: bool,
}

impl<P> ValidateToolCallsLayer<P> {
    /// The request-side layer inside.
    ///
    /// ```
    /// use tower_toolschema::ToolSchemaLayer;
    /// let layer = ToolSchemaLayer::auto().limit(1 << 20).validate_tool_calls(true);
    /// assert_eq!(layer.tool_schema_layer().config().body_limit(), 1 << 20);
    /// assert!(layer.is_on());
    /// ```
    pub fn tool_schema_layer(&self) -> &ToolSchemaLayer<P> {
        &self.layer
    }

    /// Whether responses are validated.
    ///
    /// ```
    /// use tower_toolschema::ToolSchemaLayer;
    /// assert!(!ToolSchemaLayer::auto().validate_tool_calls(false).is_on());
    /// ```
    pub fn is_on(&self) -> bool {
        self.on
    }
}

impl<P> ToolSchemaLayer<P> {
    /// Also validates the tool calls of non-streaming responses against the original
    /// (unsanitized) schemas of the request's tools, and attaches the
    /// [`ToolCallFindings`](crate::validate::ToolCallFindings) to the response's extensions;
    /// the response bytes are never changed. With `false`, responses go on as they are (in a
    /// [`ToolCallsBody`]) with no findings. Call it last: it wraps this layer.
    ///
    /// ```
    /// use std::convert::Infallible;
    /// use tower_toolschema::{ToolSchemaBody, ToolSchemaLayer};
    ///
    /// let upstream = tower::service_fn(|_req: http::Request<ToolSchemaBody<String>>| async {
    ///     Ok::<_, Infallible>(http::Response::new(String::new()))
    /// });
    /// let svc = tower::ServiceBuilder::new()
    ///     .layer(ToolSchemaLayer::anthropic().validate_tool_calls(true))
    ///     .service(upstream);
    /// # let _ = svc;
    /// ```
    pub fn validate_tool_calls(self, on: bool) -> ValidateToolCallsLayer<P> {
        ValidateToolCallsLayer { layer: self, on }
    }
}

impl<S, P: Clone> Layer<S> for ValidateToolCallsLayer<P> {
    type Service = ValidateToolCalls<ToolSchema<S, P>>;

    fn layer(&self, inner: S) -> Self::Service {
        ValidateToolCalls {
            inner: self.layer.layer(inner),
            on: self.on,
            limit: self.layer.config.limit,
        }
    }
}

/// Validates the tool calls of the responses of `S` (a [`ToolSchema`], which keeps each
/// request's original tool schemas for it); see the [module docs](crate::validate).
///
/// Wrapping a service that is not a [`ToolSchema`] is allowed; the findings then say the
/// request's schemas are unknown.
///
/// ```
/// use tower_toolschema::{ToolSchema, ToolSchemaLayer, ValidateToolCalls};
/// let layer = ToolSchemaLayer::anthropic();
/// let upstream = tower::service_fn(|_req: http::Request<tower_toolschema::ToolSchemaBody<String>>| async {
///     Ok::<_, std::convert::Infallible>(http::Response::new(String::new()))
/// });
/// let svc = ValidateToolCalls::new(ToolSchema::new(upstream, &layer), layer.config().body_limit());
/// # let _ = svc;
/// ```
#[derive(Debug, Clone)]
pub struct ValidateToolCalls<S> {
    inner: S,
    on: bool,
    limit: usize,
}

impl<S> ValidateToolCalls<S> {
    /// Validates the responses of `inner`, reading bodies up to `limit` bytes.
    ///
    /// ```
    /// let svc = tower_toolschema::ValidateToolCalls::new("inner", 4096);
    /// assert_eq!(*svc.get_ref(), "inner");
    /// ```
    pub fn new(inner: S, limit: usize) -> Self {
        ValidateToolCalls {
            inner,
            on: true,
            limit,
        }
    }

    /// The inner service.
    ///
    /// ```
    /// let svc = tower_toolschema::ValidateToolCalls::new((), 1024);
    /// assert_eq!(svc.get_ref(), &());
    /// ```
    pub fn get_ref(&self) -> &S {
        &self.inner
    }

    /// The inner service, mutably.
    ///
    /// ```
    /// let mut svc = tower_toolschema::ValidateToolCalls::new(1_u8, 1024);
    /// *svc.get_mut() += 1;
    /// assert_eq!(*svc.get_ref(), 2);
    /// ```
    pub fn get_mut(&mut self) -> &mut S {
        &mut self.inner
    }

    /// Unwraps the inner service.
    ///
    /// ```
    /// let svc = tower_toolschema::ValidateToolCalls::new(vec![1], 64);
    /// assert_eq!(svc.into_inner(), [1]);
    /// ```
    pub fn into_inner(self) -> S {
        self.inner
    }
}

impl<S, ReqB, ResB> Service<Request<ReqB>> for ValidateToolCalls<S>
where
    S: Service<Request<ReqB>, Response = Response<ResB>>,
    ResB: Body<Data = Bytes>,
    ResB::Error: Into<BoxError>,
{
    type Response = Response<ToolCallsBody<ResB>>;
    type Error = S::Error;
    type Future = ValidateResponseFuture<S::Future, ResB>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut req: Request<ReqB>) -> Self::Future {
        let capture = self.on.then(|| {
            let capture = Capture::default();
            req.extensions_mut().insert(capture.clone());
            capture
        });
        ValidateResponseFuture::new(self.inner.call(req), capture, self.limit)
    }
}
