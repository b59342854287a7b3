//! Tuples → objects with one property per position.
//!
//! Where the dialect has no `prefixItems` (Gemini's Schema proto, OpenAI strict), a tuple is
//! written as a closed object: position `k` is the property `"k"` (or, where every position
//! has a distinct plain title, that title: [`position_names`]), the first `minItems`
//! positions required, and the items past the positions (where the tuple allows them) in the
//! array property [`REST`]. The decoder builds the array back. Where the dialect has
//! `prefixItems`, nothing changes.
//!
//! ```
//! use provider_rules::{sanitize_with, Rules, SanitizeOptions, Slot};
//! let tool = schema_core::Schema::from_str(r#"{"type":"object","properties":{"point":{"type":"array","prefixItems":[{"type":"number"},{"type":"number"}],"items":false,"minItems":2}},"required":["point"]}"#)?;
//! let out = sanitize_with(&tool, &Rules::OPENAI_STRICT, Slot::Parameters, &SanitizeOptions::ENCODE);
//! assert!(out.report.strict_compatible);
//! assert_eq!(out.decoder.decode_json(r#"{"point":{"0":1.5,"1":-2}}"#)?.as_deref(), Some(r#"{"point":[1.5,-2]}"#));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::text;
use super::text::At;
use crate::decode::Decoder;
use schema_core::{InstanceType, Keyword, Schema, SchemaMap, SchemaObject, TypeSet, Value};

/// The rule name of this encoding's changes.
pub const RULE: crate::RuleId = crate::RuleId::EncodeTuple;

/// The property holding the items past the positions.
pub const REST: &str = "rest";

/// What the description of an encoded tuple says.
pub const HINT: &str =
    "An array, written as an object with one property per position (\"0\", \"1\", ...).";

/// The positions of the tuple `o` (`prefixItems`, or draft-07 `items: [...]`), when it is one.
pub(crate) fn is_tuple(o: &SchemaObject) -> bool {
    let array = o
        .types()
        .is_none_or(|t| t.as_slice() == [InstanceType::Array]);
    let positions =
        o.schemas(Keyword::PrefixItems).is_some() || o.schemas(Keyword::Items).is_some();
    array && positions && !o.contains(Keyword::Ref)
}

/// Takes the tuple's rest schema out of `o`: `None` where no items may follow the positions.
pub(crate) fn take_rest(o: &mut SchemaObject) -> Option<Schema> {
    let rest = if o.schemas(Keyword::PrefixItems).is_some() {
        o.remove(Keyword::Items)
    } else {
        o.remove(Keyword::AdditionalItems)
    };
    match rest {
        Some(Value::Schema(s)) if *s == Schema::Bool(false) => None,
        Some(Value::Schema(s)) => Some(*s),
        _ => Some(Schema::Bool(true)),
    }
}

/// A position of schema `false` takes no item: no array reaches it, so the tuple ends before
/// it, with no rest (exact: an array of more items is refused as the original refuses it).
/// Left as it is where `minItems` asks for more items than the positions before it (the tuple
/// then takes no array, which the object would not say).
pub(crate) fn cut_at_false(o: &mut SchemaObject, rest: &mut Option<Schema>) {
    let min = o
        .number(Keyword::MinItems)
        .and_then(serde_json::Number::as_u64)
        .unwrap_or(0);
    let kw = if o.schemas(Keyword::PrefixItems).is_some() {
        Keyword::PrefixItems
    } else {
        Keyword::Items
    };
    let Some(list) = o.schemas_mut(kw) else {
        return;
    };
    let Some(k) = list.iter().position(|p| matches!(p, Schema::Bool(false))) else {
        return;
    };
    if min > k as u64 {
        return;
    }
    list.truncate(k);
    *rest = None;
}

