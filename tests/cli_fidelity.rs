//! Issue 19 at the command line: nothing silent (a tool without an input schema, a lone input
//! that is not a schema), and `matrix` and `check` telling the same story over the corpus.

#[path = "fixtures/cli_util.rs"]
mod util;

use serde_json::Value;
use std::collections::BTreeSet;
use util::*;

/// An MCP tools/list entry without `inputSchema` (or with a non-object one) was dropped
/// without a word: `sanitize` passed it, `check` exited 0, `matrix` counted one tool fewer.
#[test]
fn tools_list_entry_without_input_schema_is_said_and_counted() {
    let dir = tempdir("fidelity-no-input");
    let f = write(
        &dir,
        "tools.json",
        r#"{"tools":[{"name":"ping","description":"no parameters"},{"name":"odd","inputSchema":"x"},{"name":"ok","inputSchema":{"type":"object","properties":{"a":{"type":"string"}}}}]}"#,
    );
    let o = run(&["check", "--provider", "openai", s(&f)]);
    let err = stderr(&o);
    assert!(err.contains("tool \"ping\": no input schema"), "{err}");
    assert!(
        err.contains("tool \"odd\": the input schema is a string"),
        "{err}"
    );
    let o = run(&["matrix", "--format", "json", "--providers", "openai", s(&f)]);
    expect_code(&o, 0);
    let m: Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert_eq!(m["tools"].as_array().map(Vec::len), Some(3), "{m}");
    let o = run(&["matrix", "--providers", "openai", s(&f)]);
    let table = stdout(&o);
    assert!(table.contains("ping (no input schema)"), "{table}");
    assert!(!table.contains("ok (no input schema)"), "{table}");
    // The non-object schema is replaced by an empty object schema in the output.
    let o = run(&["sanitize", "--provider", "openai", s(&f)]);
    let out: Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert_eq!(out["tools"][1]["inputSchema"]["type"], "object", "{out}");
    // The missing one is given what a provider needs of a tool without parameters.
    assert_eq!(out["tools"][0]["inputSchema"]["type"], "object", "{out}");
    assert_eq!(out["tools"][0]["description"], "no parameters", "{out}");
    let o = run(&["sanitize", "--provider", "gemini", s(&f)]);
    let out: Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert_eq!(
        out["tools"][0]["inputSchema"],
        serde_json::json!({"type": "object"}),
        "{out}"
    );
}

/// `[1,2]`, `"hello"`, `42` with `--as parameters` became `{"type":"object"}` with exit 0 and
/// nothing on standard error.
#[test]
fn non_schema_root_as_parameters_warns() {
    for input in ["[1,2]", "\"hello\"", "42"] {
        let o = run_stdin(
            &[
                "sanitize",
                "--provider",
                "openai",
                "--as",
                "parameters",
                "-",
            ],
            input.as_bytes(),
        );
        let err = stderr(&o);
        assert!(err.contains("not a JSON Schema"), "{input}: {err}");
    }
    let o = run_stdin(
        &[
            "sanitize",
            "--provider",
            "openai",
            "--as",
            "parameters",
            "-",
        ],
        br#"{"type":"object"}"#,
    );
    assert!(!stderr(&o).contains("not a JSON Schema"));
}

