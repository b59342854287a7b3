//! The history's earlier tool calls, encoded: with encodings on, a tool's declaration speaks the
//! encoded form (a map as key/value entries, any value as JSON text, ...), so the arguments of
//! its earlier calls in the conversation ([`ResponseShape::history_calls`]) are encoded with
//! the tool's [`Decoder`] on the way out, and the model sees one consistent form.
//!
//! Only those arguments change, every other byte is kept; the history is not read at all when
//! no tool has an encoding. Arguments that cannot be encoded (not JSON, nested past
//! [`MAX_DEPTH`]) go on as they came, and the report says so ([`EncodedCall::error`]).

use std::borrow::Cow;
use std::sync::Arc;

use crate::locate::RawText;
use bytes::Bytes;
use provider_rules::Decoder;

use crate::config::Config;
use crate::locate::range_in;
use crate::report::{EncodedCall, Outcome, SanitizeReport, SlotReport};
use crate::restore::json;
use crate::restore::needs::Needs;
use crate::restore::{RestorePlan, plan_for};
use crate::shapes::SlotRole;
use crate::shapes_response::{ResponseShape, response_shape};
use crate::slots::splice::{Edit, splice};

/// The deepest nesting of an earlier call's arguments that is encoded (serde_json's own default
/// limit); deeper arguments go on as they came, reported.
pub(crate) const MAX_DEPTH: usize = 128;

/// Every earlier tool call in the history of `doc` (under `shape`'s request prefix): `f` gets
/// the name's raw value, the name, and the raw arguments (when the call has them), for the
/// encoding of arguments (renaming reads the same calls in its own walk of the body).
pub(crate) fn each_call<'a>(
    doc: RawText<'a>,
    shape: &ResponseShape,
    f: &mut dyn FnMut(RawText<'a>, String, Option<RawText<'a>>),
) {
    json::each_call(doc, shape.request_prefix, shape.history_calls, f);
}

/// The tools of `slots` whose decoder undoes an encoding, with it (the first of a name): empty
/// when no tool has one (then nothing reads the history). Part of [`Needs`].
pub(crate) fn encoders(slots: &[SlotReport]) -> Vec<(String, Arc<Decoder>)> {
    let mut out: Vec<(String, Arc<Decoder>)> = Vec::new();
    for s in slots {
        if s.role != SlotRole::ToolParameters || !has_encoding(&s.decoder) {
            continue;
        }
        if let Some(tool) = &s.tool
            && !out.iter().any(|(n, _)| n == tool)
        {
            out.push((tool.to_string(), Arc::clone(&s.decoder)));
        }
    }
    out
}

/// Whether any node of `d` is an encoding (an explicit stack: no recursion).
fn has_encoding(d: &Decoder) -> bool {
    // The stack is allocated only below a decoder with children (most have none).
    let mut todo = Vec::new();
    let mut next = Some(d);
    while let Some(d) = next {
        if d.encoding.is_some() {
            return true;
        }
        todo.extend(d.properties.values());
        todo.extend(d.items.as_deref());
        todo.extend(&d.prefix_items);
        todo.extend(d.additional_properties.as_deref());
        todo.extend(d.any_of.iter().map(|b| &b.decoder));
        todo.extend(d.then.as_deref());
        next = todo.pop();
    }
    false
}

/// Encodes one call's arguments as they sit in a body: JSON text in a string (OpenAI) or a
/// JSON value (Anthropic, Gemini, Bedrock). `Ok(None)`: the encoding changes nothing.
pub(crate) fn encode_args(decoder: &Decoder, raw: &str) -> Result<Option<Vec<u8>>, String> {
    let in_string = raw.starts_with('"');
    let text: Cow<'_, str> = if in_string {
        Cow::Owned(serde_json::from_str::<String>(raw).map_err(|e| e.to_string())?)
    } else {
        Cow::Borrowed(raw)
    };
    if in_string && text.trim().is_empty() {
        return Ok(None);
    }
    if super::nesting(&text) > MAX_DEPTH {
        return Err(format!(
            "the arguments nest deeper than {MAX_DEPTH} levels: not encoded"
        ));
    }
    // Members keep the order the model wrote them in.
    let Some(out) = decoder
        .encode_json(&text)
        .map_err(|e| format!("the arguments are not JSON: {e}"))?
    else {
        return Ok(None);
    };
    if in_string {
        serde_json::to_vec(&out)
            .map(Some)
            .map_err(|e| e.to_string())
    } else {
        Ok(Some(out.into_bytes()))
    }
}

