//! Rewriting a whole body: locate the slots, sanitize each (through the cache), splice the
//! changed ones into the original bytes. One slot's rewrite is [`slot`]; the tools a body
//! declares, their names and the request-wide limits are [`tools`]; a known tool list's result
//! (kept and reused) is [`known`].

mod known;
mod slot;
mod tools;

use std::sync::Arc;

use crate::config::{Config, RequestCtx};
use crate::locate::{self, Hook, LocateError};
use crate::plan::plan_slot;
use crate::report::{Outcome, SanitizeReport, SkipReason, SlotReports};
use crate::restore::needs::Needs;
use crate::slots::request_cache::Entry;
use crate::slots::splice::{Edit, Spliced, splice};

use known::{entry_of, replay};
use slot::{StrictBudget, process_slot};
pub(crate) use tools::OriginalTool;
use tools::{collect_tools, tool_limit, unslotted};

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
    let (new, report) = spliced(body, edits, |outcome| SanitizeReport {
        api,
        outcome,
        slots,
        renames: Vec::new(),
        history: Vec::new(),
        unslotted,
    });
    if let Some(requests) = requests
        && let Some(entry) = entry_of(body, &located, ctx, &report, new.as_ref(), &needs)
    {
        requests.insert(entry);
    }
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
