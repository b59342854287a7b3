//! The encodings over the corpus (issue 16, "The round trip, proven"), for every profile with
//! [`Encodings`](provider_rules::Encodings):
//!
//! - every MCP tool and JSON-Schema-Test-Suite schema: `check(sanitize_with(x))` finds nothing,
//!   a second run changes nothing, the result is deterministic;
//! - strict profiles: how many MCP tools stay strict with and without encodings (printed);
//! - JSON-Schema-Test-Suite, every profile with encodings: for each instance valid under the
//!   original, `encode(x)` is valid under the sanitized schema and `decode(encode(x)) == x`
//!   (as a value and through the text decoder); printed: valid kept valid and invalid kept
//!   invalid, with and without encodings, over every instance (no filter by the types a
//!   schema speaks of). That count is a round-trip check, not issue 16's Gemini figure:
//!   the issue's measure (valid kept ≥ 99.9 %, invalid kept invalid ≥ 80 %) is
//!   `jsts_soundness`'s, printed by `every_profile_keeps_valid_instances_valid`.
//!
//! `cargo test -p provider-rules --test encode_roundtrip -- --nocapture` prints the figures.

use jsonschema::Draft;
use provider_rules::{
    PROFILES, Rules, SanitizeOptions, Slot, check_schema, sanitize, sanitize_with,
};
use schema_core::Schema;
use serde_json::{Value, json};
use std::path::Path;

#[path = "common/jsts_suite.rs"]
mod jsts_suite;
#[path = "common/ref_schemas.rs"]
mod ref_schemas;

use jsts_suite::cases as jsts;

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/corpus");

fn encoding_profiles() -> impl Iterator<Item = &'static Rules> {
    PROFILES.iter().copied().filter(|r| r.encodings.any())
}

/// The MCP tools' input schemas: (name, schema).
fn tools() -> Vec<(String, Value)> {
    mcp_schemas("inputSchema")
}

/// The MCP tools' schemas under `key` (`inputSchema`, `outputSchema`): (name, schema).
fn mcp_schemas(key: &str) -> Vec<(String, Value)> {
    let mut files: Vec<_> = std::fs::read_dir(Path::new(CORPUS).join("mcp"))
        .expect("corpus/mcp")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let v: Value = serde_json::from_slice(&std::fs::read(&f).expect("read")).expect("json");
        let stem = f
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("?")
            .to_owned();
        for t in v["tools"].as_array().cloned().unwrap_or_default() {
            if let Some(s) = t.get(key) {
                out.push((format!("{stem}/{}", t["name"]), s.clone()));
            }
        }
    }
    out
}

/// The suite's validator, `None` for a schema with remote references.
fn validator(schema: &Value, draft: Draft) -> Option<jsonschema::Validator> {
    if schema.to_string().contains("http://localhost:1234") {
        return None;
    }
    jsts_suite::validator(schema, draft)
}

/// The sanitized schema read back as plain JSON Schema: OpenAPI `nullable: true` is a null
/// branch; Gemini-only keywords go.
fn to_plain(v: &Value) -> Value {
    match v {
        Value::Object(o) => {
            let mut out = serde_json::Map::new();
            for (k, x) in o {
                if matches!(k.as_str(), "propertyOrdering" | "example" | "nullable") {
                    continue;
                }
                let x = match (k.as_str(), x) {
                    ("enum" | "const" | "default" | "examples" | "required", _) => x.clone(),
                    ("properties" | "$defs" | "definitions", Value::Object(m)) => {
                        Value::Object(m.iter().map(|(n, s)| (n.clone(), to_plain(s))).collect())
                    }
                    (_, Value::Object(_)) => to_plain(x),
                    (_, Value::Array(list)) => Value::Array(list.iter().map(to_plain).collect()),
                    _ => x.clone(),
                };
                out.insert(k.clone(), x);
            }
            let out = Value::Object(out);
            if o.get("nullable") == Some(&Value::Bool(true)) {
                json!({"anyOf": [out, {"type": "null"}]})
            } else {
                out
            }
        }
        _ => v.clone(),
    }
}