/// Writes the tuple `o` (positions already encoded; `rest` its encoded rest schema) as an
/// object; returns the positions' names.
pub(crate) fn rewrite(s: &mut Schema, rest: Option<Schema>) -> Vec<String> {
    let Some(o) = s.as_object_mut() else {
        return Vec::new();
    };
    let positions = match o
        .remove(Keyword::PrefixItems)
        .or_else(|| o.remove(Keyword::Items))
    {
        Some(Value::Schemas(p)) => p,
        _ => Vec::new(),
    };
    let n = positions.len();
    let names = position_names(&positions);
    let min = o
        .number(Keyword::MinItems)
        .and_then(serde_json::Number::as_u64)
        .map_or(0, |m| usize::try_from(m).unwrap_or(usize::MAX));
    let max = o
        .number(Keyword::MaxItems)
        .and_then(serde_json::Number::as_u64);
    let has_rest = rest.is_some();
    let mut props = SchemaMap::default();
    for (name, p) in names.iter().zip(positions) {
        props.insert(name.clone(), p);
    }
    if let Some(r) = rest {
        let mut list = SchemaObject::new();
        list.insert(
            Keyword::Type,
            Value::Type(TypeSet::Single(InstanceType::Array)),
        );
        list.insert(Keyword::Items, Value::Schema(Box::new(r)));
        if let Some(m) = max.and_then(|m| m.checked_sub(n as u64)) {
            list.insert(Keyword::MaxItems, Value::Number(m.into()));
        }
        props.insert(REST.to_owned(), Schema::Object(list));
    }
    let mut out = SchemaObject::new();
    out.insert(
        Keyword::Type,
        Value::Type(TypeSet::Single(InstanceType::Object)),
    );
    for kw in [Keyword::Title, Keyword::Comment] {
        if let Some(v) = o.get(kw) {
            out.insert(kw, v.clone());
        }
    }
    out.insert(Keyword::Properties, Value::SchemaMap(props));
    out.insert(
        Keyword::Required,
        Value::Strings(names.iter().take(min).cloned().collect()),
    );
    // Where objects cannot be closed (Gemini's proto has no `additionalProperties`), the count
    // still bounds the members: no more than the positions (and the rest).
    out.insert(
        Keyword::MaxProperties,
        Value::Number((n as u64 + u64::from(has_rest)).into()),
    );
    let hint = if names.iter().enumerate().all(|(k, n)| *n == k.to_string()) {
        HINT.to_owned()
    } else {
        format!(
            "An array, written as an object with one property per position, in order: {}.",
            names.join(", ")
        )
    };
    let description = super::described(o.description(), &hint);
    out.insert(Keyword::Description, Value::String(description));
    *s = Schema::Object(out);
    names
}

/// The property names of a tuple's positions: their titles where every position has one,
/// all distinct and each a plain key (ASCII letters, digits, `_`, `.`, `-`; at most 64
/// characters: what every profile's property names take; not [`REST`]), else `"0"`, `"1"`...
///
/// ```
/// use provider_rules::encode::tuple::position_names;
/// let titled = [r#"{"title":"lat"}"#, r#"{"title":"lon"}"#].map(|s| schema_core::Schema::from_str(s).unwrap());
/// assert_eq!(position_names(&titled), ["lat", "lon"]);
/// let same = [r#"{"title":"x"}"#, r#"{"title":"x"}"#].map(|s| schema_core::Schema::from_str(s).unwrap());
/// assert_eq!(position_names(&same), ["0", "1"]);
/// ```
pub fn position_names(positions: &[Schema]) -> Vec<String> {
    let titles: Vec<&str> = positions
        .iter()
        .filter_map(|p| p.as_object().and_then(|o| o.string(Keyword::Title)))
        .filter(|t| {
            (1..=64).contains(&t.len())
                && *t != REST
                && t.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
        })
        .collect();
    let distinct = titles
        .iter()
        .enumerate()
        .all(|(i, t)| !titles[..i].contains(t));
    if titles.len() == positions.len() && distinct {
        titles.into_iter().map(str::to_owned).collect()
    } else {
        (0..positions.len()).map(|k| k.to_string()).collect()
    }
}

/// See [`Encoding::decode_text`](super::Encoding).
pub(crate) fn decode_text(
    names: &[String],
    items: &[Decoder],
    rest: Option<&Decoder>,
    at: At<'_>,
    out: &mut Vec<u8>,
    notes: &mut Vec<String>,
) -> Option<(usize, bool)> {
    let At { s, i, end } = at;
    let Some((members, _)) = text::members(s, i) else {
        return at.copy(out);
    };
    if let Some(m) = members
        .iter()
        .find(|m| m.0 != REST && !names.contains(&m.0))
    {
        // Not a tuple as encoded (a value of another type the original also took): kept.
        notes.push(format!(
            "a tuple has no position {:?}: kept as it came",
            m.0
        ));
        return at.copy(out);
    }
    let mut parts: Vec<Vec<u8>> = Vec::new();
    let mut gap = false;
    for (k, name) in names.iter().enumerate() {
        match members.iter().find(|m| &m.0 == name) {
            Some(m) if !gap => {
                let mut v = Vec::new();
                let d = items.get(k).cloned().unwrap_or_default();
                text::value(&d, s, m.1, &mut v, notes)?;
                parts.push(v);
            }
            Some(_) => notes.push(format!(
                "tuple position {name} follows a missing one: left out"
            )),
            None => gap = true,
        }
    }
    if let Some(m) = members.iter().find(|m| m.0 == REST) {
        match (rest, text::items(s, m.1)) {
            (Some(d), Some((list, _))) if !gap => {
                for (start, _) in list {
                    let mut v = Vec::new();
                    text::value(d, s, start, &mut v, notes)?;
                    parts.push(v);
                }
            }
            _ => notes.push("a tuple's rest items could not be placed: left out".to_owned()),
        }
    }
    out.push(b'[');
    out.extend_from_slice(&parts.join(&b','));
    out.push(b']');
    Some((end, true))
}

