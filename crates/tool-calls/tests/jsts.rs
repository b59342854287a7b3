//! Cross-check against the JSON-Schema-Test-Suite (draft 2020-12) and the `jsonschema` crate.
//!
//! For every test case of the keyword files this crate supports, the verdict (valid/invalid) is
//! compared with the suite's and with `jsonschema`'s. Deliberate differences: `format` is
//! asserted here (a tool call with a bad date should be corrected), where 2020-12 makes it an
//! annotation by default; those cases are checked against the suite's optional format files
//! instead. Known gaps (files skipped): `unevaluatedItems`, `unevaluatedProperties`,
//! `refRemote`, `dynamicRef`, `vocabulary` (other documents, dynamic scopes, vocabularies).

use serde_json::Value;
use std::path::Path;

const SUITE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/corpus/jsts/draft2020-12"
);
const SKIPPED: &[&str] = &[
    "unevaluatedItems",
    "unevaluatedProperties",
    "refRemote",
    "dynamicRef",
    "vocabulary",
];
const FORMATS: &[&str] = &[
    "date-time",
    "date",
    "time",
    "email",
    "uri",
    "uuid",
    "ipv4",
    "ipv6",
    "hostname",
];

#[derive(Default, Debug)]
struct Tally {
    cases: usize,
    agree_suite: usize,
    agree_jsonschema: usize,
    jsonschema_cases: usize,
    disagreements: Vec<String>,
}

fn run_file(path: &Path, tally: &mut Tally, skip_annotation_formats: bool) {
    let text = std::fs::read_to_string(path).expect("read");
    let groups: Vec<Value> = serde_json::from_str(&text).expect("json");
    let file = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("?")
        .to_owned();
    for group in groups {
        let schema = &group["schema"];
        let reference = jsonschema::draft202012::new(schema).ok();
        for case in group["tests"].as_array().into_iter().flatten() {
            let description = case["description"].as_str().unwrap_or_default();
            if skip_annotation_formats && description.contains("only an annotation") {
                continue;
            }
            let data = &case["data"];
            let expected = case["valid"].as_bool().unwrap_or(true);
            let mine = tool_calls::validate(schema, data).is_ok();
            tally.cases += 1;
            if mine == expected {
                tally.agree_suite += 1;
            } else {
                tally.disagreements.push(format!(
                    "{file}: {} / {description}: suite {expected}, mine {mine}",
                    group["description"].as_str().unwrap_or_default()
                ));
            }
            if let Some(v) = &reference {
                tally.jsonschema_cases += 1;
                if v.is_valid(data) == mine {
                    tally.agree_jsonschema += 1;
                }
            }
        }
    }
}

fn pct(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        100.0
    } else {
        part as f64 * 100.0 / whole as f64
    }
}

#[test]
fn agrees_with_the_suite_and_jsonschema_on_supported_keywords() {
    let mut files: Vec<_> = std::fs::read_dir(SUITE)
        .expect("suite")
        .flatten()
        .map(|e| e.path())
        .collect();
    files.sort();
    let mut tally = Tally::default();
    for path in files
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
    {
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default();
        if !SKIPPED.contains(&stem) {
            run_file(path, &mut tally, true);
        }
    }
    let suite = pct(tally.agree_suite, tally.cases);
    let reference = pct(tally.agree_jsonschema, tally.jsonschema_cases);
    eprintln!(
        "JSTS 2020-12: {} cases, agree with the suite {}/{} ({suite:.1}%), with jsonschema {}/{} ({reference:.1}%)",
        tally.cases, tally.agree_suite, tally.cases, tally.agree_jsonschema, tally.jsonschema_cases
    );
    for d in &tally.disagreements {
        eprintln!("  gap: {d}");
    }
    assert!(
        suite >= 97.5,
        "agreement with the suite fell to {suite:.1}%"
    );
    assert!(
        reference >= 97.0,
        "agreement with jsonschema fell to {reference:.1}%"
    );
}

#[test]
fn formats_agree_with_the_optional_suite() {
    let mut tally = Tally::default();
    for format in FORMATS {
        let path = Path::new(SUITE)
            .join("optional/format")
            .join(format!("{format}.json"));
        if path.exists() {
            run_file(&path, &mut tally, false);
        }
    }
    let suite = pct(tally.agree_suite, tally.cases);
    eprintln!(
        "JSTS 2020-12 optional/format: {} cases, agree with the suite {}/{} ({suite:.1}%)",
        tally.cases, tally.agree_suite, tally.cases
    );
    for d in &tally.disagreements {
        eprintln!("  gap: {d}");
    }
    assert!(suite >= 93.0, "format agreement fell to {suite:.1}%");
}
