//! What went wrong with a call: [`Problem`]s, gathered in a [`CallError`].

use crate::JsonType;
use serde_json::{Number, Value};

/// One thing wrong with a tool call's arguments: where (`pointer`), what was sent, what is expected.
///
/// Its `Display` is one model-facing sentence, e.g.
/// `"toolName" is missing — you sent "name"; the field is "toolName"`.
///
/// ```
/// use serde_json::json;
/// let err = tool_calls::validate(&json!({"required": ["q"]}), &json!({})).unwrap_err();
/// let problem = &err.problems()[0];
/// assert_eq!(problem.pointer, "/q");
/// assert_eq!(problem.to_string(), "\"q\" is missing — it is required");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    /// JSON pointer to the offending place in the arguments (`""` for the arguments themselves).
    pub pointer: String,
    /// The value sent there, when one was sent.
    pub sent: Option<Value>,
    /// What is wrong, and what is expected instead.
    pub kind: ProblemKind,
}

/// What is wrong with a value, with what the schema expects.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ProblemKind {
    /// A required field is absent; `alias_sent` is a key the call carried that probably meant it.
    Missing {
        /// The expected type(s) of the missing field, when the schema says.
        expected: Vec<JsonType>,
        /// The sent key that probably means this field (`"name"` for `"toolName"`).
        alias_sent: Option<String>,
        /// A field whose presence makes this one required (`dependentRequired`).
        required_by: Option<String>,
    },
    /// The value is of the wrong type.
    WrongType {
        /// The accepted types.
        expected: Vec<JsonType>,
        /// The type sent.
        found: JsonType,
        /// The string sent is JSON text of an expected object or array.
        json_text: bool,
    },
    /// The value is not one of the `enum` values.
    NotInEnum {
        /// The allowed values.
        allowed: Vec<Value>,
    },
    /// The value is not the `const` value.
    NotConst {
        /// The only allowed value.
        expected: Value,
    },
    /// A field not allowed by `additionalProperties: false`.
    UnknownField {
        /// The allowed field names, closest to the sent one first.
        allowed: Vec<String>,
        /// The allowed field it probably meant.
        suggestion: Option<String>,
    },
    /// A string shorter than `minLength` (in characters).
    TooShort {
        /// The minimum length.
        min: u64,
    },
    /// A string longer than `maxLength` (in characters).
    TooLong {
        /// The maximum length.
        max: u64,
    },
    /// An array with fewer than `minItems` items.
    TooFewItems {
        /// The minimum item count.
        min: u64,
    },
    /// An array with more than `maxItems` items.
    TooManyItems {
        /// The maximum item count.
        max: u64,
    },
    /// An object with fewer than `minProperties` fields.
    TooFewFields {
        /// The minimum field count.
        min: u64,
    },
    /// An object with more than `maxProperties` fields.
    TooManyFields {
        /// The maximum field count.
        max: u64,
    },
    /// A number below `minimum` / at or below `exclusiveMinimum`.
    BelowMinimum {
        /// The bound.
        limit: Number,
        /// The bound itself is excluded.
        exclusive: bool,
    },
    /// A number above `maximum` / at or above `exclusiveMaximum`.
    AboveMaximum {
        /// The bound.
        limit: Number,
        /// The bound itself is excluded.
        exclusive: bool,
    },
    /// A number that is not a multiple of `multipleOf`.
    NotMultipleOf {
        /// The divisor.
        divisor: Number,
    },
    /// An array with equal items under `uniqueItems`.
    DuplicateItems {
        /// Index of the first of two equal items.
        first: usize,
        /// Index of the second.
        second: usize,
    },
    /// A string not matching `pattern`.
    PatternMismatch {
        /// The regular expression.
        pattern: String,
    },
    /// A string whose `pattern` could not be evaluated (the backtracking limit of a look-around
    /// or back-reference pattern reached, or a syntax no engine here reads): not taken as a
    /// match.
    PatternNotChecked {
        /// The regular expression.
        pattern: String,
    },
    /// A string not valid for its `format`.
    InvalidFormat {
        /// The format name (`date-time`, `uri`, ...).
        format: String,
    },
    /// A field name not valid under `propertyNames`.
    InvalidFieldName {
        /// Why, as a sentence fragment.
        reason: String,
    },
    /// An array with too few or too many items matching `contains`.
    ContainsCount {
        /// How many items matched.
        matched: usize,
        /// The minimum required (`minContains`, default 1).
        min: u64,
        /// The maximum allowed (`maxContains`).
        max: Option<u64>,
    },
    /// `oneOf`: more than one alternative matched.
    SeveralAlternatives {
        /// Indexes of the matching alternatives.
        matched: Vec<usize>,
    },
    /// `anyOf`/`oneOf`: no alternative matched, and none is clearly the one meant.
    NoAlternative {
        /// How many alternatives there are.
        count: usize,
    },
    /// The value matches a `not` schema.
    Forbidden {
        /// The forbidden schema, compact.
        schema: String,
    },
    /// Nothing is allowed here (a `false` schema).
    NotAllowed,
    /// The arguments nest deeper than the validator goes.
    TooDeep {
        /// The depth limit.
        limit: usize,
    },
}

