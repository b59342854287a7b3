//! # provider-rules
//!
//! What each LLM provider accepts in a tool's JSON Schema, as data ([`Rules`], one `const`
//! per profile), and the engine that rewrites a schema into it ([`sanitize`]), with a report
//! of every change and a linter that predicts the provider's 400 ([`check`]).
//!
//! ```
//! use provider_rules::{check, sanitize, Rules, Slot};
//! use schema_core::Schema;
//!
//! // An MCP tool's input schema, as servers send it.
//! let input = Schema::from_str(r#"{
//!     "type": "object",
//!     "properties": {
//!         "url": {"type": "string", "format": "uri"},
//!         "limit": {"type": ["integer", "null"], "exclusiveMinimum": 0}
//!     },
//!     "additionalProperties": false,
//!     "$schema": "http://json-schema.org/draft-07/schema#"
//! }"#)?;
//!
//! // Gemini would answer 400 ...
//! assert!(!check(&input.to_value(), &Rules::GEMINI, Slot::Parameters).is_empty());
//! // ... so rewrite it: what Gemini can say another way is said so (`> 0` on integers is
//! // `minimum: 1`), the rest goes to the descriptions.
//! let out = sanitize(&input, &Rules::GEMINI, Slot::Parameters);
//! assert!(check(&out.schema.to_value(), &Rules::GEMINI, Slot::Parameters).is_empty());
//! assert_eq!(
//!     out.schema.to_json_string(),
//!     r#"{"type":"object","properties":{"url":{"type":"string","description":"Format: uri."},"limit":{"type":"integer","nullable":true,"minimum":1}},"description":"No other properties are allowed."}"#
//! );
//! assert!(out.report.lossy_count() > 0);
//! # Ok::<(), schema_core::SchemaError>(())
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod check;
mod config;
mod cost;
pub mod decode;
mod depth;
mod engine;
mod hints;
mod names;
mod profiles;
mod report;
mod rules;

pub use check::{check, check_schema, check_slice};
pub use config::RulesError;
pub use cost::{StrictCost, strict_cost};
pub use decode::Decoder;
pub use names::{NameMap, ToolNames, check_tool_name};
pub use profiles::{PROFILES, profile, profile_names};
pub use report::{Change, Report, Sanitized, Violation};
pub use rules::*;

use schema_core::{ParseOptions, Schema, SchemaError};

/// Where a schema sits, which decides whether the root rules apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Slot {
    /// A tool's input schema: the root must be what the provider wants of parameters
    /// (usually an object).
    Parameters,
    /// A standalone schema: a tool's output or a structured-output response format.
    Schema,
}

/// Rewrites `schema` into what the provider described by `rules` accepts.
///
/// Never panics; idempotent (`sanitize(sanitize(x)) == sanitize(x)`); deterministic; property
/// names and their order are kept. What the provider cannot express is folded into
/// `description` (when `rules.hints`), and every change is in the report, which is empty
/// exactly when the output equals the input. For every profile,
/// `check(sanitize(x).schema)` is empty. The output nests at most 64 schema levels (what the
/// parser keeps, and what `check` accepts): where the engine's rewriting would go deeper (the
/// profile's any-value alternatives below a node at level 60...), the subtree is replaced by a
/// schema that does not describe it, and the report says so (rule `depth`, lossy).
///
/// For JSON bytes, [`sanitize_slice`] also reports what the parser cut.
///
/// ```
/// use provider_rules::{sanitize, Rules, Slot};
/// let s = schema_core::Schema::from_str(r#"{"type":"object","properties":{"n":{"type":"integer","enum":[1,2,3]}}}"#)?;
/// let out = sanitize(&s, &Rules::GEMINI, Slot::Parameters);
/// assert_eq!(out.schema.to_json_string(),
///     r#"{"type":"object","properties":{"n":{"type":"integer","minimum":1,"maximum":3,"description":"Allowed values: 1, 2, 3."}}}"#);
/// # Ok::<(), schema_core::SchemaError>(())
/// ```
pub fn sanitize(schema: &Schema, rules: &Rules, slot: Slot) -> Sanitized {
    let mut out = engine::run(schema, rules, slot);
    depth::cap(&mut out, rules, slot);
    out
}

/// Parses JSON bytes and [`sanitize`]s the schema: the entry point for schemas as they arrive
/// (a request body's slot, a file), at any nesting depth.
///
/// The parser keeps 64 schema levels ([`ParseOptions`]'s default) and cuts what is deeper
/// (without recursing into it, so no input can exhaust the stack); each cut is in the report
/// as a lossy change with rule `depth` at the pointer of the cut subtree, and the subtree's
/// place says so in its description (`"Nested deeper than 64 levels; not described."`, when the
/// profile has [`hints`](Rules::hints)). Where the profile's rewriting of the cut place would
/// itself go past the limit (Gemini's any-value alternatives take 6 levels), the cut is made
/// higher up and reported there instead. The output passes [`check`], and sanitizing it again
/// changes nothing.
///
/// The error is the parser's: the bytes are not JSON.
///
/// ```
/// use provider_rules::{check, sanitize_slice, Rules, Slot};
/// // 70 levels of objects: the parser keeps 64.
/// let mut text = String::from(r#"{"type":"string"}"#);
/// for _ in 0..70 {
///     text = format!(r#"{{"type":"object","properties":{{"a":{text}}}}}"#);
/// }
/// let out = sanitize_slice(text.as_bytes(), &Rules::OPENAI, Slot::Parameters)?;
/// let cut = out.report.changes.iter().find(|c| c.rule == "depth").expect("reported");
/// assert!(cut.lossy);
/// assert_eq!(cut.pointer, "/properties/a".repeat(64));
/// assert!(out.schema.to_json_string().contains("Nested deeper than 64 levels; not described."));
/// // What comes out is within the limit, so the provider's check passes ...
/// assert!(check(&out.schema.to_value(), &Rules::OPENAI, Slot::Parameters).is_empty());
/// // ... and a second pass is a no-op.
/// let again = sanitize_slice(out.schema.to_json_string().as_bytes(), &Rules::OPENAI, Slot::Parameters)?;
/// assert!(again.report.is_empty());
/// # Ok::<(), schema_core::SchemaError>(())
/// ```
pub fn sanitize_slice(bytes: &[u8], rules: &Rules, slot: Slot) -> Result<Sanitized, SchemaError> {
    let parsed = Schema::parse(bytes, &ParseOptions::default())?;
    Ok(depth::sanitize_parsed(parsed, rules, slot))
}
