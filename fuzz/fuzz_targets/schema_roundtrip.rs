//! bytes → `Schema::parse` → `to_json_string` → parse again: the trees are equal, the output is
//! valid JSON, and serializing again gives the same text. When the parser kept everything (no
//! diagnostics) and the input is plain JSON, the output means the same JSON as the input.
#![no_main]

use libfuzzer_sys::fuzz_target;
use schema_core::{ParseOptions, Schema};

fn valid_json(bytes: &[u8]) -> bool {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    de.disable_recursion_limit();
    serde::Deserialize::deserialize(&mut de)
        .map(|_: serde::de::IgnoredAny| ())
        .and_then(|()| de.end())
        .is_ok()
}

/// JSON equality, numbers compared as `f64` within a few ULPs: serde_json's default float
/// parser (no `float_roundtrip`) is not correctly rounded, schema-core's is, so the same text
/// can give neighbouring doubles (`-9.727837981759742e226`, found by this target).
fn same(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value as V;
    match (a, b) {
        (V::Number(x), V::Number(y)) => {
            if x == y {
                return true;
            }
            match (x.as_f64(), y.as_f64()) {
                (Some(x), Some(y)) => (x - y).abs() <= x.abs().max(y.abs()) * 1e-15,
                _ => false,
            }
        }
        (V::Array(x), V::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y))
        }
        (V::Object(x), V::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

fuzz_target!(|data: &[u8]| {
    let opts = ParseOptions::default();
    let Ok(first) = Schema::parse(data, &opts) else {
        return;
    };
    let text = first.schema.to_json_string();
    assert!(
        valid_json(text.as_bytes()),
        "output is not valid JSON: {text}"
    );
    let second = Schema::parse(text.as_bytes(), &opts).expect("re-parse of our own output");
    assert_eq!(
        first.schema, second.schema,
        "trees differ after a round trip:\n{text}"
    );
    assert_eq!(
        second.schema.to_json_string(),
        text,
        "serialization is not stable"
    );
    // `to_vec` and `to_value` agree with `to_json_string`.
    assert_eq!(first.schema.to_vec(), text.as_bytes());
    if first.diagnostics.is_empty()
        && let Ok(input) = serde_json::from_slice::<serde_json::Value>(data)
    {
        let output: serde_json::Value = serde_json::from_str(&text).expect("valid");
        assert!(same(&input, &output), "lossless round trip broken:\n{text}");
    }
});
