//! `toolschema encode` and `toolschema decode`: a value in the tool's terms as the sanitized
//! schema (with the profile's encodings) expects it, and what a model sent back in the tool's
//! terms; `--ndjson` for one value per line.

#[path = "fixtures/cli_util.rs"]
mod util;

use serde_json::{Value, json};
use util::*;

const TOOL: &str = r#"{"type":"object","properties":{
    "env":{"type":"object","additionalProperties":{"type":"string"}},
    "data":{},
    "point":{"type":"array","prefixItems":[{"type":"number"},{"type":"number"}],"items":false,"minItems":2},
    "level":{"type":"integer","enum":[1,2,3]},
    "cursor":{"type":"string"}},
  "required":["env","data","point","level"]}"#;

fn lines(o: &std::process::Output) -> Vec<Value> {
    stdout(o)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

#[test]
fn encode_then_decode_gives_the_value_back_for_strict_and_gemini() {
    let dir = tempdir("cli_encode_1");
    let schema = write(&dir, "tool.json", TOOL);
    let value = json!({"env": {"A": "1", "B": "x"}, "data": [1, {"k": null}], "point": [1.5, -2], "level": 2});
    let input = write(&dir, "value.json", &value.to_string());
    for provider in ["openai-strict", "anthropic-strict", "gemini"] {
        let o = run(&[
            "encode",
            "--provider",
            provider,
            "--schema",
            s(&schema),
            s(&input),
        ]);
        expect_code(&o, 0);
        let encoded = lines(&o);
        assert_eq!(encoded.len(), 1, "{provider}");
        assert_eq!(
            encoded[0]["env"],
            json!([{"key": "A", "value": "1"}, {"key": "B", "value": "x"}]),
            "{provider}"
        );
        assert_eq!(encoded[0]["data"], json!("[1,{\"k\":null}]"), "{provider}");
        let sent = write(&dir, "sent.json", &encoded[0].to_string());
        let o = run(&[
            "decode",
            "--provider",
            provider,
            "--schema",
            s(&schema),
            s(&sent),
        ]);
        expect_code(&o, 0);
        assert_eq!(lines(&o), std::slice::from_ref(&value), "{provider}");
    }
    // Gemini's proto: the enum member is its text, a strict one keeps the number.
    let o = run(&[
        "encode",
        "--provider",
        "gemini",
        "--schema",
        s(&schema),
        s(&input),
    ]);
    assert_eq!(lines(&o)[0]["level"], json!("2"));
    assert_eq!(lines(&o)[0]["point"], json!({"0": 1.5, "1": -2}));
    let o = run(&[
        "encode",
        "--provider",
        "openai-strict",
        "--schema",
        s(&schema),
        s(&input),
    ]);
    assert_eq!(lines(&o)[0]["level"], json!(2));
    // Strict: the optional cursor is sent as null, and decoded away.
    assert_eq!(lines(&o)[0]["cursor"], Value::Null);
}

#[test]
fn decode_keeps_the_bytes_it_does_not_change_and_notes_what_it_kept() {
    let dir = tempdir("cli_encode_2");
    let schema = write(&dir, "tool.json", TOOL);
    let sent = r#"{ "level": "3",  "env": [{"key":"A","value":"1"},{"key":"A","value":"2"}], "data": "not json", "point": {"0": 1e0, "1": 2} }"#;
    let args = write(&dir, "args.json", sent);
    let o = run(&[
        "decode",
        "--provider",
        "gemini",
        "--schema",
        s(&schema),
        s(&args),
    ]);
    expect_code(&o, 0);
    assert_eq!(
        stdout(&o),
        "{ \"level\": 3,  \"env\": {\"A\":\"2\"}, \"data\": \"not json\", \"point\": [1e0,2] }\n"
    );
    let err = stderr(&o);
    assert!(err.contains("came twice"), "{err}");
    assert!(err.contains("not JSON text"), "{err}");
}

#[test]
fn ndjson_turns_each_line_and_bad_lines_say_where() {
    let dir = tempdir("cli_encode_3");
    let schema = write(
        &dir,
        "tool.json",
        r#"{"type":"object","properties":{"m":{"type":"object"}},"required":["m"]}"#,
    );
    let input = "{\"m\":{\"a\":1}}\n\n{\"m\":{}}\n";
    let o = run_stdin(
        &[
            "encode",
            "--provider",
            "openai-strict",
            "--schema",
            s(&schema),
            "--ndjson",
        ],
        input.as_bytes(),
    );
    expect_code(&o, 0);
    assert_eq!(
        lines(&o),
        [json!({"m": [{"key": "a", "value": "1"}]}), json!({"m": []})]
    );
    let back = stdout(&o);
    let o = run_stdin(
        &[
            "decode",
            "--provider",
            "openai-strict",
            "--schema",
            s(&schema),
            "--ndjson",
        ],
        back.as_bytes(),
    );
    expect_code(&o, 0);
    assert_eq!(stdout(&o), "{\"m\":{\"a\":1}}\n{\"m\":{}}\n");
    let o = run_stdin(
        &[
            "decode",
            "--provider",
            "openai-strict",
            "--schema",
            s(&schema),
            "--ndjson",
        ],
        b"{\"m\":[]}\n{\"m\":\n",
    );
    expect_code(&o, 2);
    assert!(stderr(&o).contains("<stdin>:2"), "{}", stderr(&o));
}

#[test]
fn sanitize_encode_uses_the_encodings_and_plain_sanitize_does_not() {
    let dir = tempdir("cli_encode_sanitize");
    let schema = write(&dir, "tool.json", TOOL);
    let o = run(&[
        "sanitize",
        "--provider",
        "openai-strict",
        "--encode",
        "--report",
        "-",
        s(&schema),
    ]);
    expect_code(&o, 0);
    let out: Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert_eq!(out["properties"]["env"]["type"], json!("array"));
    // Any value: JSON text, or `null` (which the original takes as it is).
    assert_eq!(out["properties"]["data"]["type"], json!(["string", "null"]));
    let err = stderr(&o);
    assert!(
        err.contains("encode-map") && err.contains("encode-any-value"),
        "{err}"
    );
    let o = run(&["sanitize", "--provider", "openai-strict", s(&schema)]);
    expect_code(&o, 0);
    let out: Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert_ne!(out["properties"]["env"]["type"], json!("array"));
    assert!(!stdout(&o).contains("key/value entries"));
}

/// `sanitize --encode` on a request body: the slots are encoded and the history's earlier
/// tool calls with them, as the layer does; every other byte stays. With `--api` (the layer's
/// one pass) and without (the document model, with `--report`).
#[test]
fn sanitize_encode_encodes_a_request_body_and_its_history() {
    let dir = tempdir("cli_encode_body");
    let body = r#"{"model":"gpt-4o","messages":[{"role":"user","content":"hi"},{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"set","arguments":"{\"zeta\":1,\"env\":{\"B\":\"2\",\"A\":\"1\"}}"}}]}],"tools":[{"type":"function","function":{"name":"set","strict":true,"parameters":{"type":"object","properties":{"zeta":{"type":"integer"},"env":{"type":"object","additionalProperties":{"type":"string"}}},"required":["zeta","env"]}}}]}"#;
    let file = write(&dir, "body.json", body);
    for extra in [&["--api", "openai-chat"][..], &["--report", "-"][..]] {
        let mut args = vec!["sanitize", "--provider", "openai-strict", "--encode"];
        args.extend_from_slice(extra);
        args.push(s(&file));
        let o = run(&args);
        expect_code(&o, 0);
        let out = stdout(&o);
        let v: Value = serde_json::from_str(&out).expect("json");
        let params = &v["tools"][0]["function"]["parameters"];
        assert_eq!(params["properties"]["env"]["type"], json!("array"), "{out}");
        let args = v["messages"][1]["tool_calls"][0]["function"]["arguments"]
            .as_str()
            .expect("arguments");
        // Encoded as the schema now expects, the members in the order the model wrote them.
        assert_eq!(
            args, r#"{"zeta":1,"env":[{"key":"B","value":"2"},{"key":"A","value":"1"}]}"#,
            "{out}"
        );
        assert!(out.starts_with(r#"{"model":"gpt-4o","messages":[{"role":"user","content":"hi"}"#));
    }
    // Without --encode the history is not touched.
    let o = run(&[
        "sanitize",
        "--provider",
        "openai-strict",
        "--api",
        "openai-chat",
        s(&file),
    ]);
    expect_code(&o, 0);
    assert!(
        stdout(&o).contains(r#"\"env\":{\"B\":\"2\",\"A\":\"1\"}"#),
        "{}",
        stdout(&o)
    );
}
