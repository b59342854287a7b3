//! Encoding JSON text with its members' order kept: a model's earlier tool call, encoded for
//! the history, reads as it was written (a `serde_json::Value` sorts object keys).
//!
//! The value is encoded as [`Decoder::encode_value`] encodes it; the result is then written
//! with each object's members in the order of the same object in the text (members the
//! encoding made come after, in their own order), a map's entries in the order of the object's
//! members, a tuple's positions in order, and JSON text (the any-value encoding) as the text
//! spelled its value.

use crate::decode::{DecodeError, Decoder};
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

/// A parsed JSON value whose objects keep their members' order.
enum Ordered {
    Scalar(Value),
    Array(Vec<Ordered>),
    Object(Vec<(String, Ordered)>),
}

impl<'de> Deserialize<'de> for Ordered {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Ordered, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Ordered;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_bool<E>(self, b: bool) -> Result<Ordered, E> {
                Ok(Ordered::Scalar(Value::Bool(b)))
            }
            fn visit_i64<E>(self, n: i64) -> Result<Ordered, E> {
                Ok(Ordered::Scalar(Value::from(n)))
            }
            fn visit_u64<E>(self, n: u64) -> Result<Ordered, E> {
                Ok(Ordered::Scalar(Value::from(n)))
            }
            fn visit_f64<E>(self, n: f64) -> Result<Ordered, E> {
                Ok(Ordered::Scalar(Value::from(n)))
            }
            fn visit_str<E>(self, s: &str) -> Result<Ordered, E> {
                Ok(Ordered::Scalar(Value::String(s.to_owned())))
            }
            fn visit_string<E>(self, s: String) -> Result<Ordered, E> {
                Ok(Ordered::Scalar(Value::String(s)))
            }
            fn visit_unit<E>(self) -> Result<Ordered, E> {
                Ok(Ordered::Scalar(Value::Null))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<Ordered, A::Error> {
                let mut out = Vec::new();
                while let Some(x) = a.next_element()? {
                    out.push(x);
                }
                Ok(Ordered::Array(out))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Ordered, A::Error> {
                let mut out: Vec<(String, Ordered)> = Vec::new();
                while let Some((k, v)) = a.next_entry::<String, Ordered>()? {
                    // A repeated key: the last wins, where the first stood (as serde_json reads).
                    match out.iter_mut().find(|(n, _)| *n == k) {
                        Some(slot) => slot.1 = v,
                        None => out.push((k, v)),
                    }
                }
                Ok(Ordered::Object(out))
            }
        }
        d.deserialize_any(V)
    }
}

impl Ordered {
    fn member(&self, name: &str) -> Option<&Ordered> {
        match self {
            Ordered::Object(m) => m.iter().find(|(k, _)| k == name).map(|(_, v)| v),
            _ => None,
        }
    }

    fn to_value(&self) -> Value {
        match self {
            Ordered::Scalar(v) => v.clone(),
            Ordered::Array(a) => Value::Array(a.iter().map(Ordered::to_value).collect()),
            Ordered::Object(m) => {
                Value::Object(m.iter().map(|(k, v)| (k.clone(), v.to_value())).collect())
            }
        }
    }

    /// The value's JSON text, members in their order.
    fn write(&self, out: &mut String) {
        match self {
            Ordered::Scalar(v) => out.push_str(&v.to_string()),
            Ordered::Array(a) => {
                out.push('[');
                for (i, x) in a.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    x.write(out);
                }
                out.push(']');
            }
            Ordered::Object(m) => {
                out.push('{');
                for (i, (k, v)) in m.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(&Value::String(k.clone()).to_string());
                    out.push(':');
                    v.write(out);
                }
                out.push('}');
            }
        }
    }
}

/// Writes `v` (encoded from `from`) with `from`'s order where it has one.
fn write(v: &Value, from: Option<&Ordered>, out: &mut String) {
    match v {
        Value::Object(map) => {
            let mut keys: Vec<&String> = Vec::with_capacity(map.len());
            match from {
                Some(Ordered::Object(m)) => {
                    keys.extend(m.iter().map(|(k, _)| k).filter(|k| map.contains_key(*k)));
                    keys.extend(map.keys().filter(|k| !m.iter().any(|(n, _)| n == *k)));
                }
                Some(Ordered::Array(_)) => {
                    // A tuple's positions: `"0"`, `"1"`, ... in order, then the others.
                    let mut digits: Vec<(usize, &String)> = map
                        .keys()
                        .filter_map(|k| k.parse::<usize>().ok().map(|i| (i, k)))
                        .collect();
                    digits.sort_unstable();
                    keys.extend(digits.iter().map(|(_, k)| *k));
                    keys.extend(map.keys().filter(|k| k.parse::<usize>().is_err()));
                }
                _ => keys.extend(map.keys()),
            }
            out.push('{');
            for (i, k) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(k.clone()).to_string());
                out.push(':');
                let child = match from {
                    Some(o @ Ordered::Object(_)) => o.member(k),
                    Some(Ordered::Array(a)) => k.parse::<usize>().ok().and_then(|i| a.get(i)),
                    _ => None,
                };
                if let Some(x) = map.get(k) {
                    write(x, child, out);
                }
            }
            out.push('}');
        }
        Value::Array(list) => {
            out.push('[');
            match from {
                // A map's entries, in the order of the object's members.
                Some(o @ Ordered::Object(m)) => {
                    let at = |e: &Value| {
                        e.get("key")
                            .and_then(Value::as_str)
                            .and_then(|k| m.iter().position(|(n, _)| n == k))
                            .unwrap_or(usize::MAX)
                    };
                    let mut entries: Vec<&Value> = list.iter().collect();
                    entries.sort_by_key(|e| at(e));
                    for (i, e) in entries.into_iter().enumerate() {
                        if i > 0 {
                            out.push(',');
                        }
                        let member = e
                            .get("key")
                            .and_then(Value::as_str)
                            .and_then(|k| o.member(k));
                        write_entry(e, member, out);
                    }
                }
                _ => {
                    for (i, x) in list.iter().enumerate() {
                        if i > 0 {
                            out.push(',');
                        }
                        let child = match from {
                            Some(Ordered::Array(a)) => a.get(i),
                            _ => None,
                        };
                        write(x, child, out);
                    }
                }
            }
            out.push(']');
        }
        Value::String(s) => match from {
            // JSON text of a value that was not a string: spelled as the text had it.
            Some(o) if !matches!(o, Ordered::Scalar(Value::String(_))) => {
                let mut text = String::new();
                o.write(&mut text);
                let same = serde_json::from_str::<Value>(s).is_ok_and(|p| p == o.to_value());
                out.push_str(&Value::String(if same { text } else { s.clone() }).to_string());
            }
            _ => out.push_str(&v.to_string()),
        },
        _ => out.push_str(&v.to_string()),
    }
}

