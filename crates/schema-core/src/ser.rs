//! The serializer: [`Schema`] → JSON text, entries in order, instances verbatim.

use crate::schema::{Dependency, Entry, Key, Schema, TypeSet, Value};
use crate::types::InstanceType;

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

    /// Appends the schema as compact JSON text to `out` (a buffer reused across schemas
    /// allocates once for the largest).
    ///
    /// ```
    /// let mut out = String::from("[");
    /// schema_core::Schema::from_str(r#"{"type":"string"}"#)?.write_json(&mut out);
    /// assert_eq!(out, r#"[{"type":"string"}"#);
    /// # Ok::<(), schema_core::SchemaError>(())
    /// ```
    pub fn write_json(&self, out: &mut String) {
        write_schema(out, self);
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
    ///
    /// Schemas up to [`MAX_VALUE_DEPTH`] JSON levels deep are converted (64 schema levels of
    /// `properties` take 129); deeper ones, which a `Value` cannot hold safely (its reader,
    /// `Clone` and `Drop` recurse once per level), give `Value::Null`.
    ///
    /// ```
    /// let mut text = String::from("{}");
    /// for _ in 0..64 {
    ///     text = format!(r#"{{"properties":{{"a":{text}}}}}"#);
    /// }
    /// let s = schema_core::Schema::from_str(&text)?;
    /// assert_eq!(s.to_value().to_string(), text);
    /// # Ok::<(), schema_core::SchemaError>(())
    /// ```
    pub fn to_value(&self) -> serde_json::Value {
        let text = self.to_json_string();
        if nesting(&text) > MAX_VALUE_DEPTH {
            return serde_json::Value::Null;
        }
        let mut de = serde_json::Deserializer::from_str(&text);
        // Bounded above: serde_json's own limit (128) is below what a parsed schema can take.
        de.disable_recursion_limit();
        match serde::Deserialize::deserialize(&mut de) {
            Ok(v) if de.end().is_ok() => v,
            _ => serde_json::Value::Null,
        }
    }
}

/// The deepest JSON nesting [`Schema::to_value`] converts: a `serde_json::Value` that deep is
/// built, cloned and dropped (each recursing once per level) well within a 2 MiB thread stack,
/// also in debug builds.
pub const MAX_VALUE_DEPTH: usize = 512;

