//! A number with a `multipleOf` → the quotient, an integer.
//!
//! Gemini's Schema proto has no `multipleOf` (the field list: `type`, `format`, `minimum`,
//! `maximum`, ...): `{"type": "integer", "multipleOf": 5, "maximum": 20}` lets any integer
//! through. The model sends instead how many times the factor goes into the value,
//! `{"type": "integer", "maximum": 4}`, and the decoder multiplies: `3` → `15`. Exact: the
//! quotients of the multiples are the integers, and the bounds become the quotients' bounds
//! (`minimum` rounded up, `maximum` down, exclusive bounds made inclusive). A decimal factor
//! is read as it is spelled (`0.01`: cents, `1999` → `19.99`, written as decimal text; of an
//! `integer`, the factor is the least multiple of it that is an integer). The factor is the
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

use super::ratio::Ratio;
use super::text::At;
use schema_core::{InstanceType, Keyword, Schema, SchemaObject, TypeSet, Value};
use serde_json::Number;

/// The rule name of this encoding's changes.
pub const RULE: crate::RuleId = crate::RuleId::EncodeMultiple;

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

/// The positive factor a `multipleOf` value says.
fn factor(v: &Value) -> Option<Ratio> {
    match v {
        Value::Number(n) => Ratio::of(n).filter(|r| r.p > 0),
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
fn member_factor(s: &Schema) -> Option<Ratio> {
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
fn node_factor(o: &SchemaObject) -> Option<Ratio> {
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
                Some(m) => m.lcm(f)?,
                None => f,
            });
        }
    }
    let mut m = m?;
    if o.types()
        .is_some_and(|t| t.as_slice() == [InstanceType::Integer])
    {
        m = m.lcm(Ratio::int(1))?;
    }
    // A factor of 1 says only "an integer"; the engine says that.
    if m == Ratio::int(1) || i64::try_from(m.p).is_err() || i64::try_from(m.q).is_err() {
        return None;
    }
    if let Some(d) = o.instance(Keyword::Default) {
        let ok = d
            .to_value()
            .as_number()
            .and_then(Ratio::of)
            .and_then(|d| d.quotient(m))
            .is_some();
        if !ok {
            return None;
        }
    }
    Some(m)
}

/// The factor as the schema spells it (`5`, `0.01`).
fn spelled(m: Ratio) -> String {
    m.times_text(1)
        .unwrap_or_else(|| format!("{}/{}", m.p, m.q))
}

/// What the encoded node's description says.
fn hint(m: Ratio) -> String {
    let f = spelled(m);
    let three = m.times_text(3).unwrap_or_default();
    format!("A multiple of {f}, written as how many times {f} goes into it (send 3 for {three}).")
}

