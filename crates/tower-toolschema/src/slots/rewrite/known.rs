//! A known tool list's result (the tool-list cache, [`crate::slots::request_cache`]): kept
//! when a request's result can be reused, replayed for a request that holds the same list. The
//! list's spliced bytes are kept as one shared buffer: a replay copies none of them.

use std::sync::Arc;

use crate::config::RequestCtx;
use crate::locate;
use crate::report::{Outcome, SanitizeReport};
use crate::restore::needs::Needs;
use crate::shapes::Api;
use crate::slots::request_cache::Entry;
use crate::slots::splice::Spliced;

/// A known tool list's result for `body`, whose list starts at `at`.
pub(super) fn replay(
    body: &[u8],
    e: &Entry,
    at: usize,
    api: Option<Api>,
) -> (Option<Spliced>, SanitizeReport) {
    let new = e.spliced.as_ref().and_then(|(r, middle)| {
        Spliced::shared(at + r.start..at + r.end, middle.clone(), body.len())
    });
    let outcome = match &new {
        Some(out) => Outcome::Rewritten {
            before: body.len(),
            after: out.len(),
        },
        None => Outcome::Unchanged,
    };
    let report = SanitizeReport {
        api: api.or(e.api),
        outcome,
        slots: e.slots.clone(),
        renames: Vec::new(),
        history: Vec::new(),
        unslotted: e.unslotted.clone(),
    };
    (new, report)
}

/// The tool-list cache's entry for this request's result (`report`, and `new`, the body it
/// made), when it can be reused: every slot and tool name in one container, every slot a cache
/// hit, every edit inside the container; with what the way back `needs` of it.
pub(super) fn entry_of(
    body: &[u8],
    located: &locate::Located<'_>,
    ctx: &RequestCtx,
    report: &SanitizeReport,
    new: Option<&Spliced>,
    needs: &Arc<Needs>,
) -> Option<Entry> {
    let c = located.containers.iter().find(|c| {
        c.slots == (0..located.slots.len()) && c.tools == (0..located.tools_without_schema.len())
    })?;
    let span = c.span.clone();
    let slots = &report.slots;
    if slots.is_empty() || slots.iter().any(|s| !s.cached) {
        return None;
    }
    let spliced = match new {
        None => None,
        Some(new) => {
            let (region, middle) = new.region();
            if region.start < span.start || region.end > span.end {
                return None;
            }
            Some((
                region.start - span.start..region.end - span.start,
                middle.clone(),
            ))
        }
    };
    Some(Entry {
        node: c.node,
        bytes: body.get(span)?.into(),
        model: located.model.as_deref().map(str::to_owned),
        host: ctx.host.clone(),
        api: report.api,
        needs: Arc::clone(needs),
        slots: slots.clone(),
        unslotted: report.unslotted.clone(),
        spliced,
    })
}

#[cfg(test)]
mod tests {
    use super::super::{process, process_with};
    use crate::ToolSchemaLayer;
    use crate::config::{Config, RequestCtx};
    use crate::report::SanitizeReport;
    use std::sync::atomic::Ordering;

    /// A body's result through the tool-list cache, and how many lists it found there.
    fn cached(cfg: &Config, ctx: &RequestCtx, body: &str) -> (Vec<u8>, SanitizeReport, usize) {
        let before = cfg.requests.hits.load(Ordering::SeqCst);
        let (out, report) = process(cfg, ctx, body.as_bytes());
        let hits = cfg.requests.hits.load(Ordering::SeqCst) - before;
        let out = out.map_or_else(|| body.as_bytes().to_vec(), |o| o.into_vec(body.as_bytes()));
        (out, report, hits)
    }

    /// The same body's result read slot by slot (asking for the tools skips the list cache).
    fn slow(cfg: &Config, ctx: &RequestCtx, body: &str) -> (Vec<u8>, SanitizeReport) {
        let (out, report, _) = process_with(cfg, ctx, body.as_bytes(), Some(&mut Vec::new()));
        let out = out.map_or_else(|| body.as_bytes().to_vec(), |o| o.into_vec(body.as_bytes()));
        (out, report)
    }

    fn chat_tools(n: usize, strict: bool) -> String {
        let tools: Vec<String> = (0..n)
            .map(|i| {
                format!(
                    r#"{{"type":"function","function":{{"name":"t.{i}","strict":{strict},"parameters":{{"type":"object","properties":{{"q":{{"type":"string","format":"date"}},"n":{{"type":"integer"}}}},"required":["q"]}}}}}}"#
                )
            })
            .collect();
        format!("[{}]", tools.join(","))
    }

