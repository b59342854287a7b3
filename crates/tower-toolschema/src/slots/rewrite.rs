//! Rewriting a whole body: locate the slots, sanitize each (through the cache), splice the
//! changed ones into the original bytes.

use std::sync::Arc;

use bytes::Bytes;

use crate::cache::Cached;
use crate::config::{Config, RequestCtx};
use crate::locate::{self, Found, Hook, LocateError, range_of};
use crate::plan::{SlotPlan, plan_slot};
use crate::profile::Profile;
use crate::report::{Outcome, SanitizeReport, SharedStr, SkipReason, SlotReport, SlotReports};
use crate::restore::needs::Needs;
use crate::sanitizer::SchemaSlot;
use crate::shapes::{Encoding, SlotRole};
use crate::slots::request_cache::Entry;
use crate::slots::splice::{Edit, Spliced, splice};

/// Rewrites `body`; `None` when nothing changed (the caller forwards the very same bytes).
/// O(n) in the body (one scan to locate the slots, a hash and a comparison of each slot's bytes
/// for the cache, a copy of the region between the first and last changed slot) plus the
/// sanitizing of the slots that miss the cache.
pub(crate) fn process(
    cfg: &Config,
    ctx: &RequestCtx,
    body: &[u8],
) -> (Option<Spliced>, SanitizeReport) {
    let (new, report, _) = process_with(cfg, ctx, body, None);
    (new, report)
}

/// A tool of the request as it came: its name and the original bytes of its parameters schema
/// (the JSON text; `None` when it was declared without one).
pub(crate) type OriginalTool = (String, Option<Bytes>);

/// [`process`], also collecting into `tools` every tool's name and original parameters schema
/// (copied: the request body is not kept alive for them).
///
/// A tool list seen before (the same bytes at the same place, the same `model` and host) is
/// not read slot by slot: its result is reused ([`crate::slots::request_cache`]), with what
/// the way back needs of it (the third value; `None`: work it out from the report).
pub(crate) fn process_with(
    cfg: &Config,
    ctx: &RequestCtx,
    body: &[u8],
    tools: Option<&mut Vec<OriginalTool>>,
) -> (Option<Spliced>, SanitizeReport, Option<Arc<Needs>>) {
    let api = ctx.shape.map(|s| s.api);
    let tool_names = tools.is_some() || cfg.rename_tools;
    // The tool-list cache, unless the tools themselves are wanted.
    let requests = (tools.is_none() && cfg.requests.is_enabled()).then_some(&*cfg.requests);
    let mut known: Option<Arc<Entry>> = None;
    let mut hook = |node: usize, rest: &[u8]| {
        let e = requests?.find(node, rest)?;
        let len = e.bytes.len();
        known = Some(e);
        Some(len)
    };
    let hook: Option<Hook<'_>> = match requests {
        Some(_) => Some(&mut hook),
        None => None,
    };
    let mut located = match or_skipped(locate::locate_hooked(body, api, tool_names, hook)) {
        Ok(l) => l,
        Err(why) => return (None, SanitizeReport::skipped(api, why), None),
    };
    if let Some(hit) = located.hit.take() {
        if let Some(e) = known.take()
            && located.slots.is_empty()
            && located.tools_without_schema.is_empty()
            && e.model.as_deref() == located.model.as_deref()
            && e.host == ctx.host
        {
            #[cfg(test)]
            cfg.requests
                .hits
                .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            let (new, report) = replay(body, &e, hit.span.start, api);
            return (new, report, Some(Arc::clone(&e.needs)));
        }
        // Not the same request around the list: read in full.
        located = match or_skipped(locate::locate_with(body, api, tool_names)) {
            Ok(l) => l,
            Err(why) => return (None, SanitizeReport::skipped(api, why), None),
        };
    }
    let api = api.or_else(|| located.slots.first().map(|f| f.api));
    if let Some(tools) = tools {
        collect_tools(&located, tools);
    }
    let mut edits = Vec::new();
    let mut slots = Vec::with_capacity(located.slots.len());
    let mut budget = StrictBudget::default();
    for found in &mut located.slots {
        let plan = plan_slot(cfg, found, located.model.as_deref(), ctx.host.as_deref());
        slots.push(process_slot(
            cfg,
            plan,
            body,
            found,
            &mut edits,
            &mut budget,
        ));
    }
    tool_limit(cfg, &located, ctx, budget.fields, &mut slots);
    let slots = SlotReports::from(slots);
    let unslotted = unslotted(cfg, &located, api, ctx);
    // Worked out once: for this request's way back and for the kept list's.
    let needs = Arc::new(Needs::of(cfg, api, &slots, &unslotted));
    if let Some(requests) = requests
        && let Some(entry) = entry_of(
            body,
            &located,
            ctx,
            api,
            (&slots, &unslotted),
            &edits,
            &needs,
        )
    {
        requests.insert(entry);
    }
    let (new, report) = spliced(body, edits, |outcome| SanitizeReport {
        api,
        outcome,
        slots,
        renames: Vec::new(),
        history: Vec::new(),
        unslotted,
    });
    (new, report, Some(needs))
}

