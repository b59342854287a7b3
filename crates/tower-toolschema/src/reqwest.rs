//! A [`reqwest_middleware::Middleware`] doing what the layer does, on `reqwest::Request`s
//! (feature `reqwest`; reqwest 0.13 and reqwest-middleware 0.5, no default features).
//!
//! Only bodies held in memory are inspected (`reqwest::Body::as_bytes`); streaming bodies go on
//! untouched. Responses take the [way back](crate::restore) as with the layer: tool names the
//! request renamed are mapped back and strict nulls removed, in JSON and SSE responses (the
//! [`RestoreReport`](crate::restore::RestoreReport) is in the request's `Extensions`); a
//! response with nothing to restore is the very `reqwest::Response` the client returned.
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
use crate::restore::RestorePlan;
use crate::restore::needs::Needs;
use reqwest::ResponseBuilderExt;

/// The middleware. Cheap to clone; clones share the configuration and the cache.
///
/// ```
/// use tower_toolschema::{ToolSchemaLayer, reqwest::ToolSchemaMiddleware};
/// let middleware = ToolSchemaMiddleware::new(ToolSchemaLayer::auto());
/// let shared = middleware.clone();
/// # let _ = (middleware, shared);
/// ```
#[derive(Debug, Clone)]
pub struct ToolSchemaMiddleware {
    config: Arc<Config>,
}

impl ToolSchemaMiddleware {
    /// A middleware with the configuration of `layer` (its fail-open policy: a request is
    /// never answered by the middleware).
    ///
    /// ```
    /// use tower_toolschema::{ToolSchemaLayer, reqwest::ToolSchemaMiddleware};
    ///
    /// let mw = ToolSchemaMiddleware::new(ToolSchemaLayer::gemini());
    /// let url = "http://localhost/v1beta/models/m:generateContent".parse().unwrap();
    /// let mut req = reqwest::Request::new(reqwest::Method::POST, url);
    /// *req.body_mut() = Some(r#"{"tools":[{"functionDeclarations":[{"name":"h","parameters":{"type":"object","additionalProperties":false}}]}]}"#.into());
    /// assert!(mw.rewrite(&mut req).unwrap().is_rewritten());
    /// ```
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
        // No renaming here: nothing would map the names back.
        self.rewrite_with_plan(req, false).map(|(report, _)| report)
    }

    /// [`ToolSchemaMiddleware::rewrite`], also renaming refused tool names (`rename`, when the
    /// configuration says so), with the plan for the response.
    fn rewrite_with_plan(
        &self,
        req: &mut reqwest::Request,
        rename: bool,
    ) -> Option<(SanitizeReport, Option<RestorePlan>)> {
        let uri: http::Uri = req.url().as_str().parse().ok()?;
        let ctx = match self.config.decide(req.method(), &uri, req.headers()) {
            Decision::Pass => return None,
            Decision::Skip(api, reason) => {
                return Some((SanitizeReport::skipped(api, reason), None));
            }
            Decision::Inspect(ctx) => ctx,
        };
        let api = ctx.shape.map(|s| s.api);
        let bytes = req.body().and_then(reqwest::Body::as_bytes)?;
        if bytes.len() > self.config.limit {
            let reason = SkipReason::TooLarge {
                limit: self.config.limit,
            };
            return Some((SanitizeReport::skipped(api, reason), None));
        }
        let span = crate::log::request_span(api);
        let (new, mut report, needs) =
            span.in_scope(|| crate::rewrite::process_with(&self.config, &ctx, bytes, None));
        let mut out = match (new, &report.outcome) {
            (Some(new), Outcome::Rewritten { .. }) => Some(new.into_vec(bytes)),
            _ => None,
        };
        let needs = needs.unwrap_or_else(|| {
            Arc::new(Needs::of(
                &self.config,
                report.api,
                &report.slots,
                &report.unslotted,
            ))
        });
        let renaming = (rename && needs.renaming).then(|| out.as_deref().unwrap_or(bytes).to_vec());
        let (renamed, plan) = crate::restore::plan_for(
            &self.config,
            ctx.host.as_deref(),
            renaming.as_deref(),
            &mut report,
            &needs.decoders,
        );
        crate::log::record(&span, &report);
        if renamed.is_some() {
            out = renamed;
        }
        if let Some(new) = out {
            let after = new.len();
            *req.body_mut() = Some(reqwest::Body::from(new));
            // reqwest derives the length when sending; fix one the caller set explicitly.
            if content_length(req.headers()).is_some()
                || req.headers().contains_key(http::header::TRANSFER_ENCODING)
            {
                set_content_length(req.headers_mut(), after);
            }
        }
        Some((report, Some(plan)))
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
        let plan = match self.rewrite_with_plan(&mut req, true) {
            Some((report, plan)) => {
                extensions.insert(report);
                plan
            }
            None => None,
        };
        let res = next.run(req, extensions).await?;
        let Some(plan) = plan.filter(|p| !p.is_empty()) else {
            return Ok(res);
        };
        // The way back: through `http::Response`, keeping the URL.
        let url = res.url().clone();
        let res: http::Response<reqwest::Body> = res.into();
        let restored = crate::restore::wrap(res, Some(Arc::new(plan)), self.config.limit);
        if let Some(report) = restored.extensions().get::<crate::restore::RestoreReport>() {
            extensions.insert(report.clone());
        }
        let (mut parts, body) = restored.into_parts();
        let with_url = http::Response::builder().url(url).body(()).ok();
        if let Some(u) = with_url {
            parts.extensions.extend(u.into_parts().0.extensions);
        }
        Ok(reqwest::Response::from(http::Response::from_parts(
            parts,
            reqwest::Body::wrap(body),
        )))
    }
}
