//! `toolschema restore`: a provider's response as the layer's client sees it.

#[path = "fixtures/cli_util.rs"]
mod util;

use util::*;

const LONG: &str = "mcp__github_enterprise__add_pull_request_review_comment_to_pending_review";

fn request() -> String {
    format!(
        r#"{{"model":"gpt-4o","messages":[],"tools":[
            {{"type":"function","function":{{"name":"{LONG}","strict":true,"parameters":{{"type":"object","properties":{{"body":{{"type":"string"}},"line":{{"type":"integer"}}}},"required":["body"]}}}}}},
            {{"type":"function","function":{{"name":"fs.read","parameters":{{"type":"object"}}}}}}]}}"#
    )
}

/// The names the layer sends, from `sanitize` on the same request.
fn sent(dir: &std::path::Path) -> (String, String) {
    let req = write(dir, "request.json", &request());
    // The renamer is deterministic: `restore` with an empty response lists the renames.
    let empty = write(dir, "empty.json", "{}");
    let o = run(&[
        "restore",
        "--provider",
        "openai",
        "--request",
        s(&req),
        s(&empty),
    ]);
    expect_code(&o, 0);
    assert_eq!(stdout(&o), "{}");
    let err = stderr(&o);
    let name_of = |orig: &str| {
        err.lines()
            .find_map(|l| {
                l.strip_prefix("renamed: ")?
                    .strip_suffix(&format!(" -> {orig}"))
            })
            .unwrap_or_else(|| panic!("{orig} renamed: {err}"))
            .to_owned()
    };
    (name_of(LONG), name_of("fs.read"))
}

/// `restore` for the request in `dir` and the response `res`.
fn restore(dir: &std::path::Path, res: &std::path::Path) -> std::process::Output {
    let req = dir.join("request.json");
    run(&[
        "restore",
        "--provider",
        "openai",
        "--request",
        s(&req),
        s(res),
    ])
}

#[test]
fn restore_maps_names_back_and_drops_strict_nulls_in_json() {
    let dir = tempdir("restore-json");
    let (long, dotted) = sent(&dir);
    assert!(long.len() <= 64 && long.starts_with("mcp__github_enterprise__"));
    assert_eq!(dotted, "fs_read");
    let response = format!(
        r#"{{"choices":[{{"message":{{"content":"{long}","tool_calls":[{{"id":"a","function":{{"name":"{long}","arguments":"{{\"body\":\"ok\",\"line\":null}}"}}}},{{"id":"b","function":{{"name":"{dotted}","arguments":"{{}}"}}}}]}}}}]}}"#
    );
    let res = write(&dir, "response.json", &response);
    let o = restore(&dir, &res);
    expect_code(&o, 0);
    assert_eq!(
        stdout(&o),
        format!(
            r#"{{"choices":[{{"message":{{"content":"{long}","tool_calls":[{{"id":"a","function":{{"name":"{LONG}","arguments":"{{\"body\":\"ok\"}}"}}}},{{"id":"b","function":{{"name":"fs.read","arguments":"{{}}"}}}}]}}}}]}}"#
        )
    );
    assert!(stderr(&o).contains(&format!(
        "call {LONG}: name {long} -> {LONG}; strict nulls removed"
    )));
}

#[test]
fn restore_reads_an_sse_capture() {
    let dir = tempdir("restore-sse");
    let (long, _) = sent(&dir);
    let chunk = |delta: &str, finish: &str| {
        format!(
            "data: {{\"choices\":[{{\"index\":0,\"delta\":{delta},\"finish_reason\":{finish}}}]}}\n\n"
        )
    };
    let capture = [
        chunk(r#"{"content":"hi"}"#, "null"),
        chunk(&format!(r#"{{"tool_calls":[{{"index":0,"id":"a","function":{{"name":"{long}","arguments":""}}}}]}}"#), "null"),
        chunk(r#"{"tool_calls":[{"index":0,"function":{"arguments":"{\"body\":\"x\","}}]}"#, "null"),
        chunk(r#"{"tool_calls":[{"index":0,"function":{"arguments":"\"line\":null}"}}]}"#, "null"),
        chunk("{}", "\"tool_calls\""),
        "data: [DONE]\n\n".to_owned(),
    ]
    .concat();
    let res = write(&dir, "capture.sse", &capture);
    let o = restore(&dir, &res);
    expect_code(&o, 0);
    let want = [
        chunk(r#"{"content":"hi"}"#, "null"),
        chunk(&format!(r#"{{"tool_calls":[{{"index":0,"id":"a","function":{{"name":"{LONG}","arguments":""}}}}]}}"#), "null"),
        chunk(r#"{"tool_calls":[{"index":0,"function":{"arguments":"{\"body\":\"x\"}"}}]}"#, "null"),
        chunk("{}", "\"tool_calls\""),
        "data: [DONE]\n\n".to_owned(),
    ]
    .concat();
    assert_eq!(stdout(&o), want);
}

#[test]
fn restore_needs_a_known_request() {
    let dir = tempdir("restore-bad");
    let req = write(&dir, "request.json", r#"{"hello":1}"#);
    let res = write(&dir, "response.json", "{}");
    let o = run(&[
        "restore",
        "--provider",
        "openai",
        "--request",
        s(&req),
        s(&res),
    ]);
    expect_code(&o, 2);
    assert!(stderr(&o).contains("request.json"), "{}", stderr(&o));
}