/// Rewrites `s` as its quotient when it is a number with a `multipleOf`: the factor (numerator
/// and denominator), or `None` when `s` is not one.
pub(crate) fn rewrite(s: &mut Schema) -> Option<(i64, i64)> {
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
        i128::max,
    );
    let high = tighter(
        quotient_bound(o, Keyword::Maximum, m)?,
        quotient_bound(o, Keyword::ExclusiveMaximum, m)?,
        i128::min,
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
    for (kw, b) in [(Keyword::Minimum, low), (Keyword::Maximum, high)] {
        if let Some(n) = b.and_then(|b| serde_json::from_str::<Number>(&b.to_string()).ok()) {
            o.insert(kw, Value::Number(n));
        }
    }
    let (of, per) = (i64::try_from(m.p).ok()?, i64::try_from(m.q).ok()?);
    if let Some(d) = o.instance(Keyword::Default) {
        let q = encode_value(of, per, &d.to_value());
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
    Some((of, per))
}

/// The bound `kw` of `o` said of the quotient (inclusive): `Some(None)` when there is none,
/// `None` when it cannot be read.
fn quotient_bound(o: &SchemaObject, kw: Keyword, m: Ratio) -> Option<Option<i128>> {
    let Some(v) = o.get(kw) else {
        return Some(None);
    };
    let Value::Number(n) = v else { return None };
    let b = Ratio::of(n)?;
    // `q ≥ b/m` ⟺ `q ≥ ⌈b/m⌉` (an integer); `q > b/m` ⟺ `q ≥ ⌊b/m⌋ + 1`; and so on.
    Some(Some(match kw {
        Keyword::Minimum => b.quotient_rounded(m, true)?,
        Keyword::ExclusiveMinimum => b.quotient_rounded(m, false)?.checked_add(1)?,
        Keyword::Maximum => b.quotient_rounded(m, false)?,
        _ => b.quotient_rounded(m, true)?.checked_sub(1)?,
    }))
}

/// Of two bounds on one side, the one that says more (`pick`: `max` for lower bounds).
fn tighter(a: Option<i128>, b: Option<i128>, pick: fn(i128, i128) -> i128) -> Option<i128> {
    match (a, b) {
        (Some(a), Some(b)) => Some(pick(a, b)),
        (a, b) => a.or(b),
    }
}

/// The factor of an [`Encoding::Multiple`](super::Encoding).
fn ratio(of: i64, per: i64) -> Ratio {
    Ratio {
        p: i128::from(of),
        q: i128::from(per.max(1)),
    }
}

/// The value a quotient `v` stands for: `v × of / per` (an integer quotient only).
fn product(of: i64, per: i64, v: &serde_json::Value) -> Option<serde_json::Value> {
    let q = Ratio::of(v.as_number()?)?;
    if q.q != 1 {
        return None;
    }
    serde_json::from_str(&ratio(of, per).times_text(q.p)?).ok()
}

/// See [`Encoding::decode_text`](super::Encoding): an integer is multiplied, anything else
/// stays (reported).
pub(crate) fn decode_text(
    of: i64,
    per: i64,
    at: At<'_>,
    out: &mut Vec<u8>,
    notes: &mut Vec<String>,
) -> Option<(usize, bool)> {
    let At { s, i, end } = at;
    let mut v: serde_json::Value = match serde_json::from_slice(&s[i..end]) {
        Ok(v) => v,
        Err(_) => return at.copy(out),
    };
    if decode_value(of, per, &mut v, notes) {
        out.extend_from_slice(v.to_string().as_bytes());
        return Some((end, true));
    }
    at.copy(out)
}

/// See [`Encoding::decode_value`](super::Encoding).
pub(crate) fn decode_value(
    of: i64,
    per: i64,
    v: &mut serde_json::Value,
    notes: &mut Vec<String>,
) -> bool {
    match product(of, per, v) {
        Some(p) => {
            *v = p;
            true
        }
        None => {
            let f = spelled(ratio(of, per));
            notes.push(format!("not an integer count of {f}, kept: {v}"));
            false
        }
    }
}

/// See [`Encoding::encode_value`](super::Encoding): a multiple as its quotient; another
/// number as a fractional ratio, which the integer type rejects; anything else as it is.
pub(crate) fn encode_value(of: i64, per: i64, v: &serde_json::Value) -> serde_json::Value {
    let Some(n) = v.as_number() else {
        return v.clone();
    };
    let m = ratio(of, per);
    if let Some(q) = Ratio::of(n).and_then(|x| x.quotient(m))
        && let Ok(q) = serde_json::from_str::<Number>(&q.to_string())
    {
        return serde_json::Value::Number(q);
    }
    let ratio = n.as_f64().unwrap_or(0.0) * m.q as f64 / m.p as f64;
    let ratio = if ratio.is_finite() && ratio.fract() != 0.0 {
        ratio
    } else {
        0.5
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
        assert_eq!(rewrite(&mut s), Some((5, 1)));
        assert_eq!(
            s.to_json_string(),
            format!(
                r#"{{"type":"integer","default":2,"minimum":1,"maximum":3,"description":"{}"}}"#,
                hint(Ratio::int(5))
            )
        );
        // Negative and fractional bounds round towards the inside.
        let mut s = Schema::from_str(r#"{"multipleOf":2,"minimum":-3.5,"maximum":-0.5}"#).unwrap();
        assert_eq!(rewrite(&mut s), Some((2, 1)));
        let o = s.as_object().unwrap();
        let bound = |k| o.number(k).and_then(Number::as_i64);
        assert_eq!(
            (bound(Keyword::Minimum), bound(Keyword::Maximum)),
            (Some(-1), Some(-1))
        );
        // Cents; and of an integer, the least integer multiple of the factor.
        let mut s = Schema::from_str(r#"{"multipleOf":0.01,"exclusiveMinimum":0}"#).unwrap();
        assert_eq!(rewrite(&mut s), Some((1, 100)));
        assert!(s.to_json_string().contains(r#""minimum":1,"#));
        assert!(s.to_json_string().contains("(send 3 for 0.03)"));
        let mut s = Schema::from_str(r#"{"type":"integer","multipleOf":1.5}"#).unwrap();
        assert_eq!(rewrite(&mut s), Some((3, 1)));
    }

    #[test]
    fn parts_join_the_factor_and_other_nodes_stay() {
        let mut s = Schema::from_str(
            r#"{"allOf":[{"multipleOf":2}],"anyOf":[{"multipleOf":3}],"oneOf":[{"multipleOf":5}]}"#,
        )
        .unwrap();
        assert_eq!(rewrite(&mut s), Some((30, 1)));
        for text in [
            r#"{"multipleOf":1}"#,
            r#"{"type":"integer","multipleOf":0.5}"#,
            r#"{"multipleOf":-2}"#,
            r#"{"multipleOf":1e-40}"#,
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
        assert!(decode_value(5, 1, &mut v, &mut notes) && v == json!(15));
        let mut v = json!(1999);
        assert!(decode_value(1, 100, &mut v, &mut notes) && v == json!(19.99));
        let mut v = json!("3");
        assert!(!decode_value(5, 1, &mut v, &mut notes) && notes.len() == 1);
        let mut v = json!(2.5);
        assert!(!decode_value(5, 1, &mut v, &mut notes) && notes.len() == 2);
        let mut out = Vec::new();
        assert_eq!(
            decode_text(5, 1, At::of(b"-2 ", 0).unwrap(), &mut out, &mut notes),
            Some((2, true))
        );
        assert_eq!(out, b"-10");
        out.clear();
        assert_eq!(
            decode_text(1, 10_000, At::of(b"75", 0).unwrap(), &mut out, &mut notes),
            Some((2, true))
        );
        assert_eq!(out, b"0.0075");
        assert_eq!(encode_value(5, 1, &json!(15)), json!(3));
        assert_eq!(encode_value(5, 1, &json!(15.0)), json!(3));
        assert_eq!(encode_value(1, 100, &json!(19.99)), json!(1999));
        for (of, per, v) in [
            (5, 1, json!(16)),
            (1, 10_000, json!(0.00751)),
            (5, 1, json!(1e308)),
        ] {
            let e = encode_value(of, per, &v);
            assert!(e.as_f64().is_some_and(|f| f.fract() != 0.0), "{v}: {e}");
        }
        assert_eq!(encode_value(5, 1, &json!("x")), json!("x"));
    }

    #[test]
    fn gemini_sees_only_the_multiples() {
        let s = json!({"type": "integer", "multipleOf": 4, "maximum": 12});
        assert!(accepts(s.clone(), json!(8)) && accepts(s.clone(), json!(-4)));
        assert!(!accepts(s.clone(), json!(6)) && !accepts(s, json!(16)));
        let s = json!({"type": "number", "multipleOf": 0.01});
        assert!(accepts(s.clone(), json!(19.99)) && !accepts(s, json!(19.999)));
    }
}
