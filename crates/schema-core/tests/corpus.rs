//! Lossless round-trip over the whole corpus: every MCP `inputSchema`/`outputSchema` and every
//! JSON-Schema-Test-Suite `schema` parses with no diagnostic and serializes back to the same
//! JSON, key order included.

mod common;

use common::{CorpusSchema, same_tokens};
use schema_core::{Instance, ParseOptions, Schema};

/// Diagnostics the corpus is known to produce: `(origin suffix, diagnostic text)`.
const EXPECTED_DIAGNOSTICS: &[(&str, &str)] = &[];

#[derive(Default, Debug)]
struct Counts {
    schemas: usize,
    exact: usize,
    respelled: usize,
    diagnostics: usize,
}

fn round_trip(schemas: &[CorpusSchema]) -> Counts {
    let mut c = Counts::default();
    let mut failures = Vec::new();
    for s in schemas {
        c.schemas += 1;
        let parsed = Schema::parse(s.text.as_bytes(), &ParseOptions::default())
            .unwrap_or_else(|e| panic!("{}: {e}", s.origin));
        for d in &parsed.diagnostics {
            let text = d.to_string();
            if EXPECTED_DIAGNOSTICS
                .iter()
                .any(|(o, t)| s.origin.ends_with(o) && *t == text)
            {
                c.diagnostics += 1;
            } else {
                failures.push(format!("{}: unexpected diagnostic {text}", s.origin));
            }
        }
        let out = parsed.schema.to_json_string();
        // The input re-emitted compactly, in its own key order.
        let expected = Instance::from_json(&s.text).unwrap();
        if out == expected.as_json() {
            c.exact += 1;
            continue;
        }
        // Numbers may be re-spelled (`1e2` → `100.0`, a bignum → its nearest double): then the
        // texts must be the same token for token, numbers equal as doubles.
        if same_tokens(&out, expected.as_json()) {
            c.respelled += 1;
            println!(
                "re-spelled: {}\n  in:  {}\n  out: {out}",
                s.origin, expected
            );
        } else {
            failures.push(format!(
                "{}: round-trip differs\n  in:  {}\n  out: {out}",
                s.origin, expected
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    c
}

#[test]
fn every_mcp_schema_round_trips_exactly() {
    let schemas = common::mcp();
    let c = round_trip(&schemas);
    println!("mcp: {c:?}");
    assert!(
        c.schemas >= 743,
        "the MCP corpus has at least 743 tool schemas"
    );
    assert_eq!(c.respelled, 0);
    assert_eq!(c.exact + c.respelled, c.schemas);
}

#[test]
fn every_jsts_schema_round_trips_exactly() {
    let schemas = common::jsts();
    let c = round_trip(&schemas);
    println!("jsts: {c:?}");
    assert!(c.schemas >= 782, "the jsts corpus has 782 schemas");
    // Bignums (`optional/bignum.json`) and exponent spellings are kept verbatim too.
    assert_eq!(c.respelled, 0);
    assert_eq!(c.exact + c.respelled, c.schemas);
}

#[test]
fn corpus_round_trips_through_serde_json_value_too() {
    // `from_value` sees serde_json's key order (and its number parsing): the output is then
    // exactly what serde_json writes for that value.
    for s in common::all() {
        let v: serde_json::Value = serde_json::from_str(&s.text).unwrap();
        let schema = Schema::from_value(&v);
        assert_eq!(
            schema.to_json_string(),
            serde_json::to_string(&v).unwrap(),
            "{}",
            s.origin
        );
    }
}

#[test]
fn reparsing_the_output_gives_the_same_tree() {
    for s in common::all() {
        let once = Schema::from_str(&s.text).unwrap();
        let twice = Schema::from_str(&once.to_json_string()).unwrap();
        assert_eq!(once, twice, "{}", s.origin);
        let pretty = once.to_json_pretty();
        assert_eq!(Schema::from_str(&pretty).unwrap(), once, "{}", s.origin);
    }
}