/// Equal as JSON Schema sees values: numbers by value (`1.0` is `1`).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x == y || x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, a)| y.get(k).is_some_and(|b| same(a, b)))
        }
        _ => a == b,
    }
}

/// Panics with the first failures, if any.
fn fail_on(mut failures: Vec<String>, what: &str) {
    if !failures.is_empty() {
        let n = failures.len();
        failures.truncate(20);
        panic!("{n} {what}; first ones:\n{}", failures.join("\n"));
    }
}

fn pct(a: usize, b: usize) -> f64 {
    if b == 0 {
        100.0
    } else {
        100.0 * a as f64 / b as f64
    }
}

#[test]
fn every_encoding_profile_is_checked_idempotent_and_deterministic_over_the_corpus() {
    let mut schemas: Vec<(String, Slot, Value)> = tools()
        .into_iter()
        .map(|(n, s)| (n, Slot::Parameters, s))
        .collect();
    schemas.extend(jsts().into_iter().map(|c| (c.id, Slot::Schema, c.schema)));
    let mut failures = Vec::new();
    for rules in encoding_profiles() {
        for (name, slot, v) in &schemas {
            let schema = Schema::from_value(v);
            let out = sanitize_with(&schema, rules, *slot, &SanitizeOptions::ENCODE);
            let again = sanitize_with(&out.schema, rules, *slot, &SanitizeOptions::ENCODE);
            // The engine makes up nodes (from `dependentSchemas`, `not`, conditionals...)
            // after the encodings ran: `sanitize_with` encodes those in a second run of its
            // own, so a run on its output changes nothing, JSTS schemas included.
            if again.schema != out.schema || !again.report.is_empty() {
                failures.push(format!(
                    "{} {name}: not idempotent:\n  once:  {}\n  twice: {}\n  {:?}",
                    rules.name(),
                    out.schema,
                    again.schema,
                    again.report.changes
                ));
            }
            let det = sanitize_with(&schema, rules, *slot, &SanitizeOptions::ENCODE);
            if det.schema != out.schema || det.decoder != out.decoder {
                failures.push(format!("{} {name}: not deterministic", rules.name()));
            }
            if out.report.is_empty() != (out.schema == schema) {
                failures.push(format!("{} {name}: report empty but changed", rules.name()));
            }
            if !out.report.strict_compatible {
                continue;
            }
            let v: Vec<_> = check_schema(&out.schema, rules, *slot)
                .into_iter()
                .filter(|v| !out.report.is_unfixable(v))
                .collect();
            if !v.is_empty() {
                failures.push(format!(
                    "{} {name}: check: {}\n  out: {}",
                    rules.name(),
                    v.iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join("; "),
                    out.schema
                ));
            }
        }
    }
    if !failures.is_empty() {
        let n = failures.len();
        failures.truncate(20);
        panic!("{n} failures; first ones:\n{}", failures.join("\n"));
    }
}

#[test]
fn strict_profiles_keep_the_mcp_tools_strict_with_encodings() {
    let tools = tools();
    assert!(tools.len() > 500, "corpus too small: {}", tools.len());
    for rules in encoding_profiles().filter(|r| r.strict) {
        let mut plain = 0;
        let mut encoded = 0;
        let mut reasons: std::collections::BTreeMap<String, usize> = Default::default();
        for (_, v) in &tools {
            let schema = Schema::from_value(v);
            if sanitize(&schema, rules, Slot::Parameters)
                .report
                .strict_compatible
            {
                plain += 1;
            }
            let out = sanitize_with(&schema, rules, Slot::Parameters, &SanitizeOptions::ENCODE);
            if out.report.strict_compatible {
                encoded += 1;
            } else {
                for c in out
                    .report
                    .changes
                    .iter()
                    .filter(|c| c.rule == "strict-incompatible")
                {
                    let why: String = c.message.chars().take(70).collect();
                    *reasons.entry(why).or_default() += 1;
                }
            }
        }
        println!(
            "{:<18} strict kept over {} MCP tools: {:.1} % without encodings, {:.1} % with",
            rules.name(),
            tools.len(),
            pct(plain, tools.len()),
            pct(encoded, tools.len())
        );
        for (why, n) in &reasons {
            println!("    {n:>4} x {why}");
        }
        assert!(
            encoded >= plain,
            "{}: encodings lost strict tools",
            rules.name()
        );
    }
}

