//! The JSON-Schema-Test-Suite's cases, read from the corpus (`jsts/draft2020-12`, `jsts/draft7`),
//! shared by the soundness and the round-trip tests.
#![allow(dead_code)]

use jsonschema::Draft;
use serde_json::Value;
use std::path::Path;

pub(crate) const JSTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/corpus/jsts");

/// One case: a schema and the instances the suite marks valid or not.
pub(crate) struct Case {
    /// `draft/file#index (description)`.
    pub(crate) name: String,
    /// `draft/file#index`.
    pub(crate) id: String,
    /// The suite's file (its keyword: `additionalProperties`, `const`, ...).
    pub(crate) file: String,
    pub(crate) draft: Draft,
    pub(crate) schema: Value,
    /// Each instance: its description, the value, whether the suite marks it valid.
    pub(crate) tests: Vec<(String, Value, bool)>,
}

/// Every case of both drafts, files in name order.
pub(crate) fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    for (dir, draft) in [
        ("draft2020-12", Draft::Draft202012),
        ("draft7", Draft::Draft7),
    ] {
        let mut files: Vec<_> = std::fs::read_dir(Path::new(JSTS).join(dir))
            .expect("jsts dir")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        files.sort();
        for f in files {
            let file = f.file_stem().and_then(|s| s.to_str()).unwrap_or("?");
            let groups: Vec<Value> =
                serde_json::from_slice(&std::fs::read(&f).expect("read")).expect("json");
            for (i, g) in groups.into_iter().enumerate() {
                let tests = g["tests"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|t| {
                        (
                            t["description"].as_str().unwrap_or("").to_owned(),
                            t["data"].clone(),
                            t["valid"].as_bool().unwrap_or(true),
                        )
                    })
                    .collect();
                let id = format!("{dir}/{file}#{i}");
                out.push(Case {
                    name: format!("{id} ({})", g["description"].as_str().unwrap_or("")),
                    id,
                    file: file.to_owned(),
                    draft,
                    schema: g["schema"].clone(),
                    tests,
                });
            }
        }
    }
    out
}

/// The case's schema compiled offline (`None`: it cannot be).
pub(crate) fn validator(schema: &Value, draft: Draft) -> Option<jsonschema::Validator> {
    jsonschema::options().with_draft(draft).build(schema).ok()
}
