//! `toolschema sanitize`: every kind of input, the report, and that only schema slots change.

#[path = "fixtures/cli_util.rs"]
mod util;

use serde_json::Value;
use util::*;

const MCP_DOC: &str = r#"{"server":"demo","tools":[{"name":"create_issue","inputSchema":{"type":"object","properties":{"labels":{"type":["array","null"],"items":{"type":"string"}},"n":{"type":"integer","enum":[1,2]}},"additionalProperties":false},"description":"Create an issue","annotations":{"zeta":1,"alpha":2}},{"name":"noop","inputSchema":{"type":"object","properties":{"q":{"type":"string"}}},"z":true}],"nextCursor":null}"#;

const CREATE_ISSUE_IN: &str = r#"{"type":"object","properties":{"labels":{"type":["array","null"],"items":{"type":"string"}},"n":{"type":"integer","enum":[1,2]}},"additionalProperties":false}"#;
const CREATE_ISSUE_GEMINI: &str = r#"{"type":"object","properties":{"labels":{"type":"array","items":{"type":"string"},"nullable":true},"n":{"type":"integer","minimum":1,"maximum":2,"description":"Allowed values: 1, 2."}},"maxProperties":2,"description":"No other properties are allowed."}"#;

#[test]
fn a_lone_schema_from_stdin_is_sanitized_as_parameters() {
    let o = run_stdin(
        &["sanitize", "--provider", "gemini"],
        br#"{"type":"object","properties":{"n":{"type":"integer","enum":[1,2,3]}}}"#,
    );
    expect_code(&o, 0);
    assert_eq!(
        stdout(&o),
        r#"{"type":"object","properties":{"n":{"type":"integer","minimum":1,"maximum":3,"description":"Allowed values: 1, 2, 3."}}}"#
    );
    // `-` is standard input too.
    let o2 = run_stdin(
        &["sanitize", "--provider", "gemini", "-"],
        br#"{"type":"object","properties":{"n":{"type":"integer","enum":[1,2,3]}}}"#,
    );
    assert_eq!(stdout(&o2), stdout(&o));
}

#[test]
fn as_schema_skips_the_root_rules_of_parameters() {
    let input = br#"{"type":"string","format":"uri"}"#;
    let params = run_stdin(&["sanitize", "-p", "openai"], input);
    expect_code(&params, 0);
    let v: Value = serde_json::from_str(&stdout(&params)).unwrap();
    assert_eq!(
        v["type"], "object",
        "parameters must be an object for OpenAI"
    );
    let schema = run_stdin(&["sanitize", "-p", "openai", "--as", "schema"], input);
    expect_code(&schema, 0);
    assert_eq!(stdout(&schema).as_bytes(), input);
    let explicit = run_stdin(&["sanitize", "-p", "openai", "--as", "parameters"], input);
    assert_eq!(stdout(&explicit), stdout(&params));
}

#[test]
fn an_mcp_tool_list_keeps_every_byte_outside_the_schemas() {
    let dir = tempdir("mcp-bytes");
    let f = write(&dir, "tools.json", MCP_DOC);
    let o = run(&["sanitize", "--provider", "gemini", s(&f)]);
    expect_code(&o, 0);
    // Only the one schema that needed it changed; key order ("zeta" before "alpha") and every
    // other byte are as they were.
    assert_eq!(
        stdout(&o),
        MCP_DOC.replace(CREATE_ISSUE_IN, CREATE_ISSUE_GEMINI)
    );
}

#[test]
fn a_json_array_of_tools_is_sanitized_tool_by_tool() {
    let v: Value = serde_json::from_str(MCP_DOC).unwrap();
    let array = serde_json::to_string(&v["tools"]).unwrap();
    let o = run_stdin(&["sanitize", "-p", "gemini"], array.as_bytes());
    expect_code(&o, 0);
    let out: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let want: Value = serde_json::from_str(CREATE_ISSUE_GEMINI).unwrap();
    assert_eq!(out[0]["inputSchema"], want);
    assert_eq!(out[1], v["tools"][1]);
    assert_eq!(out[0]["annotations"], v["tools"][0]["annotations"]);
}

