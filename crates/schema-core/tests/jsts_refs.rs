//! `$ref` inlining against the JSON-Schema-Test-Suite's `ref` and `id` groups (issue 19):
//! every group without remote references (`refRemote`, `http://localhost:1234`) whose
//! references all inline (no recursion to unroll, nothing external) must accept and reject
//! exactly the instances the suite says, once inlined — `$id`-scoped resolution included (a
//! nested resource's `#/$defs/T` resolves against that resource, 2020-12 §8.2.1). The
//! `jsonschema` crate judges the inlined schema; a group it cannot compile offline, or whose
//! original it judges differently from the suite, is left out.
//!
//! `cargo test -p schema-core --test jsts_refs -- --nocapture` prints the counts.

use schema_core::{InlineOptions, RefError, RefIssueKind, Schema};
use serde_json::Value;
use std::path::Path;

const JSTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/corpus/jsts");

const FILES: &[(&str, jsonschema::Draft)] = &[
    ("draft2020-12/ref.json", jsonschema::Draft::Draft202012),
    ("draft2020-12/anchor.json", jsonschema::Draft::Draft202012),
    ("draft2020-12/defs.json", jsonschema::Draft::Draft202012),
    (
        "draft2020-12/optional/id.json",
        jsonschema::Draft::Draft202012,
    ),
    ("draft7/ref.json", jsonschema::Draft::Draft7),
    ("draft7/definitions.json", jsonschema::Draft::Draft7),
    ("draft7/optional/id.json", jsonschema::Draft::Draft7),
];

fn validator(schema: &Value, draft: jsonschema::Draft) -> Option<jsonschema::Validator> {
    jsonschema::options().with_draft(draft).build(schema).ok()
}

#[test]
fn inlined_ref_and_id_groups_keep_the_suites_verdicts() {
    let (mut counted, mut skipped, mut failures) = (0, 0, Vec::new());
    for (file, draft) in FILES {
        let text = std::fs::read_to_string(Path::new(JSTS).join(file)).expect("read");
        let groups: Vec<Value> = serde_json::from_str(&text).expect("json");
        for (i, g) in groups.iter().enumerate() {
            let name = format!("{file}#{i} ({})", g["description"].as_str().unwrap_or(""));
            let schema = &g["schema"];
            if schema.to_string().contains("localhost:1234") {
                skipped += 1;
                continue;
            }
            let out = Schema::from_value(schema).inline_refs(&InlineOptions::default());
            // Only the meta-schemas are outside the document; any other reference must resolve.
            if let Some(x) = out.issues.iter().find(|x| {
                matches!(&x.kind, RefIssueKind::Unresolved(e)
                    if !matches!(e, RefError::External(r) if r.contains("json-schema.org")))
            }) {
                failures.push(format!("{name}: {} unresolved: {:?}", x.reference, x.kind));
                continue;
            }
            let partial = out.issues.iter().any(|x| {
                matches!(
                    x.kind,
                    RefIssueKind::Recursive | RefIssueKind::Unresolved(_)
                )
            });
            let (Some(orig), false) = (validator(schema, *draft), partial) else {
                println!("skipped {name}: {:?}", out.issues);
                skipped += 1;
                continue;
            };
            let tests = g["tests"].as_array().cloned().unwrap_or_default();
            if tests
                .iter()
                .any(|t| orig.is_valid(&t["data"]) != t["valid"].as_bool().unwrap_or(true))
            {
                skipped += 1;
                continue;
            }
            let inlined = out.schema.to_value();
            let Some(v) = validator(&inlined, *draft) else {
                failures.push(format!(
                    "{name}: the inlined schema does not compile: {inlined}"
                ));
                continue;
            };
            counted += 1;
            for t in &tests {
                let want = t["valid"].as_bool().unwrap_or(true);
                if v.is_valid(&t["data"]) != want {
                    failures.push(format!(
                        "{name} / {}: expected {want}\n  in:  {schema}\n  out: {inlined}",
                        t["description"].as_str().unwrap_or("")
                    ));
                }
            }
        }
    }
    println!("counted {counted} groups, skipped {skipped}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(counted >= 40, "only {counted} groups counted");
}

/// The peers' case (issue 19): a subschema with its own `$id` and `$defs`; its `$ref:
/// "#/$defs/T"` named the root's `T` (a string) instead of its own (an integer), and the
/// nested `$defs` stayed in place.
#[test]
fn nested_resource_ref_resolves_against_its_own_defs() {
    let s = Schema::from_str(
        r##"{"$id": "https://example.com/root.json", "type": "object",
            "$defs": {"T": {"type": "string"}, "y": {"$anchor": "t", "enum": ["root"]}},
            "properties": {
                "name": {"$ref": "#/$defs/T"},
                "count": {"$id": "count.json", "$defs": {"T": {"type": "integer"}}, "$ref": "#/$defs/T"},
                "tag": {"$id": "tag.json", "$defs": {"x": {"$anchor": "t", "enum": [1]}}, "anyOf": [{"$ref": "#t"}]}
            }}"##,
    )
    .expect("parses");
    let out = s.inline_refs(&InlineOptions::default());
    assert!(out.issues.is_empty(), "{:?}", out.issues);
    assert_eq!(
        out.schema.to_json_string(),
        r#"{"$id":"https://example.com/root.json","type":"object","properties":{"name":{"type":"string"},"count":{"type":"integer"},"tag":{"anyOf":[{"enum":[1]}]}}}"#
    );
}
