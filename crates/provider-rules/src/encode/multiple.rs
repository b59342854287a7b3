//! A number with an integer `multipleOf` → the quotient, an integer.
//!
//! Gemini's Schema proto has no `multipleOf` (the field list: `type`, `format`, `minimum`,
//! `maximum`, ...): `{"type": "integer", "multipleOf": 5, "maximum": 20}` lets any integer
//! through. The model sends instead how many times the factor goes into the value,
//! `{"type": "integer", "maximum": 4}`, and the decoder multiplies: `3` → `15`. Exact: the
//! quotients of the multiples are the integers, and the bounds become the quotients' bounds
//! (`minimum` rounded up, `maximum` down, exclusive bounds made inclusive). The factor is the
//! node's `multipleOf` with those of its `allOf` members and one-member `anyOf`/`oneOf` that
//! say nothing else (their least common multiple). Only a node whose other keywords are these
//! bounds, its `type` (`number` or `integer`, or none), annotations and a `default` that is a
//! multiple; not a union's branch (the decoder tells branches apart by JSON type, and a
//! number branch beside it would read the quotient as itself).
//!
//! ```
//! use provider_rules::{sanitize_with, Rules, SanitizeOptions, Slot};
//! let tool = schema_core::Schema::from_str(
//!     r#"{"type":"object","properties":{"minutes":{"type":"integer","multipleOf":15,"maximum":60}}}"#,
//! )?;
//! let out = sanitize_with(&tool, &Rules::GEMINI, Slot::Parameters, &SanitizeOptions::ENCODE);
//! assert!(out.schema.to_json_string().contains(r#""maximum":4"#));
//! assert_eq!(out.decoder.decode_json(r#"{"minutes":3}"#)?.as_deref(), Some(r#"{"minutes":45}"#));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use schema_core::{InstanceType, Keyword, Schema, SchemaObject, TypeSet, Value};
use serde_json::Number;

/// The rule name of this encoding's changes.
pub const RULE: crate::RuleId = crate::RuleId::EncodeMultiple;

/// The largest factor and bound handled: integers every `f64` spells exactly.
const EXACT: i64 = 1 << 53;

/// Keywords that say nothing of the value (kept as they are).
const ANNOTATIONS: &[Keyword] = &[
    Keyword::Title,
    Keyword::Description,
    Keyword::Comment,
    Keyword::Deprecated,
    Keyword::ReadOnly,
    Keyword::WriteOnly,
    Keyword::Format,
    Keyword::SchemaUri,
    Keyword::Id,
    Keyword::Anchor,
    Keyword::DynamicAnchor,
    Keyword::Vocabulary,
];

/// The keyword of an entry; other keys (`x-*`) say nothing of the value.
fn keyword(e: &schema_core::Entry) -> Option<Keyword> {
    match e.key {
        schema_core::Key::Known(k) => Some(k),
        schema_core::Key::Other(_) => None,
    }
}

/// The bounds, rewritten for the quotient.
const BOUNDS: &[Keyword] = &[
    Keyword::Minimum,
    Keyword::Maximum,
    Keyword::ExclusiveMinimum,
    Keyword::ExclusiveMaximum,
];

/// `n` as an integer, when it is one (integral floats too) within [`EXACT`].
fn integer(n: &Number) -> Option<i64> {
    if let Some(i) = n.as_i64() {
        return (i.abs() <= EXACT).then_some(i);
    }
    let f = n.as_f64()?;
    (f.fract() == 0.0 && f.abs() <= EXACT as f64).then_some(f as i64)
}

