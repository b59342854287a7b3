//! [`ToolSchema`]: the service.

use std::fmt;
use std::sync::Arc;
use std::task::{Context, Poll};

use bytes::Bytes;
use http::Request;
use http_body::Body;
use tower_service::Service;

use crate::BoxError;
use crate::body::ToolSchemaBody;
use crate::config::{Config, Decision};
use crate::future::ResponseFuture;
use crate::layer::ToolSchemaLayer;
use crate::policy::{FailOpen, Policy};
use crate::report::{SanitizeReport, SkipReason};
use crate::restore::RestoreResponse;

/// Rewrites the tool schemas in the bodies of LLM API requests, then calls the inner service.
///
/// Built by [`ToolSchemaLayer`].
///
/// ```
/// use std::convert::Infallible;
/// use tower::Layer;
/// use tower_toolschema::{ToolSchema, ToolSchemaBody, ToolSchemaLayer};
///
/// let upstream = tower::service_fn(|_req: http::Request<ToolSchemaBody<String>>| async {
///     Ok::<_, Infallible>(http::Response::new(String::new()))
/// });
/// let svc: ToolSchema<_> = ToolSchemaLayer::anthropic().layer(upstream);
/// # let _ = svc;
/// ```
#[derive(Clone)]
pub struct ToolSchema<S, P = FailOpen> {
    pub(crate) inner: S,
    pub(crate) config: Arc<Config>,
    pub(crate) policy: P,
}

impl<S: fmt::Debug, P: fmt::Debug> fmt::Debug for ToolSchema<S, P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolSchema")
            .field("inner", &self.inner)
            .field("config", &self.config)
            .field("policy", &self.policy)
            .finish()
    }
}

impl<S> ToolSchema<S> {
    /// Wraps `inner` with the configuration of `layer`.
    ///
    /// ```
    /// use tower_toolschema::{ToolSchema, ToolSchemaLayer};
    /// let svc = ToolSchema::new(tower::service_fn(|_req: http::Request<tower_toolschema::ToolSchemaBody<String>>| async {
    ///     Ok::<_, std::convert::Infallible>(http::Response::new(()))
    /// }), &ToolSchemaLayer::gemini());
    /// # let _ = svc;
    /// ```
    pub fn new(inner: S, layer: &ToolSchemaLayer) -> Self {
        ToolSchema {
            inner,
            config: Arc::clone(&layer.config),
            policy: FailOpen,
        }
    }

    /// The layer for this service (same as [`ToolSchemaLayer::auto`]).
    ///
    /// ```
    /// let layer = tower_toolschema::ToolSchema::<()>::layer();
    /// # let _ = layer;
    /// ```
    pub fn layer() -> ToolSchemaLayer {
        ToolSchemaLayer::auto()
    }
}

impl<S, P> ToolSchema<S, P> {
    /// The inner service.
    ///
    /// ```
    /// use tower::Layer;
    /// let svc = tower_toolschema::ToolSchemaLayer::openai().layer("the inner service");
    /// assert_eq!(*svc.get_ref(), "the inner service");
    /// ```
    pub fn get_ref(&self) -> &S {
        &self.inner
    }

    /// The inner service, mutably.
    ///
    /// ```
    /// use tower::Layer;
    /// let mut svc = tower_toolschema::ToolSchemaLayer::openai().layer(0_u32);
    /// *svc.get_mut() += 1;
    /// assert_eq!(*svc.get_ref(), 1);
    /// ```
    pub fn get_mut(&mut self) -> &mut S {
        &mut self.inner
    }

    /// Unwraps the inner service.
    ///
    /// ```
    /// use tower::Layer;
    /// let svc = tower_toolschema::ToolSchemaLayer::openai().layer(vec!["inner"]);
    /// assert_eq!(svc.into_inner(), ["inner"]);
    /// ```
    pub fn into_inner(self) -> S {
        self.inner
    }
}

impl<S, B, P> Service<Request<B>> for ToolSchema<S, P>
where
    S: Service<Request<ToolSchemaBody<B>>> + Clone,
    S::Response: RestoreResponse,
    B: Body<Data = Bytes>,
    B::Error: Into<BoxError>,
    P: Policy<S::Response>,
{
    /// The upstream's response with its body in a
    /// [`RestoreBody`](crate::restore::RestoreBody): untouched when the request has nothing to
    /// restore, read through the [way back](crate::restore) otherwise.
    type Response = <S::Response as RestoreResponse>::Restored;
    type Error = S::Error;
    type Future = ResponseFuture<S, B, P>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, req: Request<B>) -> Self::Future {
        if req.body().is_end_stream() {
            return ResponseFuture::called(self.inner.call(req.map(ToolSchemaBody::new)));
        }
        let ctx = match self.config.decide(req.method(), req.uri(), req.headers()) {
            Decision::Pass => {
                return ResponseFuture::called(self.inner.call(req.map(ToolSchemaBody::new)));
            }
            Decision::Skip(api, reason) => return self.skip(req, api, reason),
            Decision::Inspect(ctx) => ctx,
        };
        if crate::future::declared_over(&req.body().size_hint(), req.headers(), self.config.limit) {
            let api = ctx.shape.map(|s| s.api);
            return self.skip(
                req,
                api,
                SkipReason::TooLarge {
                    limit: self.config.limit,
                },
            );
        }
        // Call the service that was driven to readiness; leave a clone in its place.
        let clone = self.inner.clone();
        let inner = std::mem::replace(&mut self.inner, clone);
        let (parts, body) = req.into_parts();
        ResponseFuture::buffering(
            inner,
            parts,
            body,
            Arc::clone(&self.config),
            ctx,
            self.policy.clone(),
        )
    }
}

impl<S, P> ToolSchema<S, P> {
    fn skip<B>(
        &mut self,
        req: Request<B>,
        api: Option<crate::shapes::Api>,
        reason: SkipReason,
    ) -> ResponseFuture<S, B, P>
    where
        S: Service<Request<ToolSchemaBody<B>>>,
        P: Policy<S::Response>,
    {
        tracing::debug!(target: "tower_toolschema", api = api.map(|a| a.name()), "body not inspected: {reason}");
        if let Some(response) = self.policy.on_skip(&reason) {
            return ResponseFuture::answered(response);
        }
        let mut req = req.map(ToolSchemaBody::new);
        let report = SanitizeReport::skipped(api, reason);
        #[cfg(feature = "validate")]
        crate::validate::record(req.extensions(), &report, None);
        req.extensions_mut().insert(report);
        ResponseFuture::called(self.inner.call(req))
    }
}
