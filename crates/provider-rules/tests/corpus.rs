//! Every profile over the whole corpus: no panic, `check(sanitize(x))` empty (strict profiles:
//! unless the report says not strict-compatible), idempotent, deterministic, and an empty
//! report exactly when nothing changed.

use provider_rules::{PROFILES, Slot, check_schema, sanitize};
use schema_core::Schema;
use std::path::Path;

fn corpus_dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/corpus"))
}

/// Every schema of the corpus: (name, slot, schema).
fn corpus() -> Vec<(String, Slot, Schema)> {
    let mut out = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(corpus_dir().join("mcp"))
        .expect("corpus/mcp")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    for f in files {
        let v: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&f).expect("read")).expect("json");
        let tools = v["tools"].as_array().cloned().unwrap_or_default();
        let stem = f
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("?")
            .to_owned();
        for t in tools {
            let name = t["name"].as_str().unwrap_or("?").to_owned();
            for (key, slot) in [
                ("inputSchema", Slot::Parameters),
                ("outputSchema", Slot::Schema),
            ] {
                if let Some(s) = t.get(key) {
                    let text = serde_json::to_string(s).expect("ser");
                    out.push((
                        format!("{stem}/{name}/{key}"),
                        slot,
                        Schema::from_str(&text).expect("schema"),
                    ));
                }
            }
        }
    }
    for draft in ["draft2020-12", "draft7"] {
        for dir in [
            corpus_dir().join("jsts").join(draft),
            corpus_dir().join("jsts").join(draft).join("optional"),
        ] {
            let Ok(rd) = std::fs::read_dir(&dir) else {
                continue;
            };
            let mut files: Vec<_> = rd
                .map(|e| e.expect("entry").path())
                .filter(|p| p.extension().is_some_and(|e| e == "json"))
                .collect();
            files.sort();
            for f in files {
                let v: serde_json::Value =
                    serde_json::from_slice(&std::fs::read(&f).expect("read")).expect("json");
                for (i, case) in v
                    .as_array()
                    .cloned()
                    .unwrap_or_default()
                    .into_iter()
                    .enumerate()
                {
                    let text = serde_json::to_string(&case["schema"]).expect("ser");
                    let name = format!(
                        "{}/{}#{i}",
                        draft,
                        f.file_name().and_then(|s| s.to_str()).unwrap_or("?")
                    );
                    out.push((name, Slot::Schema, Schema::from_str(&text).expect("schema")));
                }
            }
        }
    }
    out
}

#[test]
fn every_profile_over_the_corpus() {
    let corpus = corpus();
    assert!(corpus.len() > 1000, "corpus too small: {}", corpus.len());
    let mut failures = Vec::new();
    for rules in PROFILES {
        let mut changed = 0;
        let mut not_strict = 0;
        for (name, slot, schema) in &corpus {
            let out = sanitize(schema, rules, *slot);
            let again = sanitize(&out.schema, rules, *slot);
            if again.schema != out.schema {
                failures.push(format!(
                    "{} {name}: not idempotent:\n  in:    {schema}\n  once:  {}\n  twice: {}",
                    rules.name(),
                    out.schema,
                    again.schema
                ));
            }
            if !again.report.is_empty() && again.schema == out.schema {
                failures.push(format!(
                    "{} {name}: second run reported changes on an unchanged schema: {:?}",
                    rules.name(),
                    again.report.changes
                ));
            }
            let det = sanitize(schema, rules, *slot);
            if det.schema != out.schema || det.report != out.report {
                failures.push(format!("{} {name}: not deterministic", rules.name()));
            }
            if out.report.is_empty() != (out.schema == *schema) {
                failures.push(format!(
                    "{} {name}: report empty = {} but unchanged = {}",
                    rules.name(),
                    out.report.is_empty(),
                    out.schema == *schema
                ));
            }
            if !out.report.is_empty() {
                changed += 1;
            }
            if !out.report.strict_compatible {
                not_strict += 1;
                continue;
            }
            // Property keys that need renaming are reported, not fixed (the response side would
            // have to map them back).
            let v: Vec<_> = check_schema(&out.schema, rules, *slot)
                .into_iter()
                .filter(|v| !out.report.is_unfixable(v))
                .collect();
            if !v.is_empty() {
                failures.push(format!(
                    "{} {name}: check after sanitize: {}\n  in:  {}\n  out: {}",
                    rules.name(),
                    v.iter()
                        .map(|x| x.to_string())
                        .collect::<Vec<_>>()
                        .join("; "),
                    schema,
                    out.schema
                ));
            }
        }
        println!(
            "{:<20} {} schemas, {changed} changed, {not_strict} not strict-compatible",
            rules.name(),
            corpus.len()
        );
    }
    if !failures.is_empty() {
        let n = failures.len();
        failures.truncate(30);
        panic!("{n} failures; first ones:\n{}", failures.join("\n"));
    }
}
