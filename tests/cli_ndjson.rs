//! `toolschema sanitize --ndjson`: one schema per line in, one result per line out, in order.

#[path = "fixtures/cli_util.rs"]
mod util;

use serde_json::Value;
use toolschema::provider_rules::{Rules, Slot, check};
use util::*;

/// Every corpus MCP tool's `inputSchema`, compact, one per line.
fn corpus_lines() -> Vec<String> {
    let mut lines = Vec::new();
    for f in corpus() {
        let doc: Value = serde_json::from_slice(&std::fs::read(&f).unwrap()).unwrap();
        for tool in doc["tools"].as_array().unwrap() {
            if let Some(s) = tool.get("inputSchema") {
                lines.push(serde_json::to_string(s).unwrap());
            }
        }
    }
    lines
}

#[test]
fn each_line_is_what_sanitize_gives_for_that_schema_alone() {
    let lines = [
        r#"{"type":"object","properties":{"n":{"type":"integer","enum":[1,2,3]}}}"#,
        r#"{"type":"object","properties":{"q":{"type":"string"}}}"#,
        r#"{"type":["string","null"],"format":"uri"}"#,
    ];
    let input = format!("{}\n", lines.join("\n"));
    let o = run_stdin(&["sanitize", "--ndjson", "-p", "gemini"], input.as_bytes());
    expect_code(&o, 0);
    let got: Vec<String> = stdout(&o).lines().map(str::to_owned).collect();
    assert_eq!(got.len(), lines.len());
    for (line, out) in lines.iter().zip(&got) {
        let alone = run_stdin(&["sanitize", "-p", "gemini"], line.as_bytes());
        expect_code(&alone, 0);
        assert_eq!(out, stdout(&alone).trim_end(), "for {line}");
    }
    // The schema that needs no change comes back byte for byte.
    assert_eq!(got[1], lines[1]);
    assert_ne!(got[0], lines[0]);
}

#[test]
fn a_line_that_is_not_a_schema_gives_null_and_a_warning_in_place() {
    let input = b"{\"type\":\"string\"}\n{\"type\":\n\n{\"type\":\"integer\"}\r\n";
    let o = run_stdin(
        &[
            "sanitize",
            "--ndjson",
            "--provider",
            "openai",
            "--as",
            "schema",
        ],
        input,
    );
    expect_code(&o, 0);
    assert_eq!(
        stdout(&o),
        "{\"type\":\"string\"}\nnull\nnull\n{\"type\":\"integer\"}\n"
    );
    let err = stderr(&o);
    assert!(
        err.contains("<stdin>: line 2: not a readable schema"),
        "{err}"
    );
    assert!(err.contains("line 3: an empty line"), "{err}");
    assert!(
        !err.contains("<stdin>: line 1:") && !err.contains("<stdin>: line 4:"),
        "{err}"
    );
}

#[test]
fn as_schema_reads_every_line_as_a_standalone_schema() {
    let input = b"{\"type\":\"string\",\"format\":\"uri\"}\n";
    let params = run_stdin(&["sanitize", "--ndjson", "-p", "openai"], input);
    let schema = run_stdin(
        &["sanitize", "--ndjson", "-p", "openai", "--as", "schema"],
        input,
    );
    expect_code(&params, 0);
    expect_code(&schema, 0);
    assert_eq!(stdout(&schema).as_bytes(), input);
    let v: Value = serde_json::from_str(stdout(&params).trim_end()).unwrap();
    assert_eq!(
        v["type"], "object",
        "parameters must be an object for OpenAI"
    );
}

#[test]
fn the_corpus_in_one_file_is_answered_line_for_line_and_checks_clean() {
    let lines = corpus_lines();
    assert!(lines.len() > 500, "{} corpus schemas", lines.len());
    let dir = tempdir("ndjson-corpus");
    let file = write(&dir, "schemas.ndjson", &format!("{}\n", lines.join("\n")));
    let o = run(&["sanitize", "--ndjson", "-p", "gemini", s(&file)]);
    expect_code(&o, 0);
    assert_eq!(stderr(&o), "");
    let text = stdout(&o);
    let out: Vec<&str> = text.lines().collect();
    assert_eq!(out.len(), lines.len());
    let mut changed = 0;
    for (i, o) in out.iter().enumerate() {
        let v: Value = serde_json::from_str(o).unwrap();
        let violations = check(&v, &Rules::GEMINI, Slot::Parameters);
        assert!(violations.is_empty(), "line {}: {violations:?}", i + 1);
        changed += usize::from(*o != lines[i]);
    }
    assert!(changed > 100, "only {changed} schemas changed");
    // Idempotent: the output read back changes nothing.
    let again = write(&dir, "again.ndjson", &text);
    let o2 = run(&["sanitize", "--ndjson", "-p", "gemini", s(&again)]);
    assert_eq!(stdout(&o2), text);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ndjson_refuses_a_report_and_an_api() {
    let o = run_stdin(
        &["sanitize", "--ndjson", "-p", "gemini", "--report", "-"],
        b"{}\n",
    );
    expect_code(&o, 2);
    let o = run_stdin(
        &[
            "sanitize",
            "--ndjson",
            "-p",
            "gemini",
            "--api",
            "openai-chat",
        ],
        b"{}\n",
    );
    expect_code(&o, 2);
}
