//! `providers`, `rules` (and `--rules FILE`), `diff`, `validate`, and the errors every command
//! shares: exit codes and messages that say where and what to do.

#[path = "fixtures/cli_util.rs"]
mod util;

use serde_json::Value;
use util::*;

/// Every line of `toolschema providers`: the built-in profiles, and the providers whose name
/// is not a profile's (`deepseek`, `azure-openai`), in registry order.
const ALL: &[&str] = &[
    "gemini",
    "gemini-jsonschema",
    "gemini-code-assist",
    "vertex",
    "openai",
    "openai-strict",
    "anthropic",
    "anthropic-strict",
    "xai",
    "bedrock",
    "portable",
    "mistral",
    "groq",
    "groq-strict",
    "deepseek",
    "deepseek-strict",
    "ollama",
    "cohere",
    "azure-openai",
    "azure-openai-strict",
];

#[test]
fn providers_lists_every_profile_with_a_description() {
    let o = run(&["providers"]);
    expect_code(&o, 0);
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), ALL.len(), "{out}");
    for (line, name) in lines.iter().zip(ALL) {
        let (n, desc) = line.split_once("  ").expect("name, then description");
        assert_eq!(n, *name);
        assert!(desc.trim().len() > 10, "{line}");
    }
    assert!(!out.contains('\x1b'), "no colours when piped");
}

#[test]
fn rules_prints_toml_and_json() {
    let toml = run(&["rules", "gemini", "--format", "toml"]);
    expect_code(&toml, 0);
    assert!(stdout(&toml).contains("name = \"gemini\""));
    let default = run(&["rules", "gemini"]);
    assert_eq!(default.stdout, toml.stdout, "TOML by default");
    let json = run(&["rules", "openai-strict", "--format", "json"]);
    expect_code(&json, 0);
    let v: Value = serde_json::from_str(&stdout(&json)).unwrap();
    assert_eq!(v["name"], "openai-strict");
    let unknown = run(&["rules", "gemeni"]);
    expect_code(&unknown, 2);
    assert!(stderr(&unknown).contains("unknown provider \"gemeni\""));
    assert!(stderr(&unknown).contains("gemini, gemini-jsonschema, gemini-code-assist"));
}

#[test]
fn rules_round_trip_gives_the_same_output_as_the_built_in() {
    let dir = tempdir("rules-round-trip");
    let files = [
        root().join("examples/data/firecrawl-mcp.json"),
        root().join("tests/corpus/mcp/server-github.json"),
    ];
    for (profile, format) in [
        ("gemini", "toml"),
        ("vertex", "json"),
        ("openai-strict", "toml"),
    ] {
        let printed = run(&["rules", profile, "--format", format]);
        expect_code(&printed, 0);
        let rules = write(&dir, &format!("{profile}.{format}"), &stdout(&printed));
        for f in &files {
            let builtin = run(&["sanitize", "--provider", profile, s(f)]);
            let custom = run(&["sanitize", "--rules", s(&rules), s(f)]);
            expect_code(&custom, 0);
            assert_eq!(
                custom.stdout,
                builtin.stdout,
                "{profile} {format} {}",
                f.display()
            );
            let check = run(&["check", "--rules", s(&rules), s(f)]);
            assert_eq!(code(&check), code(&run(&["check", "-p", profile, s(f)])));
        }
    }
}

#[test]
fn a_custom_profile_extends_a_built_in() {
    let dir = tempdir("rules-extends");
    let rules = write(
        &dir,
        "gemini-ap.toml",
        "extends = \"gemini\"\nname = \"gemini-ap\"\nadditional-properties = \"keep\"\nkeywords = [\"type\", \"properties\", \"additionalProperties\", \"items\", \"required\", \"description\", \"anyOf\", \"enum\", \"nullable\"]\n",
    );
    let input = br#"{"type":"object","properties":{"a":{"type":"string","format":"uri"}},"additionalProperties":false}"#;
    let o = run_stdin(&["sanitize", "--rules", s(&rules), "--report", "-"], input);
    expect_code(&o, 0);
    assert_eq!(
        stdout(&o),
        r#"{"type":"object","properties":{"a":{"type":"string","description":"Format: uri."}},"additionalProperties":false}"#
    );
    let r: Value = serde_json::from_str(&stderr(&o)).unwrap();
    assert_eq!(r["provider"], "gemini-ap");
    // The built-in drops additionalProperties.
    let builtin = run_stdin(&["sanitize", "-p", "gemini"], input);
    assert!(!stdout(&builtin).contains("additionalProperties"));
    // Check with the same file accepts the result.
    expect_code(&run_stdin(&["check", "--rules", s(&rules)], &o.stdout), 0);
}

