//! Arbitrary bytes as a request body, for an arbitrary API (or none: recognised by shape) and
//! configuration, through `sanitize_body` or the tower layer: never a panic; invalid input goes
//! on untouched; the output is valid JSON whenever the input was and differs from it only inside
//! schema slots (re-located independently, see `slot_mask.rs`); a second pass changes nothing.
//!
//! Input layout: byte 0 picks the path (bit 7: through the layer, else `sanitize_body`), byte 1
//! the configuration, byte 2 the length `n` of the API's name ([`Api::name`]; empty or unknown:
//! none, the body is recognised by its shape), the next `n` bytes that name; the rest is the
//! body. Seeds name APIs, so reordering the shape table never changes what a seed means.
#![no_main]

#[path = "../../crates/tower-toolschema/tests/support/slot_mask.rs"]
mod slot_mask;

use std::convert::Infallible;
use std::sync::OnceLock;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use libfuzzer_sys::fuzz_target;
use tower::{Layer, Service, ServiceExt};
use tower_toolschema::shapes::{Api, ApiShape};
use tower_toolschema::{SanitizeReport, ToolSchemaBody, ToolSchemaLayer, sanitize_body};

fn layers() -> &'static [ToolSchemaLayer] {
    static L: OnceLock<Vec<ToolSchemaLayer>> = OnceLock::new();
    L.get_or_init(|| {
        vec![
            ToolSchemaLayer::auto(),
            ToolSchemaLayer::gemini(),
            ToolSchemaLayer::openai(),
            ToolSchemaLayer::anthropic(),
            ToolSchemaLayer::xai(),
            ToolSchemaLayer::bedrock(),
            ToolSchemaLayer::vertex(),
            ToolSchemaLayer::gemini_code_assist(),
            ToolSchemaLayer::portable(),
        ]
    })
}

fn path_for(api: Api) -> &'static str {
    match api {
        Api::OpenAiChat => "/v1/chat/completions",
        Api::OpenAiResponses => "/v1/responses",
        Api::AnthropicMessages => "/v1/messages",
        Api::AnthropicBatches => "/v1/messages/batches",
        Api::Gemini => "/v1beta/models/gemini-2.5-flash:generateContent",
        Api::GeminiCountTokens => "/v1beta/models/gemini-2.5-flash:countTokens",
        Api::GeminiCachedContents => "/v1beta/cachedContents",
        Api::GeminiOpenAiCompat => "/v1beta/openai/chat/completions",
        Api::CodeAssist => "/v1internal:streamGenerateContent",
        Api::VertexGemini => {
            "/v1/projects/p/locations/us-central1/publishers/google/models/gemini-2.5-pro:generateContent"
        }
        Api::VertexAnthropic => {
            "/v1/projects/p/locations/us-east5/publishers/anthropic/models/claude-sonnet-4:rawPredict"
        }
        Api::VertexOpenAiCompat => "/v1/projects/p/locations/l/endpoints/openapi/chat/completions",
        Api::BedrockConverse => "/model/anthropic.claude-sonnet-4/converse",
        Api::BedrockInvoke => "/model/anthropic.claude-sonnet-4/invoke",
        Api::OllamaChat => "/api/chat",
        Api::CohereChat => "/v2/chat",
        _ => "/unknown",
    }
}