/// Everything wrong with a tool call, and the worked example of the expected shape.
///
/// `Display` is the model-facing message: one line per problem, then
/// `Expected {...}`, a worked example generated from the schema.
///
/// ```
/// use serde_json::json;
/// let schema = json!({"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]});
/// let err = tool_calls::validate(&schema, &json!({"Query": "rust"})).unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "\"query\" is missing — you sent \"Query\"; the field is \"query\"\nExpected {\"query\":\"<string>\"}"
/// );
/// ```
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{}", crate::message::render_call_error(self))]
pub struct CallError {
    pub(crate) problems: Vec<Problem>,
    pub(crate) example: String,
}

impl CallError {
    /// Builds an error from problems and a rendered worked example.
    ///
    /// ```
    /// let err = tool_calls::CallError::new(vec![], "{}".into());
    /// assert_eq!(err.example(), "{}");
    /// ```
    pub fn new(problems: Vec<Problem>, example: String) -> Self {
        Self { problems, example }
    }

    /// Every problem found, in document order.
    ///
    /// ```
    /// use serde_json::json;
    /// let err = tool_calls::validate(&json!({"type": "integer"}), &json!("1")).unwrap_err();
    /// assert_eq!(err.problems().len(), 1);
    /// ```
    pub fn problems(&self) -> &[Problem] {
        &self.problems
    }

    /// The worked example of the expected shape (what follows `Expected `).
    ///
    /// ```
    /// use serde_json::json;
    /// let err = tool_calls::validate(&json!({"type": "integer"}), &json!("1")).unwrap_err();
    /// assert_eq!(err.example(), "0");
    /// ```
    pub fn example(&self) -> &str {
        &self.example
    }

    /// Replaces the worked example (e.g. with a whole call envelope around these arguments).
    ///
    /// ```
    /// let err = tool_calls::CallError::new(vec![], "{}".into()).with_example("[]".into());
    /// assert_eq!(err.example(), "[]");
    /// ```
    pub fn with_example(mut self, example: String) -> Self {
        self.example = example;
        self
    }

    /// Moves every problem under `key`: arguments validated alone, reported inside an envelope.
    ///
    /// ```
    /// use serde_json::json;
    /// let err = tool_calls::validate(&json!({"required": ["q"]}), &json!({})).unwrap_err();
    /// assert_eq!(err.nested_under("arguments").problems()[0].pointer, "/arguments/q");
    /// ```
    pub fn nested_under(mut self, key: &str) -> Self {
        let mut prefix = String::new();
        schema_core::pointer::push(&mut prefix, key);
        for p in &mut self.problems {
            p.pointer.insert_str(0, &prefix);
        }
        self
    }
}

/// A repair the lenient mode made: JSON text sent where an object or array was expected.
///
/// ```
/// use serde_json::json;
/// use tool_calls::{validate_with, ValidateOptions};
/// let schema = json!({"type": "object", "properties": {"a": {"type": "object"}}});
/// let ok = validate_with(&schema, &json!({"a": "{\"b\":1}"}), &ValidateOptions::lenient()).unwrap();
/// assert_eq!(ok.coercions[0].pointer, "/a");
/// assert_eq!(ok.arguments, json!({"a": {"b": 1}}));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Coercion {
    /// Where the JSON text was.
    pub pointer: String,
    /// The parsed value that replaced it.
    pub parsed: Value,
}

impl std::fmt::Display for Coercion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what = if self.parsed.is_array() {
            "array"
        } else {
            "object"
        };
        write!(
            f,
            "{} was sent as JSON text; it was parsed and accepted — send the {what} itself, not JSON text",
            crate::message::field_name(&self.pointer)
        )
    }
}