#[derive(Default)]
struct Tally {
    valid: usize,
    valid_kept: usize,
    invalid: usize,
    invalid_kept: usize,
}

#[test]
fn jsts_instances_round_trip_through_the_encodings() {
    let cases = jsts();
    let mut failures = Vec::new();
    for rules in encoding_profiles().filter(|r| !r.strict) {
        let (mut base, mut enc) = (Tally::default(), Tally::default());
        for case in &cases {
            let Some(original) = validator(&case.schema, case.draft) else {
                continue;
            };
            let schema = Schema::from_value(&case.schema);
            let plain_out = sanitize(&schema, rules, Slot::Schema);
            let out = sanitize_with(&schema, rules, Slot::Schema, &SanitizeOptions::ENCODE);
            let (Some(plain_v), Some(enc_v)) = (
                validator(&to_plain(&plain_out.schema.to_value()), Draft::Draft202012),
                validator(&to_plain(&out.schema.to_value()), Draft::Draft202012),
            ) else {
                continue;
            };
            for (_, x, _) in &case.tests {
                let valid = original.is_valid(x);
                let y = out.decoder.encode_value(x);
                let (b, e) = (plain_v.is_valid(x), enc_v.is_valid(&y));
                if valid {
                    base.valid += 1;
                    enc.valid += 1;
                    base.valid_kept += usize::from(b);
                    enc.valid_kept += usize::from(e);
                    let mut back = y.clone();
                    out.decoder.decode_value(&mut back);
                    let text = out
                        .decoder
                        .decode_json(&y.to_string())
                        .expect("json")
                        .map_or(y.clone(), |t| {
                            serde_json::from_str(&t).expect("decoded json")
                        });
                    if !same(&back, x) || !same(&text, x) {
                        failures.push(format!(
                            "{} {}: {x} encoded {y} decoded {back} / {text}",
                            rules.name(),
                            case.name
                        ));
                    }
                } else {
                    base.invalid += 1;
                    enc.invalid += 1;
                    base.invalid_kept += usize::from(!b);
                    enc.invalid_kept += usize::from(!e);
                }
            }
        }
        println!(
            "{:<18} JSTS, every instance (not the issue's measure, see jsts_soundness): valid kept valid: {:.1} % -> {:.1} % ({} instances); invalid kept invalid: {:.1} % -> {:.1} % ({} instances) (without -> with encodings)",
            rules.name(),
            pct(base.valid_kept, base.valid),
            pct(enc.valid_kept, enc.valid),
            enc.valid,
            pct(base.invalid_kept, base.invalid),
            pct(enc.invalid_kept, enc.invalid),
            enc.invalid,
        );
        assert!(
            pct(enc.valid_kept, enc.valid) >= pct(base.valid_kept, base.valid) - 0.5,
            "{}: encodings lost valid instances",
            rules.name()
        );
    }
    fail_on(failures, "round-trip failures");
}