/// `matrix` said two real tools pass on `gemini-jsonschema` while Gemini rejected them: the
/// checker and the engine disagreed. Over the corpus, for every default profile, the tools
/// `matrix` marks not accepted as they stand are exactly those `check` names.
#[test]
fn matrix_and_check_agree_on_the_corpus() {
    let files = corpus();
    let mut args = vec!["matrix", "--format", "json"];
    args.extend(files.iter().map(|f| s(f)));
    let o = run(&args);
    expect_code(&o, 0);
    let m: Value = serde_json::from_str(&stdout(&o)).expect("json");
    let providers: Vec<String> = m["providers"]
        .as_array()
        .expect("providers")
        .iter()
        .filter_map(|p| p.as_str().map(str::to_owned))
        .collect();
    let mut disagreements = Vec::new();
    for f in &files {
        let file = s(f);
        let stem = f.file_stem().and_then(|x| x.to_str()).unwrap_or_default();
        for p in &providers {
            let matrix: BTreeSet<String> = m["tools"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|t| t["file"] == file)
                .filter(|t| {
                    t["results"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .any(|r| r["provider"] == p.as_str() && r["accepted"] == false)
                })
                .filter_map(|t| t["tool"].as_str())
                .map(|t| t.strip_prefix(&format!("{stem}/")).unwrap_or(t).to_owned())
                .collect();
            let o = run(&["check", "--provider", p, file]);
            let prefix = format!("{file}: tool ");
            let check: BTreeSet<String> = stdout(&o)
                .lines()
                .filter_map(|l| l.strip_prefix(&prefix))
                .filter_map(|l| l.split_once(": ").map(|(t, _)| t.to_owned()))
                .collect();
            if matrix != check {
                disagreements.push(format!("{file} {p}: matrix {matrix:?} vs check {check:?}"));
            }
        }
    }
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}

/// A request body over OpenAI's documented "max of 128 functions": `check` names the limit and
/// its source, and exits 1. (An MCP tools/list is not a request: it is not counted.)
#[test]
fn check_names_openai_max_of_128_functions_in_a_request() {
    let dir = tempdir("fidelity-tool-count");
    let tools: Vec<Value> = (0..130)
        .map(|i| serde_json::json!({"type": "function", "function": {"name": format!("t{i}"), "parameters": {"type": "object", "properties": {}}}}))
        .collect();
    let body = serde_json::json!({"model": "gpt-4o", "messages": [], "tools": tools});
    let f = write(&dir, "body.json", &body.to_string());
    let o = run(&["check", "--provider", "openai", s(&f)]);
    expect_code(&o, 1);
    let out = stdout(&o);
    assert!(
        out.contains("[tool-count] 130 tools in one request; openai accepts at most 128"),
        "{out}"
    );
    assert!(
        out.contains("A max of 128 functions are supported"),
        "{out}"
    );
    let o = run(&["check", "--provider", "anthropic", s(&f)]);
    expect_code(&o, 0);
}

/// A Cohere request body over "a maximum of 200 fields across all tools" (providers.md §7):
/// `check` counts every tool's properties, nested ones included, and exits 1; at 200 it passes.
#[test]
fn check_counts_cohere_fields_across_all_tools() {
    let dir = tempdir("fidelity-field-count");
    let body = |nested: usize| {
        let tools: Vec<Value> = (0..4)
            .map(|t| {
                let inner: serde_json::Map<String, Value> = (0..nested)
                    .map(|i| (format!("n{i}"), serde_json::json!({"type": "integer"})))
                    .collect();
                let mut props: serde_json::Map<String, Value> = (0..40)
                    .map(|i| (format!("p{i}"), serde_json::json!({"type": "string"})))
                    .collect();
                props.insert("inner".into(), serde_json::json!({"type": "object", "properties": inner}));
                serde_json::json!({"type": "function", "function": {"name": format!("t{t}"), "parameters": {"type": "object", "properties": props}}})
            })
            .collect();
        serde_json::json!({"model": "command-a-03-2025", "messages": [], "tools": tools})
            .to_string()
    };
    // 4 x (40 + 1 + 10) = 204 fields.
    let over = write(&dir, "over.json", &body(10));
    let o = run(&["check", "--provider", "cohere", s(&over)]);
    expect_code(&o, 1);
    let out = stdout(&o);
    assert!(
        out.contains("[field-count] 204 fields") && out.contains("cohere accepts at most 200"),
        "{out}"
    );
    // 4 x (40 + 1 + 9) = 200.
    let at = write(&dir, "at.json", &body(9));
    expect_code(&run(&["check", "--provider", "cohere", s(&at)]), 0);
    expect_code(&run(&["check", "--provider", "openai", s(&over)]), 0);
}