/// A bound `n` rounded to an integer (`up` or down), within [`EXACT`].
fn rounded(n: &Number, up: bool) -> Option<i64> {
    if let Some(i) = integer(n) {
        return Some(i);
    }
    let f = n.as_f64()?;
    let r = if up { f.ceil() } else { f.floor() };
    (r.is_finite() && r.abs() <= EXACT as f64).then_some(r as i64)
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// The least common multiple of two positive factors, within [`EXACT`].
fn lcm(a: i64, b: i64) -> Option<i64> {
    (a / gcd(a, b)).checked_mul(b).filter(|m| *m <= EXACT)
}

/// The factor a `multipleOf` value says, when it is an integer of 2 or more.
fn factor(v: &Value) -> Option<i64> {
    match v {
        Value::Number(n) => integer(n).filter(|m| *m >= 2),
        _ => None,
    }
}

/// Whether `types` are those of a number node (none, `number`, `integer`).
fn numeric(o: &SchemaObject) -> bool {
    match o.types() {
        None => true,
        Some(t) => matches!(
            t.as_slice(),
            [InstanceType::Number] | [InstanceType::Integer]
        ),
    }
}

/// The factor of a member that says only `multipleOf` (and a number type, annotations).
fn member_factor(s: &Schema) -> Option<i64> {
    let o = s.as_object()?;
    let m = factor(o.get(Keyword::MultipleOf)?)?;
    let only = o.entries().iter().all(|e| {
        keyword(e).is_none_or(|k| {
            k == Keyword::MultipleOf || k == Keyword::Type || ANNOTATIONS.contains(&k)
        })
    });
    (only && numeric(o)).then_some(m)
}

/// The node's factor, with its parts' (see the module docs); `None` when it is not one this
/// encoding writes.
fn node_factor(o: &SchemaObject) -> Option<i64> {
    if !numeric(o) {
        return None;
    }
    let mut m = match o.get(Keyword::MultipleOf) {
        Some(v) => Some(factor(v)?),
        None => None,
    };
    for e in o.entries() {
        let Some(k) = keyword(e) else { continue };
        if k == Keyword::Type || k == Keyword::MultipleOf || ANNOTATIONS.contains(&k) {
            continue;
        }
        if BOUNDS.contains(&k) {
            match &e.value {
                Value::Number(_) => continue,
                _ => return None, // draft-04 boolean exclusives
            }
        }
        let parts = match (k, &e.value) {
            (Keyword::AllOf, Value::Schemas(l)) => l.as_slice(),
            (Keyword::AnyOf | Keyword::OneOf, Value::Schemas(l)) if l.len() == 1 => l.as_slice(),
            (Keyword::Default, Value::Instance(_)) => continue,
            _ => return None,
        };
        for p in parts {
            let f = member_factor(p)?;
            m = Some(match m {
                Some(m) => lcm(m, f)?,
                None => f,
            });
        }
    }
    let m = m?;
    if let Some(d) = o.instance(Keyword::Default) {
        let ok = d
            .to_value()
            .as_number()
            .and_then(integer)
            .is_some_and(|d| d % m == 0);
        if !ok {
            return None;
        }
    }
    Some(m)
}

/// What the encoded node's description says.
fn hint(m: i64) -> String {
    format!(
        "A multiple of {m}, written as how many times {m} goes into it (send 3 for {}).",
        3 * m
    )
}

/// Rewrites `s` as its quotient when it is a number with an integer `multipleOf`: the factor,
/// or `None` when `s` is not one.
pub(crate) fn rewrite(s: &mut Schema) -> Option<i64> {
    let o = s.as_object_mut()?;
    if !o.contains(Keyword::MultipleOf)
        && !o.contains(Keyword::AllOf)
        && !o.contains(Keyword::AnyOf)
        && !o.contains(Keyword::OneOf)
    {
        return None;
    }
    let m = node_factor(o)?;
    let low = tighter(
        quotient_bound(o, Keyword::Minimum, m)?,
        quotient_bound(o, Keyword::ExclusiveMinimum, m)?,
        i64::max,
    );
    let high = tighter(
        quotient_bound(o, Keyword::Maximum, m)?,
        quotient_bound(o, Keyword::ExclusiveMaximum, m)?,
        i64::min,
    );
    for k in [
        Keyword::MultipleOf,
        Keyword::AllOf,
        Keyword::AnyOf,
        Keyword::OneOf,
        Keyword::Minimum,
        Keyword::Maximum,
        Keyword::ExclusiveMinimum,
        Keyword::ExclusiveMaximum,
    ] {
        o.remove(k);
    }
    let ty = Value::Type(TypeSet::Single(InstanceType::Integer));
    if o.contains(Keyword::Type) {
        o.insert(Keyword::Type, ty);
    } else {
        o.insert_at(0, Keyword::Type, ty);
    }
    if let Some(low) = low {
        o.insert(Keyword::Minimum, Value::Number(low.into()));
    }
    if let Some(high) = high {
        o.insert(Keyword::Maximum, Value::Number(high.into()));
    }
    if let Some(d) = o.instance(Keyword::Default) {
        let q = encode_value(m, &d.to_value());
        o.insert(
            Keyword::Default,
            Value::Instance(schema_core::Instance::from_value(&q)),
        );
    }
    let own = o.description().map(str::to_owned);
    o.insert(
        Keyword::Description,
        Value::String(super::described(own.as_deref(), &hint(m))),
    );
    Some(m)
}

/// The bound `kw` of `o` said of the quotient (inclusive): `Some(None)` when there is none,
/// `None` when it cannot be read.
fn quotient_bound(o: &SchemaObject, kw: Keyword, m: i64) -> Option<Option<i64>> {
    let Some(v) = o.get(kw) else {
        return Some(None);
    };
    let Value::Number(n) = v else { return None };
    let up = |a: i64| a.div_euclid(m) + i64::from(a.rem_euclid(m) != 0);
    let down = |a: i64| a.div_euclid(m);
    // `m·q ≥ b` ⟺ `m·q ≥ ⌈b⌉` (an integer), and so on.
    Some(Some(match kw {
        Keyword::Minimum => up(rounded(n, true)?),
        Keyword::ExclusiveMinimum => up(rounded(n, false)? + 1),
        Keyword::Maximum => down(rounded(n, false)?),
        _ => down(rounded(n, true)? - 1),
    }))
}

/// Of two bounds on one side, the one that says more (`pick`: `max` for lower bounds).
fn tighter(a: Option<i64>, b: Option<i64>, pick: fn(i64, i64) -> i64) -> Option<i64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(pick(a, b)),
        (a, b) => a.or(b),
    }
}

