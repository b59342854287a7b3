//! Large bodies: a gibibyte declared, a body over the limit, a hundred thousand tools, a
//! ten-megabyte enum.

use crate::common::{Frames, anthropic_body, corpus_tools};
use crate::slot_mask;
use crate::support::*;
use http::{Request, header};
use tower_toolschema::ToolSchemaLayer;
use tower_toolschema::report::{Outcome, SkipReason};
use tower_toolschema::shapes::Api;

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
