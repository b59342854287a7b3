//! Any value → a string holding its JSON text.
//!
//! Where a dialect needs a type (strict modes, Gemini's Schema proto), a node that accepts any
//! value (`{}`, `true`, annotations only) below the root is written
//! `{"type": "string", "description": "... JSON text of the value."}`; `items: {}` so becomes an
//! array of such strings. Decoding parses the string; a string that is not JSON text stays a
//! string (reported).
//!
//! ```
//! use provider_rules::{sanitize_with, Rules, SanitizeOptions, Slot};
//! let tool = schema_core::Schema::from_str(r#"{"type":"object","properties":{"data":{}},"required":["data"]}"#)?;
//! let out = sanitize_with(&tool, &Rules::OPENAI_STRICT, Slot::Parameters, &SanitizeOptions::ENCODE);
//! assert!(out.report.strict_compatible);
//! assert_eq!(out.decoder.decode_json(r#"{"data":"[1,{\"a\":true}]"}"#)?.as_deref(), Some(r#"{"data":[1,{"a":true}]}"#));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::text::At;
use schema_core::{InstanceType, Key, Keyword, Schema, SchemaObject, TypeSet, Value};

/// The rule name of this encoding's changes.
pub const RULE: crate::RuleId = crate::RuleId::EncodeAnyValue;

/// What the description of an encoded node says.
pub const HINT: &str = "A JSON value, written as JSON text in this string.";

/// Keywords that say nothing about the value (a node with only these accepts anything).
const ANNOTATIONS: &[Keyword] = &[
    Keyword::Title,
    Keyword::Description,
    Keyword::Default,
    Keyword::Examples,
    Keyword::Comment,
    Keyword::Deprecated,
    Keyword::ReadOnly,
    Keyword::WriteOnly,
];

/// Whether `s` accepts any value.
pub(crate) fn is_any(s: &Schema) -> bool {
    match s {
        Schema::Bool(b) => *b,
        Schema::Object(o) => o
            .entries()
            .iter()
            .all(|e| matches!(&e.key, Key::Known(k) if ANNOTATIONS.contains(k))),
    }
}

/// Rewrites an any-value node into its encoded form; `false` when `s` is not one.
pub(crate) fn rewrite(s: &mut Schema) -> bool {
    if !is_any(s) {
        return false;
    }
    let mut o = SchemaObject::new();
    o.insert(
        Keyword::Type,
        Value::Type(TypeSet::Single(InstanceType::String)),
    );
    let mut description = super::described(None, HINT);
    if let Schema::Object(old) = s {
        if let Some(t) = old.string(Keyword::Title) {
            o.insert(Keyword::Title, Value::String(t.to_owned()));
        }
        if let Some(d) = old.description() {
            description = super::described(Some(d), HINT);
        }
        if let Some(d) = old.instance(Keyword::Default) {
            o.insert(
                Keyword::Default,
                Value::Instance(schema_core::Instance::string(d.as_json())),
            );
        }
    }
    o.insert(Keyword::Description, Value::String(description));
    *s = Schema::Object(o);
    true
}

/// Lets an encoded any-value node (a [`rewrite`] result) admit `null` in `style`: a strict
/// profile's required any-value property accepted `null` before it was encoded, and where
/// the strict rewrite made it required (an optional property the engine made typeless, which
/// a second run encodes), `null` is how a call leaves it out (the strict decoder drops it).
/// Without it the encoded property rejects the `null` of a call that leaves it out. `null`
/// decodes as itself. `AnyOf` style is left as it is (the union would hide the encoding).
pub(crate) fn admit_null(s: &mut Schema, style: crate::NullStyle) {
    let Schema::Object(o) = s else {
        return;
    };
    match style {
        crate::NullStyle::TypeList => {
            o.insert(
                Keyword::Type,
                Value::Type(TypeSet::List(vec![
                    InstanceType::String,
                    InstanceType::Null,
                ])),
            );
        }
        crate::NullStyle::Nullable => {
            o.insert(Keyword::Nullable, Value::Bool(true));
        }
        crate::NullStyle::AnyOf => {}
    }
}

