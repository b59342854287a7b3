//! Sanitizing many schemas in a row (`toolschema sanitize --ndjson`, bindings): the result is
//! written into a buffer the caller reuses, and a schema that needs no change is not written
//! at all.

use crate::engine::Reads;
use crate::{Rules, SanitizeOptions, Slot};
use schema_core::SchemaError;

/// Sanitizes the schema in `bytes`; when it changes, its compact JSON text replaces `out`'s
/// content and `Ok(true)` is returned. `Ok(false)`: the schema needs no change (`out` is left
/// as it was; the input bytes are the result).
///
/// ```
/// use provider_rules::{Rules, Slot, sanitize_into};
/// let mut out = String::new();
/// let same = br#"{"type":"object","properties":{}}"#;
/// assert!(!sanitize_into(same, &Rules::OPENAI, Slot::Parameters, &mut out)?);
/// assert!(sanitize_into(br#"{"type":"object"}"#, &Rules::OPENAI, Slot::Parameters, &mut out)?);
/// assert_eq!(out, r#"{"type":"object","properties":{}}"#);
/// # Ok::<(), schema_core::SchemaError>(())
/// ```
pub fn sanitize_into(
    bytes: &[u8],
    rules: &Rules,
    slot: Slot,
    out: &mut String,
) -> Result<bool, SchemaError> {
    let read = crate::Read::parse(bytes, rules)?;
    // Most schemas of a batch need no change: where that is proven before the engine runs
    // (no step of the profile can change the tree), the engine's walks, report and decoder
    // are skipped.
    if read.cannot_change(rules, slot) {
        return Ok(false);
    }
    // Only the schema and whether it changed are read: no decoder is built.
    let done = read.sanitize(rules, slot, &SanitizeOptions::default(), Reads::SchemaOnly);
    if done.report.is_empty() {
        return Ok(false);
    }
    out.clear();
    done.schema.write_json(out);
    Ok(true)
}