/// What locating said, or why the body is skipped.
fn or_skipped(
    result: Result<locate::Located<'_>, LocateError>,
) -> Result<locate::Located<'_>, SkipReason> {
    result.map_err(|e| match e {
        LocateError::Invalid(e) => SkipReason::InvalidJson(e),
        LocateError::Duplicate(p) => SkipReason::DuplicateKey(p),
    })
}

/// The body with `edits` made, and the report `report` makes of the outcome.
fn spliced(
    body: &[u8],
    edits: Vec<Edit>,
    report: impl FnOnce(Outcome) -> SanitizeReport,
) -> (Option<Spliced>, SanitizeReport) {
    if edits.is_empty() {
        return (None, report(Outcome::Unchanged));
    }
    match splice(body, edits) {
        Some(out) => {
            let (before, after) = (body.len(), out.len());
            (Some(out), report(Outcome::Rewritten { before, after }))
        }
        None => (None, report(Outcome::Unchanged)),
    }
}

/// A known tool list's result for `body`, whose list starts at `at`.
fn replay(
    body: &[u8],
    e: &Entry,
    at: usize,
    api: Option<crate::shapes::Api>,
) -> (Option<Spliced>, SanitizeReport) {
    let edits = e
        .edits
        .iter()
        .map(|(r, bytes)| Edit {
            range: r.start + at..r.end + at,
            bytes: bytes.to_vec(),
        })
        .collect();
    spliced(body, edits, |outcome| SanitizeReport {
        api: api.or(e.api),
        outcome,
        slots: e.slots.clone(),
        renames: Vec::new(),
        history: Vec::new(),
        unslotted: e.unslotted.clone(),
    })
}

/// The tool-list cache's entry for this request's result, when it can be reused (see
/// [`crate::slots::request_cache`]): every slot and tool name in one container, every slot a
/// cache hit, every edit inside the container; with what the way back `needs` of it.
fn entry_of(
    body: &[u8],
    located: &locate::Located<'_>,
    ctx: &RequestCtx,
    api: Option<crate::shapes::Api>,
    (slots, unslotted): (&SlotReports, &[(String, bool)]),
    edits: &[Edit],
    needs: &Arc<Needs>,
) -> Option<Entry> {
    let c = located.containers.iter().find(|c| {
        c.slots == (0..located.slots.len()) && c.tools == (0..located.tools_without_schema.len())
    })?;
    let span = c.span.clone();
    if slots.is_empty() || slots.iter().any(|s| !s.cached) {
        return None;
    }
    let edits = edits
        .iter()
        .map(|e| {
            (span.start <= e.range.start && e.range.end <= span.end).then(|| {
                let r = e.range.start - span.start..e.range.end - span.start;
                (r, Bytes::copy_from_slice(&e.bytes))
            })
        })
        .collect::<Option<Vec<_>>>()?;
    Some(Entry {
        node: c.node,
        bytes: body.get(span)?.into(),
        model: located.model.as_deref().map(str::to_owned),
        host: ctx.host.clone(),
        api,
        needs: Arc::clone(needs),
        slots: slots.clone(),
        unslotted: unslotted.to_vec(),
        edits,
    })
}