#[test]
fn bad_rules_files_exit_2_and_say_what_to_do() {
    let dir = tempdir("rules-bad");
    let missing = dir.join("missing.toml");
    let o = run(&["sanitize", "--rules", s(&missing), "-"]);
    expect_code(&o, 2);
    assert!(
        stderr(&o).contains("cannot read the rules file"),
        "{}",
        stderr(&o)
    );
    for (name, text, want) in [
        ("syntax.toml", "x = [\n", "invalid TOML"),
        (
            "base.toml",
            "extends = \"nope\"\n",
            "names no built-in profile",
        ),
        (
            "field.toml",
            "extends = \"gemini\"\nbogus = 1\n",
            "unknown field `bogus`",
        ),
        ("syntax.json", "{\"extends\": ", "invalid JSON"),
    ] {
        let f = write(&dir, name, text);
        let o = run_stdin(&["check", "--rules", s(&f)], b"{}");
        expect_code(&o, 2);
        let e = stderr(&o);
        assert!(e.contains(s(&f)), "{e}");
        assert!(e.contains(want), "{name}: {e}");
        assert!(e.contains("extends = \"gemini\""), "says what to do: {e}");
    }
}

#[test]
fn diff_shows_before_and_after_tool_by_tool() {
    let f = root().join("examples/data/mcp-server-time.json");
    let o = run(&["diff", "--provider", "gemini", s(&f)]);
    // Like diff(1): 1 when something changed.
    expect_code(&o, 1);
    let out = stdout(&o);
    assert!(
        out.contains("--- convert_time outputSchema (/tools/1/outputSchema), as it stands"),
        "{out}"
    );
    assert!(
        out.contains("+++ convert_time outputSchema (/tools/1/outputSchema), sanitized for gemini"),
        "{out}"
    );
    assert!(out.contains("\n-  \"$defs\": {"), "{out}");
    assert!(out.lines().any(|l| l.starts_with("@@ -")), "{out}");
    assert!(
        out.lines()
            .any(|l| l.starts_with('+') && !l.starts_with("+++")),
        "{out}"
    );
    assert!(out.contains("[ref"), "lists the changes: {out}");
    assert!(
        !out.contains("get_current_time"),
        "unchanged tools are not shown: {out}"
    );
    assert!(
        out.trim_end()
            .ends_with("1 of 4 schemas changed for gemini"),
        "{out}"
    );
    assert!(!out.contains('\x1b'));
    // Nothing to change: only the summary.
    let o = run(&["diff", "-p", "openai", s(&f)]);
    expect_code(&o, 0);
    assert_eq!(stdout(&o), "0 of 4 schemas changed for openai\n");
}