    #[test]
    fn a_known_tool_list_gives_what_reading_it_slot_by_slot_gives() {
        let chat = |tools: &str, model: &str, turn: &str| {
            format!(
                r#"{{"model":"{model}","messages":[{{"role":"user","content":"{turn}"}}],"tools":{tools}}}"#
            )
        };
        let (strict, plain) = (chat_tools(3, true), chat_tools(3, false));
        let gemini = r#"{"contents":[{"parts":[{"text":"T"}]}],"tools":[{"functionDeclarations":[{"name":"a","parameters":{"type":"object","additionalProperties":false}},{"name":"now"}]}]}"#;
        let anthropic = r#"{"model":"claude-sonnet-4","messages":[{"role":"user","content":"T"}],"tools":[{"name":"f","strict":true,"input_schema":{"type":"object","properties":{"x":{"type":"string","minLength":2}}}},{"type":"web_search_20250305","name":"web_search"}]}"#;
        let layers = [
            ToolSchemaLayer::openai(),
            ToolSchemaLayer::gemini(),
            ToolSchemaLayer::anthropic(),
            ToolSchemaLayer::auto(),
        ];
        for layer in &layers {
            let cfg = layer.config();
            for (api, first, thens) in [
                (
                    Some(crate::shapes::Api::OpenAiChat),
                    chat(&strict, "gpt-4o", "a"),
                    vec![
                        // The same list, another turn: found; another model or list: not.
                        (chat(&strict, "gpt-4o", "b"), true),
                        (chat(&strict, "claude-sonnet-4", "b"), false),
                        (chat(&plain, "gpt-4o", "b"), false),
                        // Space around the list does not matter; inside it, it does.
                        (chat(&strict, "gpt-4o", "c").replace(r#""tools":["#, r#""tools": ["#), true),
                        (chat(&strict, "gpt-4o", "c").replace(r#""tools":[{"#, r#""tools":[ {"#), false),
                        // A slot outside the list: read in full.
                        (
                            chat(&strict, "gpt-4o", "d").replace(
                                r#""messages""#,
                                r#""response_format":{"type":"json_schema","json_schema":{"name":"r","schema":{"type":"object"}}},"messages""#,
                            ),
                            false,
                        ),
                        (format!(r#"{{"tools":{strict},"model":"gpt-4o","messages":[]}}"#), true),
                    ],
                ),
                (None, gemini.to_owned(), vec![(gemini.replace(r#""T""#, r#""U""#), true)]),
                (None, anthropic.to_owned(), vec![(anthropic.replace(r#""T""#, r#""U""#), true)]),
            ] {
                let ctx = RequestCtx {
                    shape: api.map(crate::shapes::Api::shape),
                    host: None,
                };
                // Twice: every slot is a hit the second time, and the list is kept then.
                let (o1, r1, _) = cached(cfg, &ctx, &first);
                let (o2, r2, h2) = cached(cfg, &ctx, &first);
                assert_eq!((&o1, h2), (&o2, 0), "{first}");
                assert_eq!(r1.slots.len(), r2.slots.len());
                let (o3, r3, h3) = cached(cfg, &ctx, &first);
                assert_eq!((&o3, &r3), (&o2, &r2), "{first}");
                assert_eq!(h3, 1, "{first}: the list was not kept");
                for (then, found) in thens {
                    // Slot by slot first (twice: its slots are hits the second time).
                    slow(cfg, &ctx, &then);
                    let want = slow(cfg, &ctx, &then);
                    let (out, report, hits) = cached(cfg, &ctx, &then);
                    assert_eq!((out, report), want, "{then}");
                    assert_eq!(hits > 0, found, "{then}");
                }
            }
        }
    }

    #[test]
    fn a_changed_configuration_drops_the_known_lists() {
        let body = format!(
            r#"{{"model":"gpt-4o","messages":[],"tools":{}}}"#,
            chat_tools(2, false)
        );
        let ctx = RequestCtx {
            shape: None,
            host: None,
        };
        let layer = ToolSchemaLayer::openai();
        for _ in 0..3 {
            cached(layer.config(), &ctx, &body);
        }
        assert_eq!(layer.config().requests.len(), 1);
        let layer = layer.rename_tools(false);
        assert_eq!(layer.config().requests.len(), 0);
        let (_, report, hits) = cached(layer.config(), &ctx, &body);
        assert!(hits == 0 && report.unslotted.is_empty());
        let off = ToolSchemaLayer::openai().cache(crate::CacheConfig::disabled());
        for _ in 0..3 {
            assert_eq!(cached(off.config(), &ctx, &body).2, 0);
        }
    }
}