/// A map entry `{"key", "value"}`, its value written with the member's order.
fn write_entry(e: &Value, member: Option<&Ordered>, out: &mut String) {
    let Value::Object(m) = e else {
        return write(e, None, out);
    };
    out.push('{');
    for (i, (k, v)) in m.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&Value::String(k.clone()).to_string());
        out.push(':');
        write(v, if k == "value" { member } else { None }, out);
    }
    out.push('}');
}

impl Decoder {
    /// Encodes JSON text as [`encode_value`](Decoder::encode_value) encodes its value, keeping
    /// the members in the order the text has them (the history's earlier tool calls read as
    /// the model wrote them): `Ok(None)` when the encoding changes nothing.
    ///
    /// ```
    /// use provider_rules::{sanitize_with, Rules, SanitizeOptions, Slot};
    /// use schema_core::Schema;
    /// let tool = Schema::from_str(r#"{"type":"object","properties":{"z":{"type":"integer"},
    ///     "env":{"type":"object","additionalProperties":{"type":"string"}}},"required":["z","env"]}"#)?;
    /// let out = sanitize_with(&tool, &Rules::OPENAI_STRICT, Slot::Parameters, &SanitizeOptions::ENCODE);
    /// let text = out.decoder.encode_json(r#"{"z": 1, "env": {"B": "2", "A": "1"}}"#)?;
    /// assert_eq!(text.as_deref(), Some(r#"{"z":1,"env":[{"key":"B","value":"2"},{"key":"A","value":"1"}]}"#));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn encode_json(&self, text: &str) -> Result<Option<String>, DecodeError> {
        let ordered: Ordered =
            serde_json::from_str(text).map_err(|e| DecodeError::NotJson(e.to_string()))?;
        let value = ordered.to_value();
        let encoded = self.encode_value(&value);
        if encoded == value {
            return Ok(None);
        }
        let mut out = String::with_capacity(text.len());
        write(&encoded, Some(&ordered), &mut out);
        Ok(Some(out))
    }
}

#[cfg(test)]
mod tests {
    use crate::{Rules, SanitizeOptions, Slot, sanitize_with};
    use schema_core::Schema;
    use serde_json::Value;

    fn decoder(schema: &str, rules: &Rules) -> crate::decode::Decoder {
        let s = Schema::from_str(schema).expect("schema");
        sanitize_with(&s, rules, Slot::Parameters, &SanitizeOptions::ENCODE).decoder
    }

    #[test]
    fn members_entries_positions_and_json_text_keep_the_order_they_were_written_in() {
        let d = decoder(
            r#"{"type":"object","properties":{
                "z":{"type":"integer"},
                "env":{"type":"object","additionalProperties":{"type":"object","properties":{"y":{"type":"string"},"b":{"type":"string"}}}},
                "any":{},
                "pair":{"type":"array","prefixItems":[{"type":"string"},{"type":"object","properties":{"q":{"type":"integer"},"a":{"type":"integer"}}}],"items":false}},
              "required":["z","env","any","pair"]}"#,
            &Rules::OPENAI_STRICT,
        );
        let text = r#"{"z":1,"env":{"B":{"y":"1","b":"2"},"A":{"b":"3","y":"4"}},"any":{"w":1,"c":[2]},"pair":["s",{"q":1,"a":2}]}"#;
        let out = d.encode_json(text).expect("json").expect("changed");
        // It decodes back to what was written ...
        let mut back: Value = serde_json::from_str(&out).expect("json");
        d.decode_value(&mut back);
        assert_eq!(
            back,
            serde_json::from_str::<Value>(text).expect("json"),
            "{out}"
        );
        // ... in the order it was written.
        assert_eq!(
            out,
            r#"{"z":1,"env":[{"key":"B","value":{"y":"1","b":"2"}},{"key":"A","value":{"b":"3","y":"4"}}],"any":"{\"w\":1,\"c\":[2]}","pair":{"0":"s","1":{"q":1,"a":2}}}"#
        );
    }

    #[test]
    fn nothing_to_encode_is_none_and_not_json_an_error() {
        let d = decoder(
            r#"{"type":"object","properties":{"z":{"type":"integer"}},"required":["z"]}"#,
            &Rules::GEMINI,
        );
        assert_eq!(d.encode_json(r#"{"z": 1}"#), Ok(None));
        assert!(d.encode_json("{").is_err());
    }
}
