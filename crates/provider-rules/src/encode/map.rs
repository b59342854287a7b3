//! Maps → arrays of `{"key", "value"}` entries.
//!
//! An object open to typed or any extra properties (`additionalProperties` a schema or `true`,
//! and no `properties`; or only `propertyNames`), and where the profile says so a bare
//! `{"type": "object"}`, cannot be
//! said in strict modes (every object closed) nor in Gemini's Schema proto (no
//! `additionalProperties`). It is written as an array of closed entry objects, `key` a string
//! (with the map's `propertyNames`), `value` the map's value schema (encoded in its turn);
//! `minProperties`/`maxProperties` become `minItems`/`maxItems`. Decoding builds the object
//! back; of duplicate keys the last wins, and the decoder says so.
//!
//! ```
//! use provider_rules::{sanitize_with, Rules, SanitizeOptions, Slot};
//! let tool = schema_core::Schema::from_str(r#"{"type":"object","properties":{"labels":{"type":"object","additionalProperties":{"type":"integer"}}}}"#)?;
//! let out = sanitize_with(&tool, &Rules::GEMINI, Slot::Parameters, &SanitizeOptions::ENCODE);
//! let sent = r#"{"labels":[{"key":"a","value":1},{"key":"a","value":2}]}"#;
//! let decoded = out.decoder.decode_json_noted(sent)?;
//! assert_eq!(decoded.text.as_deref(), Some(r#"{"labels":{"a":2}}"#));
//! assert_eq!(decoded.notes.len(), 1); // the duplicate key
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::Encodings;
use super::text;
use super::text::At;
use crate::decode::Decoder;
use indexmap::IndexMap;
use schema_core::{Instance, InstanceType, Keyword, Schema, SchemaObject, TypeSet, Value};

/// The rule name of this encoding's changes.
pub const RULE: crate::RuleId = crate::RuleId::EncodeMap;

/// What the description of an encoded map says.
pub const HINT: &str = "An object, written as a list of its key/value entries.";

/// Whether the object `o` is a map this encoding writes as entries.
pub(crate) fn is_map(o: &SchemaObject, on: &Encodings) -> bool {
    let typed_object = match o.types() {
        None => false,
        Some(t) => t.as_slice() == [InstanceType::Object],
    };
    let untyped_or_object = o.types().is_none() || typed_object;
    let no_members = o.properties().is_none_or(|p| p.is_empty())
        && !o.contains(Keyword::PatternProperties)
        && !o.contains(Keyword::Ref)
        && !o.contains(Keyword::AnyOf)
        && !o.contains(Keyword::OneOf)
        && !o.contains(Keyword::AllOf)
        && !o.contains(Keyword::Enum)
        && !o.contains(Keyword::Const);
    if !untyped_or_object || !no_members {
        return false;
    }
    // Names said by `propertyNames` (a length, a pattern, a list) are the entries' keys.
    let named = (on.maps || on.named_maps)
        && matches!(o.schema(Keyword::PropertyNames), Some(Schema::Object(_)));
    match o.get(Keyword::AdditionalProperties) {
        Some(Value::Schema(v)) => {
            !matches!(**v, Schema::Bool(false)) && (on.maps || (on.named_maps && named))
        }
        Some(_) => false,
        None => (on.open_objects && typed_object) || named,
    }
}

/// Writes the map `o` (with its value schema `value`, already encoded) as entries; returns
/// what could not be carried over (keywords about named members).
pub(crate) fn rewrite(s: &mut Schema, value: Schema) -> Vec<String> {
    let Some(o) = s.as_object_mut() else {
        return Vec::new();
    };
    let mut key = match o.remove(Keyword::PropertyNames) {
        Some(Value::Schema(k)) if k.as_object().is_some() => *k,
        _ => Schema::Object(SchemaObject::new()),
    };
    if let Some(k) = key.as_object_mut()
        && k.types().is_none()
    {
        k.insert_at(
            0,
            Keyword::Type,
            Value::Type(TypeSet::Single(InstanceType::String)),
        );
    }
    let mut entry = SchemaObject::new();
    entry.insert(
        Keyword::Type,
        Value::Type(TypeSet::Single(InstanceType::Object)),
    );
    let mut props = schema_core::SchemaMap::default();
    props.insert("key".to_owned(), key);
    props.insert("value".to_owned(), value);
    entry.insert(Keyword::Properties, Value::SchemaMap(props));
    entry.insert(
        Keyword::Required,
        Value::Strings(vec!["key".to_owned(), "value".to_owned()]),
    );
    let mut out = SchemaObject::new();
    out.insert(
        Keyword::Type,
        Value::Type(TypeSet::Single(InstanceType::Array)),
    );
    out.insert(
        Keyword::Items,
        Value::Schema(Box::new(Schema::Object(entry))),
    );
    let mut lost = Vec::new();
    for e in o.entries() {
        match e.key.as_str() {
            "type" | "additionalProperties" | "properties" => {}
            "title" | "$comment" | "deprecated" | "readOnly" | "writeOnly" => {
                out.insert_key(e.key.clone(), e.value.clone());
            }
            "minProperties" => {
                out.insert(Keyword::MinItems, e.value.clone());
            }
            "maxProperties" => {
                out.insert(Keyword::MaxItems, e.value.clone());
            }
            "default" => {
                if let Value::Instance(d) = &e.value {
                    let entries = encode_value(&Decoder::default(), &d.to_value());
                    out.insert(
                        Keyword::Default,
                        Value::Instance(Instance::from_value(&entries)),
                    );
                }
            }
            "description" => {}
            other => lost.push(other.to_owned()),
        }
    }
    let description = super::described(o.description(), HINT);
    out.insert(Keyword::Description, Value::String(description));
    *s = Schema::Object(out);
    lost
}

