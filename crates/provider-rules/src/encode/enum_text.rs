//! Numeric, boolean, object and array `enum`/`const` → a string enum of their JSON texts.
//!
//! Gemini's Schema proto has string enums only: `{"type": "integer", "enum": [1, 2, 3]}`
//! becomes `{"type": "string", "enum": ["1", "2", "3"]}`, and the decoder turns the member the
//! model picked back into the number. An object or array member (`{"const": {"a": 1}}`) is
//! its canonical JSON text (keys sorted, integral numbers as integers: JSON Schema compares
//! objects without order and numbers by value, so equal values have one text). A string
//! member is kept as it is unless it reads as JSON text itself (`"1"`, `"true"`), which is then
//! quoted (`"\"1\""`), so every member decodes back to itself. `null` stays a member (the type
//! allows it).
//!
//! ```
//! use provider_rules::{sanitize_with, Rules, SanitizeOptions, Slot};
//! let tool = schema_core::Schema::from_str(r#"{"type":"object","properties":{"level":{"type":"integer","enum":[1,2,3]}}}"#)?;
//! let out = sanitize_with(&tool, &Rules::GEMINI, Slot::Parameters, &SanitizeOptions::ENCODE);
//! assert!(out.schema.to_json_string().contains(r#""enum":["1","2","3"]"#));
//! assert_eq!(out.decoder.decode_json(r#"{"level":"2"}"#)?.as_deref(), Some(r#"{"level":2}"#));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::text::At;
use schema_core::{Instance, InstanceType, Keyword, Schema, TypeSet, Value};

/// The rule name of this encoding's changes.
pub const RULE: crate::RuleId = crate::RuleId::EncodeEnumText;

/// Keywords of numbers, booleans, objects and arrays that the string enum makes moot (the
/// members are exact; dropping a constraint beside them only widens).
const MOOT: &[Keyword] = &[
    Keyword::Minimum,
    Keyword::Maximum,
    Keyword::ExclusiveMinimum,
    Keyword::ExclusiveMaximum,
    Keyword::MultipleOf,
    Keyword::Format,
    Keyword::Properties,
    Keyword::Required,
    Keyword::AdditionalProperties,
    Keyword::PatternProperties,
    Keyword::PropertyNames,
    Keyword::MinProperties,
    Keyword::MaxProperties,
    Keyword::DependentRequired,
    Keyword::DependentSchemas,
    Keyword::Items,
    Keyword::PrefixItems,
    Keyword::AdditionalItems,
    Keyword::MinItems,
    Keyword::MaxItems,
    Keyword::UniqueItems,
    Keyword::Contains,
    Keyword::MinContains,
    Keyword::MaxContains,
];

/// The members of `s`'s `enum` (or its `const`), when at least one is a number, a boolean, an
/// object or an array.
fn members(s: &Schema) -> Option<Vec<serde_json::Value>> {
    let o = s.as_object()?;
    let values: Vec<serde_json::Value> =
        match (o.instances(Keyword::Enum), o.instance(Keyword::Const)) {
            (Some(list), _) => list.iter().map(Instance::to_value).collect(),
            (None, Some(c)) => vec![c.to_value()],
            (None, None) => return None,
        };
    let needs = values.iter().any(|v| !v.is_string() && !v.is_null());
    (needs && !values.is_empty()).then_some(values)
}

/// Rewrites a numeric or boolean enum into the string enum of its texts; `false` when `s` is
/// not one.
pub(crate) fn rewrite(s: &mut Schema) -> bool {
    let Some(values) = members(s) else {
        return false;
    };
    let Some(o) = s.as_object_mut() else {
        return false;
    };
    let null = values.iter().any(serde_json::Value::is_null);
    let texts: Vec<Instance> = values
        .iter()
        .map(|v| match encode_value(v) {
            serde_json::Value::Null => Instance::null(),
            e => Instance::from_value(&e),
        })
        .collect();
    o.remove(Keyword::Const);
    for k in MOOT {
        o.remove(*k);
    }
    if let Some(Value::Instance(d)) = o.get(Keyword::Default) {
        let d = Instance::from_value(&encode_value(&d.to_value()));
        o.insert(Keyword::Default, Value::Instance(d));
    }
    let ty = if null {
        TypeSet::List(vec![InstanceType::String, InstanceType::Null])
    } else {
        TypeSet::Single(InstanceType::String)
    };
    if o.contains(Keyword::Type) {
        o.insert(Keyword::Type, Value::Type(ty));
    } else {
        o.insert_at(0, Keyword::Type, Value::Type(ty));
    }
    o.insert(Keyword::Enum, Value::Instances(texts));
    true
}

/// See [`Encoding::decode_text`](super::Encoding): a member spelling JSON text is that value.
pub(crate) fn decode_text(at: At<'_>, out: &mut Vec<u8>) -> Option<(usize, bool)> {
    super::any_value::decode_text(at, out, &mut Vec::new())
}

/// See [`Encoding::decode_value`](super::Encoding).
pub(crate) fn decode_value(v: &mut serde_json::Value) -> bool {
    super::any_value::decode_value(v, &mut Vec::new())
}

/// See [`Encoding::encode_value`](super::Encoding): numbers, booleans, objects and arrays as
/// their canonical text, a string that reads as JSON quoted, anything else as it is.
pub(crate) fn encode_value(v: &serde_json::Value) -> serde_json::Value {
    match v {
        serde_json::Value::Number(n) => serde_json::Value::String(number_text(n)),
        serde_json::Value::Bool(_) => serde_json::Value::String(v.to_string()),
        serde_json::Value::Object(_) | serde_json::Value::Array(_) => {
            serde_json::Value::String(canonical(v, 0).to_string())
        }
        serde_json::Value::String(s)
            if serde_json::from_str::<serde::de::IgnoredAny>(s).is_ok() =>
        {
            serde_json::Value::String(v.to_string())
        }
        other => other.clone(),
    }
}

