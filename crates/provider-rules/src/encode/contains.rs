//! `contains` → an object that holds the matching item apart.
//!
//! Where the dialect has no `contains` (Gemini's Schema proto: `../shared/research/providers.md`,
//! the Schema fields), an array that must hold an item matching `S` is written as an object:
//! `"match"` (required) is that item (`S` and the array's `items`), `"rest"` the other items
//! in order, and `"at"` the matching item's position. The decoder puts the item back at
//! `min(at, len(rest))`. So every value the object takes decodes to an array that holds a
//! match: the `contains` is said exactly, not only described.
//!
//! Only where it is exact and the encoder can find the match: `minContains` absent or 1, no
//! `maxContains`, no keyword that reads the items' order or count otherwise (`uniqueItems`,
//! tuples, `unevaluatedItems`), and `S` made of keywords [`matches`] decides (types, `const`,
//! `enum`, bounds, lengths, integer `multipleOf`). A typeless node is read as an array, as a
//! tuple is.
//!
//! ```
//! use provider_rules::{sanitize_with, Rules, SanitizeOptions, Slot};
//! let tool = schema_core::Schema::from_str(
//!     r#"{"type":"object","properties":{"ids":{"type":"array","items":{"type":"integer"},"contains":{"minimum":100}}},"required":["ids"]}"#)?;
//! let out = sanitize_with(&tool, &Rules::GEMINI, Slot::Parameters, &SanitizeOptions::ENCODE);
//! assert!(out.report.changes.iter().any(|c| c.rule == "encode-contains" && !c.lossy));
//! let sent = r#"{"ids":{"at":1,"match":120,"rest":[3,4]}}"#;
//! assert_eq!(out.decoder.decode_json(sent)?.as_deref(), Some(r#"{"ids":[3,120,4]}"#));
//! let back = out.decoder.encode_value(&serde_json::json!({"ids": [3, 120, 4]}));
//! assert_eq!(back, serde_json::json!({"ids": {"at": 1, "match": 120, "rest": [3, 4]}}));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::text;
use super::text::At;
use crate::decode::Decoder;
use schema_core::{InstanceType, Key, Keyword, Schema, SchemaMap, SchemaObject, TypeSet, Value};
use serde_json::Value as Json;

/// The rule name of this encoding's changes.
pub const RULE: crate::RuleId = crate::RuleId::EncodeContains;

/// The property holding the matching item.
pub const MATCH: &str = "match";
/// The property holding the matching item's position.
pub const AT: &str = "at";
/// The property holding the other items.
pub const REST: &str = "rest";

/// What the description of an encoded array says.
pub const HINT: &str = "An array, written as an object: \"match\" is the item it must contain, \"rest\" the other items in order, \"at\" the position of \"match\" among them.";

/// Keywords a node may hold beside `contains` to be encoded.
const BESIDE: &[Keyword] = &[
    Keyword::Type,
    Keyword::Contains,
    Keyword::MinContains,
    Keyword::Items,
    Keyword::MinItems,
    Keyword::MaxItems,
    Keyword::Title,
    Keyword::Description,
    Keyword::Comment,
    Keyword::SchemaUri,
];

/// Whether `o` is an array with a `contains` this encoding says exactly.
pub(crate) fn is_contains(o: &SchemaObject) -> bool {
    if !o.contains(Keyword::Contains) {
        return false;
    }
    let array = match o.types() {
        None => true,
        Some(t) => {
            let t = t.as_slice();
            // A typeless node the `contains` step gave every type.
            t == [InstanceType::Array] || InstanceType::ALL.iter().all(|x| t.contains(x))
        }
    };
    let only = o.entries().iter().all(|e| match &e.key {
        Key::Known(k) => BESIDE.contains(k),
        Key::Other(_) => false,
    });
    let one = o
        .number(Keyword::MinContains)
        .is_none_or(|n| n.as_f64() == Some(1.0));
    let items = !matches!(o.get(Keyword::Items), Some(Value::Schemas(_)));
    array
        && only
        && one
        && items
        && o.schema(Keyword::Contains)
            .is_some_and(|c| decidable(&c.to_value()))
}

