//! What the layer logs (`tracing`, target `tower_toolschema`), once per request:
//!
//! - a span `tower_toolschema` around the request's sanitizing, with the fields `api`,
//!   `profile`, `slots`, `changed`, `lossy`, `downgraded` and `cached` (so the events nest
//!   under a caller's own span, e.g. tower-http's `TraceLayer`);
//! - one summary event at INFO with the same fields;
//! - every change at DEBUG;
//! - WARN for meaning lost only when a schema is first sanitized (a cached schema was warned
//!   about already), one event per slot; WARN for a strict tool sent non-strict, an invalid
//!   tool name, and what the provider will reject that cannot be fixed here;
//! - INFO for every tool renamed for the provider (`tool`, `sent`, `why`: `length`,
//!   `characters`, `collision`).

use crate::report::{Outcome, SanitizeReport, SlotReport};
use crate::shapes::Api;
use tracing::Span;
use tracing::field::Empty;

/// The span of one request's sanitizing; its totals are filled in by [`record`].
pub(crate) fn request_span(api: Option<Api>) -> Span {
    tracing::info_span!(
        target: "tower_toolschema",
        "tower_toolschema",
        api = api.map(|a| a.name()),
        profile = Empty,
        slots = Empty,
        changed = Empty,
        lossy = Empty,
        downgraded = Empty,
        cached = Empty,
    )
}

/// The totals of a report, as the span and the summary event carry them.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Totals {
    /// The profiles applied, comma-separated, in order of first use.
    pub profile: String,
    /// Schema slots found.
    pub slots: usize,
    /// Slots whose schema changed.
    pub changed: usize,
    /// Changes that lost meaning.
    pub lossy: usize,
    /// Strict tools sent non-strict.
    pub downgraded: usize,
    /// Slots served from the cache.
    pub cached: usize,
}

pub(crate) fn totals(report: &SanitizeReport) -> Totals {
    let mut profiles: Vec<&str> = Vec::new();
    for s in &report.slots {
        if !s.profile.is_empty() && !profiles.contains(&s.profile.as_str()) {
            profiles.push(&s.profile);
        }
    }
    Totals {
        profile: profiles.join(","),
        slots: report.slots.len(),
        changed: report
            .slots
            .iter()
            .filter(|s| !s.changes.is_empty())
            .count(),
        lossy: report
            .slots
            .iter()
            .map(|s| s.changes.iter().filter(|c| c.lossy).count())
            .sum(),
        downgraded: report.slots.iter().filter(|s| s.strict_downgraded).count(),
        cached: report.slots.iter().filter(|s| s.cached).count(),
    }
}

/// Fills `span`'s fields from `report` and, inside it, logs the request: the summary at INFO,
/// the detail at DEBUG, warnings as the module docs say. A skipped body is one DEBUG event.
pub(crate) fn record(span: &Span, report: &SanitizeReport) {
    // Nothing listens: no totals to count.
    if span.is_disabled()
        && !tracing::enabled!(target: "tower_toolschema", tracing::Level::ERROR)
        && !tracing::enabled!(target: "tower_toolschema", tracing::Level::WARN)
        && !tracing::enabled!(target: "tower_toolschema", tracing::Level::INFO)
        && !tracing::enabled!(target: "tower_toolschema", tracing::Level::DEBUG)
    {
        return;
    }
    let _entered = span.enter();
    if let Outcome::Skipped(reason) = &report.outcome {
        tracing::debug!(target: "tower_toolschema", api = report.api.map(|a| a.name()), "body not rewritten: {reason}");
        return;
    }
    let t = totals(report);
    span.record("profile", t.profile.as_str());
    span.record("slots", t.slots);
    span.record("changed", t.changed);
    span.record("lossy", t.lossy);
    span.record("downgraded", t.downgraded);
    span.record("cached", t.cached);
    tracing::info!(
        target: "tower_toolschema",
        api = report.api.map(|a| a.name()),
        profile = %t.profile,
        slots = t.slots,
        changed = t.changed,
        lossy = t.lossy,
        downgraded = t.downgraded,
        cached = t.cached,
        "tool schemas sanitized"
    );
    for slot in &report.slots {
        let renamed = slot
            .tool
            .as_deref()
            .is_some_and(|t| report.renames.iter().any(|r| r.original == t));
        slot_events(slot, renamed);
    }
    for r in &report.renames {
        let why: Vec<&str> = r.why.iter().map(|w| w.as_str()).collect();
        tracing::info!(target: "tower_toolschema", tool = %r.original, sent = %r.sent, why = %why.join(","), "tool renamed for the provider; mapped back in the response");
    }
}

/// One slot's events; `renamed`: its tool was renamed (logged with the renames, not warned
/// about as an invalid name).
fn slot_events(r: &SlotReport, renamed: bool) {
    let tool = r.tool.as_deref().unwrap_or("");
    for c in r.changes.iter() {
        tracing::debug!(target: "tower_toolschema", tool, slot = %r.pointer, pointer = %c.pointer, rule = c.rule.as_str(), lossy = c.lossy, profile = %r.profile, cached = r.cached, "schema rewritten: {}", c.message);
    }
    let lost: Vec<&str> = r
        .changes
        .iter()
        .filter(|c| c.lossy)
        .map(|c| c.rule.as_str())
        .collect();
    if !lost.is_empty() && !r.cached {
        tracing::warn!(target: "tower_toolschema", tool, slot = %r.pointer, profile = %r.profile, lossy = lost.len(), rules = %lost.join(","), "schema constraints moved to descriptions (the provider cannot express them; details at debug)");
    }
    if r.strict_over_request_limits {
        tracing::warn!(target: "tower_toolschema", tool, slot = %r.pointer, "the request's strict tools go over the provider's request-wide limits; sent with strict: false");
    } else if r.strict_downgraded {
        tracing::warn!(target: "tower_toolschema", tool, slot = %r.pointer, "schema cannot be made strict-compatible; sent with strict: false");
    }
    if let Some(p) = r.tool_name_problem.as_ref().filter(|_| !renamed) {
        tracing::warn!(target: "tower_toolschema", tool, slot = %r.pointer, "invalid tool name: {p}");
    }
    for p in r.unfixable.iter() {
        tracing::warn!(target: "tower_toolschema", tool, slot = %r.pointer, "the provider will reject this and it cannot be fixed here: {p}");
    }
    if let Some(e) = &r.error {
        tracing::debug!(target: "tower_toolschema", tool, slot = %r.pointer, "slot left untouched: {e}");
    }
}
