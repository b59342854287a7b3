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
//! // ... so rewrite it, keeping what Gemini cannot say in the descriptions.
//! let out = sanitize(&input, &Rules::GEMINI, Slot::Parameters);
//! assert!(check(&out.schema.to_value(), &Rules::GEMINI, Slot::Parameters).is_empty());
//! assert_eq!(
//!     out.schema.to_json_string(),
//!     r#"{"type":"object","properties":{"url":{"type":"string","description":"Format: uri."},"limit":{"type":"integer","nullable":true,"minimum":0,"description":"Greater than 0."}},"description":"No other properties are allowed."}"#
//! );
//! assert!(out.report.lossy_count() > 0);
//! # Ok::<(), schema_core::SchemaError>(())
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod check;
mod config;
mod engine;
mod hints;
mod names;
mod profiles;
mod report;
mod rules;

pub use check::{check, check_schema};
pub use config::RulesError;
pub use names::{ToolNames, check_tool_name};
pub use profiles::{PROFILES, profile, profile_names};
pub use report::{Change, Report, Sanitized, Violation};
pub use rules::*;

use schema_core::Schema;

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
/// `check(sanitize(x).schema)` is empty.
///
/// ```
/// use provider_rules::{sanitize, Rules, Slot};
/// let s = schema_core::Schema::from_str(r#"{"type":"object","properties":{"n":{"type":"integer","enum":[1,2,3]}}}"#)?;
/// let out = sanitize(&s, &Rules::GEMINI, Slot::Parameters);
/// assert_eq!(out.schema.to_json_string(),
///     r#"{"type":"object","properties":{"n":{"type":"integer","description":"Allowed values: 1, 2, 3."}}}"#);
/// # Ok::<(), schema_core::SchemaError>(())
/// ```
pub fn sanitize(schema: &Schema, rules: &Rules, slot: Slot) -> Sanitized {
    engine::run(schema, rules, slot)
}
