//! The harness: a hang guard, `sanitize_body` with the slot check, body builders and the
//! inner service of layer tests.

use crate::slot_mask;
use bytes::Bytes;
use http::Request;
use http_body_util::BodyExt;
use tower::{Layer, Service, ServiceExt};
use tower_toolschema::shapes::Api;
use tower_toolschema::{SanitizeReport, ToolSchemaBody, ToolSchemaLayer, sanitize_body};

pub(crate) use hang_guard::bounded;

/// `sanitize_body` with the slot check; returns the output and the report.
pub(crate) fn run(
    layer: &ToolSchemaLayer,
    api: Option<Api>,
    body: &[u8],
) -> (Bytes, SanitizeReport) {
    let input = Bytes::copy_from_slice(body);
    let (out, report) = sanitize_body(layer.config(), api, input.clone());
    if let Err(e) = slot_mask::check_only_slots_changed(&input, &out, &slot_mask::shapes_for(api)) {
        panic!("{e}");
    }
    if out == input {
        assert_eq!(out.as_ptr(), input.as_ptr(), "unchanged, yet copied");
    }
    (out, report)
}

/// A Gemini body around `decls` (function declarations, JSON text) and `contents`.
pub(crate) fn gemini(contents: &str, decls: &str) -> String {
    format!(r#"{{"contents":{contents},"tools":[{{"functionDeclarations":{decls}}}]}}"#)
}

/// A schema every provider family rewrites (a root `allOf` is refused by Anthropic and
/// Gemini; type lists and `additionalProperties` by Gemini; strict mode needs `required`).
pub(crate) const NEEDS_WORK: &str = r#"{"type":"object","properties":{"a":{"type":["string","null"],"format":"uri"}},"additionalProperties":false,"allOf":[{"properties":{"b":{"type":"integer"}}}]}"#;

/// The inner service of layer tests: what it received.
pub(crate) async fn through_layer<B>(
    layer: ToolSchemaLayer,
    req: Request<B>,
) -> (Result<Bytes, String>, SanitizeReport)
where
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<tower_toolschema::BoxError>,
{
    let inner = tower::service_fn(|req: Request<ToolSchemaBody<B>>| async move {
        let (parts, body) = req.into_parts();
        let bytes = body
            .collect()
            .await
            .map(|c| c.to_bytes())
            .map_err(|e| e.to_string());
        let report = parts
            .extensions
            .get::<SanitizeReport>()
            .cloned()
            .expect("report");
        // The layer answers with an `http::Response`: what was seen rides in its extensions.
        let mut res = http::Response::new(http_body_util::Empty::<Bytes>::new());
        res.extensions_mut().insert((bytes, report));
        Ok::<_, std::convert::Infallible>(res)
    });
    let mut svc = layer.layer(inner);
    let svc = svc.ready().await.expect("ready");
    let mut res = svc.call(req).await.expect("infallible");
    res.extensions_mut()
        .remove::<(Result<Bytes, String>, SanitizeReport)>()
        .expect("inner service was called")
}

pub(crate) fn block_on<F: std::future::Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime")
        .block_on(f)
}
