//! Schemas nested past the parser's depth limit (64 schema levels), through every command that
//! reads one: valid deep JSON is never "malformed"; the cut is reported; a 100,000-level file
//! gives a clean result or a clean exit-2 error, never a crash or a hang (peers.md §3 #54).

#[path = "fixtures/cli_util.rs"]
mod util;

use serde_json::Value;
use std::io::Read;
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};
use util::*;

const HINT: &str = "Nested deeper than 64 levels; not described.";

/// `levels` objects, each holding the next as property `a`, around a string.
fn nested_objects(levels: usize) -> String {
    format!(
        "{}{}{}",
        r#"{"type":"object","properties":{"a":"#.repeat(levels),
        r#"{"type":"string"}"#,
        "}}".repeat(levels)
    )
}

/// Runs the binary with `args`, killing it (and failing) if it takes more than `secs` seconds:
/// a hang guard, not a timing assertion.
fn run_bounded(args: &[&str], secs: u64) -> Output {
    let mut child = bin()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn toolschema");
    // Drain the pipes while waiting, so a large output cannot block the child.
    let mut out_pipe = child.stdout.take().expect("stdout");
    let mut err_pipe = child.stderr.take().expect("stderr");
    let out_reader = std::thread::spawn(move || {
        let mut b = Vec::new();
        let _ = out_pipe.read_to_end(&mut b);
        b
    });
    let err_reader = std::thread::spawn(move || {
        let mut b = Vec::new();
        let _ = err_pipe.read_to_end(&mut b);
        b
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if start.elapsed() > Duration::from_secs(secs) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("toolschema {args:?}: no answer within {secs} s (hang)");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Output {
        status,
        stdout: out_reader.join().expect("stdout reader"),
        stderr: err_reader.join().expect("stderr reader"),
    }
}

/// Exited by itself (no signal: no stack overflow), with one of the documented codes, and
/// without a panic message.
#[track_caller]
fn clean(o: &Output, what: &str) {
    let code = o.status.code();
    assert!(
        matches!(code, Some(0..=2)),
        "{what}: exit {:?} (killed by a signal?)\nstderr: {}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        !err.contains("panicked") && !err.contains("overflow"),
        "{what}: {err}"
    );
}

#[test]
fn check_names_the_depth_not_malformed_json() {
    let dir = tempdir("depth-check");
    let deep = write(&dir, "deep70.json", &nested_objects(70));
    for provider in ["gemini", "openai", "anthropic"] {
        let o = run(&["check", "--provider", provider, s(&deep)]);
        expect_code(&o, 1);
        let out = stdout(&o);
        assert!(!out.contains("malformed"), "{provider}: {out}");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 1, "{provider}: only the cut is named: {out}");
        assert!(lines[0].contains("[depth]"), "{out}");
        assert!(lines[0].contains("64 levels"), "{out}");
        assert!(
            lines[0].contains(&format!("{}: ", "/properties/a".repeat(65))),
            "{out}"
        );
    }
    // Within the limit: nothing to say.
    let ok = write(&dir, "deep60.json", &nested_objects(60));
    expect_code(&run(&["check", "--provider", "openai", s(&ok)]), 0);
}

#[test]
fn sanitize_reports_the_cut_and_its_output_passes_check() {
    let dir = tempdir("depth-sanitize");
    let deep = write(&dir, "deep70.json", &nested_objects(70));
    for (provider, level) in [("gemini", 58), ("openai", 64), ("anthropic", 64)] {
        let report = dir.join(format!("{provider}-report.json"));
        let o = run(&[
            "sanitize",
            "--provider",
            provider,
            s(&deep),
            "--report",
            s(&report),
        ]);
        expect_code(&o, 0);
        let out = stdout(&o);
        assert!(out.contains(HINT), "{provider}: the hint is in the output");
        let r: Value =
            serde_json::from_str(&std::fs::read_to_string(&report).expect("report")).unwrap();
        let changes = r["slots"][0]["changes"].as_array().expect("changes");
        let cut = changes
            .iter()
            .find(|c| c["rule"] == "depth")
            .unwrap_or_else(|| panic!("{provider}: no depth change: {changes:?}"));
        assert_eq!(cut["lossy"], true, "{provider}");
        assert_eq!(cut["pointer"], "/properties/a".repeat(level), "{provider}");
        assert!(
            r["slots"][0]["lossy"].as_u64() >= Some(1),
            "{provider}: {r}"
        );
        // What comes out is accepted, and sanitizing it again changes nothing.
        let sanitized = write(&dir, &format!("{provider}-out.json"), &out);
        let again = run(&["check", "--provider", provider, s(&sanitized)]);
        expect_code(&again, 0);
        let twice = run(&["sanitize", "--provider", provider, s(&sanitized)]);
        expect_code(&twice, 0);
        assert_eq!(stdout(&twice), out, "{provider}: idempotent");
    }
}

#[test]
fn diff_matrix_and_validate_read_seventy_levels() {
    let dir = tempdir("depth-others");
    let deep = write(&dir, "deep70.json", &nested_objects(70));
    let o = run(&["diff", "--provider", "gemini", s(&deep)]);
    // Something changed: 1, as diff(1).
    expect_code(&o, 1);
    let out = stdout(&o);
    assert!(
        out.contains("[depth]") && out.contains("(meaning lost)"),
        "{out}"
    );
    assert!(out.ends_with("1 of 1 schema changed for gemini\n"), "{out}");

    let o = run(&["matrix", "--format", "json", s(&deep)]);
    expect_code(&o, 0);
    let v: Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    assert!(!v.to_string().contains("malformed"), "{v}");
    assert!(!v.to_string().contains("not readable"), "{v}");

    // The tool call is checked against the deep schema itself.
    let empty = write(&dir, "empty.json", "{}");
    let o = run(&["validate", "--schema", s(&deep), s(&empty)]);
    expect_code(&o, 0);
    let wrong = write(&dir, "wrong.json", r#"{"a":{"a":"x"}}"#);
    let o = run(&["validate", "--schema", s(&deep), s(&wrong)]);
    expect_code(&o, 1);
    assert!(
        stdout(&o).contains("\"a.a\" must be a JSON object"),
        "{}",
        stdout(&o)
    );
    // 200 levels (401 JSON levels) still read.
    let deeper = write(&dir, "deep200.json", &nested_objects(200));
    let o = run(&["validate", "--schema", s(&deeper), s(&empty)]);
    expect_code(&o, 0);
}

#[test]
fn a_hundred_thousand_levels_end_cleanly() {
    const DEPTH: usize = 100_000;
    let dir = tempdir("depth-100k");
    let objects = write(&dir, "objects.json", &nested_objects(DEPTH));
    let items = write(
        &dir,
        "items.json",
        &format!("{}{{}}{}", r#"{"items":"#.repeat(DEPTH), "}".repeat(DEPTH)),
    );
    let arrays = write(
        &dir,
        "arrays.json",
        &format!("{}{}", "[".repeat(DEPTH), "]".repeat(DEPTH)),
    );
    let body = write(
        &dir,
        "body.json",
        &format!(
            r#"{{"model":"m","max_tokens":1,"messages":[],"tools":[{{"name":"deep","input_schema":{}}}]}}"#,
            nested_objects(DEPTH)
        ),
    );
    let mcp = write(
        &dir,
        "mcp.json",
        &format!(
            r#"{{"tools":[{{"name":"deep","inputSchema":{}}}]}}"#,
            nested_objects(DEPTH)
        ),
    );
    let args = write(&dir, "args.json", "{}");
    for file in [&objects, &items, &body, &mcp] {
        let f = s(file);
        let o = run_bounded(&["check", "--provider", "gemini", f], 120);
        clean(&o, f);
        expect_code(&o, 1);
        assert!(stdout(&o).contains("[depth]"), "{f}: {}", stdout(&o));
        assert!(!stdout(&o).contains("malformed"), "{f}");

        let report = dir.join("report.json");
        let o = run_bounded(
            &[
                "sanitize",
                "--provider",
                "gemini",
                f,
                "--report",
                s(&report),
            ],
            120,
        );
        clean(&o, f);
        expect_code(&o, 0);
        let r = std::fs::read_to_string(&report).expect("report");
        assert!(r.contains("\"rule\": \"depth\""), "{f}: {r}");
        assert!(o.stdout.len() < 64 * 1024, "{f}: cut, so small");

        let o = run_bounded(&["diff", "--provider", "openai", f], 120);
        clean(&o, f);
        // diff(1)'s codes: 1 when its summary says something changed.
        let unchanged = stdout(&o)
            .lines()
            .last()
            .is_some_and(|l| l.starts_with("0 of "));
        expect_code(&o, if unchanged { 0 } else { 1 });
        let o = run_bounded(&["matrix", f], 120);
        clean(&o, f);
        expect_code(&o, 0);
    }
    // Not a tool list nor a schema: a clean usage error.
    let o = run_bounded(&["check", "--provider", "gemini", s(&arrays)], 120);
    clean(&o, "arrays");
    expect_code(&o, 2);
    // A tool call's schema that deep cannot be held as a value: said so, exit 2.
    for file in [&objects, &arrays] {
        let o = run_bounded(&["validate", "--schema", s(file), s(&args)], 120);
        clean(&o, "validate");
        expect_code(&o, 2);
        assert!(
            stderr(&o).contains("nested too deep (more than 512 levels"),
            "{}",
            stderr(&o)
        );
    }
    let o = run_bounded(&["validate", "--schema", s(&args), s(&arrays)], 120);
    clean(&o, "validate args");
    expect_code(&o, 2);
    assert!(stderr(&o).contains("nested too deep"), "{}", stderr(&o));
}

#[test]
fn invalid_json_is_still_invalid_json() {
    let dir = tempdir("depth-invalid");
    // Unclosed and deep: invalid JSON, at its position, not "nested too deep".
    let bad = write(&dir, "bad.json", &"[".repeat(10_000));
    let args = write(&dir, "args.json", "{}");
    let o = run_bounded(&["validate", "--schema", s(&bad), s(&args)], 60);
    clean(&o, "validate");
    expect_code(&o, 2);
    assert!(stderr(&o).contains("invalid JSON"), "{}", stderr(&o));
}
