//! The lossless encodings through the layer (issue 16): [`EncodingSanitizer`] sanitizes each
//! slot with its profile's [`Encodings`](provider_rules::Encodings) (maps as key/value
//! entries, any values as JSON text, numeric enums as strings, tuples as objects), so strict
//! tools stay strict and Gemini's proto keeps what it cannot say. The decoders travel in the
//! request's restore plan as the strict-null decoders do, so the tool calls of the response
//! (JSON and SSE) reach the client in the tools' own terms.
//!
//! The arguments of earlier tool calls in the conversation's history are encoded on the way
//! out with the same decoder (`Decoder::encode_value`), so the model sees its earlier calls in
//! the form the declarations speak: only those arguments change, and only for tools with an
//! encoding (the history is not read otherwise); each is in
//! [`SanitizeReport::history`](crate::SanitizeReport::history).
//!
//! ```
//! use tower_toolschema::ToolSchemaLayer;
//! use tower_toolschema::encoding::EncodingSanitizer;
//! let layer = ToolSchemaLayer::for_provider("openai")?.sanitizer(EncodingSanitizer);
//! # let _ = layer;
//! # Ok::<(), tower_toolschema::UnknownProvider>(())
//! ```

pub(crate) mod history;

use crate::profile::Profile;
use crate::sanitizer::{RulesSanitizer, SlotOutcome, SlotSanitizer, rules_outcome};
use provider_rules::SanitizeOptions;

/// The default sanitizer with the profiles' encodings on (the layer decodes the responses).
///
/// ```
/// use tower_toolschema::Profile;
/// use tower_toolschema::encoding::EncodingSanitizer;
/// use tower_toolschema::sanitizer::{RulesSanitizer, SchemaSlot, SlotSanitizer};
/// let strict = Profile::builtin("openai-strict").unwrap();
/// let map = br#"{"type":"object","properties":{"env":{"type":"object","additionalProperties":{"type":"string"}}}}"#;
/// let encoded = EncodingSanitizer.sanitize(map, &strict, SchemaSlot::Parameters)?;
/// // The map is sent as key/value entries, and the decoder turns them back into a map.
/// assert!(encoded.changes.iter().any(|c| c.rule.as_str() == "encode-map"));
/// assert!(!encoded.decoder.is_identity());
/// let plain = RulesSanitizer.sanitize(map, &strict, SchemaSlot::Parameters)?;
/// assert!(plain.changes.iter().all(|c| c.rule.as_str() != "encode-map"));
/// assert_ne!(plain.json, encoded.json);
/// # Ok::<(), String>(())
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct EncodingSanitizer;

impl SlotSanitizer for EncodingSanitizer {
    fn sanitize(
        &self,
        schema: &[u8],
        profile: &Profile,
        slot: provider_rules::Slot,
    ) -> Result<SlotOutcome, String> {
        rules_outcome(schema, profile, slot, &SanitizeOptions::ENCODE)
    }

    fn check_tool_name(&self, name: &str, profile: &Profile) -> Option<String> {
        RulesSanitizer.check_tool_name(name, profile)
    }
}

/// The nesting depth of the JSON text `s` (its deepest array or object; brackets in strings do
/// not count), read without recursion: a bound to check before a value is parsed into a tree.
///
/// ```
/// use tower_toolschema::encoding::nesting;
/// assert_eq!(nesting(r#"{"a":[1,{"b":"[[["}]}"#), 3);
/// assert_eq!(nesting(&"[".repeat(1_000_000)), 1_000_000);
/// assert_eq!(nesting("7"), 0);
/// ```
pub fn nesting(s: &str) -> usize {
    let (mut depth, mut deepest, mut in_string, mut escaped) = (0usize, 0usize, false, false);
    for b in s.bytes() {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'{' | b'[' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}
