//! Releasing a held Chat call: the whole arguments are checked once (by the stream reader's
//! lexer where it is sure, else by the decoder's serde_json) and decoded as the decoder alone
//! decodes them; arguments that are not JSON go on as they came, with the error reported;
//! several calls at once keep their places' order; a one-line event and one with `\r\n` line
//! ends read the same.

use provider_rules::{Decoder, NameMap, Rules};
use serde_json::Value;
use tower_toolschema::restore::{RestorePlan, RestoredCall};
use tower_toolschema::shapes::Api;

fn plan() -> RestorePlan {
    let names = NameMap::new(&Rules::OPENAI.tool_names, ["srv.a", "srv.b"]);
    let strict = || Decoder {
        drop_null: vec!["cursor".into()],
        ..Decoder::default()
    };
    RestorePlan::new(
        Api::OpenAiChat,
        names,
        [
            ("srv.a".to_owned(), strict()),
            ("srv.b".to_owned(), strict()),
        ],
    )
}

fn chunk(delta: &str, end: &str) -> String {
    format!(
        "data: {{\"choices\":[{{\"index\":0,\"delta\":{delta},\"finish_reason\":null}}]}}{end}{end}"
    )
}

/// A call of `sent` at `index` whose arguments come as `fragments` (JSON string contents).
fn call(index: u32, sent: &str, fragments: &[&str], end: &str) -> String {
    let mut s = chunk(
        &format!(
            r#"{{"tool_calls":[{{"index":{index},"id":"c{index}","type":"function","function":{{"name":"{sent}","arguments":""}}}}]}}"#
        ),
        end,
    );
    for f in fragments {
        s.push_str(&chunk(
            &format!(r#"{{"tool_calls":[{{"index":{index},"function":{{"arguments":"{f}"}}}}]}}"#),
            end,
        ));
    }
    s
}

/// The stream through a reader of `plan`, fed `step` bytes at a time: the output and the calls.
fn through(stream: &str, step: usize) -> (String, Vec<RestoredCall>) {
    let plan = plan();
    let mut s = plan.stream();
    let mut out = Vec::new();
    for part in stream.as_bytes().chunks(step.max(1)) {
        out.extend(s.push(part));
    }
    out.extend(s.finish(false));
    (
        String::from_utf8(out.concat()).expect("UTF-8"),
        s.take_calls(),
    )
}

/// The arguments of every call fragment in the output, in order.
fn arguments(out: &str) -> Vec<String> {
    out.lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .filter_map(|d| serde_json::from_str::<Value>(d).ok())
        .filter_map(|v| {
            v.pointer("/choices/0/delta/tool_calls/0/function/arguments")
                .and_then(Value::as_str)
                .map(str::to_owned)
        })
        .filter(|a| !a.is_empty())
        .collect()
}

fn text_event(end: &str) -> String {
    chunk(r#"{"content":"done"}"#, end)
}

#[test]
fn checked_arguments_decode_as_the_decoder_alone_decodes_them() {
    let frags = [
        r#"{\"q\":\"rust\","#,
        r#"\"cursor\":null,"#,
        r#"\"n\":[1,{\"x\":null}]}"#,
    ];
    let stream = call(0, "srv_a", &frags, "\n") + &text_event("\n");
    let whole = r#"{"q":"rust","cursor":null,"n":[1,{"x":null}]}"#;
    let alone = plan()
        .decoder("srv.a")
        .expect("a decoder")
        .decode_json(whole)
        .expect("JSON")
        .expect("changed");
    for step in [1, 7, stream.len()] {
        let (out, calls) = through(&stream, step);
        assert_eq!(arguments(&out), std::slice::from_ref(&alone), "step {step}");
        assert!(out.contains(r#""name":"srv.a""#));
        assert_eq!(calls.len(), 1);
        assert!(calls[0].decoded && calls[0].error.is_none());
    }
}

#[test]
fn arguments_that_are_not_json_go_on_as_they_came_with_the_error() {
    // Cut short, a control character in a string, a number's missing digits, text after the
    // value: the lexer says no and the decoder's serde_json decides (not JSON).
    for frags in [
        &[r#"{\"q\":\"rust\","#, r#"\"cursor\":"#][..],
        &[r#"{\"q\":\"a\u0001b\"}"#],
        &[r#"{\"q\":1.}"#],
        &[r#"{\"q\":1} x"#],
    ] {
        let stream = call(0, "srv_a", frags, "\n") + &text_event("\n");
        let (out, calls) = through(&stream, 5);
        let mut joined = String::new();
        for f in frags {
            joined.push_str(&serde_json::from_str::<String>(&format!("\"{f}\"")).expect("frag"));
        }
        assert_eq!(arguments(&out), [joined], "{frags:?}");
        assert_eq!(calls.len(), 1);
        assert!(!calls[0].decoded && calls[0].error.is_some(), "{frags:?}");
    }
}

#[test]
fn what_the_lexer_is_not_sure_of_is_decoded_by_serde_json() {
    // A surrogate pair's escapes and deep nesting: left to serde_json, which reads them.
    let deep = format!(
        r#"{{\"cursor\":null,\"d\":{}1{}}}"#,
        "[".repeat(110),
        "]".repeat(110)
    );
    for (frag, want) in [
        (
            r#"{\"q\":\"\\ud83d\\ude00\",\"cursor\":null}"#.to_owned(),
            r#"{"q":"\ud83d\ude00"}"#.to_owned(),
        ),
        (
            deep.clone(),
            format!(r#"{{"d":{}1{}}}"#, "[".repeat(110), "]".repeat(110)),
        ),
    ] {
        let stream = call(0, "srv_a", &[&frag], "\n") + &text_event("\n");
        let (out, calls) = through(&stream, 9);
        assert_eq!(arguments(&out), [want], "{frag}");
        assert!(calls[0].decoded, "{frag}");
    }
}

#[test]
fn calls_and_line_ends_keep_their_order_and_bytes() {
    for end in ["\n", "\r\n"] {
        let stream = call(0, "srv_a", &[r#"{\"cursor\":null,\"q\":1}"#], end)
            + &call(1, "srv_b", &[r#"{\"q\":2,"#, r#"\"cursor\":null}"#], end)
            + &text_event(end);
        for step in [1, 3, 64, stream.len()] {
            let (out, calls) = through(&stream, step);
            assert_eq!(
                arguments(&out),
                [r#"{"q":1}"#, r#"{"q":2}"#],
                "{end:?} {step}"
            );
            let tools: Vec<&str> = calls.iter().map(|c| c.tool.as_str()).collect();
            assert_eq!(tools, ["srv.a", "srv.b"]);
            assert!(out.ends_with(&text_event(end)), "{end:?} {step}");
            assert_eq!(out.matches(end).count() % 2, 0);
        }
    }
}
