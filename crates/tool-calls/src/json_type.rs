//! The seven JSON Schema instance types, and how a model-facing message names them.

use serde_json::Value;

/// A JSON Schema instance type (`"type"` keyword values), with `Integer` distinct from `Number`:
/// schema-core's own enum.
///
/// ```
/// use tool_calls::{JsonType, TypeNoun};
/// use serde_json::json;
/// assert_eq!(JsonType::of(&json!(3.0)), JsonType::Integer);
/// assert_eq!(JsonType::of(&json!("x")).noun(), "a string");
/// assert!(JsonType::Number.accepts(&json!(3)));
/// ```
pub use schema_core::JsonType;

/// How a model-facing message names a value of a type.
///
/// See [`JsonType`] for an example.
pub trait TypeNoun {
    /// `"a JSON object"`, `"a string"`, `"null"`.
    ///
    /// ```
    /// use tool_calls::{JsonType, TypeNoun};
    /// assert_eq!(JsonType::Object.noun(), "a JSON object");
    /// ```
    fn noun(self) -> &'static str;
}

impl TypeNoun for JsonType {
    fn noun(self) -> &'static str {
        match self {
            JsonType::Null => "null",
            JsonType::Boolean => "a boolean",
            JsonType::Integer => "an integer",
            JsonType::Number => "a number",
            JsonType::String => "a string",
            JsonType::Array => "a JSON array",
            JsonType::Object => "a JSON object",
        }
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
