//! The strict-null decoders over the corpus: for every MCP tool sent under `openai-strict`, the
//! answer a model gives with `null` for every optional property (valid under the sanitized
//! schema) decodes to arguments the tool's own schema accepts.

use provider_rules::{Rules, Slot, sanitize};
use schema_core::Schema;
use serde_json::Value;
use std::path::Path;

fn corpus_dir() -> &'static Path {
    Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/corpus/mcp"
    ))
}

/// The tools' input schemas: (name, schema).
fn tools() -> Vec<(String, Value)> {
    let mut files: Vec<_> = std::fs::read_dir(corpus_dir())
        .expect("corpus/mcp")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let v: Value = serde_json::from_slice(&std::fs::read(&f).expect("read")).expect("json");
        for t in v["tools"].as_array().cloned().unwrap_or_default() {
            if let Some(s) = t.get("inputSchema") {
                out.push((format!("{}/{}", f.display(), t["name"]), s.clone()));
            }
        }
    }
    out
}

/// What a strict model sends: every optional property of every object it fills is `null`.
fn fill_nulls(schema: &Value, v: &mut Value, depth: usize) {
    if depth > 32 {
        return;
    }
    match v {
        Value::Object(map) => {
            let Some(props) = schema.get("properties").and_then(Value::as_object) else {
                return;
            };
            for (name, s) in props {
                match map.get_mut(name) {
                    Some(child) => fill_nulls(s, child, depth + 1),
                    None => {
                        map.insert(name.clone(), Value::Null);
                    }
                }
            }
        }
        Value::Array(items) => {
            if let Some(s) = schema.get("items") {
                for item in items {
                    fill_nulls(s, item, depth + 1);
                }
            }
        }
        _ => {}
    }
}

#[test]
fn strict_null_answers_decode_to_what_the_original_schema_accepts() {
    let mut checked = 0;
    let mut decoded = 0;
    for (name, original) in tools() {
        let schema = Schema::from_str(&original.to_string()).expect("schema");
        let out = sanitize(&schema, &Rules::OPENAI_STRICT, Slot::Parameters);
        if !out.report.strict_compatible {
            continue;
        }
        let sanitized = out.schema.to_value();
        let mut answer = tool_calls::example_arguments(&original);
        if tool_calls::validate(&original, &answer).is_err() {
            // The generator is a best effort; a tool it cannot satisfy says nothing here.
            continue;
        }
        fill_nulls(&original, &mut answer, 0);
        if tool_calls::validate(&sanitized, &answer).is_err() {
            continue;
        }
        checked += 1;
        let text = answer.to_string();
        let restored = out
            .decoder
            .decode_json(&text)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let restored: Value = match restored {
            Some(t) => {
                decoded += 1;
                serde_json::from_str(&t).expect("decoded JSON")
            }
            None => answer.clone(),
        };
        if let Err(e) = tool_calls::validate(&original, &restored) {
            panic!("{name}: decoded {restored} is invalid under the original: {e}");
        }
        // The tree decoder and the text decoder agree.
        let mut v = answer.clone();
        out.decoder.decode_value(&mut v);
        assert_eq!(v, restored, "{name}");
    }
    assert!(checked > 100, "only {checked} tools checked");
    assert!(decoded > 50, "only {decoded} answers needed decoding");
    eprintln!("{checked} strict tools checked, {decoded} answers decoded");
}

#[test]
fn a_property_already_nullable_keeps_its_null() {
    let s = Schema::from_str(
        r#"{"type":"object","properties":{"a":{"type":["string","null"]},"b":{"type":"string"}}}"#,
    )
    .expect("schema");
    let out = sanitize(&s, &Rules::OPENAI_STRICT, Slot::Parameters);
    assert_eq!(out.decoder.drop_null, ["b"]);
    assert_eq!(
        out.decoder
            .decode_json(r#"{"a":null,"b":null}"#)
            .expect("json")
            .as_deref(),
        Some(r#"{"a":null}"#)
    );
    // Sanitizing the result again changes nothing, so it needs no decoder.
    let again = sanitize(&out.schema, &Rules::OPENAI_STRICT, Slot::Parameters);
    assert!(again.decoder.is_identity());
    // A non-strict profile makes nothing nullable.
    assert!(
        sanitize(&s, &Rules::OPENAI, Slot::Parameters)
            .decoder
            .is_identity()
    );
}

#[test]
fn nested_objects_and_arrays_of_objects_get_their_decoders() {
    let s = Schema::from_str(
        r#"{"type":"object","properties":{
            "filter":{"type":"object","properties":{"since":{"type":"string"},"tag":{"type":"string"}},"required":["tag"]},
            "rows":{"type":"array","items":{"type":"object","properties":{"k":{"type":"string"},"v":{"type":"integer"}},"required":["k"]}}
        },"required":["filter","rows"]}"#,
    )
    .expect("schema");
    let out = sanitize(&s, &Rules::OPENAI_STRICT, Slot::Parameters);
    let sent = r#"{"filter":{"since":null,"tag":"x"},"rows":[{"k":"a","v":null},{"k":"b","v":2}]}"#;
    assert_eq!(
        out.decoder.decode_json(sent).expect("json").as_deref(),
        Some(r#"{"filter":{"tag":"x"},"rows":[{"k":"a"},{"k":"b","v":2}]}"#)
    );
}
