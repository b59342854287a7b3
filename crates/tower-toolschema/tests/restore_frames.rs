//! The way back's reading of a stream frame by frame while no call is open: the events before
//! a frame's first keyword go on as they came, a frame's last, partial event waits for the
//! next frame and goes on with it, and a keyword is found wherever it is (inside text, split
//! across frames, in a CRLF stream); any chunking of any stream made of events, line ends and
//! keywords in any order gives the output of one chunk.

use provider_rules::{Decoder, NameMap, Rules};
use tower_toolschema::restore::RestorePlan;
use tower_toolschema::shapes::Api;

fn plan() -> RestorePlan {
    let names = NameMap::new(&Rules::OPENAI.tool_names, ["a.b"]);
    let strict = Decoder {
        drop_null: vec!["x".into()],
        ..Decoder::default()
    };
    RestorePlan::new(Api::OpenAiChat, names, [("a.b".to_owned(), strict)])
}

fn chunk(delta: &str, crlf: bool) -> String {
    let end = if crlf { "\r\n\r\n" } else { "\n\n" };
    format!("data: {{\"choices\":[{{\"index\":0,\"delta\":{delta},\"finish_reason\":null}}]}}{end}")
}

fn text(t: &str, crlf: bool) -> String {
    chunk(&format!(r#"{{"content":"{t}"}}"#), crlf)
}

/// Text (one with a keyword inside its text: a false positive), a call named `a_b` in two
/// fragments with a strict null, more text, the end.
fn stream(crlf: bool) -> String {
    [
        text("hello", crlf),
        text("the tool_calls of a_b and function_call", crlf),
        text("x", crlf),
        chunk(
            r#"{"tool_calls":[{"index":0,"id":"1","function":{"name":"a_b","arguments":"{\"q\":1,"}}]}"#,
            crlf,
        ),
        chunk(
            r#"{"tool_calls":[{"index":0,"function":{"arguments":"\"x\":null}"}}]}"#,
            crlf,
        ),
        text("after", crlf),
        text("more", crlf),
        if crlf { "data: [DONE]\r\n\r\n" } else { "data: [DONE]\n\n" }.to_owned(),
    ]
    .concat()
}

/// `stream` through the plan in chunks cut at `cuts`; what each push sent, then the end's.
/// Every piece a push sends holds whole events.
fn run(stream: &[u8], cuts: &[usize]) -> Vec<Vec<u8>> {
    let plan = plan();
    let mut s = plan.stream();
    let mut sent = Vec::new();
    let mut at = 0;
    let push = |s: &mut tower_toolschema::restore::SseRestorer, part: &[u8]| {
        let pieces = s.push(part);
        for p in &pieces {
            assert!(
                p.ends_with(b"\n\n") || p.ends_with(b"\n\r\n"),
                "not whole events: {:?}",
                String::from_utf8_lossy(p)
            );
        }
        pieces.concat()
    };
    for &c in cuts {
        let c = c.clamp(at, stream.len());
        sent.push(push(&mut s, &stream[at..c]));
        at = c;
    }
    sent.push(push(&mut s, &stream[at..]));
    sent.push(s.finish(false).concat());
    sent
}

#[test]
fn every_three_chunks_give_the_output_of_one() {
    for crlf in [false, true] {
        let stream = stream(crlf);
        let bytes = stream.as_bytes();
        let whole = run(bytes, &[]).concat();
        let out = String::from_utf8(whole.clone()).expect("UTF-8");
        // The call is restored; the text that names a keyword goes on as it came.
        assert!(out.contains(r#""name":"a.b""#), "{out}");
        assert!(out.contains(r#""arguments":"{\"q\":1}""#), "{out}");
        assert!(out.contains(&text("the tool_calls of a_b and function_call", crlf)));
        assert!(out.starts_with(&text("hello", crlf)[..]));
        for i in 0..=bytes.len() {
            for j in (i..=bytes.len()).step_by(9) {
                assert_eq!(
                    run(bytes, &[i, j]).concat(),
                    whole,
                    "crlf {crlf}, cuts {i} {j}"
                );
            }
        }
    }
}

#[test]
fn a_frames_last_event_goes_on_once_the_next_frame_completes_it() {
    for crlf in [false, true] {
        let (a, b, c) = (text("one", crlf), text("two", crlf), text("three", crlf));
        let stream = [a.clone(), b.clone(), c.clone()].concat();
        let bytes = stream.as_bytes();
        // Cut inside `two`, at every byte of it (the empty line's CR and LF included), and
        // inside `three`.
        for cut in a.len() + 1..a.len() + b.len() {
            let sent = run(bytes, &[cut, a.len() + b.len() + 4]);
            assert_eq!(
                sent[0],
                a.as_bytes(),
                "crlf {crlf}, cut {cut}: sent at once"
            );
            assert_eq!(
                sent[1],
                b.as_bytes(),
                "crlf {crlf}, cut {cut}: sent once whole"
            );
            assert_eq!(sent[2], c.as_bytes());
            assert!(sent[3].is_empty());
        }
    }
}

#[test]
fn a_keyword_split_across_frames_is_found() {
    for crlf in [false, true] {
        let call = chunk(
            r#"{"tool_calls":[{"index":0,"id":"1","function":{"name":"a_b","arguments":"{}"}}]}"#,
            crlf,
        );
        let head = text("before", crlf);
        let stream = [head.clone(), call.clone(), text("after", crlf)].concat();
        let at = head.len() + call.find("tool_calls").expect("keyword");
        // Every cut through the keyword, and just before and after it.
        for cut in at - 1..=at + "tool_calls".len() + 1 {
            let sent = run(stream.as_bytes(), &[cut]);
            assert_eq!(sent[0], head.as_bytes(), "crlf {crlf}, cut {cut}");
            let rest = String::from_utf8(sent[1..].concat()).expect("UTF-8");
            assert!(
                rest.contains(r#""name":"a.b""#) && !rest.contains("a_b"),
                "crlf {crlf}, cut {cut}: {rest}"
            );
        }
    }
}

mod any_bytes {
    use super::*;
    use proptest::prelude::*;

    /// Pieces that make streams whose events, line ends and keywords fall anywhere: well-formed
    /// events, bare line ends, keywords alone and parts of them.
    const PIECES: [&str; 15] = [
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"1\",\"function\":{\"name\":\"a_b\",\"arguments\":\"{}\"}}]}}]}\n\n",
        "\n",
        "\r\n",
        "\r",
        "data: ",
        "tool_calls",
        "tool_c",
        "alls",
        "_call",
        "function_call",
        "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"}}]}",
        "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"1\",\"function\":{\"name\":\"a_b\",\"arguments\":\"{\\\"x\\\":null}\"}}]}}]}",
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"tool_calls\"}}]}\n\n",
        ": comment\n",
        "x",
    ];

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: 512,
            rng_seed: proptest::test_runner::RngSeed::Fixed(0x00f4_a3e5),
            ..ProptestConfig::default()
        })]

        #[test]
        fn any_chunking_of_any_stream_gives_the_output_of_one_chunk(
            pieces in proptest::collection::vec(0..PIECES.len(), 0..24),
            mut cuts in proptest::collection::vec(0usize..1200, 0..40),
        ) {
            let stream: String = pieces.iter().map(|&i| PIECES[i]).collect();
            cuts.sort_unstable();
            let plan = plan();
            let read = |cuts: &[usize]| {
                let mut s = plan.stream();
                let mut out = Vec::new();
                let mut at = 0;
                for &c in cuts {
                    let c = c.clamp(at, stream.len());
                    out.extend(s.push(&stream.as_bytes()[at..c]).concat());
                    at = c;
                }
                out.extend(s.push(&stream.as_bytes()[at..]).concat());
                out.extend(s.finish(false).concat());
                out
            };
            prop_assert_eq!(read(&cuts), read(&[]));
        }
    }
}
