//! The entry points: [`validate`] and [`validate_with`].

use crate::validate::{Findings, Validator};
use crate::{CallError, Coercion, Problem, ValidateOptions};
use serde_json::Value;

/// Arguments that passed validation (lenient mode: with JSON text replaced by its value).
///
/// ```
/// use serde_json::json;
/// let ok = tool_calls::validate_with(&json!({"type": "object"}), &json!({"a": 1}), &Default::default()).unwrap();
/// assert_eq!(ok.arguments, json!({"a": 1}));
/// assert!(ok.coercions.is_empty());
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Validated {
    /// The arguments to dispatch: the input, with every [`Coercion`] applied.
    pub arguments: Value,
    /// The repairs made in lenient mode (tell the model, so it sends values next time).
    pub coercions: Vec<Coercion>,
}

/// Validates tool-call `arguments` against the tool's original (unsanitized) JSON Schema.
///
/// Every problem is listed; the error's `Display` is the message to send back to the model.
///
/// ```
/// use serde_json::json;
/// let schema = json!({
///     "type": "object",
///     "properties": {"toolName": {"type": "string"}, "arguments": {"type": "object"}},
///     "required": ["toolName", "arguments"]
/// });
/// let err = tool_calls::validate(&schema, &json!({"name": "search", "arguments": "{\"q\":1}"})).unwrap_err();
/// let msg = err.to_string();
/// assert!(msg.contains(r#""toolName" is missing — you sent "name"; the field is "toolName""#));
/// assert!(msg.contains(r#""arguments" must be a JSON object, not a string — send the object itself, not JSON text"#));
/// assert!(msg.ends_with(r#"Expected {"toolName":"<string>","arguments":{...}}"#));
/// ```
pub fn validate(schema: &Value, arguments: &Value) -> Result<(), CallError> {
    validate_with(schema, arguments, &ValidateOptions::default()).map(|_| ())
}

/// [`validate`] with options (e.g. [`ValidateOptions::lenient`]); on success returns the
/// arguments to dispatch and the repairs made.
///
/// ```
/// use serde_json::json;
/// use tool_calls::{validate_with, ValidateOptions};
/// let schema = json!({"type": "object", "properties": {"filter": {"type": "object"}}, "required": ["filter"]});
/// let sent = json!({"filter": "{\"state\": \"open\"}"});
/// assert!(validate_with(&schema, &sent, &ValidateOptions::default()).is_err());
/// let ok = validate_with(&schema, &sent, &ValidateOptions::lenient()).unwrap();
/// assert_eq!(ok.arguments, json!({"filter": {"state": "open"}}));
/// assert!(ok.coercions[0].to_string().contains("was sent as JSON text"));
/// ```
pub fn validate_with(
    schema: &Value,
    arguments: &Value,
    options: &ValidateOptions,
) -> Result<Validated, CallError> {
    let mut findings = Findings::default();
    Validator::new(schema, options.lenient_json_text, options.max_depth).check(
        schema,
        arguments,
        "",
        0,
        &mut findings,
    );
    if findings.problems.is_empty() {
        let mut repaired = arguments.clone();
        for c in &findings.coercions {
            if let Some(slot) = repaired.pointer_mut(&c.pointer) {
                *slot = c.parsed.clone();
            } else if c.pointer.is_empty() {
                repaired = c.parsed.clone();
            }
        }
        return Ok(Validated {
            arguments: repaired,
            coercions: findings.coercions,
        });
    }
    let mut problems: Vec<Problem> = Vec::with_capacity(findings.problems.len());
    for p in findings.problems {
        if !problems.contains(&p) {
            problems.push(p);
        }
    }
    let example = crate::example::render_bounded(
        &crate::example::placeholder_for(schema, arguments),
        options.example_budget,
    );
    Err(CallError::new(problems, example))
}
