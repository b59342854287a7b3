//! One slot's rewrite: its plan, the sanitized schema through the slot cache, the strict
//! request-wide budget, the edit and the slot's report.

use std::sync::Arc;

use bytes::Bytes;

use crate::cache::Cached;
use crate::config::Config;
use crate::locate::{Found, range_of};
use crate::plan::SlotPlan;
use crate::profile::Profile;
use crate::report::{SharedStr, SlotReport};
use crate::sanitizer::SchemaSlot;
use crate::shapes::{Encoding, SlotRole};
use crate::slots::splice::Edit;

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
pub(super) struct StrictBudget {
    tools: u32,
    cost: provider_rules::StrictCost,
    pub(super) fields: u32,
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

pub(super) fn process_slot(
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