/// The deepest nesting of arrays and objects in JSON text (`0` for a scalar), counted in one
/// pass without recursion, so it is safe on any input; for text that is not JSON, a count of
/// its unmatched brackets outside strings.
///
/// ```
/// assert_eq!(schema_core::nesting(r#"{"a":[1,{"b":"[[["}],"c":{}}"#), 3);
/// assert_eq!(schema_core::nesting("1"), 0);
/// assert_eq!(schema_core::nesting(&"[".repeat(1_000_000)), 1_000_000);
/// ```
pub fn nesting(json: &str) -> usize {
    let (mut depth, mut max) = (0usize, 0usize);
    let mut strings = crate::scan::Strings::default();
    for b in json.bytes() {
        if !strings.structural(b) {
            continue;
        }
        match b {
            b'{' | b'[' => {
                depth += 1;
                max = max.max(depth);
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    max
}

impl std::fmt::Display for Schema {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_json_string())
    }
}

/// One open container of the serializer's explicit stack.
enum Frame<'a> {
    /// A schema object's entries; closes with `}`.
    Entries(std::slice::Iter<'a, Entry>),
    /// An array of subschemas; closes with `]`.
    List(std::slice::Iter<'a, Schema>),
    /// A map of subschemas; closes with `}`.
    Map(indexmap::map::Iter<'a, String, Schema>),
    /// A `dependencies` map; closes with `}`.
    Deps(indexmap::map::Iter<'a, String, Dependency>),
}

/// How many open containers [`write_schema`]'s stack has room for before it grows (two per
/// schema level below `properties`: eight levels).
const STACK_CAPACITY: usize = 16;

/// Writes a schema without recursion: containers of subschemas go on an explicit stack, so a
/// tree of any depth (one built by hand, not parsed) serializes on a small stack.
pub(crate) fn write_schema(out: &mut String, root: &Schema) {
    // Room for the open containers of most schemas (grown one by one, the stack reallocated
    // two or three times per call).
    let mut stack: Vec<(Frame<'_>, bool)> = Vec::with_capacity(STACK_CAPACITY);
    open_schema(out, root, &mut stack);
    loop {
        // The next subschema to open, if any; the frame's borrow ends before it is opened.
        let next: &Schema = {
            let Some((frame, first)) = stack.last_mut() else {
                return;
            };
            let comma = !std::mem::replace(first, false);
            match frame {
                Frame::Entries(it) => match it.next() {
                    None => {
                        out.push('}');
                        stack.pop();
                        continue;
                    }
                    Some(e) => {
                        if comma {
                            out.push(',');
                        }
                        push_key(out, &e.key);
                        match &e.value {
                            Value::Schema(s) => s,
                            Value::Schemas(list) => {
                                out.push('[');
                                stack.push((Frame::List(list.iter()), true));
                                continue;
                            }
                            Value::SchemaMap(m) => {
                                out.push('{');
                                stack.push((Frame::Map(m.iter()), true));
                                continue;
                            }
                            Value::Dependencies(m) => {
                                out.push('{');
                                stack.push((Frame::Deps(m.iter()), true));
                                continue;
                            }
                            leaf => {
                                write_leaf(out, leaf);
                                continue;
                            }
                        }
                    }
                },
                Frame::List(it) => match it.next() {
                    None => {
                        out.push(']');
                        stack.pop();
                        continue;
                    }
                    Some(s) => {
                        if comma {
                            out.push(',');
                        }
                        s
                    }
                },
                Frame::Map(it) => match it.next() {
                    None => {
                        out.push('}');
                        stack.pop();
                        continue;
                    }
                    Some((k, s)) => {
                        if comma {
                            out.push(',');
                        }
                        push_json_string(out, k);
                        out.push(':');
                        s
                    }
                },
                Frame::Deps(it) => match it.next() {
                    None => {
                        out.push('}');
                        stack.pop();
                        continue;
                    }
                    Some((k, d)) => {
                        if comma {
                            out.push(',');
                        }
                        push_json_string(out, k);
                        out.push(':');
                        match d {
                            Dependency::Schema(s) => s,
                            Dependency::Required(names) => {
                                write_strings(out, names);
                                continue;
                            }
                        }
                    }
                },
            }
        };
        open_schema(out, next, &mut stack);
    }
}

fn open_schema<'a>(out: &mut String, schema: &'a Schema, stack: &mut Vec<(Frame<'a>, bool)>) {
    match schema {
        Schema::Bool(true) => out.push_str("true"),
        Schema::Bool(false) => out.push_str("false"),
        Schema::Object(o) => {
            out.push('{');
            stack.push((Frame::Entries(o.entries().iter()), true));
        }
    }
}

/// Writes a value that holds no subschema.
fn write_leaf(out: &mut String, v: &Value) {
    match v {
        Value::Type(TypeSet::Single(t)) => push_name(out, *t),
        Value::Type(TypeSet::List(list)) => {
            out.push('[');
            for (i, t) in list.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                push_name(out, *t);
            }
            out.push(']');
        }
        Value::String(s) => push_json_string(out, s),
        Value::Number(n) => {
            use std::fmt::Write;
            let _ = write!(out, "{n}");
        }
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
        // Subschema containers are written by `write_schema`'s loop, never passed here.
        Value::Schema(_) | Value::Schemas(_) | Value::SchemaMap(_) | Value::Dependencies(_) => {}
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

/// Appends a type's name as a JSON string: the names need no escape (a test says so), so they
/// are copied, quoted, without the escape scan.
fn push_name(out: &mut String, t: InstanceType) {
    out.push_str(t.as_quoted());
}

/// Appends an entry's key and its colon. A keyword's name needs no escape (a test says so), so
/// it is copied, quoted and with its colon, without the escape scan every other string takes.
fn push_key(out: &mut String, key: &Key) {
    match key {
        Key::Known(kw) => out.push_str(kw.as_key()),
        Key::Other(name) => {
            push_json_string(out, name);
            out.push(':');
        }
    }
}

/// Appends `s` as a JSON string literal, escaped exactly as serde_json escapes it.
pub(crate) fn push_json_string(out: &mut String, s: &str) {
    out.reserve(s.len() + 2);
    out.push('"');
    let bytes = s.as_bytes();
    if !crate::scan_bytes::needs_json_escape(bytes) {
        out.push_str(s);
        out.push('"');
        return;
    }
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let esc: &str = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0x00..=0x1f => "",
            _ => continue,
        };
        // Escapes are ASCII: `i` is a char boundary.
        out.push_str(&s[start..i]);
        if esc.is_empty() {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.push_str("\\u00");
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 0xf)]));
        } else {
            out.push_str(esc);
        }
        start = i + 1;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

/// How many levels [`pretty`] indents; deeper lines stay at this indentation, so the output
/// stays linear in the input however deep it nests.
pub const PRETTY_MAX_INDENT: usize = 40;

/// Re-indents compact JSON text (two spaces), keeping key order. Linear, never recursive:
/// lines deeper than [`PRETTY_MAX_INDENT`] levels are indented as that level.
///
/// ```
/// assert_eq!(schema_core::pretty(r#"{"a":[1,{}],"b":"x,y"}"#),
///            "{\n  \"a\": [\n    1,\n    {}\n  ],\n  \"b\": \"x,y\"\n}");
/// ```
pub fn pretty(compact: &str) -> String {
    let bytes = compact.as_bytes();
    let mut out = String::with_capacity(compact.len() * 2);
    let mut indent = 0usize;
    let newline = |out: &mut String, indent: usize| {
        out.push('\n');
        for _ in 0..indent.min(PRETTY_MAX_INDENT) {
            out.push_str("  ");
        }
    };
    // Text between structure is copied in runs (strings, numbers, literals), not char by char;
    // a run starts and ends at an ASCII byte outside strings, so on a char boundary.
    let mut run = 0;
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b == b'"' {
            // A string, copied as it is: on to its closing quote, over escaped bytes (as
            // `scan::Strings` reads strings).
            i += 1;
            while let Some(&c) = bytes.get(i) {
                i += 1;
                if c == b'\\' {
                    i += 1;
                } else if c == b'"' {
                    break;
                }
            }
            continue;
        }
        if !matches!(
            b,
            b'{' | b'[' | b'}' | b']' | b',' | b':' | b' ' | b'\n' | b'\r' | b'\t'
        ) {
            i += 1;
            continue;
        }
        out.push_str(&compact[run..i]);
        match b {
            b'{' | b'[' => {
                out.push(char::from(b));
                if let Some(&close @ (b'}' | b']')) = bytes.get(i + 1) {
                    out.push(char::from(close));
                    i += 1;
                } else {
                    indent += 1;
                    newline(&mut out, indent);
                }
            }
            b'}' | b']' => {
                indent = indent.saturating_sub(1);
                newline(&mut out, indent);
                out.push(char::from(b));
            }
            b',' => {
                out.push(',');
                newline(&mut out, indent);
            }
            b':' => out.push_str(": "),
            // Whitespace outside strings is dropped.
            _ => {}
        }
        i += 1;
        run = i;
    }
    out.push_str(&compact[run..]);
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

#[cfg(test)]
mod tests {
    use super::push_json_string;

    #[test]
    fn pretty_output_stays_linear_in_deep_input() {
        let n = 20_000;
        let text = format!("{}1{}", "[".repeat(n), "]".repeat(n));
        let out = super::pretty(&text);
        // Each level opens and closes one line of at most PRETTY_MAX_INDENT * 2 spaces.
        let bound = 2 * n * (2 * super::PRETTY_MAX_INDENT + 2) + 16;
        assert!(out.len() <= bound, "{} > {bound}", out.len());
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&super::pretty("[[1,2],{\"a\":[]}]")).ok(),
            serde_json::from_str::<serde_json::Value>("[[1,2],{\"a\":[]}]").ok()
        );
    }

    /// The char-by-char version `pretty` replaced, to compare against.
    fn pretty_by_char(compact: &str) -> String {
        let mut out = String::new();
        let mut indent = 0usize;
        let mut strings = crate::scan::Strings::default();
        let mut chars = compact.chars().peekable();
        let newline = |out: &mut String, indent: usize| {
            out.push('\n');
            for _ in 0..indent.min(super::PRETTY_MAX_INDENT) {
                out.push_str("  ");
            }
        };
        while let Some(c) = chars.next() {
            let byte = if c.is_ascii() { c as u8 } else { 0x80 };
            if !strings.structural(byte) {
                out.push(c);
                continue;
            }
            match c {
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

    #[test]
    fn pretty_writes_what_the_char_by_char_version_wrote() {
        for text in [
            r#"{"a":[1,{}],"b":"x,y","c":{"d":[],"e":"\"{:,\\"},"f":"é😀 [ ]"}"#,
            "{ \"a\" : [ 1 , 2 ] , \"b\" : { } }",
            r#"["\\",{"k":"\u00e9]"},[[]],[{}],{"x":[]},true,null,-1.5e3]"#,
            r#"{"unterminated":"abc"#,
            "]]}}{[,,::",
            "[\"ab\\\\\",1]",
            "{\"x\":\"ab\\\\",
            "{\"x\":\"ab\\",
            "",
            "\"é\\é\"x",
        ] {
            assert_eq!(super::pretty(text), pretty_by_char(text), "{text}");
        }
        let deep = format!("{}1{}", "[{\"a\":".repeat(50), "}]".repeat(50));
        assert_eq!(super::pretty(&deep), pretty_by_char(&deep));
    }

    #[test]
    fn keyword_names_need_no_json_escape() {
        for kw in crate::Keyword::ALL {
            let mut out = String::new();
            super::push_key(&mut out, &crate::Key::Known(*kw));
            assert_eq!(
                out,
                format!("{}:", serde_json::to_string(kw.as_str()).unwrap())
            );
        }
    }

    #[test]
    fn type_names_need_no_json_escape() {
        for t in crate::InstanceType::ALL {
            let mut out = String::new();
            super::push_name(&mut out, t);
            assert_eq!(out, serde_json::to_string(t.as_str()).unwrap());
        }
    }

    #[test]
    fn strings_are_escaped_exactly_as_serde_json_escapes_them() {
        let mut all: String = (0u8..=0x7f).map(char::from).collect();
        all.push_str("é😀\u{2028}\u{7f}");
        for s in [
            all.as_str(),
            "",
            "plain",
            "\"",
            "\\",
            "a\u{1f}b",
            "tab\there",
        ] {
            let mut out = String::new();
            push_json_string(&mut out, s);
            assert_eq!(out, serde_json::to_string(s).unwrap(), "{s:?}");
        }
    }
}
