//! `toolschema matrix`: text, Markdown and JSON; `--explain`; colours only on a terminal; the
//! README's main-job command; `--mcp` against a mock MCP server (paged, hanging, crashing).

#[path = "fixtures/cli_util.rs"]
mod util;

use serde_json::Value;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use util::*;

/// Every non-strict built-in profile, in registry order.
const DEFAULT: &[&str] = &[
    "gemini",
    "gemini-jsonschema",
    "gemini-code-assist",
    "vertex",
    "openai",
    "anthropic",
    "xai",
    "bedrock",
    "portable",
    "mistral",
    "groq",
    "ollama",
    "cohere",
];

fn tool_count(file: &str) -> usize {
    let v: Value =
        serde_json::from_str(&std::fs::read_to_string(root().join(file)).unwrap()).unwrap();
    v["tools"].as_array().unwrap().len()
}

/// The README's main job: `cargo run --release -- matrix examples/data/firecrawl-mcp.json`.
#[test]
fn readme_main_job_command_prints_a_summary_per_provider() {
    let o = run(&["matrix", "examples/data/firecrawl-mcp.json"]);
    expect_code(&o, 0);
    let out = stdout(&o);
    let n = tool_count("examples/data/firecrawl-mcp.json");
    assert!(
        out.starts_with(&format!(
            "examples/data/firecrawl-mcp.json: {n} tools × {} providers\n",
            DEFAULT.len()
        )),
        "{out}"
    );
    let header = out.lines().nth(2).unwrap();
    let cols: Vec<&str> = header.split_whitespace().collect();
    assert_eq!(cols[0], "tool");
    assert_eq!(&cols[1..], DEFAULT);
    for p in DEFAULT {
        let line = out
            .lines()
            .find(|l| l.starts_with(&format!("{p}: ")))
            .unwrap_or_else(|| panic!("no summary for {p}:\n{out}"));
        assert!(
            line.contains("pass as they stand")
                || line.contains(&format!("of {n} tools would fail")),
            "{line}"
        );
        assert!(!line.contains("still fail"), "{line}");
    }
    assert!(out.contains(&format!(
        "gemini: {n} of {n} tools would fail; all pass after sanitizing; "
    )));
    assert!(out.contains("constraints moved to descriptions"));
    assert!(!out.contains('\x1b'), "piped output has no escape codes");
    // Every tool is a row.
    let v: Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("examples/data/firecrawl-mcp.json")).unwrap(),
    )
    .unwrap();
    for t in v["tools"].as_array().unwrap() {
        let name = t["name"].as_str().unwrap();
        assert!(
            out.lines()
                .any(|l| l.split_whitespace().next() == Some(name)),
            "{name}"
        );
    }
}

#[test]
fn every_shipped_example_runs() {
    for f in [
        "examples/data/brave-search-mcp-server.json",
        "examples/data/mcp-server-time.json",
    ] {
        let o = run(&["matrix", f]);
        expect_code(&o, 0);
        assert_eq!(
            stdout(&o)
                .lines()
                .filter(|l| DEFAULT.iter().any(|p| l.starts_with(&format!("{p}: "))))
                .count(),
            DEFAULT.len()
        );
    }
}

#[test]
fn columns_are_aligned_and_cells_say_ok_fixed_or_fail() {
    let o = run(&[
        "matrix",
        "--providers",
        "gemini,openai",
        "examples/data/mcp-server-time.json",
    ]);
    expect_code(&o, 0);
    let out = stdout(&o);
    let table: Vec<&str> = out.lines().skip(2).take(3).collect();
    assert_eq!(table[0], "tool              gemini  openai");
    assert_eq!(table[1], "get_current_time  ok      ok");
    assert_eq!(table[2], "convert_time      fixed   ok");
    assert!(
        out.contains("\ngemini: 1 of 2 tools would fail; it passes after sanitizing\n"),
        "{out}"
    );
    assert!(
        out.contains("\nopenai: both tools pass as they stand\n"),
        "{out}"
    );
}

