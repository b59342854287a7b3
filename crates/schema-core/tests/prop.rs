//! Property tests over arbitrary JSON-ish schemas: the parser never panics, the round trip is
//! exact and stable, the output is valid JSON, and the walk visits each subschema once.

use proptest::prelude::*;
use schema_core::{Keyword, ParseOptions, Schema, Visit};

mod common;
use common::same_tokens;

/// A JSON value whose objects keep their key order.
#[derive(Clone, Debug)]
enum J {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    /// A number spelled otherwise than serde_json would (`1e2`, `1.50`, `-0`).
    NumText(&'static str),
    Str(String),
    Arr(Vec<J>),
    Obj(Vec<(String, J)>),
}

impl J {
    fn write(&self, out: &mut String) {
        match self {
            J::Null => out.push_str("null"),
            J::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            J::Int(i) => out.push_str(&i.to_string()),
            J::Float(f) => out.push_str(&serde_json::to_string(f).unwrap()),
            J::NumText(t) => out.push_str(t),
            J::Str(s) => out.push_str(&serde_json::to_string(s).unwrap()),
            J::Arr(items) => {
                out.push('[');
                for (i, x) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    x.write(out);
                }
                out.push(']');
            }
            J::Obj(entries) => {
                out.push('{');
                for (i, (k, v)) in entries.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(&serde_json::to_string(k).unwrap());
                    out.push(':');
                    v.write(out);
                }
                out.push('}');
            }
        }
    }

    fn has_num_text(&self) -> bool {
        match self {
            J::NumText(_) => true,
            J::Arr(items) => items.iter().any(J::has_num_text),
            J::Obj(entries) => entries.iter().any(|(_, v)| v.has_num_text()),
            _ => false,
        }
    }

    fn text(&self) -> String {
        let mut s = String::new();
        self.write(&mut s);
        s
    }
}

fn key() -> impl Strategy<Value = String> {
    let keywords: Vec<String> = Keyword::ALL.iter().map(|k| k.as_str().to_owned()).collect();
    prop_oneof![
        6 => proptest::sample::select(keywords),
        1 => "[a-z$~/\"\\\\ é-]{0,5}",
    ]
}

fn string() -> impl Strategy<Value = String> {
    prop_oneof![
        proptest::sample::select(vec![
            "string",
            "number",
            "integer",
            "object",
            "array",
            "boolean",
            "null",
            "#",
            "#/$defs/a",
        ])
        .prop_map(str::to_owned),
        "[a-zA-Z0-9 \"\\\\/~\n\t\u{1}é😀]{0,8}",
    ]
}

fn json() -> impl Strategy<Value = J> {
    let leaf = prop_oneof![
        Just(J::Null),
        any::<bool>().prop_map(J::Bool),
        (-1000i64..1000).prop_map(J::Int),
        any::<i64>().prop_map(J::Int),
        (-1e6f64..1e6).prop_map(J::Float),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(J::Float),
        string().prop_map(J::Str),
        proptest::sample::select(vec![
            "1e2",
            "1.50",
            "-0",
            "1E+2",
            "0.1e-3",
            "-12.0e0",
            "100000000000000000000000"
        ])
        .prop_map(J::NumText),
    ];
    leaf.prop_recursive(6, 96, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(J::Arr),
            prop::collection::vec((key(), inner), 0..6).prop_map(|mut entries| {
                // Unique keys (a duplicate keeps its last value at its first position).
                let mut seen = std::collections::HashSet::new();
                entries.retain(|(k, _)| seen.insert(k.clone()));
                J::Obj(entries)
            }),
        ]
    })
}

/// A schema-shaped root: an object (most of the time) or a boolean.
fn root() -> impl Strategy<Value = J> {
    prop_oneof![
        8 => prop::collection::vec((key(), json()), 0..8).prop_map(|mut entries| {
            let mut seen = std::collections::HashSet::new();
            entries.retain(|(k, _)| seen.insert(k.clone()));
            J::Obj(entries)
        }),
        1 => any::<bool>().prop_map(J::Bool),
    ]
}

