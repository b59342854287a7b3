//! Property tests of the encodings' round trip (issue 16): values generated from a schema (a
//! proptest strategy that follows `type`, `enum`/`const`, `properties`/`required`,
//! `additionalProperties`, `items`/`prefixItems` and `anyOf`), for every profile with
//! encodings:
//!
//! - from the original schema: `encode(x)` is valid under the sanitized schema and
//!   `decode(encode(x)) == x` (as values and through the text decoder);
//! - from the sanitized schema: `decode(y)` is valid under the original (these schemas are ones
//!   the sanitized form says exactly: maps, any values, numeric enums, tuples).

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use provider_rules::{PROFILES, Rules, SanitizeOptions, Slot, sanitize_with};
use schema_core::Schema;
use serde_json::{Map, Value, json};

/// Tools whose every constraint an encoding says.
fn tools() -> Vec<Value> {
    vec![
        json!({"type": "object", "properties": {
            "env": {"type": "object", "additionalProperties": {"type": "string"}},
            "meta": {"type": "object", "additionalProperties": true},
            "data": {},
            "list": {"type": "array", "items": {}},
            "level": {"type": "integer", "enum": [1, 2, 3]},
            "on": {"const": true},
            "point": {"type": "array", "prefixItems": [{"type": "number"}, {"type": "string"}], "items": false, "minItems": 2},
            "name": {"type": "string"}},
          "required": ["env", "data", "point", "level"]}),
        json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "properties": {
            "rows": {"type": "array", "items": {"type": "object", "properties": {
                "cells": {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "integer"}}},
                "tag": {"enum": ["a", 1, false]}},
              "required": ["cells"]}},
            "pair": {"type": "array", "items": [{"type": "integer"}, {"type": "object", "additionalProperties": {"type": "boolean"}}], "additionalItems": false, "minItems": 2}},
          "required": ["rows"]}),
    ]
}

fn leaf() -> BoxedStrategy<Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-50i64..50).prop_map(|n| json!(n)),
        Just(json!(2.5)),
        "[a-z1 \"{}]{0,6}".prop_map(Value::String),
    ]
    .boxed()
}

fn any_value(depth: u32) -> BoxedStrategy<Value> {
    leaf()
        .prop_recursive(depth, 12, 3, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
                prop::collection::btree_map("[a-z]{1,3}", inner, 0..3)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
        .boxed()
}

fn string() -> BoxedStrategy<Value> {
    "[a-z1\\[\\]{}\" ]{0,8}".prop_map(Value::String).boxed()
}

/// Values of `schema` (the subset the tools above and their sanitized forms use).
fn values(schema: &Value) -> BoxedStrategy<Value> {
    let Value::Object(s) = schema else {
        return if schema == &Value::Bool(false) {
            Just(Value::Null).boxed()
        } else {
            any_value(2)
        };
    };
    if let Some(Value::Array(list)) = s.get("enum") {
        return proptest::sample::select(list.clone()).boxed();
    }
    if let Some(c) = s.get("const") {
        return Just(c.clone()).boxed();
    }
    if let Some(Value::Array(branches)) = s.get("anyOf") {
        let options: Vec<BoxedStrategy<Value>> = branches.iter().map(values).collect();
        return proptest::strategy::Union::new(options).boxed();
    }
    let types: Vec<&str> = match s.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => {
            if s.contains_key("properties") || s.contains_key("additionalProperties") {
                vec!["object"]
            } else if s.contains_key("items") || s.contains_key("prefixItems") {
                vec!["array"]
            } else {
                return any_value(2);
            }
        }
    };
    let options: Vec<BoxedStrategy<Value>> = types.iter().map(|t| typed(s, t)).collect();
    proptest::strategy::Union::new(options).boxed()
}