#[test]
fn markdown_is_a_table_with_a_summary_list() {
    let o = run(&[
        "matrix",
        "--format",
        "markdown",
        "--providers",
        "gemini,openai",
        "examples/data/mcp-server-time.json",
    ]);
    expect_code(&o, 0);
    let out = stdout(&o);
    assert!(out.starts_with("| tool | gemini | openai |\n|---|---|---|\n| `get_current_time` | ok | ok |\n| `convert_time` | fixed | ok |\n"), "{out}");
    assert!(out.contains("\n- gemini: 1 of 2 tools would fail; it passes after sanitizing\n"));
    assert!(!out.contains('\x1b'));
}

#[test]
fn json_has_per_tool_results_and_a_summary() {
    let o = run(&[
        "matrix",
        "--format",
        "json",
        "examples/data/firecrawl-mcp.json",
    ]);
    expect_code(&o, 0);
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let n = tool_count("examples/data/firecrawl-mcp.json");
    assert_eq!(v["providers"].as_array().unwrap().len(), DEFAULT.len());
    let tools = v["tools"].as_array().unwrap();
    assert_eq!(tools.len(), n);
    for t in tools {
        let results = t["results"].as_array().unwrap();
        assert_eq!(results.len(), DEFAULT.len());
        for r in results {
            assert!(["ok", "fixed", "fail"].contains(&r["status"].as_str().unwrap()));
            assert_eq!(r["accepted"], r["violations"] == 0);
            assert!(r["lossy"].as_u64().unwrap() <= r["changes"].as_u64().unwrap());
        }
    }
    let gemini = &v["summary"][0];
    assert_eq!(gemini["provider"], "gemini");
    assert_eq!(gemini["tools"], n);
    assert_eq!(gemini["fail_after_sanitizing"], 0);
    assert!(gemini["line"].as_str().unwrap().starts_with("gemini: "));
    let lossy: u64 = tools
        .iter()
        .map(|t| t["results"][0]["lossy"].as_u64().unwrap())
        .sum();
    assert_eq!(gemini["lossy"], lossy);
}