/// Issue 16, strict profiles: `$defs`/`$ref` kept rather than inlined. Over the schemas of
/// the corpus that hold a `$ref` (MCP tools' input and output schemas, JSON-Schema-Test-Suite), for each profile that
/// keeps references, against the same profile inlining them: how many stay strict, bytes out
/// over bytes in, how many recursive schemas keep their recursion; and for each JSTS instance
/// valid under the original, `encode(x)` is valid under the sanitized schema (refs and all) and
/// decodes back to `x`.
#[test]
fn kept_refs_stay_strict_small_and_recursive() {
    use provider_rules::Refs;
    /// A schema, its slot, and for a JSTS one its draft and instances.
    type Row = (String, Slot, Value, Option<Draft>, Vec<(Value, bool)>);
    let mut schemas: Vec<Row> = tools()
        .into_iter()
        .map(|(n, s)| (n, Slot::Parameters, s, None, Vec::new()))
        .chain(
            mcp_schemas("outputSchema")
                .into_iter()
                .map(|(n, s)| (format!("{n} output"), Slot::Schema, s, None, Vec::new())),
        )
        .collect();
    schemas.extend(jsts().into_iter().map(|c| {
        let tests = c.tests.into_iter().map(|(_, x, v)| (x, v)).collect();
        (c.id, Slot::Schema, c.schema, Some(c.draft), tests)
    }));
    schemas.retain(|(_, _, v, _, _)| v.to_string().contains("\"$ref\""));
    // The corpus's MCP input schemas hold no `$ref` (output schemas do): two made-up tools
    // that do, a recursive tree and a schema that doubles through 12 levels of references.
    for (name, v) in [
        ("made-up/tree", ref_schemas::tree()),
        ("made-up/doubling-12", ref_schemas::doubling(12)),
    ] {
        schemas.push((name.to_owned(), Slot::Parameters, v, None, Vec::new()));
    }
    let mut failures = Vec::new();
    println!(
        "{:<20} {:>7} {:>16} {:>16} {:>22} {:>10} {:>14}",
        "profile",
        "schemas",
        "strict kept",
        "strict inlined",
        "bytes out/in kept",
        "inlined",
        "recursion kept"
    );
    for rules in PROFILES.iter().copied().filter(|r| r.refs.keeps_local()) {
        let inlining = Rules {
            refs: Refs::Inline,
            ..rules.clone()
        };
        let (mut strict, mut strict_inl, mut recursive, mut recursion_kept) = (0, 0, 0, 0);
        let (mut bytes_in, mut bytes_out, mut bytes_inl) = (0usize, 0usize, 0usize);
        let (mut valid, mut valid_kept, mut valid_inl) = (0, 0, 0);
        let (mut mcp, mut mcp_strict, mut mcp_strict_inl, mut mcp_in, mut mcp_out, mut mcp_inl) =
            (0, 0, 0, 0usize, 0usize, 0usize);
        for (name, slot, v, draft, tests) in &schemas {
            let schema = Schema::from_value(v);
            let out = sanitize_with(&schema, rules, *slot, &SanitizeOptions::ENCODE);
            let inl = sanitize_with(&schema, &inlining, *slot, &SanitizeOptions::ENCODE);
            let text = out.schema.to_json_string();
            bytes_in += v.to_string().len();
            bytes_out += text.len();
            bytes_inl += inl.schema.to_json_string().len();
            if name.ends_with(" output") {
                mcp += 1;
                mcp_strict += usize::from(out.report.strict_compatible);
                mcp_strict_inl += usize::from(inl.report.strict_compatible);
                mcp_in += v.to_string().len();
                mcp_out += text.len();
                mcp_inl += inl.schema.to_json_string().len();
            }
            strict += usize::from(out.report.strict_compatible);
            strict_inl += usize::from(inl.report.strict_compatible);
            if !schema.circular_refs().is_empty() {
                recursive += 1;
                recursion_kept += usize::from(
                    out.report.strict_compatible && !out.schema.circular_refs().is_empty(),
                );
            }
            // Soundness where both stay strict and nothing is reported lost.
            let lossless = |o: &provider_rules::Sanitized| {
                o.report.strict_compatible && !o.report.changes.iter().any(|c| c.lossy)
            };
            let (Some(draft), true) = (draft, lossless(&out) && lossless(&inl)) else {
                continue;
            };
            let (Some(original), Some(sanitized), Some(inlined)) = (
                validator(v, *draft),
                validator(&out.schema.to_value(), Draft::Draft202012),
                validator(&inl.schema.to_value(), Draft::Draft202012),
            ) else {
                continue;
            };
            for (x, _) in tests {
                if !original.is_valid(x) {
                    continue;
                }
                valid += 1;
                let y = out.decoder.encode_value(x);
                valid_kept += usize::from(sanitized.is_valid(&y));
                valid_inl += usize::from(inlined.is_valid(&inl.decoder.encode_value(x)));
                if std::env::var("REFS_DEBUG").is_ok() && !sanitized.is_valid(&y) {
                    eprintln!("DBG {name} {x} -> {y} not valid under {}", out.schema);
                }
                let mut back = y.clone();
                out.decoder.decode_value(&mut back);
                if !same(&back, x) {
                    failures.push(format!(
                        "{} {name}: {x} encoded {y} decoded {back}",
                        rules.name()
                    ));
                }
            }
        }
        println!(
            "{:<20} {:>7} {:>16} {:>16} {:>22} {:>10} {:>14}",
            rules.name(),
            schemas.len(),
            format!("{strict} ({:.1} %)", pct(strict, schemas.len())),
            format!("{strict_inl} ({:.1} %)", pct(strict_inl, schemas.len())),
            format!(
                "{bytes_out}/{bytes_in} ({:.2})",
                bytes_out as f64 / bytes_in as f64
            ),
            format!("{:.2}", bytes_inl as f64 / bytes_in as f64),
            format!("{recursion_kept}/{recursive}"),
        );
        println!(
            "{:<20} of which MCP output schemas: {mcp}, strict {mcp_strict} kept / {mcp_strict_inl} inlined, bytes out/in {:.2} kept / {:.2} inlined",
            "",
            mcp_out as f64 / mcp_in.max(1) as f64,
            mcp_inl as f64 / mcp_in.max(1) as f64,
        );
        println!(
            "{:<20} JSTS instances valid under the original kept valid (encoded; strict, nothing reported lost): {valid_kept}/{valid} refs kept, {valid_inl}/{valid} inlined",
            "",
        );
        assert!(
            valid_kept >= valid_inl,
            "{}: keeping refs lost valid instances",
            rules.name()
        );
        assert!(
            strict >= strict_inl,
            "{}: keeping refs lost strict schemas",
            rules.name()
        );
    }
    fail_on(failures, "round-trip failures");
}

