//! What the `toolschema validate --schema FILE [ARGS_FILE]` command prints, and its exit code.

use crate::{CallError, Coercion, ValidateOptions, validate_with};
use serde_json::Value;
use std::fmt;

/// The verdict on one tool input, as the CLI reports it.
///
/// `Display` is the model-facing message (`valid`, plus any lenient repairs, or the
/// [`CallError`] message); [`Outcome::exit_code`] is 0 when valid, 1 when invalid. Input the CLI
/// cannot read or parse is its own concern: exit [`EXIT_BAD_INPUT`] (2).
///
/// ```
/// use serde_json::json;
/// let outcome = tool_calls::validate_tool_input(&json!({"type": "object"}), &json!("x"), &Default::default());
/// assert_eq!(outcome.exit_code(), 1);
/// assert!(outcome.to_string().starts_with("input is invalid: it must be an object, not a string"));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// The input is valid (lenient mode: after these repairs).
    Valid {
        /// Repairs made in lenient mode.
        coercions: Vec<Coercion>,
    },
    /// The input is invalid.
    Invalid(CallError),
}

/// The exit code for input the CLI cannot read or parse (a missing file, malformed JSON).
pub const EXIT_BAD_INPUT: i32 = 2;

impl Outcome {
    /// 0 when valid, 1 when invalid.
    ///
    /// ```
    /// let ok = tool_calls::Outcome::Valid { coercions: vec![] };
    /// assert_eq!(ok.exit_code(), 0);
    /// ```
    pub fn exit_code(&self) -> i32 {
        match self {
            Self::Valid { .. } => 0,
            Self::Invalid(_) => 1,
        }
    }

    /// Whether the input is valid.
    ///
    /// ```
    /// assert!(tool_calls::Outcome::Valid { coercions: vec![] }.is_valid());
    /// ```
    pub fn is_valid(&self) -> bool {
        matches!(self, Self::Valid { .. })
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Valid { coercions } => {
                write!(f, "valid")?;
                for c in coercions {
                    write!(f, "\nnote: {c}")?;
                }
                Ok(())
            }
            Self::Invalid(err) => write!(f, "{err}"),
        }
    }
}

/// The tool's input schema inside `schema`: the value itself, or, when it is a tool definition
/// (MCP `{"name", "inputSchema"}`, Anthropic `input_schema`, OpenAI `parameters` or
/// `{"function": {"parameters"}}`), its schema.
///
/// ```
/// use serde_json::json;
/// let tool = json!({"name": "t", "inputSchema": {"type": "object"}});
/// assert_eq!(tool_calls::input_schema_of(&tool), &json!({"type": "object"}));
/// assert_eq!(tool_calls::input_schema_of(&json!({"type": "string"})), &json!({"type": "string"}));
/// ```
pub fn input_schema_of(schema: &Value) -> &Value {
    let is_schema = [
        "type",
        "properties",
        "$ref",
        "anyOf",
        "oneOf",
        "allOf",
        "$schema",
    ]
    .iter()
    .any(|k| schema.get(k).is_some());
    if is_schema {
        return schema;
    }
    let tool = schema
        .get("function")
        .filter(|f| f.is_object())
        .unwrap_or(schema);
    ["inputSchema", "input_schema", "parameters"]
        .iter()
        .find_map(|k| tool.get(k).filter(|s| s.is_object() || s.is_boolean()))
        .unwrap_or(schema)
}

/// Validates `input` against `schema` (a JSON Schema or a tool definition, see
/// [`input_schema_of`]): what `toolschema validate --schema FILE [ARGS_FILE]` prints.
///
/// ```
/// use serde_json::json;
/// let schema = json!({"name": "get_weather", "inputSchema": {
///     "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}});
/// let outcome = tool_calls::validate_tool_input(&schema, &json!({"City": "Oslo"}), &Default::default());
/// assert_eq!(outcome.to_string(), "\"city\" is missing — you sent \"City\"; the field is \"city\"\nExpected {\"city\":\"<string>\"}");
/// assert_eq!(outcome.exit_code(), 1);
/// ```
pub fn validate_tool_input(schema: &Value, input: &Value, options: &ValidateOptions) -> Outcome {
    match validate_with(input_schema_of(schema), input, options) {
        Ok(ok) => Outcome::Valid {
            coercions: ok.coercions,
        },
        Err(err) => Outcome::Invalid(err),
    }
}