/// The tools declared without a parameters slot, with whether the target refuses each name
/// (renaming needs them: such a tool has no slot report to say so).
fn unslotted(
    cfg: &Config,
    located: &locate::Located<'_>,
    api: Option<crate::shapes::Api>,
    ctx: &RequestCtx,
) -> Vec<(String, bool)> {
    let (Some(api), false) = (api, located.tools_without_schema.is_empty()) else {
        return Vec::new();
    };
    let profiles = cfg.profiles_for(api, located.model.as_deref(), ctx.host.as_deref());
    located
        .tools_without_schema
        .iter()
        .filter_map(|raw| serde_json::from_str::<String>(raw.get()).ok())
        .map(|name| {
            let refused = cfg
                .sanitizer
                .check_tool_name(&name, &profiles.native)
                .is_some();
            (name, refused)
        })
        .collect()
}

/// A request over the provider's documented tool count (issue 19) or request-wide field count
/// (`fields` in all: Cohere's 200 "across all tools"): said in the last tool's report
/// (`unfixable`, logged with it), naming the limit.
fn tool_limit(
    cfg: &Config,
    located: &locate::Located<'_>,
    ctx: &RequestCtx,
    fields: u32,
    slots: &mut [SlotReport],
) {
    let tools = located
        .slots
        .iter()
        .filter(|f| f.spec.role == SlotRole::ToolParameters);
    let Some(first) = tools.clone().next() else {
        return;
    };
    let profiles = cfg.profiles_for(first.api, located.model.as_deref(), ctx.host.as_deref());
    let rules = profiles.native.rules();
    let over = [
        provider_rules::check_tool_count(tools.count(), rules),
        provider_rules::check_field_count(fields, rules),
    ];
    if over.iter().all(Option::is_none) {
        return;
    }
    if let Some(last) = slots
        .iter_mut()
        .rev()
        .find(|s| s.role == SlotRole::ToolParameters)
    {
        let mut list = last.unfixable.to_vec();
        list.extend(over.into_iter().flatten().map(|v| v.message));
        last.unfixable = list.into();
    }
}

fn collect_tools(located: &locate::Located<'_>, tools: &mut Vec<OriginalTool>) {
    for found in &located.slots {
        if found.spec.role != SlotRole::ToolParameters {
            continue;
        }
        let Some(tool) = found.tool() else {
            continue;
        };
        let schema = found.schema().map(|s| Bytes::copy_from_slice(s.as_bytes()));
        tools.push((tool, schema));
    }
    for raw in &located.tools_without_schema {
        if let Ok(tool) = serde_json::from_str::<String>(raw.get()) {
            tools.push((tool, None));
        }
    }
}

fn sanitize_cached(
    cfg: &Config,
    profile: &Profile,
    slot: SchemaSlot,
    schema: &[u8],
) -> (Arc<Result<Cached, String>>, bool) {
    cfg.cache.get_or_insert(profile.id(), slot, schema, || {
        cfg.sanitizer
            .sanitize(schema, profile, slot)
            .map(|o| Cached {
                json: o.json.map(Bytes::from),
                changes: Arc::from(o.changes),
                strict_compatible: o.strict_compatible,
                unfixable: Arc::from(o.unfixable),
                strict_cost: o.strict_cost,
                decoder: Arc::new(o.decoder),
            })
    })
}

/// What the strict slots of one request have spent so far of the request-wide limits, and
/// the fields of all its tools (strict or not).
#[derive(Default)]
struct StrictBudget {
    tools: u32,
    cost: provider_rules::StrictCost,
    fields: u32,
}

impl StrictBudget {
    /// Spends `cost` for one more strict tool if `limits` admit it; `false` (nothing spent)
    /// when it would go over.
    fn spend(
        &mut self,
        limits: &provider_rules::RequestLimits,
        cost: provider_rules::StrictCost,
    ) -> bool {
        let (tools, total) = (self.tools.saturating_add(1), self.cost.plus(cost));
        if !limits.admits(tools, total) {
            return false;
        }
        (self.tools, self.cost) = (tools, total);
        true
    }
}

