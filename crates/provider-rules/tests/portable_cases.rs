//! `portable` output passes the checks of gemini, openai, anthropic, xai and bedrock over the
//! whole corpus (MCP tool schemas as parameters, jsts schemas as parameters too).

use provider_rules::{Rules, Slot, check_schema, sanitize};
use schema_core::Schema;
use std::path::Path;

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/corpus");

fn schemas() -> Vec<(String, Schema)> {
    let mut out = Vec::new();
    for dir in ["mcp", "jsts/draft2020-12", "jsts/draft7"] {
        let mut files: Vec<_> = std::fs::read_dir(Path::new(CORPUS).join(dir))
            .expect("corpus")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        files.sort();
        for f in files {
            let v: serde_json::Value =
                serde_json::from_slice(&std::fs::read(&f).expect("read")).expect("json");
            let name = f.display().to_string();
            if dir == "mcp" {
                for t in v["tools"].as_array().into_iter().flatten() {
                    if let Some(s) = t.get("inputSchema") {
                        out.push((format!("{name}/{}", t["name"]), Schema::from_value(s)));
                    }
                }
            } else {
                for (i, c) in v.as_array().into_iter().flatten().enumerate() {
                    out.push((format!("{name}#{i}"), Schema::from_value(&c["schema"])));
                }
            }
        }
    }
    out
}

/// The one conflict no schema resolves: a tool without parameters needs `properties: {}` for
/// OpenAI (`object schema missing properties`) and none for Gemini (`properties: should be
/// non-empty for OBJECT type`, G13, which Gemini no longer raises: providers.md §8). Portable
/// keeps OpenAI's root map; nested empty maps are dropped for Gemini.
fn root_properties_conflict(v: &provider_rules::Violation) -> bool {
    v.rule == "properties-empty" && v.pointer.is_empty()
}

#[test]
fn portable_output_passes_every_target_check() {
    let targets = [
        &Rules::GEMINI,
        &Rules::OPENAI,
        &Rules::ANTHROPIC,
        &Rules::XAI,
        &Rules::BEDROCK,
    ];
    let mut failures = Vec::new();
    let all = schemas();
    assert!(all.len() > 1000);
    for (name, s) in &all {
        let out = sanitize(s, &Rules::PORTABLE, Slot::Parameters);
        for t in targets {
            let v: Vec<_> = check_schema(&out.schema, t, Slot::Parameters)
                .into_iter()
                .filter(|v| !out.report.is_unfixable(v))
                .filter(|v| !root_properties_conflict(v))
                .collect();
            if !v.is_empty() {
                failures.push(format!(
                    "{} {name}: {}\n  out: {}",
                    t.name(),
                    v[0],
                    out.schema
                ));
            }
        }
    }
    let n = failures.len();
    failures.truncate(10);
    assert!(n == 0, "{n} failures:\n{}", failures.join("\n"));
}

#[test]
#[allow(non_snake_case)] // `behaviour__provider_error_it_prevents`, as in the case files.
fn portable_drops_nested_empty_properties_keeps_the_root_map__should_be_non_empty() {
    let input = serde_json::json!({"type": "object", "properties": {"o": {"type": "object", "properties": {}}}});
    let out = sanitize(
        &Schema::from_value(&input),
        &Rules::PORTABLE,
        Slot::Parameters,
    );
    assert_eq!(
        out.schema.to_value(),
        serde_json::json!({"type": "object", "properties": {"o": {"type": "object"}}})
    );
    let empty = serde_json::json!({"type": "object", "properties": {}});
    let out = sanitize(
        &Schema::from_value(&empty),
        &Rules::PORTABLE,
        Slot::Parameters,
    );
    assert_eq!(out.schema.to_value(), empty);
    assert!(out.report.is_empty());
}
