//! The tools a body declares: their names and original schemas (for the response
//! validator), the tools without a parameters slot, and the request-wide tool limits.

use bytes::Bytes;

use crate::config::{Config, RequestCtx};
use crate::locate;
use crate::report::SlotReport;
use crate::shapes::{Api, SlotRole};

/// A tool of the request as it came: its name and the original bytes of its parameters schema
/// (the JSON text; `None` when it was declared without one).
pub(crate) type OriginalTool = (String, Option<Bytes>);

/// The tools declared without a parameters slot, with whether the target refuses each name
/// (renaming needs them: such a tool has no slot report to say so).
pub(super) fn unslotted(
    cfg: &Config,
    located: &locate::Located<'_>,
    api: Option<Api>,
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
pub(super) fn tool_limit(
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

pub(super) fn collect_tools(located: &locate::Located<'_>, tools: &mut Vec<OriginalTool>) {
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