#[test]
fn validate_prints_the_model_facing_message() {
    let dir = tempdir("validate");
    let schema = write(
        &dir,
        "tool.json",
        r#"{"name":"get_weather","inputSchema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}"#,
    );
    let good = write(&dir, "good.json", r#"{"city":"Oslo"}"#);
    let o = run(&["validate", "--schema", s(&schema), s(&good)]);
    expect_code(&o, 0);
    assert_eq!(stdout(&o), "valid\n");
    let o = run_stdin(&["validate", "--schema", s(&schema)], br#"{"City":"Oslo"}"#);
    expect_code(&o, 1);
    assert_eq!(
        stdout(&o),
        "\"city\" is missing — you sent \"City\"; the field is \"city\"\nExpected {\"city\":\"<string>\"}\n"
    );
    let o = run_stdin(&["validate", "--schema", s(&schema), "-"], br#""Oslo""#);
    expect_code(&o, 1);
    assert!(stdout(&o).starts_with("input is invalid: it must be an object, not a string"));
    // Lenient: JSON text for an object is accepted, and said.
    let nested = write(
        &dir,
        "nested.json",
        r#"{"type":"object","properties":{"q":{"type":"object"}},"required":["q"]}"#,
    );
    let text = br#"{"q":"{\"a\":1}"}"#;
    expect_code(&run_stdin(&["validate", "--schema", s(&nested)], text), 1);
    let o = run_stdin(&["validate", "--lenient", "--schema", s(&nested)], text);
    expect_code(&o, 0);
    assert!(stdout(&o).starts_with("valid\nnote: "), "{}", stdout(&o));
    // Bad input: exit 2.
    let o = run_stdin(&["validate", "--schema", s(&schema)], b"{oops");
    expect_code(&o, 2);
    assert!(
        stderr(&o).contains("<stdin>:1:2: invalid JSON"),
        "{}",
        stderr(&o)
    );
    let o = run(&["validate", "--schema", s(&dir.join("nope.json")), s(&good)]);
    expect_code(&o, 2);
    assert!(stderr(&o).contains("nope.json"));
}

#[test]
fn a_missing_file_exits_2_naming_it() {
    let o = run(&["sanitize", "-p", "gemini", "does/not/exist.json"]);
    expect_code(&o, 2);
    let e = stderr(&o);
    assert!(
        e.starts_with("error: cannot read does/not/exist.json: "),
        "{e}"
    );
    assert!(e.contains("check the path"), "{e}");
    assert!(o.stdout.is_empty());
}

#[test]
fn invalid_json_exits_2_with_line_and_column() {
    let dir = tempdir("bad-json");
    let f = write(
        &dir,
        "broken.json",
        "{\n  \"tools\": [\n    {\"name\": \"x\",}\n  ]\n}\n",
    );
    for cmd in ["sanitize", "check", "diff"] {
        let o = run(&[cmd, "-p", "gemini", s(&f)]);
        expect_code(&o, 2);
        let e = stderr(&o);
        assert!(
            e.contains(&format!(
                "{}:3:18: invalid JSON: key must be a string",
                s(&f)
            )),
            "{cmd}: {e}"
        );
    }
    let o = run(&["matrix", s(&f)]);
    expect_code(&o, 2);
    assert!(stderr(&o).contains(":3:18: invalid JSON"));
}

#[test]
fn an_unknown_provider_lists_the_valid_names() {
    for cmd in ["sanitize", "check", "diff"] {
        let o = run_stdin(&[cmd, "--provider", "gemni"], b"{}");
        expect_code(&o, 2);
        let e = stderr(&o);
        assert!(e.contains("unknown provider \"gemni\""), "{e}");
        for name in ALL {
            assert!(e.contains(name), "{e}");
        }
    }
    let o = run(&[
        "matrix",
        "--providers",
        "gemini,nope",
        "examples/data/mcp-server-time.json",
    ]);
    expect_code(&o, 2);
    assert!(stderr(&o).contains("unknown provider \"nope\""));
}

#[test]
fn usage_errors_exit_2() {
    let o = run_stdin(&["sanitize"], b"{}");
    expect_code(&o, 2);
    assert!(
        stderr(&o).contains("pass --provider NAME"),
        "{}",
        stderr(&o)
    );
    let o = run_stdin(
        &[
            "sanitize",
            "-p",
            "gemini",
            "--as",
            "schema",
            "--api",
            "openai-chat",
        ],
        b"{}",
    );
    expect_code(&o, 2);
    assert!(stderr(&o).contains("only one of them"));
    let o = run_stdin(
        &["sanitize", "-p", "gemini", "--api", "openai-chatt"],
        b"{}",
    );
    expect_code(&o, 2);
    assert!(stderr(&o).contains("unknown API \"openai-chatt\""));
    assert!(stderr(&o).contains("openai-chat"));
    let o = run_stdin(&["sanitize", "-p", "gemini", "--as", "nonsense"], b"{}");
    expect_code(&o, 2);
    let o = run(&["frobnicate"]);
    expect_code(&o, 2);
    let o = run_stdin(&["sanitize", "-p", "gemini"], &[0xff, 0xfe]);
    expect_code(&o, 2);
    assert!(stderr(&o).contains("not UTF-8"));
    let o = run_stdin(&["sanitize", "-p", "gemini"], b"[1, 2]");
    expect_code(&o, 2);
    assert!(stderr(&o).contains("not of MCP tools"), "{}", stderr(&o));
    let help = run(&["--help"]);
    expect_code(&help, 0);
    for cmd in [
        "sanitize",
        "check",
        "matrix",
        "diff",
        "providers",
        "rules",
        "validate",
    ] {
        assert!(stdout(&help).contains(cmd));
    }
}
