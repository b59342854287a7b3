//! Properties of the way back's stream reader: splitting an SSE stream at any bytes gives the
//! same restored output, for every stream kind; and held fragments never get lost.

use proptest::prelude::*;
use provider_rules::{Decoder, NameMap, Rules};
use tower_toolschema::restore::RestorePlan;
use tower_toolschema::shapes::Api;

fn plan(api: Api) -> RestorePlan {
    let names = NameMap::new(&Rules::OPENAI.tool_names, ["a.b", "c d"]);
    let strict = Decoder {
        drop_null: vec!["x".into(), "y".into()],
        ..Decoder::default()
    };
    RestorePlan::new(api, names, [("a.b".to_owned(), strict)])
}

/// Events of each kind, with the renamed names (`a_b`, `c_d`) and fragments of `{"x":null,...}`.
fn events(api: Api) -> Vec<String> {
    let chat = |d: &str, f: &str| {
        format!("data: {{\"choices\":[{{\"index\":0,\"delta\":{d},\"finish_reason\":{f}}}]}}\n\n")
    };
    match api {
        Api::OpenAiChat => vec![
            chat(r#"{"content":"hé"}"#, "null"),
            chat(r#"{"tool_calls":[{"index":0,"id":"1","function":{"name":"a_b","arguments":"{\"x\""}}]}"#, "null"),
            chat(r#"{"tool_calls":[{"index":0,"function":{"arguments":":null,\"y\":1,"}}]}"#, "null"),
            chat(r#"{"tool_calls":[{"index":0,"function":{"arguments":"\"z\":null}"}}]}"#, "null"),
            chat(r#"{"tool_calls":[{"index":1,"id":"2","function":{"name":"c_d","arguments":"{}"}}]}"#, "null"),
            chat("{}", "\"tool_calls\""),
            "data: [DONE]\r\n\r\n".to_owned(),
        ],
        Api::AnthropicMessages => vec![
            "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"a_b\",\"input\":{}}}\n\n".to_owned(),
            "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"x\\\": nu\"}}\n\n".to_owned(),
            "event: ping\ndata: {\"type\":\"ping\"}\n\n".to_owned(),
            "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"ll}\"}}\n\n".to_owned(),
            "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":1}\n\n".to_owned(),
        ],
        Api::OpenAiResponses => vec![
            "event: response.output_item.added\ndata: {\"type\":\"response.output_item.added\",\"output_index\":0,\"item\":{\"type\":\"function_call\",\"name\":\"a_b\",\"arguments\":\"\"}}\n\n".to_owned(),
            "event: response.function_call_arguments.delta\ndata: {\"type\":\"response.function_call_arguments.delta\",\"output_index\":0,\"delta\":\"{\\\"y\\\":null\"}\n\n".to_owned(),
            "event: response.function_call_arguments.delta\ndata: {\"type\":\"response.function_call_arguments.delta\",\"output_index\":0,\"delta\":\",\\\"x\\\":null}\"}\n\n".to_owned(),
            "event: response.function_call_arguments.done\ndata: {\"type\":\"response.function_call_arguments.done\",\"output_index\":0,\"arguments\":\"{\\\"y\\\":null,\\\"x\\\":null}\"}\n\n".to_owned(),
        ],
        _ => vec![
            "data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"a_b\"}]}}]}\n\n".to_owned(),
            "data: {\"candidates\":[{\"content\":{\"parts\":[{\"functionCall\":{\"name\":\"a_b\",\"args\":{\"x\":null}}}]}}]}\n\n".to_owned(),
        ],
    }
}

fn run(plan: &RestorePlan, stream: &[u8], cuts: &[usize], cut_end: bool) -> Vec<u8> {
    let mut s = plan.stream();
    let mut out = Vec::new();
    let mut at = 0;
    for &c in cuts {
        let c = c.min(stream.len()).max(at);
        out.extend(s.push(&stream[at..c]).concat());
        at = c;
    }
    out.extend(s.push(&stream[at..]).concat());
    out.extend(s.finish(cut_end).concat());
    out
}

const APIS: [Api; 4] = [
    Api::OpenAiChat,
    Api::AnthropicMessages,
    Api::OpenAiResponses,
    Api::Gemini,
];

proptest! {
    #[test]
    fn any_split_gives_the_same_output(api in 0..APIS.len(), mut cuts in proptest::collection::vec(0usize..2000, 0..12)) {
        let api = APIS[api];
        let plan = plan(api);
        let stream = events(api).concat();
        cuts.sort_unstable();
        let whole = run(&plan, stream.as_bytes(), &[], false);
        prop_assert_eq!(run(&plan, stream.as_bytes(), &cuts, false), whole);
    }

    #[test]
    fn a_stream_cut_anywhere_loses_no_fragment(api in 0..APIS.len(), end in 0usize..2000) {
        let api = APIS[api];
        let plan = plan(api);
        let stream = events(api).concat();
        let end = end.min(stream.len());
        // The cut may fall inside a multi-byte character ("hé"): compare bytes, not text.
        let sent = &stream.as_bytes()[..end];
        let out = run(&plan, sent, &[], true);
        let has = |hay: &[u8], needle: &[u8]| hay.windows(needle.len()).any(|w| w == needle);
        // Every argument fragment of a call the cut left open is in what went, undecoded.
        let open = !has(sent, events(Api::OpenAiChat)[4].as_bytes());
        for frag in [r#"{\"x\""#, r#":null,\"y\":1,"#, r#"\"z\":null}"#] {
            if open && has(sent, frag.as_bytes()) && api == Api::OpenAiChat {
                prop_assert!(has(&out, frag.as_bytes()), "{} lost in {}", frag, String::from_utf8_lossy(&out));
            }
        }
        // An event cut short goes on as it came, last.
        let tail = match sent.windows(2).rposition(|w| w == b"\n\n") {
            Some(i) => &sent[i + 2..],
            None => sent,
        };
        prop_assert!(out.ends_with(tail), "{:?} does not end with {:?}", String::from_utf8_lossy(&out), String::from_utf8_lossy(tail));
    }
}

#[test]
fn the_whole_streams_restore_as_expected() {
    let out = String::from_utf8(run(
        &plan(Api::OpenAiChat),
        events(Api::OpenAiChat).concat().as_bytes(),
        &[],
        false,
    ))
    .unwrap();
    // One fragment with the decoded arguments, before the second call starts.
    assert!(
        out.contains(r#""arguments":"{\"y\":1,\"z\":null}"}"#),
        "{out}"
    );
    assert!(out.find("\"y\\\":1").unwrap() < out.find("\"c d\"").unwrap());
    assert!(out.contains(r#""name":"a.b""#) && !out.contains("a_b"));
    let out = String::from_utf8(run(
        &plan(Api::AnthropicMessages),
        events(Api::AnthropicMessages).concat().as_bytes(),
        &[],
        false,
    ))
    .unwrap();
    assert!(out.contains(r#""partial_json":"{}""#), "{out}");
    assert!(
        out.find("ping").unwrap() < out.find("partial_json").unwrap(),
        "the ping is not delayed"
    );
}

#[test]
fn gemini_stream_without_sse_is_a_json_array_of_chunks() {
    let body = br#"[{"candidates":[{"content":{"parts":[{"text":"a_b"}]}}]},
 {"candidates":[{"content":{"parts":[{"functionCall":{"name":"a_b","args":{"x":null,"y":null}}}]}}]}]"#;
    let (out, calls) = plan(Api::Gemini).restore_json(body).expect("json");
    let out = String::from_utf8(out.expect("restored")).expect("utf-8");
    assert_eq!(
        out,
        String::from_utf8_lossy(body).replace(
            r#""name":"a_b","args":{"x":null,"y":null}"#,
            r#""name":"a.b","args":{}"#
        )
    );
    assert!(calls[0].renamed() && calls[0].decoded);
}

#[test]
fn a_stream_cut_inside_a_character_goes_on_byte_for_byte() {
    let stream = events(Api::OpenAiChat).concat();
    let at = stream.find('é').expect("the first event holds an é") + 1;
    let sent = &stream.as_bytes()[..at];
    let out = run(&plan(Api::OpenAiChat), sent, &[], true);
    assert_eq!(
        out, sent,
        "nothing of a cut-short first event is changed or lost"
    );
}
