//! A [`reqwest_middleware::Middleware`] doing what the layer does, on `reqwest::Request`s
//! (feature `reqwest`; reqwest 0.13 and reqwest-middleware 0.5, no default features).
//!
//! Only bodies held in memory are inspected (`reqwest::Body::as_bytes`); streaming bodies go on
//! untouched.
//!
//! ```no_run
//! use reqwest_middleware::ClientBuilder;
//! use tower_toolschema::reqwest::ToolSchemaMiddleware;
//!
//! let client = ClientBuilder::new(reqwest::Client::new())
//!     .with(ToolSchemaMiddleware::new(tower_toolschema::ToolSchemaLayer::gemini()))
//!     .build();
//! # let _ = client;
//! ```

use std::sync::Arc;

use http::Extensions;

use crate::config::{Config, Decision, content_length};
use crate::future::set_content_length;
use crate::layer::ToolSchemaLayer;
use crate::report::{Outcome, SanitizeReport, SkipReason};

/// The middleware. Cheap to clone; clones share the configuration and the cache.
///
/// See the [module docs](crate::reqwest) for an example.
#[derive(Debug, Clone)]
pub struct ToolSchemaMiddleware {
    config: Arc<Config>,
}

impl ToolSchemaMiddleware {
    /// A middleware with the configuration of `layer` (its fail-open policy: a request is
    /// never answered by the middleware).
    ///
    /// See the [module docs](crate::reqwest) for an example.
    pub fn new<P>(layer: ToolSchemaLayer<P>) -> Self {
        ToolSchemaMiddleware {
            config: layer.config,
        }
    }

    /// Rewrites `req`'s body in place; returns the report, or `None` when the request was not
    /// considered (not a JSON POST to a known API, a streaming body).
    ///
    /// ```
    /// use tower_toolschema::{ToolSchemaLayer, reqwest::ToolSchemaMiddleware};
    /// let mw = ToolSchemaMiddleware::new(ToolSchemaLayer::auto());
    /// let mut req = reqwest::Request::new(reqwest::Method::GET, "http://localhost/v1/models".parse().unwrap());
    /// assert!(mw.rewrite(&mut req).is_none());
    /// ```
    pub fn rewrite(&self, req: &mut reqwest::Request) -> Option<SanitizeReport> {
        let uri: http::Uri = req.url().as_str().parse().ok()?;
        let ctx = match self.config.decide(req.method(), &uri, req.headers()) {
            Decision::Pass => return None,
            Decision::Skip(api, reason) => return Some(SanitizeReport::skipped(api, reason)),
            Decision::Inspect(ctx) => ctx,
        };
        let api = ctx.shape.map(|s| s.api);
        let bytes = req.body().and_then(reqwest::Body::as_bytes)?;
        if bytes.len() > self.config.limit {
            return Some(SanitizeReport::skipped(
                api,
                SkipReason::TooLarge {
                    limit: self.config.limit,
                },
            ));
        }
        let span = crate::log::request_span(api);
        let (new, report) = span.in_scope(|| crate::rewrite::process(&self.config, &ctx, bytes));
        crate::log::record(&span, &report);
        if let (Some(new), Outcome::Rewritten { after, .. }) = (new, &report.outcome) {
            let after = *after;
            let new = new.into_vec(bytes);
            *req.body_mut() = Some(reqwest::Body::from(new));
            // reqwest derives the length when sending; fix one the caller set explicitly.
            if content_length(req.headers()).is_some()
                || req.headers().contains_key(http::header::TRANSFER_ENCODING)
            {
                set_content_length(req.headers_mut(), after);
            }
        }
        Some(report)
    }
}

#[async_trait::async_trait]
impl reqwest_middleware::Middleware for ToolSchemaMiddleware {
    async fn handle(
        &self,
        mut req: reqwest::Request,
        extensions: &mut Extensions,
        next: reqwest_middleware::Next<'_>,
    ) -> reqwest_middleware::Result<reqwest::Response> {
        if let Some(report) = self.rewrite(&mut req) {
            extensions.insert(report);
        }
        next.run(req, extensions).await
    }
}
