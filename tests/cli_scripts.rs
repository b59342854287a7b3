//! The CLI in scripts and CI: `check` over many files and `--format json`, `--mcp` on
//! `check` / `sanitize` / `diff`, `diff`'s exit codes, provider names in any case with "did you
//! mean", `--color`, completions and the man page, the exit codes under `--help`.

#[path = "fixtures/cli_util.rs"]
mod util;

use serde_json::Value;
use util::*;

const TIME: &str = "examples/data/mcp-server-time.json";
const BRAVE: &str = "examples/data/brave-search-mcp-server.json";

fn mock() -> String {
    root()
        .join("tests/fixtures/mock_mcp_server.py")
        .display()
        .to_string()
}

fn json(o: &std::process::Output) -> Value {
    serde_json::from_str(&stdout(o)).unwrap_or_else(|e| panic!("{e}: {}", stdout(o)))
}

#[test]
fn check_reads_many_files_and_names_each_in_its_lines() {
    let o = run(&["check", "-p", "gemini", TIME, BRAVE]);
    expect_code(&o, 1);
    let out = stdout(&o);
    assert!(out.lines().any(|l| l.starts_with(TIME)), "{out}");
    assert!(out.lines().any(|l| l.starts_with(BRAVE)), "{out}");
    // The same lines as checking each file alone, in the order given.
    let alone: String = [TIME, BRAVE]
        .iter()
        .map(|f| stdout(&run(&["check", "-p", "gemini", f])))
        .collect();
    assert_eq!(out, alone);
    assert!(
        stderr(&o).contains("`toolschema sanitize --provider gemini FILE` (for each file)"),
        "{}",
        stderr(&o)
    );
    // A missing file among them: exit 2, naming it.
    let o = run(&["check", "-p", "gemini", TIME, "no/such.json"]);
    expect_code(&o, 2);
    assert!(stderr(&o).contains("no/such.json"), "{}", stderr(&o));
}

#[test]
fn check_format_json_gives_one_object_per_problem() {
    let text = stdout(&run(&["check", "-p", "gemini", TIME, BRAVE]));
    let o = run(&["check", "-p", "gemini", "--format", "json", TIME, BRAVE]);
    expect_code(&o, 1);
    let v = json(&o);
    let problems = v.as_array().expect("an array");
    assert_eq!(problems.len(), text.lines().count());
    for p in problems {
        for key in ["file", "tool", "pointer", "rule", "message"] {
            assert!(p.get(key).is_some(), "{key} in {p}");
        }
        let file = p["file"].as_str().unwrap();
        assert!(file == TIME || file == BRAVE, "{p}");
        assert!(p["pointer"].as_str().unwrap().starts_with("/tools/"), "{p}");
    }
    // Each object says what its text line says.
    let first = &problems[0];
    let line = text.lines().next().unwrap();
    assert!(
        line.contains(&format!(
            "tool {}: {}: [{}] {}",
            first["tool"].as_str().unwrap(),
            first["pointer"].as_str().unwrap(),
            first["rule"].as_str().unwrap(),
            first["message"].as_str().unwrap()
        )),
        "{line}\n{first}"
    );
    // Nothing on standard error: the output is for a program.
    assert_eq!(stderr(&o), "");
    // Nothing wrong: exit 0, an empty array.
    let o = run(&["check", "-p", "openai", "--format", "json", TIME]);
    expect_code(&o, 0);
    assert_eq!(json(&o), serde_json::json!([]));
}

