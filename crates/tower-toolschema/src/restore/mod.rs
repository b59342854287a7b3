//! The way back: what the provider sends back is restored to the tools' own terms.
//!
//! Per request, with no state across requests, the layer keeps a [`RestorePlan`] in the
//! response future: the [`NameMap`] of the tool names it renamed (a name the target refuses:
//! too long, characters it does not take, shared by two tools; see
//! [`ToolSchemaLayer::rename_tools`](crate::ToolSchemaLayer::rename_tools)) and each tool's
//! argument [`Decoder`](provider_rules::Decoder) from the sanitizer (strict nulls: a
//! property the strict rewrite made required and nullable, that the tool's own schema does not
//! let be `null`, loses its `null`). The response's tool names are mapped back and the arguments decoded:
//!
//! - JSON responses of OpenAI Chat (`choices[].message.tool_calls[]`), OpenAI Responses
//!   (`output[]` `function_call` items), Anthropic Messages (`content[]` `tool_use` blocks),
//!   Gemini (`candidates[].content.parts[].functionCall`, camel and snake case, Code Assist's
//!   `response` envelope) and Bedrock Converse (`output.message.content[].toolUse`): only the
//!   names and arguments change, every other byte is kept.
//! - SSE streams of the same APIs (Gemini's `streamGenerateContent?alt=sse`): see the
//!   per-event rules in the stream reader — text and every event without a tool call go on as
//!   they arrive; the argument fragments of a call whose decoder changes something are held
//!   until the call is complete, then sent as one fragment. Bedrock's ConverseStream uses AWS's
//!   binary event-stream framing, which is not read: such a stream goes on untouched, and the
//!   report says so. OpenAI Responses: once fragments were held and merged, every later
//!   event's `sequence_number` is renumbered, so the client sees them strictly increasing
//!   without gaps. Gemini: a chunk is restored whole (names mapped back, whole `args`
//!   decoded); Vertex's partial arguments (`functionCall.partialArgs` with `willContinue`)
//!   carry no `args` to decode: their chunks go on with only the name mapped back, every
//!   other byte kept, so a strict null sent that way reaches the client.
//! - When the plan is empty (no rename, no decoder), the response body is not touched at all
//!   (no buffering, no parse) and no report is added.
//! - Compressed responses (`Content-Encoding`) go on untouched and the report says so; put
//!   `tower_http::decompression::DecompressionLayer` between this layer and the upstream to
//!   have them restored.
//!
//! What was done is in a [`RestoreReport`] in the response's extensions (a stream's fills as
//! it is read).
//!
//! ```
//! use provider_rules::{Decoder, NameMap, Rules};
//! use tower_toolschema::restore::RestorePlan;
//! use tower_toolschema::shapes::Api;
//!
//! let long = "mcp__github_enterprise__add_pull_request_review_comment_to_pending_review";
//! let names = NameMap::new(&Rules::OPENAI.tool_names, [long]);
//! let strict = Decoder { drop_null: vec!["line".into()], ..Decoder::default() };
//! let plan = RestorePlan::new(Api::OpenAiChat, names.clone(), [(long.to_owned(), strict)]);
//!
//! let response = format!(
//!     r#"{{"choices":[{{"message":{{"tool_calls":[{{"id":"c1","type":"function","function":{{"name":"{}","arguments":"{{\"body\":\"LGTM\",\"line\":null}}"}}}}]}}}}]}}"#,
//!     names.sent(long)
//! );
//! let (restored, calls) = plan.restore_json(response.as_bytes())?;
//! let restored = String::from_utf8(restored.unwrap())?;
//! assert!(restored.contains(&format!(r#""name":"{long}""#)));
//! assert!(restored.contains(r#""arguments":"{\"body\":\"LGTM\"}""#));
//! assert!(calls[0].renamed() && calls[0].decoded);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod body;
mod chat;
mod chat_scan;
mod cursor;
mod events;
pub(crate) mod json;
pub(crate) mod needs;
mod plan;
mod report;
mod split;
mod sse;
mod stream;

use std::sync::Arc;

use bytes::Bytes;
use http::{HeaderMap, header};
use provider_rules::NameMap;

pub use body::RestoreBody;
pub use plan::RestorePlan;
pub use report::{NotRestored, RestoreReport, RestoreSummary, RestoredCall};
pub use stream::SseRestorer;

use needs::Decoders;

use crate::config::{Config, content_encoding, is_json};
use crate::report::{Outcome, SanitizeReport, SlotReport};
use crate::shapes::{Api, SlotRole};
use crate::shapes_response::{Stream, response_shape};