fn process_slot(
    cfg: &Config,
    plan: SlotPlan,
    body: &[u8],
    found: &mut Found<'_>,
    edits: &mut Vec<Edit>,
    budget: &mut StrictBudget,
) -> SlotReport {
    let spec = found.spec;
    let SlotPlan {
        profiles,
        profile,
        strict,
    } = plan;
    let mut profile = &profile;
    let mut report = SlotReport {
        // The pointer is the report's from here on (nothing else reads it).
        pointer: std::mem::take(&mut found.pointer).into(),
        tool: found.tool().map(SharedStr::from),
        role: spec.role,
        profile: profile.name().into(),
        changes: empty::changes(),
        cached: false,
        strict_downgraded: false,
        strict_over_request_limits: false,
        tool_name_problem: None,
        unfixable: empty::unfixable(),
        error: None,
        strict_compatible: true,
        schema: None,
        decoder: empty::decoder(),
    };
    let Some(range) = range_of(body, found.raw.get()) else {
        report.error = Some("slot outside the body".to_owned());
        return report;
    };
    let Some(schema) = found.schema() else {
        report.error = Some("expected a JSON string holding a schema".to_owned());
        return report;
    };
    let schema = schema.as_bytes();
    let slot = spec.role.engine_slot();
    let (mut result, mut cached) = sanitize_cached(cfg, profile, slot, schema);
    // A tool that would take the request over the provider's request-wide strict limits is
    // sent non-strict, like one that cannot be made strict (the earlier tools keep theirs).
    let over_limits = strict
        && spec.role == SlotRole::ToolParameters
        && result.as_ref().as_ref().is_ok_and(|r| {
            r.strict_compatible && !budget.spend(&profile.rules().request_limits, r.strict_cost)
        });
    if strict && (over_limits || result.as_ref().as_ref().is_ok_and(|r| !r.strict_compatible)) {
        // Cannot be made strict: send it non-strict, under the non-strict profile.
        report.strict_over_request_limits = over_limits;
        profile = &profiles.native;
        (result, cached) = sanitize_cached(cfg, profile, slot, schema);
        if let Some(flag) = found.strict.and_then(|s| range_of(body, s.get())) {
            edits.push(Edit {
                range: flag,
                bytes: b"false".to_vec(),
            });
            report.strict_downgraded = true;
        }
        report.profile = profile.name().into();
    }
    report.cached = cached;
    if spec.role == SlotRole::ToolParameters
        && let Some(name) = &report.tool
    {
        report.tool_name_problem = cfg.sanitizer.check_tool_name(name, profile);
    }
    match result.as_ref() {
        Err(e) => report.error = Some(e.clone()),
        Ok(r) => {
            if spec.role == SlotRole::ToolParameters {
                budget.fields = budget.fields.saturating_add(r.strict_cost.fields);
            }
            report.changes = Arc::clone(&r.changes);
            report.unfixable = Arc::clone(&r.unfixable);
            report.strict_compatible = r.strict_compatible;
            report.decoder = Arc::clone(&r.decoder);
            if let Some(json) = &r.json {
                let bytes = match spec.encoding {
                    Encoding::Json | Encoding::JsonObject => Some(json.to_vec()),
                    Encoding::JsonString => std::str::from_utf8(json)
                        .ok()
                        .and_then(|s| serde_json::to_vec(s).ok()),
                };
                match bytes {
                    Some(bytes) => {
                        edits.push(Edit { range, bytes });
                        report.schema = Some(json.clone());
                    }
                    None => {
                        report.error = Some("the sanitized schema could not be encoded".to_owned())
                    }
                }
            }
        }
    }
    report
}

/// The empty lists and the identity decoder a slot report starts with, shared (a report of a
/// cache hit gets the cached ones: these are never allocated per slot).
mod empty {
    use std::sync::{Arc, OnceLock};

    use crate::report::Change;

    pub(super) fn changes() -> Arc<[Change]> {
        static EMPTY: OnceLock<Arc<[Change]>> = OnceLock::new();
        Arc::clone(EMPTY.get_or_init(|| Arc::from(Vec::new())))
    }

    pub(super) fn unfixable() -> Arc<[String]> {
        static EMPTY: OnceLock<Arc<[String]>> = OnceLock::new();
        Arc::clone(EMPTY.get_or_init(|| Arc::from(Vec::new())))
    }

    pub(super) fn decoder() -> Arc<provider_rules::Decoder> {
        static IDENTITY: OnceLock<Arc<provider_rules::Decoder>> = OnceLock::new();
        Arc::clone(IDENTITY.get_or_init(Arc::default))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ToolSchemaLayer;
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
