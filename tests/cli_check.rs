//! `toolschema check`: violations, exit codes, tool names, and sanitize-then-check over the corpus.

#[path = "fixtures/cli_util.rs"]
mod util;

use serde_json::Value;
use std::path::{Path, PathBuf};
use util::*;

const NON_STRICT: &[&str] = &[
    "gemini",
    "gemini-code-assist",
    "gemini-jsonschema",
    "vertex",
    "openai",
    "anthropic",
    "xai",
    "bedrock",
    "portable",
];
const STRICT: &[&str] = &["openai-strict", "anthropic-strict"];

#[test]
fn check_prints_one_line_per_violation_and_exits_1() {
    let dir = tempdir("check-lines");
    let f = write(
        &dir,
        "tools.json",
        r#"{"tools":[{"name":"create_issue","inputSchema":{"type":"object","properties":{"labels":{"type":["array","null"],"items":{"type":"string"}},"n":{"type":"integer","enum":[1,2]}}}}]}"#,
    );
    let o = run(&["check", "--provider", "gemini", s(&f)]);
    expect_code(&o, 1);
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    let type_list = lines
        .iter()
        .find(|l| l.contains("[type-list]"))
        .expect("type-list line");
    assert!(type_list.contains(s(&f)), "{type_list}");
    assert!(type_list.contains("tool create_issue"), "{type_list}");
    assert!(
        type_list.contains("/tools/0/inputSchema/properties/labels"),
        "{type_list}"
    );
    assert!(
        type_list.contains("provider says: Proto field is not repeating, cannot start list."),
        "{type_list}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("/properties/n: [enum-values]"))
    );
    // What to do next, on stderr.
    assert!(
        stderr(&o).contains("toolschema sanitize --provider gemini"),
        "{}",
        stderr(&o)
    );
    // OpenAI accepts it.
    expect_code(&run(&["check", "--provider", "openai", s(&f)]), 0);
}

#[test]
fn check_reports_invalid_tool_names() {
    let o = run_stdin(
        &["check", "-p", "openai"],
        br#"{"tools":[{"name":"get weather","inputSchema":{"type":"object","properties":{}}}]}"#,
    );
    expect_code(&o, 1);
    let out = stdout(&o);
    assert!(out.contains("[tool-name]"), "{out}");
    assert!(out.contains("tool get weather: /tools/0/name"), "{out}");
}

#[test]
fn check_a_lone_schema_and_a_request_body() {
    let o = run_stdin(
        &["check", "-p", "gemini"],
        br#"{"type":"object","properties":{"a":{"type":["string","null"]}}}"#,
    );
    expect_code(&o, 1);
    assert!(
        stdout(&o).starts_with("<stdin>: /properties/a: [type-list]"),
        "{}",
        stdout(&o)
    );
    let body = br#"{"model":"gpt-4o","messages":[],"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{"a":{"type":["string","null"]}}}}}]}"#;
    let o = run_stdin(&["check", "-p", "gemini"], body);
    expect_code(&o, 1);
    assert!(
        stdout(&o).contains("tool f: /tools/0/function/parameters/properties/a: [type-list]"),
        "{}",
        stdout(&o)
    );
    let fixed = run_stdin(&["sanitize", "-p", "gemini"], body);
    expect_code(&run_stdin(&["check", "-p", "gemini"], &fixed.stdout), 0);
}

fn sanitize_then_check(file: &Path, profile: &str, dir: &Path) -> Result<(), String> {
    let rep = dir.join(format!("{profile}.report.json"));
    let o = run(&["sanitize", "-p", profile, s(file), "--report", s(&rep)]);
    if code(&o) != 0 {
        return Err(format!(
            "sanitize {profile} {}: {}",
            file.display(),
            stderr(&o)
        ));
    }
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&rep).unwrap()).unwrap();
    let strict_ok = report["summary"]["strict_compatible"] == true;
    if STRICT.contains(&profile) && !strict_ok {
        return Ok(()); // sent non-strict: nothing to promise
    }
    let out = dir.join(format!("{profile}.json"));
    std::fs::write(&out, &o.stdout).unwrap();
    let c = run(&["check", "-p", profile, s(&out)]);
    if code(&c) != 0 {
        return Err(format!(
            "check {profile} after sanitize of {}: exit {}\n{}",
            file.display(),
            code(&c),
            stdout(&c)
        ));
    }
    Ok(())
}

#[test]
fn sanitize_then_check_passes_on_every_corpus_file_for_every_profile() {
    let files = corpus();
    assert!(files.len() >= 20, "corpus missing");
    // Two workers: the machines running this have two cores.
    let half = files.len() / 2;
    let chunks: Vec<Vec<PathBuf>> = vec![files[..half].to_vec(), files[half..].to_vec()];
    let failures: Vec<String> = std::thread::scope(|scope| {
        let handles: Vec<_> = chunks
            .into_iter()
            .enumerate()
            .map(|(w, chunk)| {
                scope.spawn(move || {
                    let dir = tempdir(&format!("corpus-{w}"));
                    let mut failures = Vec::new();
                    for f in &chunk {
                        for p in NON_STRICT.iter().chain(STRICT) {
                            if let Err(e) = sanitize_then_check(f, p, &dir) {
                                failures.push(e);
                            }
                        }
                    }
                    failures
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn unsanitized_corpus_files_fail_gemini_check_with_located_lines() {
    let f = root().join("examples/data/firecrawl-mcp.json");
    let o = run(&["check", "-p", "gemini", s(&f)]);
    expect_code(&o, 1);
    for line in stdout(&o).lines() {
        assert!(
            line.starts_with(&format!("{}: tool firecrawl_", s(&f))),
            "{line}"
        );
        assert!(line.contains(": [") && line.contains("/tools/"), "{line}");
    }
}
