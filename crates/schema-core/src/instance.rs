//! Instance values (`enum`, `const`, `default`, `examples`, unknown keywords): kept verbatim.

use serde_json::value::RawValue;
use std::fmt;

/// A JSON value kept exactly as it was read (minified), never walked as a schema.
///
/// Keeping instance values as text makes round-trips exact (key order and number spelling
/// included) without serde_json's `preserve_order` feature.
///
/// ```
/// use schema_core::Instance;
/// let v = Instance::from_json(r#"{"b": 1, "a": [true, null]}"#).unwrap();
/// assert_eq!(v.as_json(), r#"{"b":1,"a":[true,null]}"#);
/// assert!(v.to_value().is_object());
/// ```
#[derive(Clone)]
pub struct Instance(Box<str>);

impl Instance {
    /// Parses JSON text into an instance (whitespace outside strings is removed).
    pub fn from_json(text: &str) -> Result<Instance, serde_json::Error> {
        let min = minify(text);
        serde_json::from_str::<&RawValue>(&min).map(|raw| Instance(raw.get().into()))
    }

    /// Makes an instance from a `serde_json::Value` (its object key order is serde_json's).
    pub fn from_value(value: &serde_json::Value) -> Instance {
        match serde_json::to_string(value) {
            Ok(text) => Instance::from_trusted(text),
            // Serializing a `Value` cannot fail; keep `null` rather than panic if it ever does.
            Err(_) => Instance::null(),
        }
    }

    /// The JSON `null`.
    pub fn null() -> Instance {
        Instance::from_trusted("null".to_owned())
    }

    /// A JSON string instance.
    ///
    /// ```
    /// assert_eq!(schema_core::Instance::string("a\"b").as_json(), r#""a\"b""#);
    /// ```
    pub fn string(s: &str) -> Instance {
        Instance::from_trusted(serde_json::to_string(s).unwrap_or_else(|_| "\"\"".to_owned()))
    }

    /// A borrowed raw value, minified when it holds whitespace.
    pub(crate) fn from_borrowed(raw: &RawValue) -> Instance {
        Instance::from_valid(raw.get())
    }

    /// Text known to be one valid JSON value, minified here when it holds whitespace.
    pub(crate) fn from_valid(text: &str) -> Instance {
        if needs_minify(text) {
            Instance::from_trusted(minify(text))
        } else {
            Instance(text.into())
        }
    }

    /// Text known to be one valid, minified JSON value (not checked again: every caller
    /// made it so, and checking is a second parse).
    pub(crate) fn from_trusted(text: String) -> Instance {
        Instance(text.into_boxed_str())
    }

    /// The value as minified JSON text.
    pub fn as_json(&self) -> &str {
        &self.0
    }

    /// The value as a `serde_json::Value` (object key order follows serde_json's `Map`).
    pub fn to_value(&self) -> serde_json::Value {
        serde_json::from_str(&self.0).unwrap_or(serde_json::Value::Null)
    }

    /// The JSON type of the value.
    ///
    /// ```
    /// use schema_core::{Instance, JsonType};
    /// assert_eq!(Instance::from_json("3").unwrap().json_type(), JsonType::Integer);
    /// assert_eq!(Instance::from_json("3.5").unwrap().json_type(), JsonType::Number);
    /// ```
    pub fn json_type(&self) -> JsonType {
        let t = self.as_json();
        match t.as_bytes().first() {
            Some(b'"') => JsonType::String,
            Some(b'{') => JsonType::Object,
            Some(b'[') => JsonType::Array,
            Some(b't') | Some(b'f') => JsonType::Boolean,
            Some(b'n') => JsonType::Null,
            _ if t.bytes().any(|b| matches!(b, b'.' | b'e' | b'E')) => {
                // `1.0` is an integer for JSON Schema; `1.5` is not.
                match t.parse::<f64>() {
                    Ok(f) if f.fract() == 0.0 && f.is_finite() => JsonType::Integer,
                    _ => JsonType::Number,
                }
            }
            _ => JsonType::Integer,
        }
    }

    /// The string content, when the value is a JSON string.
    pub fn as_str(&self) -> Option<String> {
        if self.json_type() == JsonType::String {
            serde_json::from_str::<String>(self.as_json()).ok()
        } else {
            None
        }
    }
}

/// The type of a JSON value, as JSON Schema names it (`integer` for whole numbers, `1` and `1.0`
/// alike, as in draft 2020-12): the one JSON-type enum of the workspace (tool-calls re-exports
/// it).
///
/// ```
/// use schema_core::JsonType;
/// use serde_json::json;
/// assert_eq!(JsonType::of(&json!(3.0)), JsonType::Integer);
/// assert_eq!(JsonType::from_keyword("object"), Some(JsonType::Object));
/// assert!(JsonType::Number.accepts(&json!(3)));
/// assert!(!JsonType::Integer.accepts(&json!(1.5)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum JsonType {
    /// `null`
    Null,
    /// `true` / `false`
    Boolean,
    /// a whole number
    Integer,
    /// any other number
    Number,
    /// a string
    String,
    /// an array
    Array,
    /// an object
    Object,
}