/// See [`Encoding::decode_text`](super::Encoding).
pub(crate) fn decode_text(
    value: &Decoder,
    at: At<'_>,
    out: &mut Vec<u8>,
    notes: &mut Vec<String>,
) -> Option<(usize, bool)> {
    let At { s, i, end } = at;
    let Some(entries) = entries(value, s, i, notes) else {
        if s.get(i) == Some(&b'[') {
            notes.push("a map's entries are not key/value objects: kept as they are".to_owned());
        }
        return at.copy(out);
    };
    out.push(b'{');
    for (k, (name, v)) in entries.iter().enumerate() {
        if k > 0 {
            out.push(b',');
        }
        text::push_key(out, name);
        out.push(b':');
        out.extend_from_slice(v);
    }
    out.push(b'}');
    Some((end, true))
}

/// The entries of the array at `s[i]`, their values decoded; `None` when it is not one.
fn entries(
    value: &Decoder,
    s: &[u8],
    i: usize,
    notes: &mut Vec<String>,
) -> Option<IndexMap<String, Vec<u8>>> {
    let (items, _) = text::items(s, i)?;
    let mut map: IndexMap<String, Vec<u8>> = IndexMap::with_capacity(items.len());
    for (start, _) in items {
        let (members, _) = text::members(s, start)?;
        let key = members.iter().find(|m| m.0 == "key")?;
        let val = members.iter().find(|m| m.0 == "value")?;
        if members.len() != 2 {
            return None;
        }
        let name: String = serde_json::from_slice(&s[key.1..key.2]).ok()?;
        let mut v = Vec::new();
        text::value(value, s, val.1, &mut v, notes)?;
        if map.insert(name.clone(), v).is_some() {
            notes.push(format!(
                "the map's key {name:?} came twice: the last value is kept"
            ));
        }
    }
    Some(map)
}

/// See [`Encoding::decode_value`](super::Encoding).
pub(crate) fn decode_value(
    value: &Decoder,
    v: &mut serde_json::Value,
    notes: &mut Vec<String>,
) -> bool {
    let serde_json::Value::Array(list) = v else {
        return false;
    };
    let mut map = serde_json::Map::new();
    for e in list.iter() {
        let serde_json::Value::Object(o) = e else {
            return false;
        };
        let (Some(serde_json::Value::String(k)), Some(val), 2) =
            (o.get("key"), o.get("value"), o.len())
        else {
            return false;
        };
        let mut val = val.clone();
        value.decode_value_noted(&mut val, notes);
        if map.insert(k.clone(), val).is_some() {
            notes.push(format!(
                "the map's key {k:?} came twice: the last value is kept"
            ));
        }
    }
    *v = serde_json::Value::Object(map);
    true
}

