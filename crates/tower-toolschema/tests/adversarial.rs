//! Adversarial request bodies, with the real profiles. Each test runs its work on a thread with
//! the default 2 MiB stack and fails if no answer comes within a generous bound (a hang guard,
//! not a timing assertion); where output could blow up, its size is bounded. Every output is
//! checked with the independent slot locator (`support/slot_mask.rs`): valid JSON whenever the
//! input was, different from the input only inside schema slots.
//!
//! Complements `service.rs` (fail-open paths with a fake sanitizer) and `locate`'s unit tests.
//!
//! Duplicate keys, as the layer treats them (`duplicate_keys_are_treated_consistently`):
//! - a duplicate of a key the layer reads on a slot path (`tools`, `input_schema`,
//!   `functionDeclarations`, `parameters`, a tool's `name` or `strict`, the top-level `model`):
//!   the body goes on untouched, reported as `Skipped(DuplicateKey(pointer))` — serde_json and
//!   Python read the last one, other parsers the first; the layer does not guess which schema
//!   the upstream will use, and never rewrites one copy and not the other;
//! - duplicates anywhere else (the conversation, unrelated fields): ignored, bytes kept;
//! - duplicates inside a schema slot: the schema is read as serde_json (and Python) read it,
//!   the last occurrence wins; when the profile changes the slot, it is rewritten from that
//!   reading (the duplicates are gone); when it changes nothing, the slot's bytes go on as they
//!   came, duplicates included, so the upstream reads what it would have read without the layer.

mod common;

#[path = "support/slot_mask.rs"]
mod slot_mask;

use std::sync::mpsc;
use std::time::Duration;

use bytes::Bytes;
use common::{Frames, anthropic_body, corpus_tools};
use http::{Request, header};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tower::{Layer, Service, ServiceExt};
use tower_toolschema::report::{Outcome, SkipReason};
use tower_toolschema::shapes::Api;
use tower_toolschema::{SanitizeReport, ToolSchemaBody, ToolSchemaLayer, sanitize_body};

/// Runs `f` on a fresh thread (default stack) and waits at most `secs` seconds for it.
fn bounded<T: Send + 'static>(name: &str, secs: u64, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .name(name.to_owned())
        .spawn(move || {
            let _ = tx.send(f());
        })
        .expect("spawn");
    match rx.recv_timeout(Duration::from_secs(secs)) {
        Ok(v) => v,
        Err(mpsc::RecvTimeoutError::Timeout) => panic!("{name}: no answer within {secs} s (hang)"),
        Err(mpsc::RecvTimeoutError::Disconnected) => panic!("{name}: the worker panicked"),
    }
}

/// `sanitize_body` with the slot check; returns the output and the report.
fn run(layer: &ToolSchemaLayer, api: Option<Api>, body: &[u8]) -> (Bytes, SanitizeReport) {
    let input = Bytes::copy_from_slice(body);
    let (out, report) = sanitize_body(layer.config(), api, input.clone());
    if let Err(e) = slot_mask::check_only_slots_changed(&input, &out, &slot_mask::shapes_for(api)) {
        panic!("{e}");
    }
    if out == input {
        assert_eq!(out.as_ptr(), input.as_ptr(), "unchanged, yet copied");
    }
    (out, report)
}

/// A Gemini body around `decls` (function declarations, JSON text) and `contents`.
fn gemini(contents: &str, decls: &str) -> String {
    format!(r#"{{"contents":{contents},"tools":[{{"functionDeclarations":{decls}}}]}}"#)
}

/// A schema every provider family rewrites (a root `allOf` is refused by Anthropic and
/// Gemini; type lists and `additionalProperties` by Gemini; strict mode needs `required`).
const NEEDS_WORK: &str = r#"{"type":"object","properties":{"a":{"type":["string","null"],"format":"uri"}},"additionalProperties":false,"allOf":[{"properties":{"b":{"type":"integer"}}}]}"#;

/// The inner service of layer tests: what it received.
async fn through_layer<B>(
    layer: ToolSchemaLayer,
    req: Request<B>,
) -> (Result<Bytes, String>, SanitizeReport)
where
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<tower_toolschema::BoxError>,
{
    let inner = tower::service_fn(|req: Request<ToolSchemaBody<B>>| async move {
        let (parts, body) = req.into_parts();
        let bytes = body
            .collect()
            .await
            .map(|c| c.to_bytes())
            .map_err(|e| e.to_string());
        let report = parts
            .extensions
            .get::<SanitizeReport>()
            .cloned()
            .expect("report");
        // The layer answers with an `http::Response`: what was seen rides in its extensions.
        let mut res = http::Response::new(http_body_util::Empty::<Bytes>::new());
        res.extensions_mut().insert((bytes, report));
        Ok::<_, std::convert::Infallible>(res)
    });
    let mut svc = layer.layer(inner);
    let svc = svc.ready().await.expect("ready");
    let mut res = svc.call(req).await.expect("infallible");
    res.extensions_mut()
        .remove::<(Result<Bytes, String>, SanitizeReport)>()
        .expect("inner service was called")
}

fn block_on<F: std::future::Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime")
        .block_on(f)
}