/// The request side of the way back for one body, as the layer does it: sanitizes the schema
/// slots, renames refused tool names (when the configuration says so), and returns the body
/// to send, the report, and the plan for the response.
///
/// ```
/// use tower_toolschema::{ToolSchemaLayer, restore::prepare_request, shapes::Api};
/// let body = br#"{"model":"gpt-4o","messages":[],"tools":[{"type":"function","function":{"name":"fs.read","parameters":{"type":"object"}}}]}"#;
/// let (out, _, plan) = prepare_request(ToolSchemaLayer::openai().config(), Some(Api::OpenAiChat), bytes::Bytes::from_static(body));
/// assert!(std::str::from_utf8(&out)?.contains(r#""name":"fs_read""#));
/// assert_eq!(plan.original("fs_read"), Some("fs.read"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn prepare_request(
    config: &Config,
    api: Option<Api>,
    body: Bytes,
) -> (Bytes, SanitizeReport, RestorePlan) {
    let (parts, report, plan) = prepare_request_parts(config, api, body);
    let out = match <[Bytes; 1]>::try_from(parts) {
        Ok([one]) => one,
        Err(parts) => Bytes::from(parts.concat()),
    };
    (out, report, plan)
}

/// [`prepare_request`] with the body to send in parts, in order: where only schema slots
/// changed, the input's unchanged head and tail are slices of `body` (no copy of the
/// conversation) around the rewritten middle, so a writer can send them as they are (one
/// vectored write) instead of copying the whole body into one buffer first. The parts
/// together are [`prepare_request`]'s body.
///
/// ```
/// use tower_toolschema::{ToolSchemaLayer, restore::prepare_request_parts, shapes::Api};
/// let body = bytes::Bytes::from_static(br#"{"messages":[{"role":"user","content":"a long conversation"}],"tools":[{"functionDeclarations":[{"name":"f","parameters":{"type":"object","additionalProperties":false}}]}]}"#);
/// let (parts, report, _) = prepare_request_parts(ToolSchemaLayer::gemini().config(), Some(Api::Gemini), body.clone());
/// assert!(report.is_rewritten());
/// // The conversation before the first slot is the input's own bytes, not a copy.
/// assert_eq!(parts[0].as_ptr(), body.as_ptr());
/// assert!(!String::from_utf8(parts.concat())?.contains("additionalProperties"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn prepare_request_parts(
    config: &Config,
    api: Option<Api>,
    body: Bytes,
) -> (Vec<Bytes>, SanitizeReport, RestorePlan) {
    // No request here, so no host: the profile is the config's, or `auto`'s by the body.
    let ctx = crate::config::RequestCtx {
        shape: api.map(Api::shape),
        host: None,
    };
    let (new, mut report, needs) = crate::rewrite::process_with(config, &ctx, &body, None);
    // The whole body is built only for the history's encoding or renaming, when they apply.
    let (renamed, plan) = crate::encoding::history::finish(
        config,
        None,
        &|| match &new {
            Some(n) => Bytes::from(n.clone_vec(&body)),
            None => body.clone(),
        },
        &mut report,
        needs.as_deref(),
    );
    let parts = match (renamed, new) {
        (Some(r), _) => vec![Bytes::from(r)],
        (None, Some(new)) => new.into_parts(&body),
        (None, None) => vec![body],
    };
    (parts, report, plan)
}

/// Whether the request's names must be read for renaming: renaming is on, the API's names come
/// back, and a declared name is refused or shared (the slot reports say; no body is read for
/// it). Part of [`Needs`](needs::Needs).
pub(crate) fn needs_rename(
    config: &Config,
    api: Option<Api>,
    slots: &[SlotReport],
    unslotted: &[(String, bool)],
) -> bool {
    let Some(api) = api else { return false };
    if !config.rename_tools || !response_shape(api).renames() {
        return false;
    }
    if slots.iter().any(|s| s.tool_name_problem.is_some())
        || unslotted.iter().any(|(_, refused)| *refused)
    {
        return true;
    }
    // A name two tools share (one hash set, no sort; seeded: names are the request's).
    let names = slots
        .iter()
        .filter(|s| s.role == SlotRole::ToolParameters)
        .filter_map(|s| s.tool.as_deref())
        .chain(unslotted.iter().map(|(n, _)| n.as_str()));
    let mut seen = std::collections::HashSet::with_capacity_and_hasher(
        slots.len() + unslotted.len(),
        foldhash::fast::RandomState::default(),
    );
    names.into_iter().any(|n| !seen.insert(n))
}