#[test]
fn the_closing_hint_speaks_of_renaming_only_when_a_name_is_wrong() {
    let o = run(&["check", "-p", "gemini", TIME]);
    expect_code(&o, 1);
    let e = stderr(&o);
    assert!(e.contains("rewrites the schemas"), "{e}");
    assert!(!e.contains("renamed"), "{e}");
    let bad =
        br#"{"tools":[{"name":"get weather","inputSchema":{"type":"object","properties":{}}}]}"#;
    let o = run_stdin(&["check", "-p", "openai", "-"], bad);
    expect_code(&o, 1);
    assert!(stdout(&o).contains("[tool-name]"), "{}", stdout(&o));
    assert!(
        stderr(&o).contains("a tool name is invalid: the layer and `toolschema serve` rename it"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn check_sanitize_and_diff_read_an_mcp_server() {
    let server = mock();
    let args = |cmd: &[&str]| -> Vec<String> {
        let mut v: Vec<String> = cmd.iter().map(|s| s.to_string()).collect();
        v.extend(["--mcp", "--", "python3", &server, TIME].map(String::from));
        v
    };
    let call = |cmd: &[&str]| {
        let a = args(cmd);
        run(&a.iter().map(String::as_str).collect::<Vec<_>>())
    };
    // check: the same problems as the file the server serves, named after the server.
    let o = call(&["check", "-p", "gemini", "--format", "json"]);
    expect_code(&o, 1);
    let from_server = json(&o);
    let from_file = json(&run(&["check", "-p", "gemini", "--format", "json", TIME]));
    let strip = |v: &Value| -> Vec<(String, String)> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|p| (p["tool"].to_string(), p["rule"].to_string()))
            .collect()
    };
    assert_eq!(strip(&from_server), strip(&from_file));
    assert!(
        from_server[0]["file"]
            .as_str()
            .unwrap()
            .starts_with("mcp: python3"),
        "{from_server}"
    );
    let o = call(&["check", "-p", "openai"]);
    expect_code(&o, 0);
    // sanitize: a tool list that Gemini accepts.
    let o = call(&["sanitize", "-p", "gemini"]);
    expect_code(&o, 0);
    let out = stdout(&o);
    assert!(out.contains("\"tools\""), "{out}");
    let again = run_stdin(&["check", "-p", "gemini", "-"], out.as_bytes());
    expect_code(&again, 0);
    // diff: 1, something changed.
    let o = call(&["diff", "-p", "gemini"]);
    expect_code(&o, 1);
    assert!(
        stdout(&o)
            .trim_end()
            .ends_with("1 of 4 schemas changed for gemini"),
        "{}",
        stdout(&o)
    );
    // A file and --mcp at once: a usage error naming the command.
    let o = run(&["check", "-p", "gemini", "--mcp", TIME, "--", "python3"]);
    expect_code(&o, 2);
    assert!(
        stderr(&o).contains("toolschema check --mcp --"),
        "{}",
        stderr(&o)
    );
    let o = run(&[
        "sanitize", "-p", "gemini", "--mcp", "--api", "gemini", "--", "x",
    ]);
    expect_code(&o, 2);
    assert!(
        stderr(&o).contains("--as and --api do not apply"),
        "{}",
        stderr(&o)
    );
    // sanitize writes one document.
    let o = run(&["sanitize", "-p", "gemini", TIME, BRAVE]);
    expect_code(&o, 2);
    assert!(stderr(&o).contains("writes one document"), "{}", stderr(&o));
}

#[test]
fn diff_exits_0_when_nothing_changes_and_1_when_something_does() {
    let o = run(&["diff", "-p", "openai", TIME]);
    expect_code(&o, 0);
    let o = run(&["diff", "-p", "gemini", TIME]);
    expect_code(&o, 1);
    // Over many files: one summary, each file's schemas headed by its name.
    let o = run(&["diff", "-p", "gemini", TIME, BRAVE]);
    expect_code(&o, 1);
    let out = stdout(&o);
    assert!(out.contains(&format!("--- {TIME}: convert_time")), "{out}");
    assert!(
        out.contains(&format!("--- {BRAVE}: brave_web_search")),
        "{out}"
    );
    let slots = |f: &str| {
        let v: Value =
            serde_json::from_str(&std::fs::read_to_string(root().join(f)).unwrap()).unwrap();
        v["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| {
                usize::from(t.get("inputSchema").is_some())
                    + usize::from(t.get("outputSchema").is_some())
            })
            .sum::<usize>()
    };
    let total = slots(TIME) + slots(BRAVE);
    assert!(
        out.lines()
            .last()
            .unwrap()
            .ends_with(&format!(" of {total} schemas changed for gemini")),
        "{out}"
    );
}

