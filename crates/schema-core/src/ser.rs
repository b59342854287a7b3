//! The serializer: [`Schema`] → JSON text, entries in order, instances verbatim.

use crate::parse::push_json_string;
use crate::schema::{Dependency, Schema, SchemaObject, TypeSet, Value};

impl Schema {
    /// The schema as compact JSON text, keys in document order.
    ///
    /// ```
    /// let text = r#"{"z":1,"type":"object","properties":{"b":{},"a":true}}"#;
    /// assert_eq!(schema_core::Schema::from_str(text)?.to_json_string(), text);
    /// # Ok::<(), schema_core::SchemaError>(())
    /// ```
    pub fn to_json_string(&self) -> String {
        let mut out = String::with_capacity(128);
        write_schema(&mut out, self);
        out
    }

    /// The schema as compact JSON bytes.
    pub fn to_vec(&self) -> Vec<u8> {
        self.to_json_string().into_bytes()
    }

    /// The schema as indented JSON text (two spaces), keys in document order.
    ///
    /// ```
    /// let s = schema_core::Schema::from_str(r#"{"type":"string"}"#)?;
    /// assert_eq!(s.to_json_pretty(), "{\n  \"type\": \"string\"\n}");
    /// # Ok::<(), schema_core::SchemaError>(())
    /// ```
    pub fn to_json_pretty(&self) -> String {
        pretty(&self.to_json_string())
    }

    /// The schema as a `serde_json::Value` (object key order then follows serde_json's `Map`).
    pub fn to_value(&self) -> serde_json::Value {
        serde_json::from_str(&self.to_json_string()).unwrap_or(serde_json::Value::Null)
    }
}

impl std::fmt::Display for Schema {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_json_string())
    }
}

fn write_schema(out: &mut String, schema: &Schema) {
    match schema {
        Schema::Bool(true) => out.push_str("true"),
        Schema::Bool(false) => out.push_str("false"),
        Schema::Object(o) => write_object(out, o),
    }
}

fn write_object(out: &mut String, o: &SchemaObject) {
    out.push('{');
    for (i, e) in o.entries().iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_json_string(out, e.key.as_str());
        out.push(':');
        write_value(out, &e.value);
    }
    out.push('}');
}

fn write_value(out: &mut String, v: &Value) {
    match v {
        Value::Schema(s) => write_schema(out, s),
        Value::Schemas(list) => {
            out.push('[');
            for (i, s) in list.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_schema(out, s);
            }
            out.push(']');
        }
        Value::SchemaMap(m) => {
            out.push('{');
            for (i, (k, s)) in m.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                push_json_string(out, k);
                out.push(':');
                write_schema(out, s);
            }
            out.push('}');
        }
        Value::Dependencies(m) => {
            out.push('{');
            for (i, (k, d)) in m.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                push_json_string(out, k);
                out.push(':');
                match d {
                    Dependency::Schema(s) => write_schema(out, s),
                    Dependency::Required(names) => write_strings(out, names),
                }
            }
            out.push('}');
        }
        Value::Type(TypeSet::Single(t)) => push_json_string(out, t.as_str()),
        Value::Type(TypeSet::List(list)) => {
            out.push('[');
            for (i, t) in list.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                push_json_string(out, t.as_str());
            }
            out.push(']');
        }
        Value::String(s) => push_json_string(out, s),
        Value::Number(n) => out.push_str(&n.to_string()),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Strings(list) => write_strings(out, list),
        Value::StringsMap(m) => {
            out.push('{');
            for (i, (k, list)) in m.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                push_json_string(out, k);
                out.push(':');
                write_strings(out, list);
            }
            out.push('}');
        }
        Value::Instance(x) | Value::Raw(x) => out.push_str(x.as_json()),
        Value::Instances(list) => {
            out.push('[');
            for (i, x) in list.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(x.as_json());
            }
            out.push(']');
        }
    }
}

fn write_strings(out: &mut String, list: &[String]) {
    out.push('[');
    for (i, s) in list.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_json_string(out, s);
    }
    out.push(']');
}

/// Re-indents compact JSON text (two spaces), keeping key order. Linear, never recursive.
///
/// ```
/// assert_eq!(schema_core::pretty(r#"{"a":[1,{}],"b":"x,y"}"#),
///            "{\n  \"a\": [\n    1,\n    {}\n  ],\n  \"b\": \"x,y\"\n}");
/// ```
pub fn pretty(compact: &str) -> String {
    let mut out = String::with_capacity(compact.len() * 2);
    let mut indent = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    let mut chars = compact.chars().peekable();
    let newline = |out: &mut String, indent: usize| {
        out.push('\n');
        for _ in 0..indent {
            out.push_str("  ");
        }
    };
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                out.push(c);
            }
            '{' | '[' => {
                out.push(c);
                if matches!(chars.peek(), Some('}') | Some(']')) {
                    if let Some(close) = chars.next() {
                        out.push(close);
                    }
                } else {
                    indent += 1;
                    newline(&mut out, indent);
                }
            }
            '}' | ']' => {
                indent = indent.saturating_sub(1);
                newline(&mut out, indent);
                out.push(c);
            }
            ',' => {
                out.push(c);
                newline(&mut out, indent);
            }
            ':' => out.push_str(": "),
            ' ' | '\n' | '\r' | '\t' => {}
            c => out.push(c),
        }
    }
    out
}

impl serde::Serialize for Schema {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let text = self.to_json_string();
        match serde_json::value::RawValue::from_string(text) {
            Ok(raw) => raw.serialize(serializer),
            Err(e) => Err(serde::ser::Error::custom(e)),
        }
    }
}

impl<'de> serde::Deserialize<'de> for Schema {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Schema, D::Error> {
        let raw = <Box<serde_json::value::RawValue>>::deserialize(d)?;
        Schema::from_str(raw.get()).map_err(serde::de::Error::custom)
    }
}