impl JsonType {
    /// Whether this is `integer` or `number`.
    ///
    /// ```
    /// assert!(schema_core::JsonType::Integer.is_number());
    /// assert!(!schema_core::JsonType::String.is_number());
    /// ```
    pub const fn is_number(self) -> bool {
        matches!(self, JsonType::Integer | JsonType::Number)
    }

    /// The JSON Schema type name.
    pub const fn as_str(self) -> &'static str {
        match self {
            JsonType::Null => "null",
            JsonType::Boolean => "boolean",
            JsonType::Integer => "integer",
            JsonType::Number => "number",
            JsonType::String => "string",
            JsonType::Array => "array",
            JsonType::Object => "object",
        }
    }

    /// The `"type"` keyword value naming this type (the same as [`JsonType::as_str`]).
    ///
    /// ```
    /// assert_eq!(schema_core::JsonType::Boolean.keyword(), "boolean");
    /// ```
    pub const fn keyword(self) -> &'static str {
        self.as_str()
    }

    /// Parses a `"type"` keyword value (`"string"`, `"integer"`, ...; exact, lower case).
    ///
    /// ```
    /// assert_eq!(schema_core::JsonType::from_keyword("obj"), None);
    /// ```
    pub fn from_keyword(keyword: &str) -> Option<JsonType> {
        Some(match keyword {
            "null" => JsonType::Null,
            "boolean" => JsonType::Boolean,
            "integer" => JsonType::Integer,
            "number" => JsonType::Number,
            "string" => JsonType::String,
            "array" => JsonType::Array,
            "object" => JsonType::Object,
            _ => return None,
        })
    }

    /// Whether an instance is of this type (an integer is also a number).
    ///
    /// ```
    /// assert!(schema_core::JsonType::Number.accepts(&serde_json::json!(2)));
    /// ```
    pub fn accepts(self, value: &serde_json::Value) -> bool {
        let actual = JsonType::of(value);
        actual == self || (self == JsonType::Number && actual == JsonType::Integer)
    }

    /// The type of a `serde_json::Value`.
    pub fn of(value: &serde_json::Value) -> JsonType {
        use serde_json::Value as V;
        match value {
            V::Null => JsonType::Null,
            V::Bool(_) => JsonType::Boolean,
            V::Number(n) if n.is_i64() || n.is_u64() => JsonType::Integer,
            V::Number(n) => match n.as_f64() {
                Some(f) if f.fract() == 0.0 => JsonType::Integer,
                _ => JsonType::Number,
            },
            V::String(_) => JsonType::String,
            V::Array(_) => JsonType::Array,
            V::Object(_) => JsonType::Object,
        }
    }
}

impl PartialEq for Instance {
    fn eq(&self, other: &Instance) -> bool {
        self.as_json() == other.as_json()
    }
}
impl Eq for Instance {}

impl std::hash::Hash for Instance {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_json().hash(state)
    }
}

impl fmt::Debug for Instance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_json())
    }
}

impl fmt::Display for Instance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_json())
    }
}

fn needs_minify(text: &str) -> bool {
    // Fast path: most values hold no whitespace at all.
    text.bytes()
        .any(|b| matches!(b, b' ' | b'\n' | b'\r' | b'\t'))
}

/// Removes JSON whitespace outside strings. Linear, never recursive.
pub(crate) fn minify(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    minify_into(&mut out, text);
    out
}

/// Appends `text` without its whitespace outside strings.
pub(crate) fn minify_into(out: &mut String, text: &str) {
    let bytes = text.as_bytes();
    let mut strings = crate::scan::Strings::default();
    let mut run = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if strings.structural(b) && matches!(b, b' ' | b'\n' | b'\r' | b'\t') {
            // ASCII whitespace: `run..i` ends on a char boundary.
            out.push_str(&text[run..i]);
            run = i + 1;
        }
    }
    out.push_str(&text[run..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minify_keeps_whitespace_inside_strings() {
        assert_eq!(
            minify(r#"{ "a b" : [ 1 , "c \" d" ] }"#),
            r#"{"a b":[1,"c \" d"]}"#
        );
    }

    #[test]
    fn json_type_of_numbers() {
        assert_eq!(
            Instance::from_json("1.0").unwrap().json_type(),
            JsonType::Integer
        );
        assert_eq!(
            Instance::from_json("-2e3").unwrap().json_type(),
            JsonType::Integer
        );
        assert_eq!(
            Instance::from_json("0.5").unwrap().json_type(),
            JsonType::Number
        );
    }
}