#[test]
fn provider_names_ignore_case_and_near_misses_get_a_suggestion() {
    let lower = run(&["sanitize", "-p", "gemini", TIME]);
    for name in ["GEMINI", "Gemini"] {
        let o = run(&["sanitize", "-p", name, TIME]);
        expect_code(&o, 0);
        assert_eq!(o.stdout, lower.stdout, "{name}");
    }
    let o = run(&["matrix", "--providers", "OpenAI,XAI", TIME]);
    expect_code(&o, 0);
    assert!(stdout(&o).contains("openai: "), "{}", stdout(&o));
    for (typed, meant) in [
        ("gemin", "gemini"),
        ("opnai", "openai"),
        ("antropic", "anthropic"),
    ] {
        let o = run(&["check", "-p", typed, TIME]);
        expect_code(&o, 2);
        assert!(
            stderr(&o).contains(&format!(
                "unknown provider \"{typed}\" (did you mean \"{meant}\"?)"
            )),
            "{}",
            stderr(&o)
        );
    }
    let o = run(&["check", "-p", "frobnicate", TIME]);
    expect_code(&o, 2);
    assert!(!stderr(&o).contains("did you mean"), "{}", stderr(&o));
    // API names too.
    let o = run_stdin(
        &["sanitize", "-p", "gemini", "--api", "OPENAI-CHAT"],
        b"{\"messages\":[]}",
    );
    expect_code(&o, 0);
    let o = run_stdin(&["sanitize", "-p", "gemini", "--api", "openai-caht"], b"{}");
    expect_code(&o, 2);
    assert!(
        stderr(&o).contains("did you mean \"openai-chat\"?"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn color_always_never_and_auto() {
    let args = ["matrix", "--providers", "gemini", TIME];
    // Piped: auto is plain.
    let o = run(&args);
    expect_code(&o, 0);
    assert!(!stdout(&o).contains('\x1b'));
    let o = run(&["--color", "always", "matrix", "--providers", "gemini", TIME]);
    expect_code(&o, 0);
    assert!(stdout(&o).contains("\x1b[33mfixed"), "{}", stdout(&o));
    // After the subcommand too (a global flag), and over NO_COLOR.
    let o = bin()
        .args(["diff", "-p", "gemini", TIME, "--color", "always"])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    expect_code(&o, 1);
    assert!(stdout(&o).contains("\x1b[31m-"), "{}", stdout(&o));
    let o = run(&["--color", "never", "diff", "-p", "gemini", TIME]);
    assert!(!stdout(&o).contains('\x1b'));
    let o = run(&["--color", "sometimes", "providers"]);
    expect_code(&o, 2);
}

#[test]
fn completions_and_man_page_come_from_the_commands() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let o = run(&["completions", shell]);
        expect_code(&o, 0);
        let out = stdout(&o);
        for word in [
            "sanitize",
            "check",
            "matrix",
            "diff",
            "validate",
            "--provider",
        ] {
            assert!(out.contains(word), "{shell}: {word}");
        }
    }
    let o = run(&["completions", "tcsh"]);
    expect_code(&o, 2);
    let o = run(&["man"]);
    expect_code(&o, 0);
    let out = stdout(&o);
    assert!(
        out.starts_with(".ie") || out.contains(".TH toolschema"),
        "{out}"
    );
    assert!(out.contains("Exit codes"), "{out}");
    assert!(out.contains("sanitize"), "{out}");
}

#[test]
fn help_shows_the_exit_codes() {
    for flag in ["--help", "-h"] {
        let o = run(&[flag]);
        expect_code(&o, 0);
        let out = stdout(&o);
        assert!(out.contains("Exit codes:"), "{out}");
        assert!(out.contains("2  bad usage"), "{out}");
    }
}

/// Every `toolschema` command of the README that reads only bundled files runs as shown: no
/// usage error, no missing file (exit 0 or 1, never 2).
#[test]
fn the_readme_commands_on_bundled_files_run() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let bin_dir = std::path::Path::new(env!("CARGO_BIN_EXE_toolschema"))
        .parent()
        .unwrap()
        .to_owned();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut ran = Vec::new();
    for line in readme.lines().map(str::trim) {
        let Some(cmd) = line.strip_prefix("toolschema ") else {
            continue;
        };
        let cmd = cmd.split(" #").next().unwrap().trim();
        // Servers (MCP servers, the gateway, which runs until stopped), files a reader writes
        // or brings, and redirections are not bundled.
        if [
            "--mcp",
            "npx",
            "--url",
            ">",
            "out.json",
            "tools.json",
            "request.json",
            ".toml",
        ]
        .iter()
        .any(|s| cmd.contains(s))
            || cmd.starts_with("serve")
        {
            continue;
        }
        let o = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!("toolschema {cmd}"))
            .current_dir(root())
            .env("PATH", &path)
            .env_remove("COLUMNS")
            .output()
            .unwrap();
        let code = o.status.code().unwrap();
        assert!(
            code == 0 || code == 1,
            "`toolschema {cmd}` exited {code}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        ran.push(cmd.to_owned());
    }
    assert!(ran.iter().any(|c| c.starts_with("validate ")), "{ran:?}");
    assert!(ran.len() >= 7, "{ran:?}");
}