/// Through the layer: returns what the inner service received, and the report.
fn through_layer(
    layer: &ToolSchemaLayer,
    path: &str,
    body: Bytes,
) -> (Bytes, Option<SanitizeReport>) {
    let inner = tower::service_fn(
        |req: http::Request<ToolSchemaBody<Full<Bytes>>>| async move {
            let (parts, body) = req.into_parts();
            let bytes = body.collect().await.expect("body").to_bytes();
            if let Some(cl) = parts.headers.get(http::header::CONTENT_LENGTH) {
                assert_eq!(
                    cl.to_str().unwrap(),
                    bytes.len().to_string(),
                    "stale Content-Length"
                );
            }
            // The layer answers with an `http::Response`: what was seen rides in it.
            let mut res = http::Response::new(http_body_util::Empty::<Bytes>::new());
            res.extensions_mut()
                .insert((bytes, parts.extensions.get::<SanitizeReport>().cloned()));
            Ok::<_, Infallible>(res)
        },
    );
    let mut svc = layer.layer(inner);
    let req = http::Request::post(path)
        .header(http::header::CONTENT_TYPE, "application/json")
        .header(http::header::CONTENT_LENGTH, body.len())
        .body(Full::new(body))
        .expect("request");
    futures_executor::block_on(async move {
        let svc = svc.ready().await.expect("ready");
        let mut res = svc.call(req).await.expect("infallible");
        res.extensions_mut()
            .remove::<(Bytes, Option<SanitizeReport>)>()
            .expect("inner service was called")
    })
}

/// `out` with every JSON string that is a sent name replaced by the tool's own name, in one
/// pass (a sent name may be another tool's own). Names are matched in serde_json's spelling.
fn names_back(out: &[u8], renames: &[tower_toolschema::report::Rename]) -> Vec<u8> {
    let pairs: Vec<(Vec<u8>, Vec<u8>)> = renames
        .iter()
        .map(|r| {
            (
                serde_json::to_vec(&r.sent).expect("a string"),
                serde_json::to_vec(&r.original).expect("a string"),
            )
        })
        .collect();
    let mut back = Vec::with_capacity(out.len());
    let mut at = 0;
    while at < out.len() {
        if out[at] == b'"'
            && let Some((sent, original)) = pairs
                .iter()
                .filter(|(sent, _)| out[at..].starts_with(sent))
                .max_by_key(|(sent, _)| sent.len())
        {
            back.extend_from_slice(original);
            at += sent.len();
            continue;
        }
        back.push(out[at]);
        at += 1;
    }
    back
}

fuzz_target!(|data: &[u8]| {
    let [sel, cfg, len, rest @ ..] = data else {
        return;
    };
    let (name, body) = rest.split_at(usize::from(*len).min(rest.len()));
    let api = std::str::from_utf8(name).ok().and_then(Api::from_name);
    let use_layer = sel & 0x80 != 0;
    let layers = layers();
    let layer = &layers[usize::from(*cfg) % layers.len()];
    let input = Bytes::copy_from_slice(body);

    // `eff`: the API whose shape was used (`None`: every shape, the body recognised by shape).
    let (out, report, eff) = if use_layer {
        let path = api.map_or("/unknown", path_for);
        let (out, report) = through_layer(layer, path, input.clone());
        (out, report, ApiShape::for_path(path).map(|s| s.api))
    } else {
        let (out, report) = sanitize_body(layer.config(), api, input.clone());
        (out, Some(report), api)
    };
    let shapes: Vec<&'static ApiShape> = slot_mask::shapes_for(eff);

    // Refused tool names are renamed (declarations and history: the way back restores them):
    // the check reads the output with each sent name put back.
    let named_back = report
        .as_ref()
        .filter(|r| !r.renames.is_empty())
        .map(|r| names_back(&out, &r.renames));
    let checked = named_back.as_deref().unwrap_or(&out);
    if let Err(e) = slot_mask::check_only_slots_changed(&input, checked, &shapes) {
        panic!(
            "{e}\n api={api:?} layer={use_layer}\n in:  {}\n out: {}",
            String::from_utf8_lossy(&input),
            String::from_utf8_lossy(&out)
        );
    }
    if let Some(report) = &report {
        assert_eq!(
            report.is_rewritten(),
            out != input,
            "report vs bytes: {report:?}"
        );
    }
    if out != input {
        // A second pass over the output changes nothing.
        let (again, r2) = sanitize_body(layer.config(), eff, out.clone());
        assert!(
            again == out,
            "second pass changed the body: {r2:?}\n once:  {}\n twice: {}",
            String::from_utf8_lossy(&out),
            String::from_utf8_lossy(&again)
        );
    }
});