/// Deeper than this, a value keeps its own spelling (its text is still JSON text of it).
const MAX_DEPTH: usize = 64;

/// `v` with object keys sorted and integral numbers as integers, so values JSON Schema finds
/// equal have one text.
fn canonical(v: &serde_json::Value, depth: usize) -> serde_json::Value {
    use serde_json::Value as J;
    if depth > MAX_DEPTH {
        return v.clone();
    }
    match v {
        J::Number(n) => serde_json::from_str(&number_text(n)).unwrap_or_else(|_| v.clone()),
        J::Array(list) => J::Array(list.iter().map(|x| canonical(x, depth + 1)).collect()),
        J::Object(o) => {
            let mut keys: Vec<&String> = o.keys().collect();
            keys.sort();
            J::Object(
                keys.into_iter()
                    .filter_map(|k| o.get(k).map(|x| (k.clone(), canonical(x, depth + 1))))
                    .collect(),
            )
        }
        other => other.clone(),
    }
}

/// The one text of a number, whatever its spelling: JSON Schema compares numbers by value
/// (`1.0` is `1`), so an integral number is written as an integer.
fn number_text(n: &serde_json::Number) -> String {
    match n.as_f64() {
        Some(f) if n.is_f64() && f.fract() == 0.0 && f.abs() <= 9.007_199_254_740_992e15 => {
            // Integral and exactly representable: the integer's text.
            format!("{f:.0}")
        }
        _ => n.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rewritten(text: &str) -> Option<String> {
        let mut s = Schema::from_str(text).unwrap();
        rewrite(&mut s).then(|| s.to_json_string())
    }

    #[test]
    fn numeric_boolean_and_mixed_enums_become_string_enums_of_their_texts() {
        assert_eq!(
            rewritten(r#"{"type":"integer","enum":[1,2],"minimum":1}"#).as_deref(),
            Some(r#"{"type":"string","enum":["1","2"]}"#)
        );
        assert_eq!(
            rewritten(r#"{"const":true}"#).as_deref(),
            Some(r#"{"type":"string","enum":["true"]}"#)
        );
        assert_eq!(
            rewritten(r#"{"enum":["a","1",1,null]}"#).as_deref(),
            Some(r#"{"type":["string","null"],"enum":["a","\"1\"","1",null]}"#)
        );
        assert_eq!(
            rewritten(r#"{"enum":[1.0,-2.0,2.5]}"#).as_deref(),
            Some(r#"{"type":"string","enum":["1","-2","2.5"]}"#)
        );
        assert_eq!(rewritten(r#"{"enum":["a","b"]}"#), None);
        assert_eq!(
            rewritten(r#"{"enum":[1,[2.0]]}"#).as_deref(),
            Some(r#"{"type":"string","enum":["1","[2]"]}"#)
        );
        assert_eq!(
            rewritten(r#"{"type":"object","const":{"b":1.0,"a":[false]},"required":["a"]}"#)
                .as_deref(),
            Some(r#"{"type":"string","enum":["{\"a\":[false],\"b\":1}"]}"#)
        );
    }

    #[test]
    fn consts_and_enums_are_encoded_inside_unions_and_items_too() {
        use crate::{Rules, SanitizeOptions, Slot, sanitize_with};
        let tool = Schema::from_str(
            r#"{"type":"object","properties":{"x":{"anyOf":[{"const":1},{"type":"object","const":{"b":2,"a":1}},{"type":"string"}]},"l":{"type":"array","items":{"enum":[true,[1]]}}}}"#,
        )
        .unwrap();
        let out = sanitize_with(
            &tool,
            &Rules::GEMINI,
            Slot::Parameters,
            &SanitizeOptions::ENCODE,
        );
        let text = out.schema.to_json_string();
        assert!(text.contains(r#""enum":["1"]"#), "{text}");
        assert!(text.contains(r#""enum":["{\"a\":1,\"b\":2}"]"#), "{text}");
        assert!(text.contains(r#""enum":["true","[1]"]"#), "{text}");
        let sent = r#"{"x":"{\"a\":1,\"b\":2}","l":["[1]","true"]}"#;
        let back: serde_json::Value =
            serde_json::from_str(&out.decoder.decode_json(sent).unwrap().unwrap()).unwrap();
        assert_eq!(
            back,
            serde_json::json!({"x": {"a": 1, "b": 2}, "l": [[1], true]})
        );
        let one: serde_json::Value =
            serde_json::from_str(&out.decoder.decode_json(r#"{"x":"1"}"#).unwrap().unwrap())
                .unwrap();
        assert_eq!(one, serde_json::json!({"x": 1}));
    }

    #[test]
    fn every_member_decodes_back_to_itself() {
        for v in [
            serde_json::json!(1),
            serde_json::json!(2.5),
            serde_json::json!(false),
            serde_json::json!("a"),
            serde_json::json!("1"),
            serde_json::json!("null"),
            serde_json::json!({"b": [1, {"d": null, "c": 2.5}], "a": "x"}),
            serde_json::json!([]),
            serde_json::Value::Null,
        ] {
            let mut e = encode_value(&v);
            assert!(e.is_string() || e.is_null(), "{v}");
            decode_value(&mut e);
            assert_eq!(e, v);
            let text = encode_value(&v).to_string();
            let mut out = Vec::new();
            decode_text(At::of(text.as_bytes(), 0).unwrap(), &mut out).unwrap();
            assert_eq!(
                serde_json::from_slice::<serde_json::Value>(&out).unwrap(),
                v
            );
        }
    }
}
