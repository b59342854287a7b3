//! `matrix` on a terminal of a given width (`COLUMNS`): every line fits, nothing is lost; in a
//! pipe (no `COLUMNS`) one plain line per tool; many files summarised in the heading; no
//! progress line when standard error is not a terminal.

#[path = "fixtures/cli_util.rs"]
mod util;

use std::process::Output;
use util::*;

const FIRECRAWL: &str = "examples/data/firecrawl-mcp.json";

fn matrix_at(columns: &str, files: &[&str]) -> Output {
    bin()
        .arg("matrix")
        .args(files)
        .env("COLUMNS", columns)
        .output()
        .expect("run toolschema")
}

fn tools(file: &str) -> Vec<String> {
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root().join(file)).unwrap()).unwrap();
    v["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn every_line_fits_the_width_and_every_verdict_is_kept() {
    let piped = run(&["matrix", FIRECRAWL]);
    let wide = stdout(&piped);
    for width in [100usize, 80, 60, 40] {
        let o = matrix_at(&width.to_string(), &[FIRECRAWL]);
        expect_code(&o, 0);
        let out = stdout(&o);
        for line in out.lines() {
            assert!(line.chars().count() <= width, "{width}: {line:?}\n{out}");
        }
        // Every provider named (in the key or a header), every tool shown.
        for p in [
            "gemini-code-assist",
            "gemini-jsonschema",
            "portable",
            "bedrock",
        ] {
            assert!(out.contains(p), "{width}: {p}\n{out}");
        }
        for t in tools(FIRECRAWL) {
            let short = t.len() <= 16;
            assert!(!short || out.contains(&t), "{width}: {t}\n{out}");
        }
        // As many verdict cells as the wide table has.
        let cells = |s: &str| s.matches("fixed").count() + s.matches(" ok").count();
        assert_eq!(cells(&out), cells(&wide), "{width}\n{out}");
        // The legend wrapped, not cut.
        let words = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            words(&out).contains("(n): constraints sanitizing moves into descriptions"),
            "{out}"
        );
    }
}

#[test]
fn in_a_pipe_the_table_is_plain_with_one_line_per_tool() {
    let o = run(&["matrix", FIRECRAWL]);
    expect_code(&o, 0);
    let out = stdout(&o);
    assert!(!out.contains('\x1b'));
    assert!(!out.contains("columns: "), "{out}");
    for t in tools(FIRECRAWL) {
        assert!(
            out.lines().any(|l| l.starts_with(&format!("{t} "))),
            "{t}\n{out}"
        );
    }
    assert!(
        out.lines()
            .any(|l| l.starts_with("tool ") && l.contains("gemini-code-assist"))
    );
    // No progress line: standard error is not a terminal.
    assert_eq!(stderr(&o), "");
}

#[test]
fn many_files_are_summarised_in_the_heading() {
    let files: Vec<String> = corpus().iter().map(|p| p.display().to_string()).collect();
    let files: Vec<&str> = files.iter().map(String::as_str).collect();
    assert!(files.len() > 10);
    let o = bin().arg("matrix").args(&files).output().unwrap();
    expect_code(&o, 0);
    let out = stdout(&o);
    let heading = out.lines().next().unwrap();
    assert!(
        heading.starts_with(&format!("{} files (", files.len())),
        "{heading}"
    );
    assert!(heading.contains(", …): "), "{heading}");
    assert!(heading.chars().count() < 300, "{heading}");
    assert_eq!(stderr(&o), "");
    let o = matrix_at("80", &files);
    let heading = stdout(&o).lines().next().unwrap().to_owned();
    assert!(heading.chars().count() <= 80, "{heading}");
    assert!(
        heading.starts_with(&format!("{} files", files.len())),
        "{heading}"
    );
}