fn typed(s: &Map<String, Value>, t: &str) -> BoxedStrategy<Value> {
    match t {
        "null" => Just(Value::Null).boxed(),
        "boolean" => any::<bool>().prop_map(Value::Bool).boxed(),
        "integer" => (-50i64..50).prop_map(|n| json!(n)).boxed(),
        "number" => prop_oneof![(-50i64..50).prop_map(|n| json!(n)), Just(json!(-0.5))].boxed(),
        "string" => string(),
        "array" => {
            let prefix: Vec<BoxedStrategy<Value>> = match s.get("prefixItems").or(s.get("items")) {
                Some(Value::Array(p)) => p.iter().map(values).collect(),
                _ => Vec::new(),
            };
            let rest = match s
                .get("prefixItems")
                .map(|_| s.get("items"))
                .unwrap_or(s.get("additionalItems"))
            {
                Some(Value::Bool(false)) => None,
                Some(r @ Value::Object(_))
                    if !prefix.is_empty() || s.contains_key("prefixItems") =>
                {
                    Some(values(r))
                }
                None if !prefix.is_empty() => Some(any_value(1)),
                _ => None,
            };
            if prefix.is_empty() && !s.contains_key("prefixItems") {
                let item = match s.get("items") {
                    Some(i @ Value::Object(_)) => values(i),
                    _ => any_value(1),
                };
                return prop::collection::vec(item, 0..3)
                    .prop_map(Value::Array)
                    .boxed();
            }
            let min = s.get("minItems").and_then(Value::as_u64).unwrap_or(0) as usize;
            let n = prefix.len();
            let more = rest.map_or_else(
                || Just(Vec::new()).boxed(),
                |r| prop::collection::vec(r, 0..2).boxed(),
            );
            (prefix, min..=n, more)
                .prop_map(move |(p, k, m)| {
                    let mut list: Vec<Value> = p.into_iter().take(k).collect();
                    if list.len() == n {
                        list.extend(m);
                    }
                    Value::Array(list)
                })
                .boxed()
        }
        _ => {
            let props: Vec<(String, BoxedStrategy<Value>, bool)> = match s.get("properties") {
                Some(Value::Object(p)) => {
                    let required: Vec<&str> = s
                        .get("required")
                        .and_then(Value::as_array)
                        .map(|r| r.iter().filter_map(Value::as_str).collect())
                        .unwrap_or_default();
                    p.iter()
                        .map(|(k, v)| (k.clone(), values(v), required.contains(&k.as_str())))
                        .collect()
                }
                _ => Vec::new(),
            };
            let extra = match s.get("additionalProperties") {
                Some(Value::Bool(false)) => None,
                Some(v @ Value::Object(_)) => Some(values(v)),
                _ if props.is_empty() => Some(any_value(1)),
                _ => None,
            };
            let fields: Vec<BoxedStrategy<Option<(String, Value)>>> = props
                .into_iter()
                .map(|(k, v, req)| {
                    let k2 = k.clone();
                    if req {
                        v.prop_map(move |x| Some((k2.clone(), x))).boxed()
                    } else {
                        prop::option::of(v)
                            .prop_map(move |x| x.map(|x| (k.clone(), x)))
                            .boxed()
                    }
                })
                .collect();
            let more = extra.map_or_else(
                || Just(Vec::new()).boxed(),
                |e| prop::collection::vec(("[A-Z]{1,2}", e), 0..3).boxed(),
            );
            (fields, more)
                .prop_map(|(f, m)| {
                    let mut o = Map::new();
                    for (k, v) in f.into_iter().flatten().chain(m) {
                        o.insert(k, v);
                    }
                    Value::Object(o)
                })
                .boxed()
        }
    }
}

/// The sanitized schema read as plain JSON Schema (`nullable` as a null branch).
fn to_plain(v: &Value) -> Value {
    match v {
        Value::Object(o) => {
            let mut out = Map::new();
            for (k, x) in o {
                match k.as_str() {
                    "nullable" | "propertyOrdering" => {}
                    "enum" | "const" | "required" | "default" => {
                        out.insert(k.clone(), x.clone());
                    }
                    "properties" => {
                        let m = x
                            .as_object()
                            .map(|m| m.iter().map(|(n, s)| (n.clone(), to_plain(s))).collect());
                        out.insert(k.clone(), m.map_or(x.clone(), Value::Object));
                    }
                    _ => {
                        let y = match x {
                            Value::Object(_) => to_plain(x),
                            Value::Array(l) => Value::Array(l.iter().map(to_plain).collect()),
                            _ => x.clone(),
                        };
                        out.insert(k.clone(), y);
                    }
                }
            }
            if o.get("nullable") == Some(&Value::Bool(true)) {
                json!({"anyOf": [Value::Object(out), {"type": "null"}]})
            } else {
                Value::Object(out)
            }
        }
        _ => v.clone(),
    }
}