/// Writes the array `s` (`is_contains`) as an object; returns the test its encoder runs and
/// the schemas of the matching item and of the other items, for the walk to encode.
pub(crate) fn take(s: &mut Schema) -> Option<(Json, Schema, Schema)> {
    let o = s.as_object_mut()?;
    let test = match o.remove(Keyword::Contains) {
        Some(Value::Schema(c)) => *c,
        _ => return None,
    };
    let items = match o.remove(Keyword::Items) {
        Some(Value::Schema(i)) => Some(*i),
        _ => None,
    };
    // A typeless test's bounds hold only for their type: every other type matches, which
    // the engine would otherwise read as the bounds' type alone.
    let mut open = test.clone();
    if let Some(t) = open.as_object_mut()
        && !t.contains(Keyword::Type)
        && !t.contains(Keyword::Const)
        && !t.contains(Keyword::Enum)
        && t.entries().iter().any(|e| match &e.key {
            Key::Known(k) => !matches!(k, Keyword::Title | Keyword::Description | Keyword::Comment),
            Key::Other(_) => true,
        })
    {
        t.insert_at(
            0,
            Keyword::Type,
            Value::Type(TypeSet::List(InstanceType::ALL.to_vec())),
        );
    }
    let matched = match &items {
        Some(i) => {
            let mut all = SchemaObject::new();
            all.insert(Keyword::AllOf, Value::Schemas(vec![i.clone(), open]));
            Schema::Object(all)
        }
        None => open,
    };
    Some((
        test.to_value(),
        matched,
        items.unwrap_or(Schema::Bool(true)),
    ))
}

/// Writes the node as the object, with the encoded schemas of the match and the other items.
pub(crate) fn rewrite(s: &mut Schema, matched: Schema, item: Schema) {
    let Some(o) = s.as_object() else { return };
    let count = |kw| {
        o.number(kw)
            .and_then(serde_json::Number::as_u64)
            .map(|n| n.saturating_sub(1))
    };
    let (min, max) = (count(Keyword::MinItems), count(Keyword::MaxItems));
    let mut list = SchemaObject::new();
    list.insert(
        Keyword::Type,
        Value::Type(TypeSet::Single(InstanceType::Array)),
    );
    list.insert(Keyword::Items, Value::Schema(Box::new(item)));
    if let Some(m) = min.filter(|m| *m > 0) {
        list.insert(Keyword::MinItems, Value::Number(m.into()));
    }
    if let Some(m) = max {
        list.insert(Keyword::MaxItems, Value::Number(m.into()));
    }
    let mut at = SchemaObject::new();
    at.insert(
        Keyword::Type,
        Value::Type(TypeSet::Single(InstanceType::Integer)),
    );
    at.insert(Keyword::Minimum, Value::Number(0.into()));
    let mut props = SchemaMap::default();
    props.insert(AT.to_owned(), Schema::Object(at));
    props.insert(MATCH.to_owned(), matched);
    props.insert(REST.to_owned(), Schema::Object(list));
    let mut out = SchemaObject::new();
    out.insert(
        Keyword::Type,
        Value::Type(TypeSet::Single(InstanceType::Object)),
    );
    for kw in [Keyword::SchemaUri, Keyword::Title, Keyword::Comment] {
        if let Some(v) = o.get(kw) {
            out.insert(kw, v.clone());
        }
    }
    out.insert(Keyword::Properties, Value::SchemaMap(props));
    out.insert(Keyword::Required, Value::Strings(vec![MATCH.to_owned()]));
    out.insert(Keyword::MaxProperties, Value::Number(3.into()));
    let description = super::described(o.description(), HINT);
    out.insert(Keyword::Description, Value::String(description));
    *s = Schema::Object(out);
}

/// Keywords of a test that say nothing of the value.
fn annotation(k: &str) -> bool {
    matches!(k, "title" | "description" | "$comment")
}

/// Whether [`matches`] decides `test` exactly.
fn decidable(test: &Json) -> bool {
    let Json::Object(o) = test else {
        return *test == Json::Bool(true);
    };
    o.iter().all(|(k, v)| match k.as_str() {
        "type" => v.is_string() || v.as_array().is_some_and(|l| l.iter().all(Json::is_string)),
        "const" => true,
        "enum" => v.is_array(),
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" => v.is_number(),
        "minLength" | "maxLength" => v.is_u64(),
        "multipleOf" => v.as_u64().is_some_and(|f| f > 0),
        k => annotation(k),
    })
}

/// JSON Schema equality: numbers by value.
fn same(a: &Json, b: &Json) -> bool {
    match (a, b) {
        (Json::Number(x), Json::Number(y)) => x == y || x.as_f64() == y.as_f64(),
        (Json::Array(x), Json::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        (Json::Object(x), Json::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, a)| y.get(k).is_some_and(|b| same(a, b)))
        }
        _ => a == b,
    }
}