#[test]
fn a_pretty_document_stays_pretty() {
    let input = "{\n  \"tools\": [\n    {\n      \"name\": \"t\",\n      \"inputSchema\": {\n        \"type\": \"object\",\n        \"properties\": {\n          \"a\": {\"type\": [\"string\", \"null\"]}\n        }\n      }\n    }\n  ]\n}\n";
    let o = run_stdin(&["sanitize", "-p", "gemini"], input.as_bytes());
    expect_code(&o, 0);
    assert_eq!(
        stdout(&o),
        "{\n  \"tools\": [\n    {\n      \"name\": \"t\",\n      \"inputSchema\": {\n        \"type\": \"object\",\n        \"properties\": {\n          \"a\": {\n            \"type\": \"string\",\n            \"nullable\": true\n          }\n        }\n      }\n    }\n  ]\n}\n"
    );
}

#[test]
fn unchanged_documents_come_out_byte_identical() {
    for f in corpus() {
        let text = std::fs::read(&f).unwrap();
        // OpenAI's non-strict dialect accepts most corpus files as they are.
        let o = run(&["sanitize", "-p", "openai", s(&f)]);
        expect_code(&o, 0);
        let report = run(&["sanitize", "-p", "openai", s(&f), "--report", "-"]);
        let r: Value = serde_json::from_str(&stderr(&report)).unwrap();
        if r["summary"]["changed"] == 0 {
            assert_eq!(o.stdout, text, "{}", f.display());
        } else {
            assert_ne!(o.stdout, text, "{}", f.display());
        }
    }
}

#[test]
fn only_schema_slots_differ_in_corpus_tool_lists() {
    for f in corpus() {
        let before: Value = serde_json::from_slice(&std::fs::read(&f).unwrap()).unwrap();
        let o = run(&["sanitize", "-p", "gemini", s(&f)]);
        expect_code(&o, 0);
        let mut after: Value = serde_json::from_str(&stdout(&o)).unwrap();
        let mut before = before;
        for doc in [&mut before, &mut after] {
            for tool in doc["tools"].as_array_mut().unwrap() {
                let t = tool.as_object_mut().unwrap();
                t.remove("inputSchema");
                t.remove("outputSchema");
            }
        }
        assert_eq!(before, after, "{}", f.display());
    }
}

#[test]
fn sanitize_is_idempotent_on_the_corpus() {
    let dir = tempdir("idempotent");
    for f in corpus() {
        for p in ["gemini", "gemini-code-assist", "anthropic", "portable"] {
            let once = run(&["sanitize", "-p", p, s(&f)]);
            expect_code(&once, 0);
            let mid = write(&dir, "once.json", &stdout(&once));
            let twice = run(&["sanitize", "-p", p, s(&mid)]);
            assert_eq!(stdout(&twice), stdout(&once), "{p} {}", f.display());
        }
    }
}

#[test]
fn the_report_lists_every_change_per_tool_and_slot() {
    let dir = tempdir("report");
    let f = write(&dir, "tools.json", MCP_DOC);
    let rep = dir.join("report.json");
    let o = run(&["sanitize", "-p", "gemini", s(&f), "--report", s(&rep)]);
    expect_code(&o, 0);
    let r: Value = serde_json::from_str(&std::fs::read_to_string(&rep).unwrap()).unwrap();
    assert_eq!(r["provider"], "gemini");
    assert_eq!(r["kind"], "mcp-tools-list");
    let slots = r["slots"].as_array().unwrap();
    assert_eq!(slots.len(), 2);
    assert_eq!(slots[0]["tool"], "create_issue");
    assert_eq!(slots[0]["slot"], "inputSchema");
    assert_eq!(slots[0]["pointer"], "/tools/0/inputSchema");
    assert_eq!(slots[0]["changed"], true);
    assert_eq!(slots[0]["strict_compatible"], true);
    let changes = slots[0]["changes"].as_array().unwrap();
    assert!(changes.iter().any(|c| c["pointer"] == "/properties/labels"
        && c["rule"] == "type-list"
        && c["lossy"] == false));
    assert!(changes.iter().any(|c| c["pointer"] == "/properties/n"
        && c["rule"] == "enum-values"
        && c["lossy"] == true
        && c["message"].as_str().is_some_and(|m| !m.is_empty())));
    assert_eq!(
        slots[0]["lossy"],
        changes.iter().filter(|c| c["lossy"] == true).count()
    );
    assert_eq!(slots[1]["tool"], "noop");
    assert_eq!(slots[1]["changed"], false);
    assert_eq!(slots[1]["changes"], serde_json::json!([]));
    assert_eq!(r["summary"]["changed"], 1);
    // The sanitized document still goes to stdout.
    assert!(stdout(&o).contains(CREATE_ISSUE_GEMINI));
}