#[test]
fn explain_lists_problems_and_changes_for_one_tool() {
    let o = run(&[
        "matrix",
        "--explain",
        "convert_time",
        "--providers",
        "gemini,openai",
        "examples/data/mcp-server-time.json",
    ]);
    expect_code(&o, 0);
    let out = stdout(&o);
    assert!(out.contains("convert_time × gemini: rejected as it stands (7 problems); accepted after sanitizing; 1 change, 0 lose meaning"), "{out}");
    assert!(out.contains("  rejected  outputSchema/properties/source: [type-missing] type must be specified (provider says: "), "{out}");
    assert!(
        out.contains("  changed   outputSchema: [ref-inline] "),
        "{out}"
    );
    assert!(
        out.contains("convert_time × openai: accepted as it stands"),
        "{out}"
    );
    // JSON too.
    let o = run(&[
        "matrix",
        "--explain",
        "convert_time",
        "--format",
        "json",
        "--providers",
        "gemini",
        "examples/data/mcp-server-time.json",
    ]);
    expect_code(&o, 0);
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v[0]["tool"], "convert_time");
    assert_eq!(v[0]["providers"][0]["status"], "fixed");
    let slots = v[0]["providers"][0]["slots"].as_array().unwrap();
    assert_eq!(slots[1]["slot"], "outputSchema");
    assert_eq!(slots[1]["violations"].as_array().unwrap().len(), 7);
    assert_eq!(slots[1]["changes"][0]["rule"], "ref-inline");
    // An unknown tool: exit 2, with the names there are.
    let o = run(&[
        "matrix",
        "--explain",
        "convert",
        "examples/data/mcp-server-time.json",
    ]);
    expect_code(&o, 2);
    assert!(
        stderr(&o)
            .contains("no tool named \"convert\"; the tools are: get_current_time, convert_time"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn several_files_prefix_tools_with_the_file() {
    let o = run(&[
        "matrix",
        "--providers",
        "gemini",
        "examples/data/mcp-server-time.json",
        "tests/corpus/mcp/server-memory.json",
    ]);
    expect_code(&o, 0);
    let out = stdout(&o);
    assert!(out.contains("\nmcp-server-time/convert_time "), "{out}");
    assert!(out.contains("\nserver-memory/"), "{out}");
    let n = 2 + tool_count("tests/corpus/mcp/server-memory.json");
    assert!(
        out.contains(&format!("gemini: {n} tools pass as they stand"))
            || out.contains(&format!(" of {n} tools would fail")),
        "{out}"
    );
    let o = run(&[
        "matrix",
        "--explain",
        "mcp-server-time/convert_time",
        "--providers",
        "gemini",
        "examples/data/mcp-server-time.json",
        "tests/corpus/mcp/server-memory.json",
    ]);
    expect_code(&o, 0);
}

#[test]
fn a_custom_profile_is_a_column() {
    let dir = tempdir("matrix-rules");
    let rules = write(
        &dir,
        "mine.toml",
        "extends = \"gemini\"\nname = \"my-gemini\"\n",
    );
    let o = run(&[
        "matrix",
        "--rules",
        s(&rules),
        "examples/data/mcp-server-time.json",
    ]);
    expect_code(&o, 0);
    let out = stdout(&o);
    assert!(out.contains("1 provider"), "{out}");
    assert!(
        out.contains("\nmy-gemini: 1 of 2 tools would fail"),
        "{out}"
    );
    let o = run(&[
        "matrix",
        "--providers",
        "openai",
        "--rules",
        s(&rules),
        "examples/data/mcp-server-time.json",
    ]);
    let header = stdout(&o).lines().nth(2).unwrap().to_owned();
    assert_eq!(
        header.split_whitespace().collect::<Vec<_>>(),
        ["tool", "openai", "my-gemini"]
    );
}

#[test]
fn a_request_body_is_a_matrix_input() {
    let body = br#"{"model":"gpt-4o","messages":[],"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{"a":{"type":["string","null"]}}}}}]}"#;
    let o = run_stdin(&["matrix", "--providers", "gemini,openai", "-"], body);
    expect_code(&o, 0);
    let out = stdout(&o);
    assert!(out.contains("\nf     fixed   ok\n"), "{out}");
}

/// Runs the binary under a pseudo-terminal (python3's pty module), so it sees a terminal.
fn run_on_terminal(args: &[&str], no_color: bool) -> String {
    let mut c = Command::new("python3");
    c.current_dir(root())
        .arg("-c")
        .arg("import pty, sys; pty.spawn(sys.argv[1:])")
        .arg(env!("CARGO_BIN_EXE_toolschema"))
        .args(args)
        .stdin(Stdio::null())
        .env_remove("NO_COLOR");
    if no_color {
        c.env("NO_COLOR", "1");
    }
    let o = c.output().expect("python3");
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn colours_on_a_terminal_unless_no_color() {
    let args = [
        "matrix",
        "--providers",
        "gemini,openai",
        "examples/data/mcp-server-time.json",
    ];
    let tty = run_on_terminal(&args, false);
    assert!(tty.contains("\x1b[32mok\x1b[0m"), "{tty:?}");
    assert!(tty.contains("\x1b[33mfixed\x1b[0m"), "{tty:?}");
    let plain = run_on_terminal(&args, true);
    assert!(plain.contains("convert_time"), "{plain:?}");
    assert!(!plain.contains('\x1b'), "{plain:?}");
    // Piped (no terminal): never.
    assert!(!stdout(&run(&args)).contains('\x1b'));
}

fn mock() -> String {
    root()
        .join("tests/fixtures/mock_mcp_server.py")
        .display()
        .to_string()
}

#[test]
fn mcp_reads_every_page_from_a_server() {
    let corpus = root().join("tests/corpus/mcp/server-memory.json");
    let n = tool_count("tests/corpus/mcp/server-memory.json");
    assert!(n > 4, "needs several pages");
    let o = run(&[
        "matrix",
        "--format",
        "json",
        "--mcp",
        "--",
        "python3",
        &mock(),
        "--page-size",
        "2",
        s(&corpus),
    ]);
    expect_code(&o, 0);
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let tools: Vec<&str> = v["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["tool"].as_str().unwrap())
        .collect();
    let want: Value = serde_json::from_str(&std::fs::read_to_string(&corpus).unwrap()).unwrap();
    let want: Vec<&str> = want["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(tools, want);
    // The same verdicts as from the file.
    let from_file = run(&["matrix", "--format", "json", s(&corpus)]);
    let f: Value = serde_json::from_str(&stdout(&from_file)).unwrap();
    assert_eq!(
        v["summary"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| &s["fail"])
            .collect::<Vec<_>>(),
        f["summary"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| &s["fail"])
            .collect::<Vec<_>>()
    );
    // Text output too.
    let o = run(&[
        "matrix",
        "--providers",
        "gemini",
        "--mcp",
        "--",
        "python3",
        &mock(),
        s(&root().join("examples/data/mcp-server-time.json")),
    ]);
    expect_code(&o, 0);
    assert!(
        stdout(&o).contains("\ngemini: 1 of 2 tools would fail; it passes after sanitizing\n"),
        "{}",
        stdout(&o)
    );
}

fn alive(pid: &str) -> bool {
    Command::new("kill")
        .args(["-0", pid])
        .stderr(Stdio::null())
        .status()
        .map(|s| s.success())
        .unwrap_or(false)
}

#[test]
fn a_hanging_server_fails_within_the_timeout_and_is_reaped() {
    let dir = tempdir("mcp-hang");
    let pidfile = dir.join("pid");
    let start = Instant::now();
    let o = run(&[
        "matrix",
        "--mcp",
        "--timeout",
        "2",
        "--",
        "python3",
        &mock(),
        "--mode",
        "hang",
        "--pidfile",
        s(&pidfile),
    ]);
    let took = start.elapsed();
    expect_code(&o, 2);
    assert!(took < Duration::from_secs(10), "took {took:?}");
    assert!(took >= Duration::from_secs(2), "took {took:?}");
    let e = stderr(&o);
    assert!(e.contains("did not answer initialize within 2 s"), "{e}");
    assert!(e.contains("raise --timeout"), "{e}");
    let pid = std::fs::read_to_string(&pidfile).expect("the server wrote its pid");
    assert!(
        !alive(pid.trim()),
        "the server {pid} is still running (or a zombie)"
    );
}

#[test]
fn a_crashing_server_shows_its_stderr() {
    let o = run(&[
        "matrix",
        "--mcp",
        "--timeout",
        "10",
        "--",
        "python3",
        &mock(),
        "--mode",
        "crash",
    ]);
    expect_code(&o, 2);
    let e = stderr(&o);
    assert!(
        e.contains("closed its output before answering initialize"),
        "{e}"
    );
    assert!(
        e.contains("mock server: cannot connect to the backend"),
        "{e}"
    );
}

#[test]
fn mcp_usage_errors() {
    let o = run(&["matrix", "--mcp"]);
    expect_code(&o, 2);
    assert!(
        stderr(&o).contains("--mcp needs the server's command after --"),
        "{}",
        stderr(&o)
    );
    let o = run(&["matrix", "--mcp", "--", "/definitely/not/a/command"]);
    expect_code(&o, 2);
    assert!(stderr(&o).contains("cannot start the MCP server `/definitely/not/a/command`"));
    let o = run(&[
        "matrix",
        "examples/data/mcp-server-time.json",
        "--",
        "python3",
    ]);
    expect_code(&o, 2);
    assert!(stderr(&o).contains("only read with --mcp"));
    let o = run(&["matrix"]);
    expect_code(&o, 2);
    assert!(stderr(&o).contains("nothing to show"));
}

#[test]
fn a_tool_name_the_provider_refuses_still_fails_after_sanitizing() {
    let doc = br#"{"tools":[{"name":"get weather","inputSchema":{"type":"object","properties":{}}},{"name":"ok_tool","inputSchema":{"type":"object","properties":{"a":{"type":["string","null"]}}}}]}"#;
    let o = run_stdin(&["matrix", "--providers", "openai,gemini", "-"], doc);
    expect_code(&o, 0);
    let out = stdout(&o);
    assert!(out.contains("\nget weather  FAIL    FAIL\n"), "{out}");
    assert!(out.contains("\nok_tool      ok      fixed\n"), "{out}");
    assert!(out.contains("\nopenai: 1 of 2 tools would fail; 1 still fails after sanitizing (see --explain TOOL)\n"), "{out}");
    let o = run_stdin(
        &[
            "matrix",
            "--providers",
            "openai",
            "--explain",
            "get weather",
            "-",
        ],
        doc,
    );
    expect_code(&o, 0);
    assert!(
        stdout(&o).contains("  STILL     inputSchema: [tool-name] tool name \"get weather\""),
        "{}",
        stdout(&o)
    );
}