/// Whether `v` is of the JSON Schema type `t`.
fn of_type(t: &str, v: &Json) -> bool {
    match (t, v) {
        ("null", Json::Null) | ("boolean", Json::Bool(_)) | ("string", Json::String(_)) => true,
        ("array", Json::Array(_)) | ("object", Json::Object(_)) | ("number", Json::Number(_)) => {
            true
        }
        ("integer", Json::Number(n)) => {
            n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0)
        }
        _ => false,
    }
}

/// Whether `v` passes `test` (one [`decidable`]).
pub(crate) fn matches(test: &Json, v: &Json) -> bool {
    let Json::Object(o) = test else {
        return *test == Json::Bool(true);
    };
    let num = v.as_f64();
    o.iter().all(|(k, x)| match k.as_str() {
        "type" => match x {
            Json::String(t) => of_type(t, v),
            Json::Array(l) => l.iter().any(|t| t.as_str().is_some_and(|t| of_type(t, v))),
            _ => false,
        },
        "const" => same(x, v),
        "enum" => x.as_array().is_some_and(|l| l.iter().any(|e| same(e, v))),
        "minimum" => num.is_none_or(|n| x.as_f64().is_some_and(|b| n >= b)),
        "maximum" => num.is_none_or(|n| x.as_f64().is_some_and(|b| n <= b)),
        "exclusiveMinimum" => num.is_none_or(|n| x.as_f64().is_some_and(|b| n > b)),
        "exclusiveMaximum" => num.is_none_or(|n| x.as_f64().is_some_and(|b| n < b)),
        "minLength" | "maxLength" => match (v.as_str(), x.as_u64()) {
            (None, _) => true,
            (Some(s), Some(b)) => {
                let n = s.chars().count() as u64;
                if k == "minLength" { n >= b } else { n <= b }
            }
            (Some(_), None) => false,
        },
        "multipleOf" => match (v, x.as_u64()) {
            (Json::Number(n), Some(f)) => {
                if let Some(i) = n.as_i64() {
                    i128::from(i) % i128::from(f) == 0
                } else if let Some(u) = n.as_u64() {
                    u % f == 0
                } else {
                    n.as_f64()
                        .is_some_and(|g| g.fract() == 0.0 && (g % f as f64) == 0.0)
                }
            }
            _ => true,
        },
        k => annotation(k),
    })
}

/// See [`Encoding::decode_text`](super::Encoding).
pub(crate) fn decode_text(
    matched: &Decoder,
    items: &Decoder,
    at: At<'_>,
    out: &mut Vec<u8>,
    notes: &mut Vec<String>,
) -> Option<(usize, bool)> {
    let At { s, i, end } = at;
    let Some((members, _)) = text::members(s, i) else {
        return at.copy(out);
    };
    let known = members
        .iter()
        .all(|m| matches!(m.0.as_str(), MATCH | AT | REST));
    let Some(m) = members.iter().find(|m| m.0 == MATCH).filter(|_| known) else {
        notes.push("an array with its match apart has no \"match\": kept as it came".to_owned());
        return at.copy(out);
    };
    let mut parts: Vec<Vec<u8>> = Vec::new();
    if let Some(r) = members.iter().find(|m| m.0 == REST) {
        match text::items(s, r.1) {
            Some((list, _)) => {
                for (start, _) in list {
                    let mut v = Vec::new();
                    text::value(items, s, start, &mut v, notes)?;
                    parts.push(v);
                }
            }
            None => notes.push("an array's other items are not an array: left out".to_owned()),
        }
    }
    let at = members
        .iter()
        .find(|m| m.0 == AT)
        .and_then(|a| serde_json::from_slice::<Json>(&s[a.1..a.2]).ok())
        .and_then(|a| a.as_u64())
        .map_or(0, |a| usize::try_from(a).unwrap_or(usize::MAX));
    let mut v = Vec::new();
    text::value(matched, s, m.1, &mut v, notes)?;
    parts.insert(at.min(parts.len()), v);
    out.push(b'[');
    out.extend_from_slice(&parts.join(&b','));
    out.push(b']');
    Some((end, true))
}

/// See [`Encoding::decode_value`](super::Encoding).
pub(crate) fn decode_value(
    matched: &Decoder,
    items: &Decoder,
    v: &mut Json,
    notes: &mut Vec<String>,
) -> bool {
    let Json::Object(o) = v else {
        return false;
    };
    let known = o.keys().all(|k| matches!(k.as_str(), MATCH | AT | REST));
    let Some(m) = o.get(MATCH).filter(|_| known) else {
        notes.push("an array with its match apart has no \"match\": kept as it came".to_owned());
        return false;
    };
    let mut m = m.clone();
    matched.decode_value_noted(&mut m, notes);
    let mut list = Vec::new();
    match o.get(REST) {
        Some(Json::Array(rest)) => {
            for x in rest {
                let mut x = x.clone();
                items.decode_value_noted(&mut x, notes);
                list.push(x);
            }
        }
        None => {}
        Some(_) => notes.push("an array's other items are not an array: left out".to_owned()),
    }
    let at = o
        .get(AT)
        .and_then(Json::as_u64)
        .map_or(0, |a| usize::try_from(a).unwrap_or(usize::MAX));
    list.insert(at.min(list.len()), m);
    *v = Json::Array(list);
    true
}

