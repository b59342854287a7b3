//! The example's leaves: a string (placeholder, or one that fits `format`, length and a simple
//! `pattern`) and a number within bounds.

use super::generator::Generator;
use super::{Mode, Node};
use serde_json::{Number, Value};

impl Generator<'_> {
    pub(super) fn string(&self, schema: &Value) -> Node {
        let format = schema.get("format").and_then(Value::as_str);
        if self.mode == Mode::Placeholder {
            let label = format
                .filter(|f| crate::format::sample(f).is_some())
                .unwrap_or("string");
            return Node::Leaf(Value::String(format!("<{label}>")));
        }
        let min = schema.get("minLength").and_then(Value::as_u64).unwrap_or(0) as usize;
        let max = schema
            .get("maxLength")
            .and_then(Value::as_u64)
            .map(|m| m as usize);
        let fit = |s: &str| {
            let n = s.chars().count();
            n >= min && max.is_none_or(|m| n <= m)
        };
        let sample = format.and_then(crate::format::sample);
        let pattern = schema
            .get("pattern")
            .and_then(Value::as_str)
            .and_then(|p| regex::RegexBuilder::new(p).size_limit(1 << 20).build().ok());
        let mut candidates: Vec<String> = sample.map(str::to_owned).into_iter().collect();
        candidates.extend(
            [
                "example",
                "a",
                "abc",
                "A",
                "ABC",
                "1",
                "123",
                "abc123",
                "x1",
                "2024-01-31",
                "example.com",
                "a-b",
                "a_b",
                "AB12",
                "ab-12",
                "https://example.com/",
                "user@example.com",
                "v1.0.0",
                "main",
                "#ffffff",
                "en",
                "US",
                "00000000-0000-0000-0000-000000000000",
            ]
            .iter()
            .map(|s| (*s).to_owned()),
        );
        if let Some(re) = &pattern
            && let Some(found) = candidates.iter().find(|c| re.is_match(c) && fit(c))
        {
            return Node::Leaf(Value::String(found.clone()));
        }
        let mut s = sample.unwrap_or("example").to_owned();
        while s.chars().count() < min.min(10_000) {
            s.push('x');
        }
        if let Some(m) = max {
            s = s.chars().take(m).collect();
        }
        Node::Leaf(Value::String(s))
    }
}

/// A number within the schema's bounds (and a multiple of `multipleOf` when it can).
pub(super) fn number(schema: &Value, integer: bool) -> Value {
    let f = |k: &str| schema.get(k).and_then(Value::as_f64);
    let step = if integer { 1.0 } else { 0.5 };
    let mut lo = f("minimum");
    let mut hi = f("maximum");
    match schema.get("exclusiveMinimum") {
        Some(Value::Number(n)) => lo = n.as_f64().map(|x| x + step),
        Some(Value::Bool(true)) => lo = lo.map(|x| x + step),
        _ => {}
    }
    match schema.get("exclusiveMaximum") {
        Some(Value::Number(n)) => hi = n.as_f64().map(|x| x - step),
        Some(Value::Bool(true)) => hi = hi.map(|x| x - step),
        _ => {}
    }
    let mut v = 0.0_f64;
    if let Some(lo) = lo.filter(|lo| *lo > v) {
        v = lo;
    }
    if let Some(hi) = hi.filter(|hi| *hi < v) {
        v = hi;
    }
    if integer {
        v = v.ceil();
    }
    if let Some(m) = f("multipleOf").filter(|m| *m > 0.0) {
        let k = (v / m).ceil();
        if k.is_finite() {
            v = k * m;
        }
    }
    if v.fract() == 0.0 && v.abs() < 9.0e15 {
        Value::Number(Number::from(v as i64))
    } else {
        Number::from_f64(v).map_or(Value::Null, Value::Number)
    }
}