fn validator(v: &Value) -> jsonschema::Validator {
    jsonschema::options()
        .build(v)
        .expect("a schema jsonschema compiles")
}

fn profiles() -> impl Iterator<Item = &'static Rules> {
    PROFILES.iter().copied().filter(|r| r.encodings.any())
}

#[test]
fn original_values_encode_to_sanitized_ones_and_decode_back() {
    for tool in tools() {
        let original = validator(&tool);
        for rules in profiles() {
            let out = sanitize_with(
                &Schema::from_value(&tool),
                rules,
                Slot::Parameters,
                &SanitizeOptions::ENCODE,
            );
            assert!(
                out.report.strict_compatible,
                "{}: {:?}",
                rules.name(),
                out.report.changes
            );
            let sanitized = validator(&to_plain(&out.schema.to_value()));
            let mut runner = TestRunner::new(Config {
                cases: 64,
                ..Config::default()
            });
            runner
                .run(&values(&tool), |x| {
                    prop_assert!(original.is_valid(&x), "generated {x} is not valid");
                    let y = out.decoder.encode_value(&x);
                    prop_assert!(
                        sanitized.is_valid(&y),
                        "{}: {x} encoded {y} under {}",
                        rules.name(),
                        out.schema
                    );
                    let mut back = y.clone();
                    out.decoder.decode_value(&mut back);
                    prop_assert_eq!(&back, &x, "{}", rules.name());
                    let text = out.decoder.decode_json(&y.to_string()).expect("json");
                    let text: Value = text.map_or(y.clone(), |t| {
                        serde_json::from_str(&t).expect("decoded json")
                    });
                    prop_assert_eq!(&text, &x, "{}", rules.name());
                    Ok(())
                })
                .unwrap_or_else(|e| panic!("{}: {e}", rules.name()));
        }
    }
}

#[test]
fn sanitized_values_decode_to_original_ones() {
    for tool in tools() {
        let original = validator(&tool);
        for rules in profiles() {
            let out = sanitize_with(
                &Schema::from_value(&tool),
                rules,
                Slot::Parameters,
                &SanitizeOptions::ENCODE,
            );
            let plain = to_plain(&out.schema.to_value());
            let sanitized = validator(&plain);
            let mut runner = TestRunner::new(Config {
                cases: 64,
                ..Config::default()
            });
            runner
                .run(&values(&plain), |y| {
                    prop_assume!(sanitized.is_valid(&y));
                    let mut x = y.clone();
                    out.decoder.decode_value(&mut x);
                    prop_assert!(original.is_valid(&x), "{}: {y} decoded {x}", rules.name());
                    Ok(())
                })
                .unwrap_or_else(|e| panic!("{}: {e}", rules.name()));
        }
    }
}

proptest! {
    /// Whatever text a model sends, the decoders of every profile never panic, and what they
    /// return is JSON.
    #[test]
    fn decoding_any_text_never_panics_and_returns_json(
        text in prop_oneof![
            "[\\[\\]{}\",:0-9a-z \\\\tnulfe.-]{0,40}",
            any_value(3).prop_map(|v| v.to_string()),
        ],
        tool in 0usize..2,
    ) {
        let tool = &tools()[tool];
        for rules in profiles() {
            let out = sanitize_with(&Schema::from_value(tool), rules, Slot::Parameters, &SanitizeOptions::ENCODE);
            if let Ok(d) = out.decoder.decode_json_noted(&text)
                && let Some(t) = d.text
            {
                prop_assert!(serde_json::from_str::<Value>(&t).is_ok(), "{}: {text} gave {t}", rules.name());
            }
            if let Ok(mut v) = serde_json::from_str::<Value>(&text) {
                out.decoder.decode_value(&mut v);
                let _ = out.decoder.encode_value(&v);
            }
        }
    }
}