/// See [`Encoding::decode_text`](super::Encoding).
pub(crate) fn decode_text(
    at: At<'_>,
    out: &mut Vec<u8>,
    notes: &mut Vec<String>,
) -> Option<(usize, bool)> {
    let At { s, i, end } = at;
    if s.get(i) == Some(&b'"')
        && let Ok(inner) = serde_json::from_slice::<String>(&s[i..end])
    {
        if serde_json::from_str::<serde::de::IgnoredAny>(&inner).is_ok() {
            out.extend_from_slice(inner.trim().as_bytes());
            return Some((end, true));
        }
        notes.push(format!("not JSON text, kept as a string: {inner:?}"));
    }
    at.copy(out)
}

/// See [`Encoding::decode_value`](super::Encoding).
pub(crate) fn decode_value(v: &mut serde_json::Value, notes: &mut Vec<String>) -> bool {
    if let serde_json::Value::String(text) = v {
        match serde_json::from_str::<serde_json::Value>(text) {
            Ok(parsed) => {
                *v = parsed;
                return true;
            }
            Err(_) => notes.push(format!("not JSON text, kept as a string: {text:?}")),
        }
    }
    false
}

/// See [`Encoding::encode_value`](super::Encoding).
pub(crate) fn encode_value(v: &serde_json::Value) -> serde_json::Value {
    serde_json::Value::String(v.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_value_nodes_become_json_text_strings_keeping_their_description() {
        let mut s = Schema::from_str(r#"{"description":"Payload.","default":{"a":1}}"#).unwrap();
        assert!(rewrite(&mut s));
        assert_eq!(
            s.to_json_string(),
            format!(
                r#"{{"type":"string","default":"{{\"a\":1}}","description":"Payload. {HINT}"}}"#
            )
        );
        let mut t = Schema::Bool(true);
        assert!(rewrite(&mut t));
        let mut typed = Schema::from_str(r#"{"type":"string"}"#).unwrap();
        assert!(!rewrite(&mut typed));
        assert!(!rewrite(&mut Schema::Bool(false)));
    }

    #[test]
    fn strict_property_left_out_of_a_merged_dependency_is_not_rejected_when_encoded() {
        // `bar` and `foo` come from a dependent schema: optional, typeless once merged, made
        // required by strict mode, then encoded by the second run: a call that leaves `bar`
        // out sends `null`, which the encoded property must admit and the decoder drop.
        let tool = Schema::from_str(
            r#"{"dependentSchemas":{"bar":{"properties":{"bar":{"type":"integer"},"foo":{"type":"integer"}}}}}"#,
        )
        .unwrap();
        let out = crate::sanitize_with(
            &tool,
            &crate::Rules::OPENAI_STRICT,
            crate::Slot::Schema,
            &crate::SanitizeOptions::ENCODE,
        );
        assert!(out.report.strict_compatible);
        let schema = out.schema.to_value();
        for name in ["bar", "foo"] {
            assert_eq!(
                schema["properties"][name]["type"],
                serde_json::json!(["string", "null"]),
                "{schema}"
            );
        }
        assert_eq!(
            out.decoder
                .decode_json(r#"{"bar":null,"foo":"\"quux\""}"#)
                .unwrap()
                .as_deref(),
            Some(r#"{"foo":"quux"}"#)
        );
    }

    #[test]
    fn json_text_decodes_and_other_text_stays_a_string_with_a_note() {
        let mut notes = Vec::new();
        let mut out = Vec::new();
        let s = br#""{\"b\":1,\"a\":[true]}""#;
        assert_eq!(
            decode_text(At::of(s, 0).unwrap(), &mut out, &mut notes),
            Some((s.len(), true))
        );
        assert_eq!(out, br#"{"b":1,"a":[true]}"#);
        let mut out = Vec::new();
        let s = br#""not json""#;
        assert_eq!(
            decode_text(At::of(s, 0).unwrap(), &mut out, &mut notes),
            Some((s.len(), false))
        );
        assert_eq!(out, s);
        assert_eq!(notes.len(), 1);
        let mut v = serde_json::json!("[1,2]");
        assert!(decode_value(&mut v, &mut notes));
        assert_eq!(v, serde_json::json!([1, 2]));
        assert_eq!(
            encode_value(&serde_json::json!({"a": [1]})),
            serde_json::json!("{\"a\":[1]}")
        );
    }
}