/// See [`Encoding::encode_value`](super::Encoding).
pub(crate) fn encode_value(value: &Decoder, v: &serde_json::Value) -> serde_json::Value {
    match v {
        serde_json::Value::Object(o) => serde_json::Value::Array(
            o.iter()
                .map(|(k, x)| serde_json::json!({"key": k, "value": value.encode_value(x)}))
                .collect(),
        ),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::Encoding;

    #[test]
    fn maps_are_objects_open_to_typed_or_any_values_without_properties() {
        let on = Encodings::STRICT;
        let yes = [
            r#"{"type":"object","additionalProperties":{"type":"string"}}"#,
            r#"{"additionalProperties":true}"#,
            r#"{"type":"object"}"#,
        ];
        let no = [
            r#"{"type":"object","additionalProperties":false}"#,
            r#"{"type":"object","properties":{"a":{}},"additionalProperties":{"type":"string"}}"#,
            r#"{"type":["object","null"],"additionalProperties":{}}"#,
            r#"{"additionalProperties":{},"anyOf":[{"required":["a"]}]}"#,
            r#"{}"#,
        ];
        for y in yes {
            let s = Schema::from_str(y).unwrap();
            assert!(is_map(s.as_object().unwrap(), &on), "{y}");
        }
        for n in no {
            let s = Schema::from_str(n).unwrap();
            assert!(!is_map(s.as_object().unwrap(), &on), "{n}");
        }
        let bare = Schema::from_str(r#"{"type":"object"}"#).unwrap();
        let only_maps = Encodings {
            maps: true,
            ..Encodings::default()
        };
        assert!(!is_map(bare.as_object().unwrap(), &only_maps));
        // An object that says only its names is a map of any values, keyed by those names.
        let named = Schema::from_str(r#"{"propertyNames":{"maxLength":3}}"#).unwrap();
        assert!(is_map(named.as_object().unwrap(), &only_maps));
        assert!(!is_map(named.as_object().unwrap(), &Encodings::default()));
        // Where maps stay maps (Vertex), only the objects whose names are said are entries.
        let names_only = Encodings {
            named_maps: true,
            ..Encodings::default()
        };
        assert!(is_map(named.as_object().unwrap(), &names_only));
        let typed =
            r#"{"additionalProperties":{"type":"string"},"propertyNames":{"pattern":"^a"}}"#;
        let typed = Schema::from_str(typed).unwrap();
        assert!(is_map(typed.as_object().unwrap(), &names_only));
        let plain = Schema::from_str(r#"{"additionalProperties":{"type":"string"}}"#).unwrap();
        assert!(!is_map(plain.as_object().unwrap(), &names_only));
    }

    #[test]
    fn vertex_says_property_names_as_entries_and_keeps_its_maps() {
        use crate::{Rules, SanitizeOptions, Slot, sanitize_with};
        use serde_json::json;
        let accepts = |s: &serde_json::Value, v: serde_json::Value| {
            crate::engine::proto_walk::test_support::accepts_encoded_for(&Rules::VERTEX, s, v)
        };
        let s = json!({"propertyNames": {"maxLength": 3}});
        assert!(accepts(&s, json!({"foo": 1})) && !accepts(&s, json!({"foobar": 1})));
        // A map whose names are free stays a map (Vertex has `additionalProperties`).
        let m = json!({"type": "object", "additionalProperties": {"type": "integer"}});
        let out = sanitize_with(
            &Schema::from_value(&m),
            &Rules::VERTEX,
            Slot::Schema,
            &SanitizeOptions::ENCODE,
        );
        assert_eq!(out.schema.to_value(), m);
    }

    #[test]
    fn gemini_says_property_names_as_the_entries_keys() {
        use crate::engine::proto_walk::test_support::accepts_encoded as accepts;
        use serde_json::json;
        let s = json!({"propertyNames": {"pattern": "^a+$"}});
        assert!(accepts(s.clone(), json!({"a": {}, "aa": 1})) && !accepts(s, json!({"aaA": 1})));
        let s = json!({"type": "object", "propertyNames": {"enum": ["foo", "bar"]}});
        assert!(
            accepts(s.clone(), json!({"foo": 1, "bar": [2]})) && !accepts(s, json!({"baz": 1}))
        );
    }

    #[test]
    fn a_map_becomes_closed_entries_with_its_bounds_and_key_names() {
        let mut s = Schema::from_str(
            r#"{"type":"object","description":"Env.","minProperties":1,"propertyNames":{"pattern":"^[A-Z]+$"},"additionalProperties":{"type":"string"}}"#,
        )
        .unwrap();
        let value = Schema::from_str(r#"{"type":"string"}"#).unwrap();
        assert!(rewrite(&mut s, value).is_empty());
        assert_eq!(
            s.to_json_string(),
            format!(
                r#"{{"type":"array","items":{{"type":"object","properties":{{"key":{{"type":"string","pattern":"^[A-Z]+$"}},"value":{{"type":"string"}}}},"required":["key","value"]}},"minItems":1,"description":"Env. {HINT}"}}"#
            )
        );
    }

    #[test]
    fn entries_decode_to_the_object_last_duplicate_wins_and_is_noted() {
        let d = Decoder {
            encoding: Some(Encoding::Map {
                value: Box::default(),
            }),
            ..Decoder::default()
        };
        let sent =
            r#"[ {"key":"b","value":{"x":1}}, {"value":2,"key":"a"}, {"key":"b","value":3} ]"#;
        let got = d.decode_json_noted(sent).unwrap();
        assert_eq!(got.text.as_deref(), Some(r#"{"b":3,"a":2}"#));
        assert_eq!(got.notes.len(), 1);
        let mut v: serde_json::Value = serde_json::from_str(sent).unwrap();
        let notes = d.decode_value_noted(&mut v, &mut Vec::new());
        assert!(notes > 0);
        assert_eq!(v, serde_json::json!({"b": 3, "a": 2}));
        // Not entries: kept.
        assert_eq!(d.decode_json(r#"[1]"#).unwrap(), None);
        assert_eq!(d.decode_json(r#"{"a":1}"#).unwrap(), None);
        // And back.
        assert_eq!(
            d.encode_value(&serde_json::json!({"a": 1})),
            serde_json::json!([{"key": "a", "value": 1}])
        );
    }
}