/// See [`Encoding::encode_value`](super::Encoding): the first item that passes `test` goes
/// apart; an array without one stays as it is (the encoded schema refuses it, as the
/// original does).
pub(crate) fn encode_value(test: &Json, matched: &Decoder, items: &Decoder, v: &Json) -> Json {
    let Json::Array(list) = v else {
        return v.clone();
    };
    let Some(at) = list.iter().position(|x| matches(test, x)) else {
        return v.clone();
    };
    let rest: Vec<Json> = list
        .iter()
        .enumerate()
        .filter(|(k, _)| *k != at)
        .map(|(_, x)| items.encode_value(x))
        .collect();
    serde_json::json!({AT: at, MATCH: matched.encode_value(&list[at]), REST: rest})
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::proto_walk::test_support::accepts_encoded;
    use serde_json::json;

    #[test]
    fn the_test_decides_what_contains_reads() {
        assert!(matches(&json!({"minimum": 5}), &json!(7)));
        assert!(!matches(&json!({"minimum": 5}), &json!(3)));
        assert!(
            matches(&json!({"minimum": 5}), &json!("x")),
            "other types pass"
        );
        assert!(matches(&json!({"const": 1}), &json!(1.0)));
        assert!(matches(&json!({"multipleOf": 3}), &json!(9)));
        assert!(!matches(&json!({"multipleOf": 3}), &json!(4.5)));
        assert!(matches(&json!({"type": "integer"}), &json!(2.0)));
        assert!(!matches(&json!({"type": ["string", "null"]}), &json!(2)));
        assert!(matches(&json!({"maxLength": 2}), &json!("éé")));
        assert!(!decidable(&json!({"pattern": "a"})));
        assert!(!decidable(&json!({"multipleOf": 0.5})));
    }

    #[test]
    fn an_array_that_must_contain_an_item_holds_it_apart() {
        let s = json!({"type": "array", "contains": {"minimum": 5}});
        assert!(accepts_encoded(&s, json!([1, 7, 2])) && accepts_encoded(&s, json!([5])));
        assert!(!accepts_encoded(&s, json!([2, 3, 4])) && !accepts_encoded(&s, json!([])));
        // A typeless bound holds for its type only: a string matches.
        assert!(accepts_encoded(&s, json!([1, "foo"])));
        // With `items`: the match is both, the rest the items.
        let s = json!({"contains": {"multipleOf": 3}, "items": {"multipleOf": 2}});
        assert!(accepts_encoded(&s, json!([2, 4, 6, 8])));
        assert!(!accepts_encoded(&s, json!([2, 4, 8])));
        // Count-sensitive: left as before (a length).
        let s = json!({"type": "array", "contains": {"const": 1}, "maxContains": 1});
        assert!(accepts_encoded(&s, json!([1, 1])));
    }

    #[test]
    fn the_match_goes_back_where_it_was() {
        let d = Decoder {
            encoding: Some(super::super::Encoding::Contains {
                test: json!({"const": "x"}),
                matched: Box::default(),
                items: Box::default(),
            }),
            ..Decoder::default()
        };
        for list in [
            json!(["x"]),
            json!(["a", "x", "b"]),
            json!(["a", "b", "x", "x"]),
        ] {
            let sent = d.encode_value(&list);
            let mut back = sent.clone();
            d.decode_value(&mut back);
            assert_eq!(back, list, "{sent}");
            let text = d.decode_json(&sent.to_string()).unwrap();
            assert_eq!(text.as_deref(), Some(list.to_string().as_str()), "{sent}");
        }
        // Past the end: last.
        let got = d
            .decode_json(r#"{"at":9,"match":"x","rest":["a"]}"#)
            .unwrap();
        assert_eq!(got.as_deref(), Some(r#"["a","x"]"#));
        // Not the encoded form: kept, noted.
        let noted = d.decode_json_noted(r#"{"rest":[]}"#).unwrap();
        assert_eq!((noted.text, noted.notes.len()), (None, 1));
    }
}
