//! The seven JSON Schema instance types, and how a model-facing message names them.

use serde_json::Value;

/// A JSON Schema instance type (`"type"` keyword values), with `Integer` distinct from `Number`.
///
/// ```
/// use tool_calls::JsonType;
/// use serde_json::json;
/// assert_eq!(JsonType::of(&json!(3.0)), JsonType::Integer);
/// assert_eq!(JsonType::of(&json!("x")).noun(), "a string");
/// assert!(JsonType::Number.accepts(&json!(3)));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum JsonType {
    /// `null`
    Null,
    /// `true` or `false`
    Boolean,
    /// A number with no fractional part (`1` and `1.0` alike, as in draft 2020-12).
    Integer,
    /// Any number.
    Number,
    /// A string.
    String,
    /// An array.
    Array,
    /// An object.
    Object,
}

impl JsonType {
    /// The type of an instance; a number with no fractional part is an [`JsonType::Integer`].
    ///
    /// ```
    /// use tool_calls::JsonType;
    /// assert_eq!(JsonType::of(&serde_json::json!(1.5)), JsonType::Number);
    /// ```
    pub fn of(value: &Value) -> Self {
        match value {
            Value::Null => Self::Null,
            Value::Bool(_) => Self::Boolean,
            Value::Number(n) => {
                if n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0) {
                    Self::Integer
                } else {
                    Self::Number
                }
            }
            Value::String(_) => Self::String,
            Value::Array(_) => Self::Array,
            Value::Object(_) => Self::Object,
        }
    }

    /// Parses a `"type"` keyword value (`"string"`, `"integer"`, ...).
    ///
    /// ```
    /// use tool_calls::JsonType;
    /// assert_eq!(JsonType::from_keyword("object"), Some(JsonType::Object));
    /// assert_eq!(JsonType::from_keyword("obj"), None);
    /// ```
    pub fn from_keyword(keyword: &str) -> Option<Self> {
        Some(match keyword {
            "null" => Self::Null,
            "boolean" => Self::Boolean,
            "integer" => Self::Integer,
            "number" => Self::Number,
            "string" => Self::String,
            "array" => Self::Array,
            "object" => Self::Object,
            _ => return None,
        })
    }

    /// The `"type"` keyword value naming this type.
    ///
    /// ```
    /// assert_eq!(tool_calls::JsonType::Boolean.keyword(), "boolean");
    /// ```
    pub fn keyword(self) -> &'static str {
        match self {
            Self::Null => "null",
            Self::Boolean => "boolean",
            Self::Integer => "integer",
            Self::Number => "number",
            Self::String => "string",
            Self::Array => "array",
            Self::Object => "object",
        }
    }

    /// How a message names a value of this type: `"a JSON object"`, `"a string"`, `"null"`.
    ///
    /// ```
    /// assert_eq!(tool_calls::JsonType::Object.noun(), "a JSON object");
    /// ```
    pub fn noun(self) -> &'static str {
        match self {
            Self::Null => "null",
            Self::Boolean => "a boolean",
            Self::Integer => "an integer",
            Self::Number => "a number",
            Self::String => "a string",
            Self::Array => "a JSON array",
            Self::Object => "a JSON object",
        }
    }

    /// Whether an instance is of this type (an integer is also a number).
    ///
    /// ```
    /// use tool_calls::JsonType;
    /// assert!(!JsonType::Integer.accepts(&serde_json::json!(1.5)));
    /// ```
    pub fn accepts(self, value: &Value) -> bool {
        let actual = Self::of(value);
        actual == self || (self == Self::Number && actual == Self::Integer)
    }
}

/// Joins nouns as `a, b or c`.
pub(crate) fn join_or(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// JSON equality as JSON Schema defines it: numbers compare by value (`1 == 1.0`).
pub(crate) fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            if let (Some(i), Some(j)) = (x.as_i64(), y.as_i64()) {
                i == j
            } else if let (Some(i), Some(j)) = (x.as_u64(), y.as_u64()) {
                i == j
            } else {
                x.as_f64() == y.as_f64()
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| json_eq(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w)))
        }
        _ => a == b,
    }
}

/// A compact rendering of a value for a message, cut at `max` characters with `...`.
pub(crate) fn render_value(value: &Value, max: usize) -> String {
    let text = value.to_string();
    truncate(&text, max)
}

/// Cuts `text` to at most `max` characters (on a char boundary), ending in `...` when cut.
pub(crate) fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let keep = max.saturating_sub(3);
    let mut out: String = text.chars().take(keep).collect();
    out.push_str("...");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_compare_by_value() {
        assert!(json_eq(&json!(1), &json!(1.0)));
        assert!(json_eq(&json!({"a": [1]}), &json!({"a": [1.0]})));
        assert!(!json_eq(&json!(1), &json!(true)));
    }

    #[test]
    fn join_or_reads_naturally() {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(join_or(&s(&["a", "b", "c"])), "a, b or c");
        assert_eq!(join_or(&s(&["a"])), "a");
    }

    #[test]
    fn truncate_marks_the_cut() {
        assert_eq!(truncate("abcdef", 5), "ab...");
        assert_eq!(truncate("abc", 5), "abc");
    }
}