#[test]
fn million_deep_nesting_in_the_conversation() {
    bounded("deep-conversation", 60, || {
        const DEPTH: usize = 1_000_000;
        let arrays = format!("[{}{}]", "[".repeat(DEPTH), "]".repeat(DEPTH));
        let objects = format!("[{}1{}]", r#"{"a":"#.repeat(DEPTH), "}".repeat(DEPTH));
        let layer = ToolSchemaLayer::auto();
        for history in [&arrays, &objects] {
            for (api, body) in [
                (
                    Api::AnthropicMessages,
                    format!(
                        r#"{{"messages":{history},"tools":[{{"name":"f","input_schema":{NEEDS_WORK}}}]}}"#
                    ),
                ),
                (
                    Api::OpenAiChat,
                    format!(
                        r#"{{"messages":{history},"model":"gpt-4o","tools":[{{"type":"function","function":{{"name":"f","strict":true,"parameters":{NEEDS_WORK}}}}}]}}"#
                    ),
                ),
                (
                    Api::Gemini,
                    gemini(
                        history,
                        &format!(r#"[{{"name":"f","parameters":{NEEDS_WORK}}}]"#),
                    ),
                ),
            ] {
                let (out, report) = run(&layer, Some(api), body.as_bytes());
                assert!(report.is_rewritten(), "{api}: {:?}", report.outcome);
                // The conversation went through byte for byte (checked by `run`), and is there.
                assert!(out.len() > 2 * DEPTH);
            }
        }
    });
}

#[test]
fn million_deep_nesting_in_a_schema_slot() {
    bounded("deep-slot", 60, || {
        const DEPTH: usize = 1_000_000;
        let items = format!("{}{{}}{}", r#"{"items":"#.repeat(DEPTH), "}".repeat(DEPTH));
        let props = format!(
            "{}{{}}{}",
            r#"{"type":"object","properties":{"a":"#.repeat(DEPTH),
            "}}".repeat(DEPTH)
        );
        let arrays = format!("{}{}", "[".repeat(DEPTH), "]".repeat(DEPTH));
        let layer = ToolSchemaLayer::auto();
        for schema in [&items, &props, &arrays] {
            for api in [Api::AnthropicMessages, Api::Gemini, Api::OpenAiChat] {
                let body = match api {
                    Api::Gemini => {
                        gemini("[]", &format!(r#"[{{"name":"f","parameters":{schema}}}]"#))
                    }
                    Api::OpenAiChat => format!(
                        r#"{{"messages":[],"tools":[{{"type":"function","function":{{"name":"f","parameters":{schema}}}}}]}}"#
                    ),
                    _ => format!(
                        r#"{{"messages":[],"tools":[{{"name":"f","input_schema":{schema}}}]}}"#
                    ),
                };
                let (out, report) = run(&layer, Some(api), body.as_bytes());
                // Cut at the parser's depth limit: the rewritten slot is small.
                assert!(out.len() <= body.len(), "{api}: grew to {}", out.len());
                assert_eq!(report.slots.len(), 1, "{api}");
            }
        }
        // The slot path itself a million levels deep: no slot, nothing touched.
        let body = format!(r#"{{"tools":{arrays}}}"#);
        let (out, report) = run(&layer, None, body.as_bytes());
        assert_eq!(out.len(), body.len());
        assert!(report.slots.is_empty());
    });
}

#[test]
fn declared_content_length_of_a_gibibyte_with_a_short_body() {
    bounded("1GiB-declared", 30, || {
        block_on(async {
            let body = anthropic_body(&corpus_tools()[..3]);
            let gib = (1u64 << 30).to_string();
            let req = |frames: Frames| {
                Request::post("/v1/messages")
                    .header(header::CONTENT_TYPE, "application/json")
                    .header(header::CONTENT_LENGTH, gib.as_str())
                    .body(frames)
                    .expect("request")
            };
            // Default limit (16 MiB): never read, forwarded whole (the layer reserves nothing
            // from a declared length).
            let (seen, report) = through_layer(
                ToolSchemaLayer::auto(),
                req(Frames::data(&[body.as_bytes()])),
            )
            .await;
            assert_eq!(seen.expect("body"), body.as_bytes());
            assert!(matches!(
                report.outcome,
                Outcome::Skipped(SkipReason::TooLarge { .. })
            ));
            // A limit above the declared length: read what comes; the stream ending early (the
            // peer closing) reaches the inner service with every byte read before it.
            let (seen, report) = through_layer(
                ToolSchemaLayer::auto().limit(2 << 30),
                req(
                    Frames::data(&[&body.as_bytes()[..100], &body.as_bytes()[100..200]])
                        .with_error(),
                ),
            )
            .await;
            assert_eq!(seen.expect_err("error"), "connection reset");
            assert!(matches!(
                report.outcome,
                Outcome::Skipped(SkipReason::BodyError(_))
            ));
            // The short body simply ends: it is what there is, and it is sanitized.
            let (seen, report) = through_layer(
                ToolSchemaLayer::auto().limit(2 << 30),
                req(Frames::data(&[body.as_bytes()])),
            )
            .await;
            let seen = seen.expect("body");
            slot_mask::check_only_slots_changed(
                body.as_bytes(),
                &seen,
                &slot_mask::shapes_for(Some(Api::AnthropicMessages)),
            )
            .expect("only slots");
            assert!(
                !matches!(report.outcome, Outcome::Skipped(_)),
                "{:?}",
                report.outcome
            );
        })
    });
}

#[test]
fn a_body_over_the_limit_is_replayed_whole_with_real_profiles() {
    bounded("over-limit", 60, || {
        block_on(async {
            // 20 MiB of conversation around tools that need rewriting, over the 16 MiB default.
            let filler = "x".repeat(1 << 20);
            let history: Vec<String> = (0..20)
                .map(|i| format!(r#"{{"role":"user","content":"{i}{filler}"}}"#))
                .collect();
            let body = format!(
                r#"{{"messages":[{}],"tools":[{{"name":"f","input_schema":{NEEDS_WORK}}}]}}"#,
                history.join(",")
            );
            let chunks: Vec<&[u8]> = body.as_bytes().chunks(64 * 1024).collect();
            // Streamed without a length: read up to the limit, then what was read and the rest.
            let req = Request::post("/v1/messages")
                .header(header::CONTENT_TYPE, "application/json")
                .body(Frames::data(&chunks))
                .expect("request");
            let (seen, report) = through_layer(ToolSchemaLayer::auto(), req).await;
            assert!(seen.expect("body") == body.as_bytes(), "not replayed whole");
            assert!(matches!(
                report.outcome,
                Outcome::Skipped(SkipReason::TooLarge { .. })
            ));
            // Declared too large: not read at all.
            let req = Request::post("/v1/messages")
                .header(header::CONTENT_LENGTH, body.len())
                .body(Frames::data(&chunks))
                .expect("request");
            let (seen, report) = through_layer(ToolSchemaLayer::auto(), req).await;
            assert!(seen.expect("body") == body.as_bytes());
            assert!(matches!(
                report.outcome,
                Outcome::Skipped(SkipReason::TooLarge { .. })
            ));
        })
    });
}

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

#[test]
fn tools_that_are_not_an_array() {
    let layer = ToolSchemaLayer::auto();
    for tools in [
        r#"{"input_schema":{"type":["string","null"]}}"#,
        r#""x""#,
        "null",
        "1",
        "true",
        "{}",
    ] {
        for (api, body) in [
            (
                Api::AnthropicMessages,
                format!(r#"{{"messages":[],"tools":{tools}}}"#),
            ),
            (
                Api::OpenAiChat,
                format!(r#"{{"messages":[],"tools":{tools},"functions":{tools}}}"#),
            ),
            (
                Api::Gemini,
                format!(r#"{{"contents":[],"tools":[{{"functionDeclarations":{tools}}}]}}"#),
            ),
        ] {
            let (out, report) = run(&layer, Some(api), body.as_bytes());
            assert_eq!(&out[..], body.as_bytes());
            assert_eq!(report.outcome, Outcome::Unchanged, "{body}");
            assert!(report.slots.is_empty());
        }
    }
}

#[test]
fn a_schema_that_is_a_string_number_or_null() {
    // A tool's parameters must be an object for every provider: whatever stands in the slot
    // becomes `{"type":"object"...}` (reported as lossy), and nothing outside the slot moves.
    let layer = ToolSchemaLayer::auto();
    for schema in [
        r#""object""#,
        "3",
        "-1.5e300",
        "null",
        "[]",
        "[{}]",
        "true",
        "false",
    ] {
        for api in [
            Api::AnthropicMessages,
            Api::Gemini,
            Api::OpenAiChat,
            Api::OpenAiResponses,
        ] {
            let body = match api {
                Api::Gemini => gemini("[]", &format!(r#"[{{"name":"f","parameters":{schema}}}]"#)),
                Api::OpenAiChat => format!(
                    r#"{{"messages":[],"tools":[{{"type":"function","function":{{"name":"f","parameters":{schema}}}}}]}}"#
                ),
                Api::OpenAiResponses => format!(
                    r#"{{"input":[],"tools":[{{"type":"function","name":"f","parameters":{schema}}}]}}"#
                ),
                _ => {
                    format!(r#"{{"messages":[],"tools":[{{"name":"f","input_schema":{schema}}}]}}"#)
                }
            };
            let (out, report) = run(&layer, Some(api), body.as_bytes());
            assert_eq!(report.slots.len(), 1, "{api} {schema}");
            let v: Value = serde_json::from_slice(&out).expect("json");
            let slot = v.pointer(&report.slots[0].pointer).expect("slot");
            assert!(
                report.slots[0].error.is_some() || slot["type"] == "object",
                "{api} {schema}: {slot}"
            );
            // And the output goes through unchanged a second time.
            let (again, _) = run(&layer, Some(api), &out);
            assert_eq!(again, out);
        }
    }
}

#[test]
fn a_hundred_thousand_tools() {
    bounded("100k-tools", 120, || {
        let layer = ToolSchemaLayer::auto();
        let schemas = [
            NEEDS_WORK,
            r#"{"type":"object","properties":{"n":{"type":"integer","enum":[1,2,3]}}}"#,
            r#"{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}"#,
        ];
        let decls: Vec<String> = (0..100_000)
            .map(|i| format!(r#"{{"name":"tool_{i}","parameters":{}}}"#, schemas[i % 3]))
            .collect();
        let body = gemini(
            r#"[{"role":"user","parts":[{"text":"hi"}]}]"#,
            &format!("[{}]", decls.join(",")),
        );
        let (out, report) = run(&layer, Some(Api::Gemini), body.as_bytes());
        assert_eq!(report.slots.len(), 100_000);
        // Sanitized once per distinct schema, then served from the cache.
        assert!(report.slots.iter().filter(|s| s.cached).count() >= 99_990);
        assert!(out.len() < 2 * body.len(), "{} → {}", body.len(), out.len());
        let (again, _) = run(&layer, Some(Api::Gemini), &out);
        assert_eq!(again, out);
    });
}

#[test]
fn a_ten_megabyte_enum_in_a_body() {
    bounded("10MB-enum-body", 120, || {
        let strings: Vec<String> = (0..1_000_000).map(|i| format!("\"v{i:07}\"")).collect();
        let numbers: Vec<String> = (0..300_000).map(|i| i.to_string()).collect();
        let schema = format!(
            r#"{{"type":"object","properties":{{"s":{{"type":"string","enum":[{}]}},"n":{{"type":"integer","enum":[{}]}}}}}}"#,
            strings.join(","),
            numbers.join(",")
        );
        assert!(schema.len() > 10_000_000);
        for (api, layer) in [
            (Api::Gemini, ToolSchemaLayer::auto().limit(64 << 20)),
            (
                Api::AnthropicMessages,
                ToolSchemaLayer::auto().limit(64 << 20),
            ),
            (Api::OpenAiChat, ToolSchemaLayer::auto().limit(64 << 20)),
        ] {
            let body = match api {
                Api::Gemini => gemini("[]", &format!(r#"[{{"name":"f","parameters":{schema}}}]"#)),
                Api::OpenAiChat => format!(
                    r#"{{"messages":[],"tools":[{{"type":"function","function":{{"name":"f","strict":true,"parameters":{schema}}}}}]}}"#
                ),
                _ => {
                    format!(r#"{{"messages":[],"tools":[{{"name":"f","input_schema":{schema}}}]}}"#)
                }
            };
            let (out, _) = run(&layer, Some(api), body.as_bytes());
            assert!(
                out.len() <= 2 * body.len() + 4096,
                "{api}: {} → {}",
                body.len(),
                out.len()
            );
        }
    });
}

#[test]
fn ref_cycles_and_doubling_chains_in_bodies() {
    bounded("refs-body", 120, || {
        let mut schemas = Vec::new();
        for n in [1usize, 2, 10, 1000] {
            let defs: Vec<String> = (0..n)
                .map(|i| {
                    format!(
                        r##""d{i}":{{"type":"object","properties":{{"next":{{"$ref":"#/$defs/d{}"}}}}}}"##,
                        (i + 1) % n
                    )
                })
                .collect();
            schemas.push(format!(
                r##"{{"type":"object","properties":{{"r":{{"$ref":"#/$defs/d0"}}}},"$defs":{{{}}}}}"##,
                defs.join(",")
            ));
        }
        let mut defs = vec![r#""d0":{"type":"string"}"#.to_owned()];
        for i in 1..40 {
            defs.push(format!(
                r##""d{i}":{{"type":"object","properties":{{"a":{{"$ref":"#/$defs/d{p}"}},"b":{{"$ref":"#/$defs/d{p}"}}}}}}"##,
                p = i - 1
            ));
        }
        schemas.push(format!(
            r##"{{"type":"object","properties":{{"x":{{"$ref":"#/$defs/d39"}}}},"$defs":{{{}}}}}"##,
            defs.join(",")
        ));
        let layer = ToolSchemaLayer::auto();
        for (i, schema) in schemas.iter().enumerate() {
            for api in [Api::Gemini, Api::OpenAiChat, Api::AnthropicMessages] {
                let body = match api {
                    Api::Gemini => {
                        gemini("[]", &format!(r#"[{{"name":"f","parameters":{schema}}}]"#))
                    }
                    Api::OpenAiChat => format!(
                        r#"{{"model":"gpt-4o","messages":[],"tools":[{{"type":"function","function":{{"name":"f","strict":true,"parameters":{schema}}}}}]}}"#
                    ),
                    _ => format!(
                        r#"{{"messages":[],"tools":[{{"name":"f","input_schema":{schema}}}]}}"#
                    ),
                };
                let (out, report) = run(&layer, Some(api), body.as_bytes());
                assert!(
                    out.len() < 64 * body.len() + (4 << 20),
                    "{api} schema {i}: {} → {}",
                    body.len(),
                    out.len()
                );
                // Where refs were inlined or stubbed, the report says so.
                let text = String::from_utf8_lossy(&out);
                if api == Api::Gemini && !text.contains("$ref") && out.len() != body.len() {
                    assert!(report.change_count() > 0);
                }
            }
        }
    });
}

#[test]
fn property_and_tool_names_with_every_escape() {
    let names = [
        "", "~", "/", "~0", "~1", "a/b~c", "\"", "\\", "\u{1}", "é", "😀", "#", " ",
    ];
    let props: serde_json::Map<String, Value> = names
        .iter()
        .map(|n| {
            (
                (*n).to_owned(),
                json!({"type": ["string", "null"], "format": "uri"}),
            )
        })
        .collect();
    let schema = json!({"type": "object", "properties": props, "required": names, "additionalProperties": false,
        "allOf": [{"required": [""]}]});
    let history = json!([{"role": "user", "content": "x", "~/\"": {"": {"type": ["a"]}}}]);
    let layer = ToolSchemaLayer::auto();
    for (api, body) in [
        (
            Api::AnthropicMessages,
            json!({"messages": history, "tools": [{"name": "a/b~c\"é", "input_schema": schema}]}),
        ),
        (
            Api::OpenAiChat,
            json!({"messages": history, "tools": [{"type": "function", "function": {"name": "~1", "strict": true, "parameters": schema}}]}),
        ),
        (
            Api::Gemini,
            json!({"contents": history, "tools": [{"functionDeclarations": [{"name": "😀", "parameters": schema}]}]}),
        ),
    ] {
        let text = serde_json::to_string(&body).expect("json");
        let (out, report) = run(&layer, Some(api), text.as_bytes());
        assert!(report.is_rewritten(), "{api}");
        let v: Value = serde_json::from_slice(&out).expect("json");
        for slot in &report.slots {
            let s = v
                .pointer(&slot.pointer)
                .unwrap_or_else(|| panic!("{api}: {}", slot.pointer));
            let got: std::collections::BTreeSet<&String> = s["properties"]
                .as_object()
                .expect("properties")
                .keys()
                .collect();
            let want: std::collections::BTreeSet<String> =
                names.iter().map(|n| (*n).to_owned()).collect();
            assert_eq!(got, want.iter().collect(), "{api}: names kept");
            for c in slot.changes.iter() {
                let full = format!("{}{}", slot.pointer, c.pointer);
                let parent = full.rsplit_once('/').map_or("", |(p, _)| p).to_owned();
                assert!(
                    v.pointer(&full).is_some() || v.pointer(&parent).is_some(),
                    "{api}: change pointer {full:?} ({}) not in the output",
                    c.rule
                );
            }
        }
        assert!(report.slots.iter().all(|s| s.tool.is_some()));
    }
}