/// See [`Encoding::decode_value`](super::Encoding).
pub(crate) fn decode_value(
    names: &[String],
    items: &[Decoder],
    rest: Option<&Decoder>,
    v: &mut serde_json::Value,
    notes: &mut Vec<String>,
) -> bool {
    let serde_json::Value::Object(o) = v else {
        return false;
    };
    if let Some(k) = o.keys().find(|k| *k != REST && !names.contains(k)) {
        notes.push(format!("a tuple has no position {k:?}: kept as it came"));
        return false;
    }
    let mut list = Vec::new();
    for (k, name) in names.iter().enumerate() {
        match o.get(name) {
            Some(x) => {
                let mut x = x.clone();
                if let Some(d) = items.get(k) {
                    d.decode_value_noted(&mut x, notes);
                }
                list.push(x);
            }
            None => break,
        }
    }
    if let (Some(d), Some(serde_json::Value::Array(more))) = (rest, o.get(REST)) {
        for x in more {
            let mut x = x.clone();
            d.decode_value_noted(&mut x, notes);
            list.push(x);
        }
    }
    *v = serde_json::Value::Array(list);
    true
}

/// See [`Encoding::encode_value`](super::Encoding).
pub(crate) fn encode_value(
    names: &[String],
    items: &[Decoder],
    rest: Option<&Decoder>,
    v: &serde_json::Value,
) -> serde_json::Value {
    let serde_json::Value::Array(list) = v else {
        return v.clone();
    };
    let mut o = serde_json::Map::new();
    for (k, x) in list.iter().enumerate() {
        match names.get(k) {
            Some(name) => {
                let e = items
                    .get(k)
                    .map_or_else(|| x.clone(), |d| d.encode_value(x));
                o.insert(name.clone(), e);
            }
            None => break,
        }
    }
    if list.len() > names.len() {
        let more: Vec<serde_json::Value> = list[names.len()..]
            .iter()
            .map(|x| rest.map_or_else(|| x.clone(), |d| d.encode_value(x)))
            .collect();
        o.insert(REST.to_owned(), serde_json::Value::Array(more));
    }
    serde_json::Value::Object(o)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::Encoding;

    #[test]
    fn a_tuple_becomes_a_closed_object_with_its_positions_required_up_to_min_items() {
        let mut s = Schema::from_str(
            r#"{"type":"array","prefixItems":[{"type":"string"},{"type":"integer"}],"items":{"type":"boolean"},"minItems":1,"maxItems":3}"#,
        )
        .unwrap();
        let o = s.as_object_mut().unwrap();
        assert!(is_tuple(o));
        let rest = take_rest(o);
        assert_eq!(rewrite(&mut s, rest), ["0", "1"]);
        assert_eq!(
            s.to_json_string(),
            format!(
                r#"{{"type":"object","properties":{{"0":{{"type":"string"}},"1":{{"type":"integer"}},"rest":{{"type":"array","items":{{"type":"boolean"}},"maxItems":1}}}},"required":["0"],"maxProperties":3,"description":"{}"}}"#,
                HINT.replace('"', "\\\"")
            )
        );
        let closed =
            Schema::from_str(r#"{"items":[{"type":"string"}],"additionalItems":false}"#).unwrap();
        let mut o = closed.as_object().unwrap().clone();
        assert!(is_tuple(&o));
        assert_eq!(take_rest(&mut o), None);
        let plain = Schema::from_str(r#"{"type":"array","items":{"type":"string"}}"#).unwrap();
        assert!(!is_tuple(plain.as_object().unwrap()));
    }

    #[test]
    fn titled_positions_are_named_by_their_titles_and_decode_back() {
        use crate::{Rules, SanitizeOptions, Slot, check, sanitize_with};
        let tool = Schema::from_str(
            r#"{"type":"object","properties":{"at":{"type":"array","minItems":2,"items":false,
                "prefixItems":[{"title":"lat","type":"number"},{"title":"lon","type":"number"}]}},
                "required":["at"]}"#,
        )
        .unwrap();
        let out = sanitize_with(
            &tool,
            &Rules::OPENAI_STRICT,
            Slot::Parameters,
            &SanitizeOptions::ENCODE,
        );
        assert!(out.report.strict_compatible, "{:?}", out.report);
        let v = out.schema.to_value();
        let at = &v["properties"]["at"];
        assert_eq!(at["required"], serde_json::json!(["lat", "lon"]), "{v}");
        assert!(
            at["description"]
                .as_str()
                .unwrap()
                .contains("in order: lat, lon"),
            "{v}"
        );
        assert!(check(&v, &Rules::OPENAI_STRICT, Slot::Parameters).is_empty());
        let sent = r#"{"at":{"lat":48.1,"lon":11.5}}"#;
        assert_eq!(
            out.decoder.decode_json(sent).unwrap().as_deref(),
            Some(r#"{"at":[48.1,11.5]}"#)
        );
        let encoded = out.decoder.encode_value(&serde_json::json!({"at": [1, 2]}));
        assert_eq!(encoded, serde_json::json!({"at": {"lat": 1, "lon": 2}}));
        // A title that is not a plain key, or a missing one, keeps the numbers.
        for positions in [
            r#"[{"title":"lat"},{"title":"lon gitude"}]"#,
            r#"[{"title":"lat"},{}]"#,
            r#"[{"title":"rest"},{"title":"x"}]"#,
        ] {
            let list: Vec<Schema> = serde_json::from_str::<Vec<serde_json::Value>>(positions)
                .unwrap()
                .iter()
                .map(Schema::from_value)
                .collect();
            assert_eq!(position_names(&list), ["0", "1"], "{positions}");
        }
    }

    #[test]
    fn a_false_position_ends_the_tuple() {
        use crate::engine::proto_walk::test_support::accepts_encoded;
        use serde_json::json;
        for s in [
            json!({"prefixItems": [true, false]}),
            json!({"items": [true, false]}),
        ] {
            assert!(accepts_encoded(&s, json!([])) && accepts_encoded(&s, json!([1])));
            assert!(!accepts_encoded(&s, json!([1, "foo"])), "{s}");
            assert!(!accepts_encoded(&s, json!([1, 2, 3])), "{s}");
        }
        let s = json!({"prefixItems": [{"type": "integer"}, false, {"type": "string"}]});
        assert!(accepts_encoded(&s, json!([1])));
        assert!(!accepts_encoded(&s, json!([1, "x"])) && !accepts_encoded(&s, json!(["x"])));
        // More items asked for than the positions before `false`: as before.
        let mut o = Schema::from_str(r#"{"prefixItems":[true,false],"minItems":2}"#).unwrap();
        let o = o.as_object_mut().unwrap();
        let mut rest = take_rest(o);
        cut_at_false(o, &mut rest);
        assert_eq!(o.schemas(Keyword::PrefixItems).map(<[_]>::len), Some(2));
    }

    #[test]
    fn positional_objects_decode_to_arrays_and_back() {
        let d = Decoder {
            encoding: Some(Encoding::Tuple {
                names: vec!["0".into(), "1".into()],
                items: Vec::new(),
                rest: Some(Box::default()),
            }),
            ..Decoder::default()
        };
        let cases = [
            (
                r#"{"0":"a","1":2,"rest":[true,false]}"#,
                r#"["a",2,true,false]"#,
            ),
            (r#"{"1":2, "0":"a"}"#, r#"["a",2]"#),
            (r#"{"0":"a"}"#, r#"["a"]"#),
            (r#"{}"#, r#"[]"#),
        ];
        for (sent, want) in cases {
            let got = d.decode_json(sent).unwrap();
            assert_eq!(got.as_deref(), Some(want), "{sent}");
            let mut v: serde_json::Value = serde_json::from_str(sent).unwrap();
            d.decode_value(&mut v);
            let want: serde_json::Value = serde_json::from_str(want).unwrap();
            assert_eq!(v, want);
            let mut back = d.encode_value(&want);
            d.decode_value(&mut back);
            assert_eq!(back, want);
        }
        let noted = d.decode_json_noted(r#"{"1":2}"#).unwrap();
        assert_eq!(noted.text.as_deref(), Some("[]"));
        assert_eq!(noted.notes.len(), 1);
    }
}