/// A node the engine makes up after the encodings ran (here a property a dependent schema
/// speaks of) is encoded by `sanitize_with`'s own second run: the output is idempotent, and
/// the chained decoders bring a model's value back in one go.
#[test]
fn made_up_nodes_are_encoded_by_a_second_run_and_decode_back() {
    let v = json!({"type": "object", "properties": {"foo": {}},
        "dependentSchemas": {"foo": {"additionalProperties": false, "properties": {"bar": {}}}}});
    let schema = Schema::from_value(&v);
    let out = sanitize_with(
        &schema,
        &Rules::OPENAI_STRICT,
        Slot::Schema,
        &SanitizeOptions::ENCODE,
    );
    let again = sanitize_with(
        &out.schema,
        &Rules::OPENAI_STRICT,
        Slot::Schema,
        &SanitizeOptions::ENCODE,
    );
    assert_eq!(again.schema, out.schema);
    assert!(again.report.is_empty(), "{:?}", again.report);
    let got = out.schema.to_value();
    // `bar` was optional (strict mode made it required): a call that leaves it out sends
    // `null`, which the encoded property admits and the decoders drop.
    assert_eq!(
        got["properties"]["bar"]["type"],
        json!(["string", "null"]),
        "{got}"
    );
    let left_out = out
        .decoder
        .decode_json(r#"{"foo":"[1]","bar":null}"#)
        .unwrap();
    assert_eq!(left_out.as_deref(), Some(r#"{"foo":[1]}"#));
    let sent = r#"{"foo":"[1]","bar":"{\"x\":2}"}"#;
    let back: Value =
        serde_json::from_str(&out.decoder.decode_json(sent).unwrap().unwrap()).unwrap();
    assert_eq!(back, json!({"foo": [1], "bar": {"x": 2}}));
    assert_eq!(
        out.decoder.encode_value(&back),
        serde_json::from_str::<Value>(sent).unwrap()
    );
}
