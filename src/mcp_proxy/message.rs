//! JSON-RPC 2.0 messages as the proxy reads them: borrowed from the line they came in (so an
//! edit is a splice of that line and everything else stays byte-identical), one message or a
//! batch.

use serde::Deserialize;
use serde_json::value::RawValue;
use std::borrow::Cow;

/// The parts of a message the proxy looks at; everything else is never parsed.
#[derive(Debug, Deserialize)]
pub struct Envelope<'a> {
    /// A request's or response's id (`None` for a notification).
    #[serde(borrow, default)]
    pub id: Option<&'a RawValue>,
    /// A request's or notification's method (`None` for a response).
    #[serde(borrow, default)]
    pub method: Option<Cow<'a, str>>,
    /// A request's params.
    #[serde(borrow, default)]
    pub params: Option<&'a RawValue>,
    /// A response's result.
    #[serde(borrow, default)]
    pub result: Option<&'a RawValue>,
}

impl<'a> Envelope<'a> {
    /// The id as the map key the proxy matches responses by (its JSON text).
    pub fn id_key(&self) -> Option<String> {
        self.id.map(|r| r.get().to_owned())
    }

    /// Whether this is a request (method and id).
    pub fn is_request(&self) -> bool {
        self.method.is_some() && self.id.is_some()
    }
}

/// A line: one message or a batch (a JSON array of messages), each borrowed from the line.
pub enum Parsed<'a> {
    /// One message.
    One(&'a RawValue),
    /// A batch.
    Batch(Vec<&'a RawValue>),
}

/// Whether a line is a batch (a JSON array).
pub fn is_batch(line: &str) -> bool {
    line.trim_start().starts_with('[')
}

/// Whether a line can be JSON-RPC at all (an object or an array), without parsing it: a log
/// line a server wrote to its standard output is not.
pub fn looks_like_json(line: &str) -> bool {
    matches!(line.trim_start().as_bytes().first(), Some(b'{' | b'['))
}

/// Reads a line as JSON-RPC; `None` if it is not JSON.
pub fn parse(line: &str) -> Option<Parsed<'_>> {
    if is_batch(line) {
        serde_json::from_str::<Vec<&RawValue>>(line)
            .ok()
            .map(Parsed::Batch)
    } else {
        serde_json::from_str::<&RawValue>(line)
            .ok()
            .map(Parsed::One)
    }
}

/// The envelope of one message (`None`: not a JSON-RPC object).
pub fn envelope(raw: &RawValue) -> Option<Envelope<'_>> {
    serde_json::from_str(raw.get()).ok()
}

/// A response carrying `result` (JSON text) for the request `id` (JSON text).
pub fn result(id: &str, result: &str) -> String {
    format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"result\":{result}}}")
}

/// An error response for the request `id` (JSON text).
pub fn error(id: &str, code: i64, message: &str) -> String {
    format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"error\":{{\"code\":{code},\"message\":{}}}}}",
        json_string(message)
    )
}

/// A request from the proxy itself.
pub fn request(id: &str, method: &str, params: &str) -> String {
    format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":{},\"params\":{params}}}",
        json_string(method)
    )
}

/// `s` as a JSON string literal.
pub fn json_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".to_owned())
}

/// Joins the JSON texts of messages back into one line (a batch when there are several or
/// the original was one).
pub fn join(parts: &[String], batch: bool) -> String {
    if !batch && parts.len() == 1 {
        return parts[0].clone();
    }
    format!("[{}]", parts.join(","))
}

/// The JSON text `text` on one line: line breaks outside strings are whitespace (inside them
/// JSON has them escaped), so they become spaces.
pub fn one_line(text: &str) -> Cow<'_, str> {
    if text.contains(['\n', '\r']) {
        Cow::Owned(text.replace(['\n', '\r'], " "))
    } else {
        Cow::Borrowed(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_a_notification_and_a_batch_are_told_apart() {
        let line = r#"{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{}}"#;
        let Some(Parsed::One(raw)) = parse(line) else {
            panic!("one message")
        };
        let env = envelope(raw).unwrap();
        assert!(env.is_request());
        assert_eq!(env.id_key().as_deref(), Some("7"));
        let Some(Parsed::Batch(items)) =
            parse(r#"[{"jsonrpc":"2.0","method":"x"},{"id":"a","result":{}}]"#)
        else {
            panic!("a batch")
        };
        assert_eq!(items.len(), 2);
        assert!(!envelope(items[0]).unwrap().is_request());
        assert_eq!(
            envelope(items[1]).unwrap().id_key().as_deref(),
            Some("\"a\"")
        );
        assert!(parse("not json").is_none());
    }

    #[test]
    fn built_messages_are_valid_json() {
        let e: serde_json::Value =
            serde_json::from_str(&error("\"x\"", -32000, "a \"quoted\"\nline")).unwrap();
        assert_eq!(e["error"]["message"], "a \"quoted\"\nline");
        assert_eq!(one_line("{\n\"a\": 1\r\n}"), "{ \"a\": 1  }");
    }
}
