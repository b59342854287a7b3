//! Stream details of the way back: OpenAI Responses' `sequence_number` stays strictly
//! increasing without gaps when held fragments are merged; Gemini chunks in any mix of camel
//! and snake case; a Gemini call whose arguments come in parts (`partialArgs`, `willContinue`)
//! loses nothing.

use provider_rules::{Decoder, NameMap, Rules};
use serde_json::Value;
use tower_toolschema::restore::RestorePlan;
use tower_toolschema::shapes::Api;

fn strict(tool: &str, props: &[&str]) -> (String, Decoder) {
    let d = Decoder {
        drop_null: props.iter().map(|p| (*p).to_owned()).collect(),
        ..Decoder::default()
    };
    (tool.to_owned(), d)
}

/// Runs `stream` through `plan` cut at `cut` bytes (two chunks); the output, whole.
fn through(plan: &RestorePlan, stream: &str, cut: usize) -> String {
    let mut s = plan.stream();
    let mut out = s.push(&stream.as_bytes()[..cut]);
    out.extend(s.push(&stream.as_bytes()[cut..]));
    out.extend(s.finish(false));
    String::from_utf8(out.concat()).expect("UTF-8")
}

fn data_lines(out: &str) -> Vec<Value> {
    out.lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .map(|d| serde_json::from_str(d).expect("JSON data"))
        .collect()
}

fn responses_stream() -> String {
    let events = [
        r#"{"type":"response.created","sequence_number":0,"response":{"id":"r"}}"#,
        r#"{"type":"response.output_item.added","sequence_number":1,"output_index":0,"item":{"type":"function_call","id":"fc","call_id":"c","name":"f_x","arguments":""}}"#,
        r#"{"type":"response.function_call_arguments.delta","sequence_number":2,"output_index":0,"item_id":"fc","delta":"{\"q\":\"a\","}"#,
        r#"{"type":"response.function_call_arguments.delta","sequence_number":3,"output_index":0,"item_id":"fc","delta":"\"cursor\":"}"#,
        r#"{"type":"response.function_call_arguments.delta","sequence_number":4,"output_index":0,"item_id":"fc","delta":"null}"}"#,
        r#"{"type":"response.function_call_arguments.done","sequence_number":5,"output_index":0,"item_id":"fc","arguments":"{\"q\":\"a\",\"cursor\":null}"}"#,
        r#"{"type":"response.output_item.done","sequence_number":6,"output_index":0,"item":{"type":"function_call","id":"fc","call_id":"c","name":"f_x","arguments":"{\"q\":\"a\",\"cursor\":null}"}}"#,
        r#"{"type":"response.output_text.delta","sequence_number":7,"output_index":1,"delta":"ok"}"#,
        r#"{"type":"response.output_item.added","sequence_number":8,"output_index":2,"item":{"type":"function_call","id":"fc2","call_id":"c2","name":"f_x","arguments":""}}"#,
        r#"{"type":"response.function_call_arguments.delta","sequence_number":9,"output_index":2,"item_id":"fc2","delta":"{\"q\":\"b\",\"cursor\":null}"}"#,
        r#"{"type":"response.function_call_arguments.done","sequence_number":10,"output_index":2,"item_id":"fc2","arguments":"{\"q\":\"b\",\"cursor\":null}"}"#,
        r#"{"type":"response.completed","sequence_number":11,"response":{"id":"r","output":[]}}"#,
    ];
    events
        .iter()
        .map(|e| {
            let kind: Value = serde_json::from_str(e).expect("event JSON");
            format!(
                "event: {}\ndata: {e}\n\n",
                kind["type"].as_str().unwrap_or("")
            )
        })
        .collect()
}