#[test]
fn report_strict_compatibility_for_strict_profiles() {
    let o = run_stdin(
        &["sanitize", "-p", "openai-strict", "--report", "-"],
        br#"{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}"#,
    );
    expect_code(&o, 0);
    let r: Value = serde_json::from_str(&stderr(&o)).unwrap();
    assert!(r["slots"][0]["strict_compatible"].is_boolean());
    assert_eq!(
        r["summary"]["strict_compatible"],
        r["slots"][0]["strict_compatible"]
    );
}

/// An OpenAI Chat body whose history holds tool-call arguments with keyword-like keys.
const PARAMS_IN: &str = r##"{"type":"object","properties":{"title":{"type":["string","null"],"format":"uri"},"n":{"type":"integer","enum":[1,2]}},"required":["title"],"additionalProperties":false,"$schema":"http://json-schema.org/draft-07/schema#"}"##;
const PARAMS_GEMINI: &str = r#"{"type":"object","properties":{"title":{"type":"string","nullable":true,"description":"Format: uri."},"n":{"type":"integer","minimum":1,"maximum":2,"description":"Allowed values: 1, 2."}},"required":["title"],"maxProperties":2,"description":"No other properties are allowed."}"#;

fn openai_body() -> String {
    format!(
        r##"{{"model": "gemini-2.5-flash",
  "messages": [
    {{"role": "user", "content": "file it"}},
    {{"role": "assistant", "tool_calls": [{{"id": "c1", "type": "function", "function": {{"name": "create", "arguments": "{{\"title\":\"x\",\"format\":\"uri\",\"$ref\":\"#/a\",\"type\":[\"string\",\"null\"]}}"}}}}]}},
    {{"role": "tool", "tool_call_id": "c1", "content": {{"title": "T", "format": "date", "$ref": "#/x", "default": null, "enum": [1, 2]}}}}
  ],
  "tools": [{{"type": "function", "function": {{"name": "create", "description": "Create", "parameters": {PARAMS_IN}}}}}],
  "temperature": 0.5
}}
"##
    )
}

#[test]
fn a_request_body_changes_only_in_its_schema_slots() {
    let body = openai_body();
    let o = run_stdin(
        &["sanitize", "-p", "gemini", "--report", "-"],
        body.as_bytes(),
    );
    expect_code(&o, 0);
    assert_eq!(stdout(&o), body.replace(PARAMS_IN, PARAMS_GEMINI));
    let r: Value = serde_json::from_str(&stderr(&o)).unwrap();
    assert_eq!(r["kind"], "request-body");
    assert_eq!(r["api"], "openai-chat");
    assert_eq!(r["slots"][0]["pointer"], "/tools/0/function/parameters");
    assert_eq!(r["slots"][0]["tool"], "create");
    // Given explicitly, the same.
    let o2 = run_stdin(
        &["sanitize", "-p", "gemini", "--api", "openai-chat"],
        body.as_bytes(),
    );
    expect_code(&o2, 0);
    assert_eq!(stdout(&o2), stdout(&o));
}

#[test]
fn an_anthropic_body_is_recognised_and_its_input_schemas_sanitized() {
    let body = format!(
        r#"{{"model":"claude-sonnet-4-5","max_tokens":100,"messages":[{{"role":"user","content":"x"}}],"tools":[{{"name":"create","input_schema":{PARAMS_IN}}}]}}"#
    );
    let o = run_stdin(
        &["sanitize", "-p", "gemini", "--report", "-"],
        body.as_bytes(),
    );
    expect_code(&o, 0);
    assert_eq!(stdout(&o), body.replace(PARAMS_IN, PARAMS_GEMINI));
    let r: Value = serde_json::from_str(&stderr(&o)).unwrap();
    assert_eq!(r["api"], "anthropic-messages");
    let o2 = run_stdin(
        &["sanitize", "-p", "gemini", "--api", "anthropic-messages"],
        body.as_bytes(),
    );
    assert_eq!(stdout(&o2), stdout(&o));
}

