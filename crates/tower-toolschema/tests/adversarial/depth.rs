//! Deep bodies: a million levels in the conversation and in a schema slot, `$ref` cycles and
//! doubling chains.

use crate::support::*;
use tower_toolschema::ToolSchemaLayer;
use tower_toolschema::shapes::Api;

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