/// The value a quotient `q` stands for: `q × m` (an integer quotient only).
fn product(m: i64, v: &serde_json::Value) -> Option<serde_json::Value> {
    let q = integer(v.as_number()?)?;
    Some(serde_json::Value::Number(q.checked_mul(m)?.into()))
}

/// See [`Encoding::decode_text`](super::Encoding): an integer is multiplied, anything else
/// stays (reported).
pub(crate) fn decode_text(
    m: i64,
    s: &[u8],
    i: usize,
    out: &mut Vec<u8>,
    notes: &mut Vec<String>,
) -> Option<(usize, bool)> {
    let end = crate::decode::skip(s, i)?;
    let mut v: serde_json::Value = match serde_json::from_slice(&s[i..end]) {
        Ok(v) => v,
        Err(_) => return super::text::copy(s, i, out),
    };
    if decode_value(m, &mut v, notes) {
        out.extend_from_slice(v.to_string().as_bytes());
        return Some((end, true));
    }
    super::text::copy(s, i, out)
}

/// See [`Encoding::decode_value`](super::Encoding).
pub(crate) fn decode_value(m: i64, v: &mut serde_json::Value, notes: &mut Vec<String>) -> bool {
    match product(m, v) {
        Some(p) => {
            *v = p;
            true
        }
        None => {
            notes.push(format!("not an integer count of {m}, kept: {v}"));
            false
        }
    }
}