#[test]
fn gemini_json_schema_slots_take_the_json_schema_profile() {
    let body = format!(
        r#"{{"contents":[],"tools":[{{"functionDeclarations":[{{"name":"a","parameters":{PARAMS_IN}}},{{"name":"b","parametersJsonSchema":{PARAMS_IN}}}]}}]}}"#
    );
    let o = run_stdin(
        &["sanitize", "-p", "gemini", "--report", "-"],
        body.as_bytes(),
    );
    expect_code(&o, 0);
    let r: Value = serde_json::from_str(&stderr(&o)).unwrap();
    assert_eq!(r["slots"][0]["profile"], "gemini");
    assert_eq!(r["slots"][1]["profile"], "gemini-jsonschema");
    let check = run_stdin(&["check", "-p", "gemini"], stdout(&o).as_bytes());
    expect_code(&check, 0);
}

#[test]
fn a_bedrock_body_schema_held_in_a_json_string_is_parsed_sanitized_and_re_encoded() {
    let inner = r#"{"type":"object","properties":{"a":{"type":["string","null"],"format":"uri"}},"additionalProperties":false}"#;
    let encoded = serde_json::to_string(inner).unwrap();
    let body = format!(
        r#"{{"messages":[{{"role":"user","content":[{{"text":"hi"}}]}}],"toolConfig":{{"tools":[{{"toolSpec":{{"name":"t","inputSchema":{{"json":{{"type":"object","properties":{{"x":{{"type":"string"}}}}}}}}}}}}]}},"outputConfig":{{"textFormat":{{"type":"json_schema","structure":{{"jsonSchema":{{"name":"o","schema":{encoded}}}}}}}}}}}"#
    );
    let o = run_stdin(
        &["sanitize", "-p", "gemini", "--report", "-"],
        body.as_bytes(),
    );
    expect_code(&o, 0);
    let r: Value = serde_json::from_str(&stderr(&o)).unwrap();
    assert_eq!(r["api"], "bedrock-converse");
    assert_eq!(
        r["slots"][1]["pointer"],
        "/outputConfig/textFormat/structure/jsonSchema/schema"
    );
    assert_eq!(r["slots"][1]["changed"], true);
    let out: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let schema = out["outputConfig"]["textFormat"]["structure"]["jsonSchema"]["schema"]
        .as_str()
        .expect("still a string");
    let schema: Value = serde_json::from_str(schema).unwrap();
    assert_eq!(schema["properties"]["a"]["nullable"], true);
    // Check reads the string slot too: rejected before, accepted after.
    let before = run_stdin(&["check", "-p", "gemini"], body.as_bytes());
    expect_code(&before, 1);
    assert!(
        stdout(&before).contains(
            "/outputConfig/textFormat/structure/jsonSchema/schema/properties/a: [type-list]"
        ),
        "{}",
        stdout(&before)
    );
    expect_code(&run_stdin(&["check", "-p", "gemini"], &o.stdout), 0);
    // Only the string slot changed: the tool's schema was already fine.
    assert!(stdout(&o).starts_with(r#"{"messages":[{"role":"user","content":[{"text":"hi"}]}],"toolConfig":{"tools":[{"toolSpec":{"name":"t","inputSchema":{"json":{"type":"object","properties":{"x":{"type":"string"}}}}}}]}"#));
}

#[test]
fn strict_tools_that_cannot_be_strict_are_sent_non_strict_and_reported() {
    let body = br#"{"model":"gpt-4o","messages":[],"tools":[{"type":"function","function":{"name":"f","strict":true,"parameters":{"type":"object","properties":{"a":{"type":"object","additionalProperties":{"type":"string"}}}}}},{"type":"function","function":{"name":"g","strict":true,"parameters":{"type":"object","properties":{"b":{"type":"string"}}}}}]}"#;
    let before = run_stdin(&["check", "-p", "openai"], body);
    expect_code(&before, 1);
    assert!(stdout(&before).contains("tool g: /tools/1/function/parameters: [strict-required]"));
    let o = run_stdin(&["sanitize", "-p", "openai", "--report", "-"], body);
    expect_code(&o, 0);
    let r: Value = serde_json::from_str(&stderr(&o)).unwrap();
    assert_eq!(r["slots"][0]["tool"], "f");
    assert_eq!(r["slots"][0]["profile"], "openai");
    assert_eq!(r["slots"][0]["strict_downgraded"], true);
    assert_eq!(r["slots"][0]["strict_compatible"], false);
    assert_eq!(r["slots"][1]["profile"], "openai-strict");
    assert_eq!(r["slots"][1]["strict_compatible"], true);
    assert!(r["slots"][1].get("strict_downgraded").is_none());
    let out: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(out["tools"][0]["function"]["strict"], false);
    assert_eq!(out["tools"][1]["function"]["strict"], true);
    expect_code(&run_stdin(&["check", "-p", "openai"], &o.stdout), 0);
}

#[test]
fn renamed_tool_names_are_in_the_output_and_the_report() {
    let body = br#"{"model":"gpt-4o","messages":[],"tools":[{"type":"function","function":{"name":"fs.read","parameters":{"type":"object"}}},{"type":"function","function":{"name":"clock.now"}},{"type":"function","function":{"name":"ok","parameters":{"type":"object"}}}]}"#;
    let o = run_stdin(&["sanitize", "-p", "openai", "--report", "-"], body);
    expect_code(&o, 0);
    let r: Value = serde_json::from_str(&stderr(&o)).unwrap();
    assert_eq!(
        r["renames"],
        serde_json::json!([
            {"original": "fs.read", "sent": "fs_read", "why": ["characters"]},
            {"original": "clock.now", "sent": "clock_now", "why": ["characters"]}
        ])
    );
    let out: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(out["tools"][0]["function"]["name"], "fs_read");
    assert_eq!(out["tools"][1]["function"]["name"], "clock_now");
    // Without a report, the same body comes out (the layer's own pass).
    let plain = run_stdin(&["sanitize", "-p", "openai", "--api", "openai-chat"], body);
    expect_code(&plain, 0);
    assert_eq!(stdout(&plain), stdout(&o));
    // Nothing renamed: no `renames` member.
    let o = run_stdin(
        &["sanitize", "-p", "openai", "--report", "-"],
        br#"{"model":"gpt-4o","messages":[],"tools":[{"type":"function","function":{"name":"ok","parameters":{"type":"object"}}}]}"#,
    );
    let r: Value = serde_json::from_str(&stderr(&o)).unwrap();
    assert!(r.get("renames").is_none());
}

/// Runs the binary with `args` and the file `path` as standard input (`< FILE`: a regular
/// file, which is read into a buffer of its size, not as a pipe is).
fn run_stdin_file(args: &[&str], path: &std::path::Path) -> std::process::Output {
    bin()
        .args(args)
        .stdin(std::fs::File::open(path).expect("open"))
        .output()
        .expect("run toolschema")
}

#[test]
fn standard_input_that_is_a_file_reads_as_the_file_given_by_name() {
    let dir = tempdir("stdin-file");
    let tools = write(&dir, "tools.json", MCP_DOC);
    let o = run_stdin_file(&["sanitize", "-p", "gemini"], &tools);
    expect_code(&o, 0);
    assert_eq!(
        stdout(&o),
        MCP_DOC.replace(CREATE_ISSUE_IN, CREATE_ISSUE_GEMINI)
    );
    // A request body of 4 MiB and more (read into a map of its own), and a small one.
    let small = openai_body();
    let large = small.replace(
        "\"file it\"",
        &format!("\"file it{}\"", " and".repeat(1 << 20)),
    );
    assert!(large.len() > 4 << 20);
    for body in [small, large] {
        let f = write(&dir, "body.json", &body);
        let o = run_stdin_file(&["sanitize", "-p", "gemini", "--api", "openai-chat"], &f);
        expect_code(&o, 0);
        assert!(stdout(&o) == body.replace(PARAMS_IN, PARAMS_GEMINI));
        assert!(
            o.stdout == run(&["sanitize", "-p", "gemini", "--api", "openai-chat", s(&f)]).stdout
        );
    }
    // Not JSON, said with the name standard input goes by.
    let bad = write(&dir, "bad.json", "{\"tools\": [");
    let o = run_stdin_file(&["sanitize", "-p", "gemini"], &bad);
    expect_code(&o, 2);
    assert!(stderr(&o).contains("<stdin>:1:"), "{}", stderr(&o));
}
