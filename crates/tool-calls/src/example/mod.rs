//! The worked example: a value of the expected shape, generated from the schema.
//!
//! Two modes. *Placeholder* (for messages): required fields only, strings as `"<string>"` (or
//! `"<date-time>"`, ...), the first `enum` value, the `const`, numbers within bounds, one item per
//! array, objects with no declared fields as `{...}`; rendered within a length budget.
//! *Valid* (for tests and `callWith` bodies that should pass): the same shape, with strings that
//! satisfy `format`, length and (when a simple candidate fits) `pattern`.

mod generator;
mod leaves;
mod render;

use generator::Generator;
pub(crate) use render::{render_bounded, to_value};
use serde_json::Value;

/// How deep the generator descends before writing `{...}` / `null`.
const MAX_GEN_DEPTH: usize = 16;
/// The default length budget of a rendered example, in characters.
pub const EXAMPLE_BUDGET: usize = 400;

/// A generated example, before rendering.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Node {
    /// A finished value.
    Leaf(Value),
    /// An object with these fields, in `required` order.
    Object(Vec<(String, Node)>),
    /// An object whose fields the schema leaves open: rendered `{...}`.
    Open,
    /// An array.
    Array(Vec<Node>),
}

/// Which kind of example to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Placeholders for a message.
    Placeholder,
    /// Values meant to validate.
    Valid,
}

/// A compact worked example of what `schema` expects, at most [`EXAMPLE_BUDGET`] characters.
///
/// ```
/// use serde_json::json;
/// let schema = json!({
///     "type": "object",
///     "properties": {
///         "namespace": {"type": "string"},
///         "toolName": {"type": "string"},
///         "arguments": {"type": "object"},
///         "unit": {"enum": ["celsius", "fahrenheit"]}
///     },
///     "required": ["namespace", "toolName", "arguments", "unit"]
/// });
/// assert_eq!(
///     tool_calls::worked_example(&schema),
///     r#"{"namespace":"<string>","toolName":"<string>","arguments":{...},"unit":"celsius"}"#
/// );
/// ```
pub fn worked_example(schema: &Value) -> String {
    render_bounded(
        &Generator::new(schema, Mode::Placeholder).node(schema, 0),
        EXAMPLE_BUDGET,
    )
}

/// An argument value that validates against `schema` in the common cases (required fields,
/// types, enums, bounds, formats, simple patterns); a best effort, not a solver.
///
/// ```
/// use serde_json::json;
/// let schema = json!({
///     "type": "object",
///     "properties": {"when": {"type": "string", "format": "date"}, "n": {"type": "integer", "minimum": 3}},
///     "required": ["when", "n"]
/// });
/// let args = tool_calls::example_arguments(&schema);
/// assert_eq!(args, json!({"when": "2024-01-31", "n": 3}));
/// assert!(tool_calls::validate(&schema, &args).is_ok());
/// ```
pub fn example_arguments(schema: &Value) -> Value {
    to_value(&Generator::new(schema, Mode::Valid).node(schema, 0))
}

/// The placeholder example tree of `schema`.
pub(crate) fn placeholder(schema: &Value) -> Node {
    Generator::new(schema, Mode::Placeholder).node(schema, 0)
}

/// The placeholder example tree of `schema` for a call that sent `sent`: besides the required
/// fields, the declared fields the call used appear too, so the example mirrors the attempt.
pub(crate) fn placeholder_for(schema: &Value, sent: &Value) -> Node {
    let mut generator = Generator::new(schema, Mode::Placeholder);
    generator.sent = Some(sent);
    generator.node(schema, 0)
}

#[cfg(test)]
mod tests {
    use super::leaves::number;
    use super::*;
    use serde_json::{Map, json};

    #[test]
    fn placeholders_follow_types_and_required_order() {
        let schema = json!({
            "type": "object",
            "properties": {"b": {"type": "integer", "minimum": 5}, "a": {"type": ["string", "null"], "format": "uri"},
                           "c": {"type": "array", "items": {"type": "boolean"}}, "d": {"const": "x"}},
            "required": ["c", "a", "b", "d"]
        });
        assert_eq!(
            worked_example(&schema),
            r#"{"c":[true],"a":"<uri>","b":5,"d":"x"}"#
        );
    }

    #[test]
    fn refs_and_any_of_are_followed() {
        let schema = json!({
            "$defs": {"P": {"type": "object", "properties": {"x": {"type": "number"}}, "required": ["x"]}},
            "type": "object",
            "properties": {"p": {"anyOf": [{"type": "null"}, {"$ref": "#/$defs/P"}]}},
            "required": ["p"]
        });
        assert_eq!(worked_example(&schema), r#"{"p":{"x":0}}"#);
    }

    #[test]
    fn recursive_schemas_stay_bounded() {
        let schema = json!({"$ref": "#/$defs/n", "$defs": {"n": {"type": "object", "properties": {"next": {"$ref": "#/$defs/n"}}, "required": ["next"]}}});
        let text = worked_example(&schema);
        assert!(text.chars().count() <= EXAMPLE_BUDGET, "{text}");
        let self_ref = json!({"$ref": "#"});
        assert_eq!(worked_example(&self_ref), "null");
    }

    #[test]
    fn long_examples_are_elided() {
        let props: Map<String, Value> = (0..100)
            .map(|i| (format!("field{i}"), json!({"type": "string"})))
            .collect();
        let required: Vec<String> = props.keys().cloned().collect();
        let text =
            worked_example(&json!({"type": "object", "properties": props, "required": required}));
        assert!(text.ends_with("..."), "{text}");
        assert!(text.chars().count() <= EXAMPLE_BUDGET);
    }

    #[test]
    fn valid_strings_respect_patterns_and_lengths() {
        let s = json!({"type": "string", "pattern": "^[0-9]+$", "minLength": 2});
        assert_eq!(example_arguments(&s), json!("123"));
        let s = json!({"type": "string", "minLength": 10});
        assert_eq!(example_arguments(&s), json!("examplexxx"));
    }

    #[test]
    fn numbers_respect_bounds() {
        assert_eq!(number(&json!({"exclusiveMinimum": 0}), true), json!(1));
        assert_eq!(number(&json!({"maximum": -3}), true), json!(-3));
        assert_eq!(number(&json!({"minimum": 0.25}), false), json!(0.25));
        assert_eq!(
            number(&json!({"minimum": 7, "multipleOf": 5}), true),
            json!(10)
        );
    }
}
