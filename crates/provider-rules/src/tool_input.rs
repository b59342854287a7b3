//! A tool's input schema as an MCP `tools/list` entry gives it: an entry without
//! `inputSchema`, or with one that is not an object, is not dropped in silence; it stands for a
//! tool without parameters, which every provider wants said as an empty object schema.

use crate::RuleId;
use std::borrow::Cow;

/// The schema that stands for a tool without parameters.
pub const EMPTY_INPUT_SCHEMA: &str = r#"{"type":"object","properties":{}}"#;

/// A tool's input schema, and what was wrong with the entry's, if anything.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolInput<'a> {
    /// The schema's JSON text: the entry's own, or [`EMPTY_INPUT_SCHEMA`] in its place.
    pub schema: Cow<'a, str>,
    /// Why the entry's own was not used (`None`: it was).
    pub problem: Option<String>,
}

/// Reads the `inputSchema` of a tools/list entry (`None`: the entry has none), as JSON text.
///
/// ```
/// use provider_rules::{tool_input_schema, EMPTY_INPUT_SCHEMA};
/// let ok = tool_input_schema(Some(r#"{"type":"object"}"#));
/// assert_eq!(ok.schema, r#"{"type":"object"}"#);
/// assert!(ok.problem.is_none());
///
/// let missing = tool_input_schema(None);
/// assert_eq!(missing.schema, EMPTY_INPUT_SCHEMA);
/// assert_eq!(missing.problem.as_deref(), Some("no input schema: given an empty object schema (a tool without parameters)"));
///
/// let odd = tool_input_schema(Some("[1, 2]"));
/// assert_eq!(odd.schema, EMPTY_INPUT_SCHEMA);
/// assert!(odd.problem.unwrap().contains("an array"));
/// ```
pub fn tool_input_schema(input: Option<&str>) -> ToolInput<'_> {
    let what = match input.map(|t| t.trim_start().as_bytes().first().copied()) {
        None => "no input schema",
        Some(Some(b'{')) => {
            return ToolInput {
                schema: Cow::Borrowed(input.unwrap_or(EMPTY_INPUT_SCHEMA)),
                problem: None,
            };
        }
        Some(Some(b'[')) => "the input schema is an array, not an object",
        Some(Some(b'"')) => "the input schema is a string, not an object",
        Some(Some(b't' | b'f')) => "the input schema is a boolean, not an object",
        Some(Some(b'n')) => "the input schema is null, not an object",
        Some(_) => "the input schema is a number, not an object",
    };
    ToolInput {
        schema: Cow::Borrowed(EMPTY_INPUT_SCHEMA),
        problem: Some(format!(
            "{what}: given an empty object schema (a tool without parameters)"
        )),
    }
}

/// What a schema given alone as a tool's parameters (`--as parameters`) is, when it is not a
/// schema at all (`[1, 2]`, `"hello"`, `42`): the warning to say, since it becomes
/// `{"type": "object"}`. `None` for an object or a boolean schema.
///
/// ```
/// use provider_rules::non_schema_root;
/// assert!(non_schema_root("[1,2]").unwrap().contains("an array"));
/// assert!(non_schema_root(r#"{"type":"string"}"#).is_none());
/// assert!(non_schema_root("true").is_none());
/// ```
pub fn non_schema_root(text: &str) -> Option<String> {
    let what = match text.trim_start().as_bytes().first() {
        Some(b'{' | b't' | b'f') | None => return None,
        Some(b'[') => "an array",
        Some(b'"') => "a string",
        Some(b'n') => "null",
        Some(_) => "a number",
    };
    Some(format!(
        "the input is {what}, not a JSON Schema: read as a schema that says nothing (an object schema for parameters)"
    ))
}

/// Whether a request carrying `tools` tools goes over the provider's documented maximum
/// ([`Rules::tool_limit`](crate::Rules::tool_limit)): the violation names the limit and its
/// source. A request-wide check: a caller that sees the whole request (the layer, `check` on a
/// request body) counts.
///
/// ```
/// use provider_rules::{check_tool_count, Rules};
/// assert!(check_tool_count(128, &Rules::OPENAI).is_none());
/// let over = check_tool_count(129, &Rules::OPENAI).unwrap();
/// assert_eq!(over.rule, "tool-count");
/// assert!(over.message.contains("at most 128") && over.message.contains("A max of 128 functions"));
/// ```
pub fn check_tool_count(tools: usize, rules: &crate::Rules) -> Option<crate::Violation> {
    let limit = rules.tool_limit.as_ref()?;
    (tools > limit.max as usize).then(|| crate::Violation {
        pointer: String::new(),
        rule: RuleId::ToolCount,
        message: format!(
            "{tools} tools in one request; {} accepts at most {} ({})",
            rules.name(),
            limit.max,
            limit.source
        ),
        provider_error: None,
    })
}

/// Whether a request whose tools have `fields` fields in all (properties at any depth,
/// [`StrictCost::fields`](crate::StrictCost::fields)) goes over the provider's request-wide
/// field limit ([`RequestLimits::fields`](crate::RequestLimits::fields); Cohere: 200 "across all
/// tools"). A request-wide check, like [`check_tool_count`].
///
/// ```
/// use provider_rules::{check_field_count, Rules};
/// assert!(check_field_count(200, &Rules::COHERE).is_none());
/// let over = check_field_count(201, &Rules::COHERE).unwrap();
/// assert_eq!(over.rule, "field-count");
/// assert!(over.message.contains("201 fields") && over.message.contains("at most 200"));
/// assert!(check_field_count(10_000, &Rules::OPENAI).is_none());
/// ```
pub fn check_field_count(fields: u32, rules: &crate::Rules) -> Option<crate::Violation> {
    let max = rules.request_limits.fields?;
    (fields > max).then(|| crate::Violation {
        pointer: String::new(),
        rule: crate::RuleId::FieldCount,
        message: format!(
            "{fields} fields (properties, at any depth) across all the tools of one request; {} accepts at most {max}",
            rules.name()
        ),
        provider_error: None,
    })
}
