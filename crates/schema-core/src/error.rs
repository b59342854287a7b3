//! Errors (the input is not JSON) and diagnostics (the JSON is not quite a schema).

use crate::instance::JsonType;
use std::fmt;

/// The input could not be read as JSON at all.
///
/// ```
/// let err = schema_core::Schema::from_str("{\"type\": }").unwrap_err();
/// assert_eq!((err.line(), err.column()), (1, 10));
/// assert!(err.to_string().contains("line 1, column 10"));
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SchemaError {
    /// The bytes are not valid JSON.
    #[error("invalid JSON at line {line}, column {column}: {message}")]
    Json {
        /// 1-based line of the error.
        line: usize,
        /// 1-based column of the error.
        column: usize,
        /// What the JSON parser expected.
        message: String,
    },
}

impl SchemaError {
    pub(crate) fn from_json(e: serde_json::Error) -> SchemaError {
        let message = e.to_string();
        // serde_json appends " at line L column C"; keep only the description.
        let message = match message.rfind(" at line ") {
            Some(i) => message[..i].to_owned(),
            None => message,
        };
        SchemaError::Json {
            line: e.line(),
            column: e.column(),
            message,
        }
    }

    /// 1-based line of the error.
    pub fn line(&self) -> usize {
        match self {
            SchemaError::Json { line, .. } => *line,
        }
    }

    /// 1-based column of the error.
    pub fn column(&self) -> usize {
        match self {
            SchemaError::Json { column, .. } => *column,
        }
    }
}

/// Something the parser kept as data or replaced, with where (a JSON pointer) and what.
///
/// ```
/// use schema_core::{DiagnosticKind, ParseOptions, Schema};
/// let parsed = Schema::parse(br#"{"required": true}"#, &ParseOptions::default())?;
/// let d = &parsed.diagnostics[0];
/// assert_eq!(d.pointer, "/required");
/// assert!(matches!(d.kind, DiagnosticKind::WrongType { .. }));
/// assert_eq!(d.to_string(), "/required: expected an array of strings, found a boolean (kept as data)");
/// # Ok::<(), schema_core::SchemaError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Where, as a JSON pointer into the input (`""` for the root).
    pub pointer: String,
    /// What.
    pub kind: DiagnosticKind,
}

/// The kinds of [`Diagnostic`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DiagnosticKind {
    /// A keyword's value has the wrong JSON type; it is kept verbatim as [`crate::Value::Raw`].
    WrongType {
        /// The keyword.
        keyword: String,
        /// What its value should be.
        expected: &'static str,
        /// What it is.
        found: JsonType,
    },
    /// The schema nests deeper than the limit; the subtree was replaced by `{}`.
    DepthLimit {
        /// The limit in force.
        limit: usize,
    },
    /// The root is not a schema (not an object or a boolean); it was replaced by `{}`.
    NotASchema {
        /// What it is.
        found: JsonType,
    },
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.pointer.is_empty() {
            "(root)"
        } else {
            &self.pointer
        };
        match &self.kind {
            DiagnosticKind::WrongType {
                expected, found, ..
            } => write!(
                f,
                "{at}: expected {expected}, found {} (kept as data)",
                article(*found)
            ),
            DiagnosticKind::DepthLimit { limit } => write!(
                f,
                "{at}: the schema nests deeper than {limit} levels; the subtree was replaced by {{}}"
            ),
            DiagnosticKind::NotASchema { found } => write!(
                f,
                "{at}: expected a schema (an object or a boolean), found {}; replaced by {{}}",
                article(*found)
            ),
        }
    }
}

pub(crate) fn article(t: JsonType) -> &'static str {
    match t {
        JsonType::Null => "null",
        JsonType::Boolean => "a boolean",
        JsonType::Integer => "an integer",
        JsonType::Number => "a number",
        JsonType::String => "a string",
        JsonType::Array => "an array",
        JsonType::Object => "an object",
    }
}
