//! Malformed bytes: truncated JSON, invalid UTF-8 and lone surrogates, duplicate keys.

use crate::common::{anthropic_body, corpus_tools};
use crate::support::*;
use serde_json::{Value, json};
use tower_toolschema::ToolSchemaLayer;
use tower_toolschema::report::{Outcome, SkipReason};
use tower_toolschema::shapes::Api;

#[test]
fn truncated_json_goes_on_untouched() {
    bounded("truncated", 60, || {
        let layer = ToolSchemaLayer::auto();
        let body = anthropic_body(&corpus_tools()[..4]);
        let n = body.len();
        let mut cuts: Vec<usize> = (0..n).step_by((n / 400).max(1)).collect();
        cuts.extend(0..200.min(n));
        cuts.extend(n.saturating_sub(200)..n);
        for cut in cuts {
            let (out, report) = run(
                &layer,
                Some(Api::AnthropicMessages),
                &body.as_bytes()[..cut],
            );
            assert_eq!(out.len(), cut);
            assert!(
                matches!(report.outcome, Outcome::Skipped(SkipReason::InvalidJson(_))),
                "cut at {cut}: {:?}",
                report.outcome
            );
        }
    });
}

#[test]
fn invalid_utf8_and_lone_surrogates() {
    bounded("utf8", 30, || {
        let layer = ToolSchemaLayer::auto();
        let good = format!(
            r#"{{"messages":[{{"role":"user","content":"caf\u00e9 XX"}}],"tools":[{{"name":"f","input_schema":{NEEDS_WORK},"description":"YY"}}]}}"#
        );
        // Invalid UTF-8 outside the slots (the conversation, a tool's description, a key the
        // layer does not read): serde_json's skipper does not decode what it skips, so those
        // bytes are carried through verbatim and the slots are still rewritten; the upstream
        // judges its own input. Nothing is lost or re-encoded.
        for (at, bad) in [
            ("XX", &b"\xff\xfe"[..]),
            ("YY", b"\xc3\x28"),
            ("ro", b"\xed\xa0\x80"),
        ] {
            let mut body = good.as_bytes().to_vec();
            let i = good.find(at).expect("marker");
            body.splice(i..i + 2, bad.iter().copied());
            let (out, report) = run(&layer, Some(Api::AnthropicMessages), &body);
            assert!(report.is_rewritten(), "{at}: {:?}", report.outcome);
            assert!(
                out.windows(bad.len()).any(|w| w == bad),
                "{at}: carried verbatim"
            );
        }
        // Invalid UTF-8 inside a slot: that slot is left as it is (the schema parser refuses
        // it), reported as a slot error; the body stays byte-identical.
        let mut body = good.as_bytes().to_vec();
        let i = body.windows(4).position(|w| w == b"\"uri").expect("uri") + 1;
        body.splice(i..i + 3, b"\xff\xff\xff".iter().copied());
        let (out, report) = run(&layer, Some(Api::AnthropicMessages), &body);
        assert_eq!(&out[..], &body[..]);
        assert!(
            matches!(report.outcome, Outcome::Skipped(SkipReason::InvalidJson(_)))
                || report.slots.iter().all(|s| s.error.is_some()),
            "{:?}",
            report
        );
        // Lone surrogates escaped in valid UTF-8 text: JSON some parsers accept.
        let lone = good.replace("XX", r"\udc00").replace("YY", r"\ud800");
        let with_slot = lone.replace(r#""format":"uri""#, r#""format":"uri","title":"\ud800x""#);
        for body in [lone, with_slot] {
            run(&layer, Some(Api::AnthropicMessages), body.as_bytes());
        }
    });
}

#[test]
fn duplicate_keys_are_treated_consistently() {
    bounded("duplicates", 30, || {
        let layer = ToolSchemaLayer::auto();
        let tool = format!(r#"{{"name":"f","input_schema":{NEEDS_WORK}}}"#);
        // Refused: the body goes on untouched, reported with the duplicate's pointer.
        for (body, pointer) in [
            (
                format!(r#"{{"tools":[{tool}],"tools":[{tool}]}}"#),
                "/tools",
            ),
            (
                format!(r#"{{"model":"a","model":"b","tools":[{tool}]}}"#),
                "/model",
            ),
            (
                format!(
                    r#"{{"tools":[{{"name":"f","input_schema":{NEEDS_WORK},"input_schema":{{}}}}]}}"#
                ),
                "/tools/0/input_schema",
            ),
            (
                format!(r#"{{"tools":[{{"name":"f","name":"g","input_schema":{NEEDS_WORK}}}]}}"#),
                "/tools/0/name",
            ),
            (
                format!(
                    r#"{{"tools":[{{"strict":true,"strict":false,"input_schema":{NEEDS_WORK}}}]}}"#
                ),
                "/tools/0/strict",
            ),
        ] {
            let (out, report) = run(&layer, Some(Api::AnthropicMessages), body.as_bytes());
            assert_eq!(&out[..], body.as_bytes());
            assert_eq!(
                report.outcome,
                Outcome::Skipped(SkipReason::DuplicateKey(pointer.to_owned())),
                "{body}"
            );
        }
        // The same through Gemini's deeper path.
        let body = format!(
            r#"{{"tools":[{{"functionDeclarations":[{{"name":"f","parameters":{NEEDS_WORK},"parameters":{{}}}}]}}]}}"#
        );
        let (_, report) = run(&layer, Some(Api::Gemini), body.as_bytes());
        assert!(matches!(
            report.outcome,
            Outcome::Skipped(SkipReason::DuplicateKey(_))
        ));
        // Ignored: duplicates in the conversation and in fields the layer does not read.
        let body = format!(
            r#"{{"messages":[{{"role":"user","role":"assistant","content":"x"}}],"max_tokens":1,"max_tokens":2,"tools":[{tool}]}}"#
        );
        let (_, report) = run(&layer, Some(Api::AnthropicMessages), body.as_bytes());
        assert!(report.is_rewritten());
        // Inside a slot: read as serde_json reads it (last wins), and rewritten from that.
        for api in [Api::AnthropicMessages, Api::Gemini] {
            let schema = r#"{"type":"string","type":"object","properties":{"a":{"type":"integer"},"a":{"type":["string","null"]}}}"#;
            let body = match api {
                Api::Gemini => gemini("[]", &format!(r#"[{{"name":"f","parameters":{schema}}}]"#)),
                _ => format!(r#"{{"tools":[{{"name":"f","input_schema":{schema}}}]}}"#),
            };
            let (out, report) = run(&layer, Some(api), body.as_bytes());
            if !report.is_rewritten() {
                assert_eq!(&out[..], body.as_bytes(), "{api}");
                continue;
            }
            let v: Value = serde_json::from_slice(&out).expect("json");
            let slot = v.pointer(&report.slots[0].pointer).expect("slot");
            assert!(!String::from_utf8_lossy(&out).contains(r#""type":"string","type""#));
            assert_eq!(slot["type"], "object", "{api}: {slot}");
            let a = &slot["properties"]["a"];
            assert!(
                a["type"] == "string" || a["type"] == json!(["string", "null"]),
                "{api}: {a}"
            );
        }
    });
}