/// After the request side: renames the names of `body` (given when [`Needs::renaming`](needs::Needs::renaming)) and
/// builds the plan with `decoders` ([`Needs::decoders`](needs::Needs::decoders)); the renames go into `report`. The
/// renamed body, if any, replaces the one to send.
pub(crate) fn plan_for(
    config: &Config,
    host: Option<&str>,
    body: Option<&[u8]>,
    report: &mut SanitizeReport,
    decoders: &Decoders,
) -> (Option<Vec<u8>>, RestorePlan) {
    let Some(api) = report.api else {
        return (
            None,
            RestorePlan::shared(Api::OpenAiChat, no_names(), needs::no_decoders()),
        );
    };
    // The decoders as the slot cache holds them, shared (not copied per request).
    let decoders = Arc::clone(decoders);
    if let Some(body) = body {
        let rule_for = |model: Option<&str>| {
            config
                .profiles_for(api, model, host)
                .native
                .rules()
                .tool_names
                .clone()
        };
        // A body the slot scan read (not skipped) is valid JSON, and so is what was spliced in.
        let validated = !matches!(report.outcome, Outcome::Skipped(_));
        if let Some(renamed) = crate::rename::rename_with(
            body,
            validated,
            response_shape(api),
            &rule_for,
            Some(&config.rename_memo),
        ) {
            report.renames = renamed.renames;
            // The bytes sent changed: a rename alone is a rewrite (fuzz `body`: a report that
            // listed a rename said `Unchanged`).
            match &mut report.outcome {
                Outcome::Unchanged => {
                    report.outcome = Outcome::Rewritten {
                        before: body.len(),
                        after: renamed.body.len(),
                    }
                }
                Outcome::Rewritten { after, .. } => *after = renamed.body.len(),
                _ => {}
            }
            return (
                Some(renamed.body),
                RestorePlan::shared(api, renamed.names, decoders),
            );
        }
    }
    (None, RestorePlan::shared(api, no_names(), decoders))
}

/// The empty name map, shared (no allocation per request).
fn no_names() -> Arc<NameMap> {
    static EMPTY: std::sync::OnceLock<Arc<NameMap>> = std::sync::OnceLock::new();
    Arc::clone(EMPTY.get_or_init(|| Arc::new(NameMap::default())))
}

/// How a response is read, decided from its headers.
pub(crate) enum Read {
    Pass,
    Json,
    Sse,
}

/// Whether and how a response of `plan` is restored; `Err` says why not (reported).
pub(crate) fn decide(plan: &RestorePlan, headers: &HeaderMap) -> Result<Read, NotRestored> {
    if plan.is_empty() {
        return Ok(Read::Pass);
    }
    if let Some(enc) = content_encoding(headers) {
        return Err(NotRestored::Compressed(enc));
    }
    let ct = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if ct
        .trim_start()
        .to_ascii_lowercase()
        .starts_with("text/event-stream")
    {
        return match plan.shape().stream {
            Stream::NotRead => Err(NotRestored::StreamNotRead),
            _ => Ok(Read::Sse),
        };
    }
    if ct.is_empty() || is_json(headers) {
        return Ok(Read::Json);
    }
    Err(NotRestored::NotJson(ct.to_owned()))
}

/// A response the layer can hand back restored: `http::Response<B>` becomes
/// `http::Response<RestoreBody<B>>`.
///
/// ```
/// fn restorable<R: tower_toolschema::restore::RestoreResponse>() {}
/// restorable::<http::Response<String>>();
/// ```
pub trait RestoreResponse: sealed::Sealed {
    /// The response the client gets.
    type Restored;
    /// Wraps the body for `plan` (untouched when there is none or it is empty).
    fn restored(self, plan: Option<Arc<RestorePlan>>, limit: usize) -> Self::Restored;
}

mod sealed {
    pub trait Sealed {}
    impl<B> Sealed for http::Response<B> {}
}

impl<B: http_body::Body> RestoreResponse for http::Response<B> {
    type Restored = http::Response<RestoreBody<B>>;

    fn restored(self, plan: Option<Arc<RestorePlan>>, limit: usize) -> Self::Restored {
        wrap(self, plan, limit)
    }
}

/// Wraps a response's body for the way back (untouched when the plan is empty).
pub(crate) fn wrap<B: http_body::Body>(
    res: http::Response<B>,
    plan: Option<Arc<RestorePlan>>,
    limit: usize,
) -> http::Response<RestoreBody<B>> {
    let Some(plan) = plan.filter(|p| !p.is_empty()) else {
        return res.map(RestoreBody::pass);
    };
    let (mut parts, body) = res.into_parts();
    let report = RestoreReport::new(Arc::clone(&plan.names));
    parts.extensions.insert(report.clone());
    let body = match decide(&plan, &parts.headers) {
        Ok(Read::Pass) => RestoreBody::pass(body),
        Ok(Read::Json) => {
            parts.headers.remove(header::CONTENT_LENGTH);
            RestoreBody::json(body, plan, limit, report)
        }
        Ok(Read::Sse) => {
            parts.headers.remove(header::CONTENT_LENGTH);
            RestoreBody::sse(body, plan, report)
        }
        Err(why) => {
            tracing::warn!(target: "tower_toolschema", "response not restored: {why}");
            report.update(|r| {
                r.not_restored = Some(why);
                r.complete = true;
            });
            RestoreBody::pass(body)
        }
    };
    http::Response::from_parts(parts, body)
}
