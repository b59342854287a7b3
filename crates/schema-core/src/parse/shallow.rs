//! Shallow keyword values (strings, numbers, booleans, type names, string lists): captured as
//! raw text first (an iterative scan), then read into their typed form here.

use crate::instance::Instance;
use crate::keyword::Shape;
use crate::schema::{InstanceType, TypeSet, Value};
use indexmap::IndexMap;
use serde::de::{self, MapAccess, Visitor};
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::fmt;

/// Reads a shallow keyword value, `text` (one valid JSON value), into its typed form; `None`
/// when the JSON type is wrong.
pub(super) fn interpret(shape: Shape, text: &str) -> Option<Value> {
    let first = *text.as_bytes().first()?;
    Some(match shape {
        Shape::Type => match first {
            b'"' => Value::Type(TypeSet::Single(InstanceType::from_name(&string(text)?)?)),
            b'[' => Value::Type(TypeSet::List(
                serde_json::from_str::<Vec<Cow<'_, str>>>(text)
                    .ok()?
                    .iter()
                    .map(|n| InstanceType::from_name(n))
                    .collect::<Option<Vec<_>>>()?,
            )),
            _ => return None,
        },
        Shape::String => Value::String(string(text)?),
        Shape::Number => match first {
            b'-' | b'0'..=b'9' => exact_number(text)?,
            _ => return None,
        },
        Shape::NumberOrBool => match first {
            b'-' | b'0'..=b'9' => exact_number(text)?,
            _ => Value::Bool(boolean(text)?),
        },
        Shape::Bool => Value::Bool(boolean(text)?),
        Shape::StringArray if first == b'[' => Value::Strings(serde_json::from_str(text).ok()?),
        Shape::StringArrayMap if first == b'{' => {
            let entries = map_entries(text)?;
            let mut m = IndexMap::with_capacity(entries.len());
            for (k, v) in entries {
                m.insert(k, serde_json::from_str::<Vec<String>>(v.get()).ok()?);
            }
            Value::StringsMap(m)
        }
        Shape::Instance => Value::Instance(Instance::from_valid(text)),
        Shape::InstanceArray if first == b'[' => Value::Instances(
            serde_json::from_str::<Vec<&RawValue>>(text)
                .ok()?
                .into_iter()
                .map(Instance::from_borrowed)
                .collect(),
        ),
        Shape::StringArray
        | Shape::StringArrayMap
        | Shape::InstanceArray
        | Shape::Schema
        | Shape::SchemaArray
        | Shape::SchemaOrArray
        | Shape::SchemaMap
        | Shape::Dependencies => return None,
    })
}

/// A JSON string's content (fast when it holds no escape); `None` for any other JSON value.
fn string(text: &str) -> Option<String> {
    let inner = text.strip_prefix('"')?.strip_suffix('"')?;
    if !inner.contains('\\') {
        return Some(inner.to_owned());
    }
    serde_json::from_str(text).ok()
}

fn boolean(text: &str) -> Option<bool> {
    match text {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    }
}

/// A JSON number, exactly when it fits `u64`/`i64`, else the nearest `f64` (correctly rounded,
/// so that serializing and parsing again gives the very same number; serde_json's default float
/// parsing is only approximate). `None` for what is not a finite number.
/// A number keyword's value: typed when serde_json writes it back the same (`3`, `0.5`),
/// kept verbatim as an [`Instance`] when it would be re-spelled (`1e2`, a bignum beyond a
/// double's precision), so the round-trip stays exact. Such a value is a number all the same;
/// it is just not read as one.
fn exact_number(text: &str) -> Option<Value> {
    let n = number(text)?;
    // A whole number read as `u64`/`i64` is written back as its digits, which JSON's grammar
    // (no `+`, no leading zero) makes the input's own: only a float needs the comparison.
    if n.is_u64() || n.is_i64() || n.to_string() == text {
        Some(Value::Number(n))
    } else {
        Some(Value::Instance(Instance::from_valid(text)))
    }
}

pub(super) fn number(text: &str) -> Option<serde_json::Number> {
    if !text.bytes().any(|b| matches!(b, b'.' | b'e' | b'E')) {
        if let Ok(u) = text.parse::<u64>() {
            return Some(u.into());
        }
        // `-0` is read as serde_json reads it: the float `-0.0`.
        if let Ok(i) = text.parse::<i64>()
            && i != 0
        {
            return Some(i.into());
        }
    }
    let f = text.parse::<f64>().ok()?;
    serde_json::Number::from_f64(f)
}

/// The entries of a JSON object in document order (serde_json's `Map` would sort them).
fn map_entries(text: &str) -> Option<Vec<(String, &RawValue)>> {
    struct Entries;
    impl<'de> Visitor<'de> for Entries {
        type Value = Vec<(String, &'de RawValue)>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("an object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut out = Vec::new();
            while let Some(k) = map.next_key::<String>()? {
                let v = map.next_value::<&RawValue>()?;
                out.retain(|(old, _): &(String, &RawValue)| old != &k);
                out.push((k, v));
            }
            Ok(out)
        }
    }
    let mut de = serde_json::Deserializer::from_str(text);
    de::Deserializer::deserialize_map(&mut de, Entries).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_typed_only_when_written_back_the_same() {
        for typed in [
            "0",
            "7",
            "-5",
            "18446744073709551615",
            "-9223372036854775808",
            "0.5",
        ] {
            let v = interpret(Shape::Number, typed);
            assert!(
                matches!(&v, Some(Value::Number(n)) if n.to_string() == typed),
                "{typed}"
            );
        }
        for kept in ["-0", "1e2", "1.50", "18446744073709551616", "-0.0e0"] {
            let v = interpret(Shape::Number, kept);
            assert!(
                matches!(&v, Some(Value::Instance(i)) if i.as_json() == kept),
                "{kept}"
            );
        }
    }
}