/// Encodes the earlier calls of `encoders`' tools in `body`: the new body (`None`: nothing
/// changed, or not JSON), and what was done in `done`.
fn encode_history(
    body: &[u8],
    shape: &ResponseShape,
    encoders: &[(String, Arc<Decoder>)],
    done: &mut Vec<EncodedCall>,
) -> Option<Vec<u8>> {
    let doc: RawText<'_> = serde_json::from_str(std::str::from_utf8(body).ok()?).ok()?;
    let mut edits = Vec::new();
    each_call(doc, shape, &mut |_, tool, args| {
        let Some((_, decoder)) = encoders.iter().find(|(n, _)| *n == tool) else {
            return;
        };
        let Some(args) = args else { return };
        let Some(range) = range_in(body, args) else {
            return;
        };
        match encode_args(decoder, args.get()) {
            Ok(Some(bytes)) => {
                edits.push(Edit { range, bytes });
                done.push(EncodedCall { tool, error: None });
            }
            Ok(None) => {}
            Err(e) => {
                tracing::warn!(target: "tower_toolschema", tool = %tool, "earlier call sent as it came: {e}");
                done.push(EncodedCall {
                    tool,
                    error: Some(e),
                });
            }
        }
    });
    if edits.is_empty() {
        return None;
    }
    Some(splice(body, edits)?.into_vec(body))
}

/// After the slots, the rest of the request side: encodes the history's earlier calls (when a
/// tool has an encoding), renames refused tool names (when [`Needs::renaming`]), and builds
/// the plan for the way back. `needs` is what the slots' result needs (`None`: worked out from
/// `report` here). `whole` gives the body as the slots left it; it is called only when the
/// history or the names must be read. Returns the body to send when it differs from that.
pub(crate) fn finish(
    config: &Config,
    host: Option<&str>,
    whole: &dyn Fn() -> Bytes,
    report: &mut SanitizeReport,
    needs: Option<&Needs>,
) -> (Option<Vec<u8>>, RestorePlan) {
    let worked_out;
    let needs = match needs {
        Some(n) => n,
        None => {
            worked_out = Needs::of(config, report.api, &report.slots, &report.unslotted);
            &worked_out
        }
    };
    if !needs.reads_body() {
        return plan_for(config, host, None, report, &needs.decoders);
    }
    let (encoders, renaming) = (&needs.encoders, needs.renaming);
    let body = whole();
    let encoded = match report.api {
        Some(api) if !encoders.is_empty() => {
            encode_history(&body, response_shape(api), encoders, &mut report.history)
        }
        _ => None,
    };
    if let (Some(e), Outcome::Unchanged) = (&encoded, &report.outcome) {
        // The history's encoding alone changed the bytes sent: a rewrite of the body as sent.
        report.outcome = Outcome::Rewritten {
            before: body.len(),
            after: e.len(),
        };
    }
    let current: &[u8] = encoded.as_deref().unwrap_or(&body);
    let (renamed, plan) = plan_for(
        config,
        host,
        renaming.then_some(current),
        report,
        &needs.decoders,
    );
    let out = renamed.or(encoded);
    if let (Some(out), Outcome::Rewritten { after, .. }) = (&out, &mut report.outcome) {
        *after = out.len();
    }
    (out, plan)
}

#[cfg(test)]
mod tests {
    use super::*;
    use provider_rules::encode::Encoding;

    fn json_text() -> Decoder {
        Decoder {
            properties: [(
                "data".to_owned(),
                Decoder {
                    encoding: Some(Encoding::Json),
                    ..Decoder::default()
                },
            )]
            .into(),
            ..Decoder::default()
        }
    }

    #[test]
    fn arguments_in_text_and_as_values_are_encoded_in_their_own_form() {
        let d = json_text();
        let text = encode_args(&d, r#""{\"data\":[1],\"q\":\"x\"}""#).unwrap();
        assert_eq!(
            String::from_utf8(text.unwrap()).unwrap(),
            r#""{\"data\":\"[1]\",\"q\":\"x\"}""#
        );
        let value = encode_args(&d, r#"{"data":{"a":1}}"#).unwrap();
        assert_eq!(
            String::from_utf8(value.unwrap()).unwrap(),
            r#"{"data":"{\"a\":1}"}"#
        );
        // Nothing to encode, empty text: unchanged.
        assert_eq!(encode_args(&d, r#"{"q":"x"}"#).unwrap(), None);
        assert_eq!(encode_args(&d, r#""""#).unwrap(), None);
    }

    #[test]
    fn arguments_that_are_not_json_or_too_deep_are_errors_not_panics() {
        let d = json_text();
        assert!(encode_args(&d, r#""{\"data\":""#).is_err());
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        let e = encode_args(&d, &deep).unwrap_err();
        assert!(e.contains("deeper"), "{e}");
    }

    #[test]
    fn only_decoders_with_an_encoding_read_the_history() {
        assert!(has_encoding(&json_text()));
        let strict_nulls = Decoder {
            drop_null: vec!["cursor".into()],
            ..Decoder::default()
        };
        assert!(!has_encoding(&strict_nulls));
    }
}