fn count_manually(s: &Schema) -> usize {
    let mut n = 1;
    s.for_each_child(|_, c| n += count_manually(c));
    n
}

/// The pointers the walk enters, in order.
fn walked(s: &Schema) -> Vec<String> {
    struct Ptrs(Vec<String>);
    impl Visit for Ptrs {
        fn enter(&mut self, p: &str, _: &Schema) -> bool {
            self.0.push(p.to_owned());
            true
        }
    }
    let mut v = Ptrs(Vec::new());
    s.walk(&mut v);
    v.0
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn parse_never_panics_on_any_bytes(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
        let _ = Schema::parse(&bytes, &ParseOptions::default());
    }

    #[test]
    fn parse_never_panics_on_any_json(x in json()) {
        let text = x.text();
        let parsed = Schema::parse(text.as_bytes(), &ParseOptions::default()).unwrap();
        let out = parsed.schema.to_json_string();
        prop_assert!(serde_json::from_str::<serde_json::Value>(&out).is_ok());
    }

    #[test]
    fn round_trip_is_exact_and_stable(x in root()) {
        let text = x.text();
        let parsed = Schema::parse(text.as_bytes(), &ParseOptions::default()).unwrap();
        let out = parsed.schema.to_json_string();
        // Valid JSON, and the same value as the input.
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        prop_assert_eq!(&v, &serde_json::from_str::<serde_json::Value>(&text).unwrap());
        // The same text, key order and number spelling included (a number that is a typed
        // keyword value, `"minimum": 1e2`, is written as `100.0`).
        if !x.has_num_text() {
            prop_assert_eq!(&out, &text);
        } else if out != text {
            prop_assert!(same_tokens(&out, &text), "{} vs {}", out, text);
        }
        // parse(serialize(parse(x))) == parse(x).
        let again = Schema::parse(out.as_bytes(), &ParseOptions::default()).unwrap();
        prop_assert_eq!(&again.schema, &parsed.schema);
        prop_assert_eq!(&again.diagnostics, &parsed.diagnostics);
        // Through serde_json::Value too: exactly what serde_json writes for it (its key
        // order; serde_json's own float parsing does not always round-trip, so compare text).
        let from_value = Schema::from_value(&v);
        prop_assert_eq!(from_value.to_json_string(), serde_json::to_string(&v).unwrap());
        // Clone is equal; pretty output parses to the same tree.
        prop_assert_eq!(&parsed.schema.clone(), &parsed.schema);
        prop_assert_eq!(&Schema::from_str(&parsed.schema.to_json_pretty()).unwrap(), &parsed.schema);
    }

    #[test]
    fn walk_visits_each_subschema_exactly_once(x in root()) {
        let schema = Schema::from_str(&x.text()).unwrap();
        let visited = walked(&schema);
        prop_assert_eq!(visited.len(), count_manually(&schema));
        let mut unique = visited.clone();
        unique.sort_unstable();
        unique.dedup();
        prop_assert_eq!(unique.len(), visited.len(), "pointers are unique");
        // Each pointer leads back to a subschema (through typed positions only).
        for p in &visited {
            let segs = schema_core::pointer::segments(p).unwrap();
            prop_assert!(schema.pointer_get(&segs).is_some(), "{}", p);
        }
    }

    #[test]
    fn inline_refs_terminates_and_is_valid(x in root()) {
        let schema = Schema::from_str(&x.text()).unwrap();
        let out = schema.inline_refs(&schema_core::InlineOptions::default());
        let text = out.schema.to_json_string();
        prop_assert!(serde_json::from_str::<serde_json::Value>(&text).is_ok());
        prop_assert_eq!(out.remaining_refs, out.schema.count_refs());
    }
}