#[test]
fn responses_sequence_numbers_stay_gapless_when_fragments_are_merged() {
    let names = NameMap::new(&Rules::OPENAI.tool_names, ["f.x"]);
    let plan = RestorePlan::new(Api::OpenAiResponses, names, [strict("f.x", &["cursor"])]);
    let stream = responses_stream();
    let whole = through(&plan, &stream, stream.len());
    let events = data_lines(&whole);
    // Three fragments became one: two events fewer, numbered 0.. without a gap.
    assert_eq!(events.len(), 10, "{whole}");
    let seq: Vec<u64> = events
        .iter()
        .map(|e| e["sequence_number"].as_u64().expect("a number"))
        .collect();
    assert_eq!(seq, (0..10).collect::<Vec<u64>>(), "{whole}");
    let merged: Vec<&Value> = events
        .iter()
        .filter(|e| e["type"] == "response.function_call_arguments.delta")
        .collect();
    assert_eq!(merged.len(), 2);
    assert_eq!(merged[0]["delta"], r#"{"q":"a"}"#);
    assert_eq!(merged[1]["delta"], r#"{"q":"b"}"#);
    // Everything but the numbers and the restored calls as it came: the text delta.
    assert!(whole.contains(
        r#"data: {"type":"response.output_text.delta","sequence_number":5,"output_index":1,"delta":"ok"}"#
    ));
    assert!(!whole.contains("f_x") && !whole.contains("null"), "{whole}");
    // Any split gives the same output.
    for cut in 0..stream.len() {
        assert_eq!(through(&plan, &stream, cut), whole, "cut at {cut}");
    }
}

#[test]
fn responses_numbers_untouched_when_nothing_is_held() {
    // Renamed only: no fragment held, every number as it came, every byte but the names.
    let names = NameMap::new(&Rules::OPENAI.tool_names, ["f.x"]);
    let plan = RestorePlan::new(Api::OpenAiResponses, names, []);
    let stream = responses_stream();
    let out = through(&plan, &stream, stream.len() / 2);
    assert_eq!(out, stream.replace("\"f_x\"", "\"f.x\""));
}

fn gemini_chunk(part: &str) -> String {
    format!(
        "data: {{\"candidates\":[{{\"content\":{{\"role\":\"model\",\"parts\":[{part}]}}}}]}}\r\n\r\n"
    )
}

#[test]
fn gemini_chunks_in_snake_case_and_partial_arguments() {
    let names = NameMap::new(&Rules::GEMINI.tool_names, ["a b"]);
    let plan = RestorePlan::new(Api::Gemini, names, [strict("a b", &["cursor"])]);
    let stream = [
        gemini_chunk(r#"{"text":"hi"}"#),
        gemini_chunk(r#"{"function_call":{"name":"a_b","args":{"q":"x","cursor":null}}}"#),
        gemini_chunk(r#"{"functionCall":{"name":"a_b","args":{"q":"y","cursor":null}}}"#),
        // Vertex's partial arguments (`partialArgs`, `willContinue`): nothing to decode in
        // them yet, the name mapped back, every other byte kept.
        gemini_chunk(r#"{"functionCall":{"name":"a_b","willContinue":true}}"#),
        gemini_chunk(
            r#"{"functionCall":{"partialArgs":[{"jsonPath":"$.q","stringValue":"z"},{"jsonPath":"$.cursor","nullValue":"NULL_VALUE"}],"willContinue":true}}"#,
        ),
        gemini_chunk(r#"{"functionCall":{"willContinue":false}}"#),
    ]
    .concat();
    let whole = through(&plan, &stream, stream.len());
    let want = [
        gemini_chunk(r#"{"text":"hi"}"#),
        gemini_chunk(r#"{"function_call":{"name":"a b","args":{"q":"x"}}}"#),
        gemini_chunk(r#"{"functionCall":{"name":"a b","args":{"q":"y"}}}"#),
        gemini_chunk(r#"{"functionCall":{"name":"a b","willContinue":true}}"#),
        gemini_chunk(
            r#"{"functionCall":{"partialArgs":[{"jsonPath":"$.q","stringValue":"z"},{"jsonPath":"$.cursor","nullValue":"NULL_VALUE"}],"willContinue":true}}"#,
        ),
        gemini_chunk(r#"{"functionCall":{"willContinue":false}}"#),
    ]
    .concat();
    assert_eq!(whole, want);
    for cut in 0..stream.len() {
        assert_eq!(through(&plan, &stream, cut), whole, "cut at {cut}");
    }
}