/// See [`Encoding::encode_value`](super::Encoding): a multiple as its quotient; another
/// number as its (fractional) ratio, which the integer type rejects; anything else as it is.
pub(crate) fn encode_value(m: i64, v: &serde_json::Value) -> serde_json::Value {
    let Some(n) = v.as_number() else {
        return v.clone();
    };
    if let Some(i) = integer(n)
        && i % m == 0
    {
        return serde_json::Value::Number((i / m).into());
    }
    let ratio = n.as_f64().unwrap_or(0.5) / m as f64;
    let ratio = if ratio.fract() == 0.0 {
        ratio + 0.5
    } else {
        ratio
    };
    Number::from_f64(ratio).map_or_else(|| v.clone(), serde_json::Value::Number)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::proto_walk::test_support::accepts_encoded as accepts;
    use serde_json::json;

    #[test]
    fn multiples_are_their_quotients_with_the_bounds_divided() {
        let mut s = Schema::from_str(
            r#"{"type":"number","multipleOf":5,"minimum":3,"exclusiveMaximum":20,"default":10}"#,
        )
        .unwrap();
        assert_eq!(rewrite(&mut s), Some(5));
        assert_eq!(
            s.to_json_string(),
            format!(
                r#"{{"type":"integer","default":2,"minimum":1,"maximum":3,"description":"{}"}}"#,
                hint(5)
            )
        );
        // Negative and fractional bounds round towards the inside.
        let mut s = Schema::from_str(r#"{"multipleOf":2,"minimum":-3.5,"maximum":-0.5}"#).unwrap();
        assert_eq!(rewrite(&mut s), Some(2));
        let o = s.as_object().unwrap();
        assert_eq!(
            o.number(Keyword::Minimum).and_then(Number::as_i64),
            Some(-1)
        );
        assert_eq!(
            o.number(Keyword::Maximum).and_then(Number::as_i64),
            Some(-1)
        );
    }

    #[test]
    fn parts_join_the_factor_and_other_nodes_stay() {
        let mut s = Schema::from_str(
            r#"{"allOf":[{"multipleOf":2}],"anyOf":[{"multipleOf":3}],"oneOf":[{"multipleOf":5}]}"#,
        )
        .unwrap();
        assert_eq!(rewrite(&mut s), Some(30));
        for text in [
            r#"{"multipleOf":1.5}"#,
            r#"{"multipleOf":1}"#,
            r#"{"type":"string","multipleOf":2}"#,
            r#"{"multipleOf":2,"enum":[2,4]}"#,
            r#"{"multipleOf":2,"default":3}"#,
            r#"{"multipleOf":2,"anyOf":[{"minimum":1},{"maximum":-1}]}"#,
            r#"{"allOf":[{"minimum":2}]}"#,
            r#"{"multipleOf":2,"not":{"minimum":1}}"#,
        ] {
            let mut s = Schema::from_str(text).unwrap();
            assert_eq!(rewrite(&mut s), None, "{text}");
            assert_eq!(s.to_json_string(), text);
        }
    }

    #[test]
    fn quotients_decode_to_the_multiples() {
        let mut notes = Vec::new();
        let mut v = json!(3);
        assert!(decode_value(5, &mut v, &mut notes) && v == json!(15));
        let mut v = json!("3");
        assert!(!decode_value(5, &mut v, &mut notes) && notes.len() == 1);
        let mut out = Vec::new();
        assert_eq!(
            decode_text(5, b"-2 ", 0, &mut out, &mut notes),
            Some((2, true))
        );
        assert_eq!(out, b"-10");
        assert_eq!(encode_value(5, &json!(15)), json!(3));
        assert_eq!(encode_value(5, &json!(15.0)), json!(3));
        assert!(
            encode_value(5, &json!(16))
                .as_f64()
                .is_some_and(|f| f.fract() != 0.0)
        );
        assert_eq!(encode_value(5, &json!("x")), json!("x"));
    }

    #[test]
    fn gemini_sees_only_the_multiples() {
        let s = json!({"type": "integer", "multipleOf": 4, "maximum": 12});
        assert!(accepts(s.clone(), json!(8)) && accepts(s.clone(), json!(-4)));
        assert!(!accepts(s.clone(), json!(6)) && !accepts(s, json!(16)));
    }
}
