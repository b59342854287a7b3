//! What the layer did to a request, condensed for the request's log line and the metrics
//! ([`Summary`]), and the warnings worth a person's attention, once per distinct (profile,
//! tool, change) per process ([`WarnOnce`]).

use std::collections::HashSet;
use std::sync::Mutex;

use tower_toolschema::SanitizeReport;
use tower_toolschema::report::Outcome;

/// Counts for one profile of a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ProfileCounts {
    pub(crate) profile: String,
    /// Slots rewritten.
    pub(crate) changed: u64,
    /// Changes that lost a constraint.
    pub(crate) lossy: u64,
    /// Tools downgraded to `strict: false`.
    pub(crate) downgraded: u64,
}

/// One request's [`SanitizeReport`], condensed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Summary {
    pub(crate) api: &'static str,
    /// The profiles applied, comma-separated, in first-use order.
    pub(crate) profiles: String,
    /// Schema slots found.
    pub(crate) slots: usize,
    /// Distinct tools among them (a tool's parameters and response are two slots, one tool).
    pub(crate) tools: usize,
    /// Slots rewritten.
    pub(crate) changed: u64,
    pub(crate) lossy: u64,
    pub(crate) downgraded: u64,
    /// Why the body was not inspected or not rewritten, if it was not.
    pub(crate) skipped: Option<String>,
    pub(crate) per_profile: Vec<ProfileCounts>,
}

impl Summary {
    pub(crate) fn of(report: &SanitizeReport) -> Summary {
        let mut per_profile: Vec<ProfileCounts> = Vec::new();
        for slot in &report.slots {
            let idx = match per_profile.iter().position(|p| p.profile == slot.profile) {
                Some(i) => i,
                None => {
                    per_profile.push(ProfileCounts {
                        profile: slot.profile.to_string(),
                        changed: 0,
                        lossy: 0,
                        downgraded: 0,
                    });
                    per_profile.len() - 1
                }
            };
            let p = &mut per_profile[idx];
            p.changed += u64::from(!slot.changes.is_empty());
            p.lossy += slot.changes.iter().filter(|c| c.lossy).count() as u64;
            p.downgraded += u64::from(slot.strict_downgraded);
        }
        let sum = |f: fn(&ProfileCounts) -> u64| per_profile.iter().map(f).sum::<u64>();
        Summary {
            api: report.api.map_or("-", |a| a.name()),
            profiles: per_profile
                .iter()
                .map(|p| p.profile.as_str())
                .collect::<Vec<_>>()
                .join(","),
            slots: report.slots.len(),
            tools: {
                let mut names: Vec<&str> = report
                    .slots
                    .iter()
                    .filter_map(|s| s.tool.as_deref())
                    .collect();
                names.sort_unstable();
                names.dedup();
                names.len()
            },
            changed: sum(|p| p.changed),
            lossy: sum(|p| p.lossy),
            downgraded: sum(|p| p.downgraded),
            skipped: match &report.outcome {
                Outcome::Skipped(reason) => Some(reason.to_string()),
                _ => None,
            },
            per_profile,
        }
    }
}

/// At most this many distinct warnings are remembered; past it, one last warning says so.
const WARN_CAP: usize = 4096;

/// Warnings once per distinct (profile, tool, change) per process.
#[derive(Debug, Default)]
pub(crate) struct WarnOnce {
    seen: Mutex<HashSet<(String, String, String)>>,
}

impl WarnOnce {
    /// Whether this warning is new (and remembers it).
    fn first(&self, profile: &str, tool: &str, change: &str) -> bool {
        let Ok(mut seen) = self.seen.lock() else {
            return false;
        };
        if seen.len() >= WARN_CAP {
            return false;
        }
        let new = seen.insert((profile.to_owned(), tool.to_owned(), change.to_owned()));
        if new && seen.len() == WARN_CAP {
            tracing::warn!(target: "toolschema::serve", "{WARN_CAP} distinct schema warnings so far: no more are logged");
        }
        new
    }

    /// Logs what in the report a person should know, the first time it is seen.
    pub(crate) fn report(&self, report: &SanitizeReport) {
        for slot in &report.slots {
            let tool = slot.tool.as_deref().unwrap_or("-");
            let profile = slot.profile.as_str();
            for c in slot.changes.iter().filter(|c| c.lossy) {
                let key = format!("{} at {}", c.rule, c.pointer);
                if self.first(profile, tool, &key) {
                    tracing::warn!(target: "toolschema::serve", profile, tool, rule = c.rule.as_str(), pointer = %c.pointer, "schema constraint lost: {}", c.message);
                }
            }
            if slot.strict_downgraded && self.first(profile, tool, "strict-downgrade") {
                let why = if slot.strict_over_request_limits {
                    "the request's strict tools go over the provider's request-wide limits"
                } else {
                    "the schema cannot be made strict-compatible"
                };
                tracing::warn!(target: "toolschema::serve", profile, tool, "sent with strict: false: {why}");
            }
            if let Some(p) = &slot.tool_name_problem
                && self.first(profile, tool, "tool-name")
            {
                tracing::warn!(target: "toolschema::serve", profile, tool, "invalid tool name: {p}");
            }
            for u in slot.unfixable.iter() {
                if self.first(profile, tool, u) {
                    tracing::warn!(target: "toolschema::serve", profile, tool, "the provider will reject this and it cannot be fixed here: {u}");
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tower_toolschema::{ToolSchemaLayer, sanitize_body, shapes::Api};

    fn report() -> SanitizeReport {
        let body = br#"{"contents":[],"tools":[{"functionDeclarations":[{"name":"f","parameters":{"type":"object","properties":{"a":{"type":"string","pattern":"^x$"},"b":{"type":["string","null"]}}}}]}]}"#;
        sanitize_body(
            ToolSchemaLayer::gemini().config(),
            Some(Api::Gemini),
            bytes::Bytes::from_static(body),
        )
        .1
    }

    #[test]
    fn summary_counts_per_profile() {
        let r = report();
        let s = Summary::of(&r);
        assert_eq!(s.api, "gemini");
        assert_eq!(s.profiles, "gemini");
        assert_eq!((s.slots, s.tools), (1, 1));
        assert_eq!(s.changed, 1);
        assert_eq!(
            s.lossy,
            r.slots[0].changes.iter().filter(|c| c.lossy).count() as u64
        );
        assert_eq!(s.per_profile.len(), 1);
    }

    #[test]
    fn a_tool_with_two_slots_is_one_tool() {
        let body = br#"{"contents":[],"tools":[{"functionDeclarations":[{"name":"f","parameters":{"type":"object"},"response":{"type":"object"}}]}]}"#;
        let r = sanitize_body(
            ToolSchemaLayer::gemini().config(),
            Some(Api::Gemini),
            bytes::Bytes::from_static(body),
        )
        .1;
        let s = Summary::of(&r);
        assert_eq!((s.slots, s.tools), (2, 1));
    }

    #[test]
    fn a_warning_is_new_once() {
        let w = WarnOnce::default();
        assert!(w.first("gemini", "f", "x"));
        assert!(!w.first("gemini", "f", "x"));
        assert!(w.first("gemini", "g", "x"));
    }
}
