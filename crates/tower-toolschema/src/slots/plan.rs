//! Which profile each slot of a located body takes, and whether it goes strict: [`plan`].
//!
//! The layer decides this per slot from the [shape table](crate::shapes)'s dialect of the slot,
//! the target's profiles for its API (with `auto`: the path, host and the body's `model`), and
//! the slot's `strict` flag. The layer, `sanitize_body` and the CLI all take the decision here.
//!
//! ```
//! use tower_toolschema::{ToolSchemaLayer, locate::locate, plan::plan};
//!
//! let body = br#"{"model":"gpt-4o","messages":[],"tools":[
//!     {"type":"function","function":{"name":"f","strict":true,"parameters":{}}},
//!     {"type":"function","function":{"name":"g","parameters":{}}}]}"#;
//! let located = locate(body, None).unwrap();
//! let plans = plan(ToolSchemaLayer::auto().config(), &located, None);
//! assert_eq!((plans[0].profile.name(), plans[0].strict), ("openai-strict", true));
//! assert_eq!((plans[1].profile.name(), plans[1].strict), ("openai", false));
//!
//! // Gemini's `parameters` (Schema proto) and `parametersJsonSchema` take different profiles.
//! let body = br#"{"tools":[{"functionDeclarations":[{"name":"a","parameters":{}},
//!     {"name":"b","parameters_json_schema":{}}]}]}"#;
//! let located = locate(body, None).unwrap();
//! let plans = plan(ToolSchemaLayer::auto().config(), &located, None);
//! assert_eq!(plans[0].profile.name(), "gemini");
//! assert_eq!(plans[1].profile.name(), "gemini-jsonschema");
//! ```

use crate::config::Config;
use crate::locate::{Found, Located};
use crate::profile::{Profile, Profiles};

/// What one slot takes (see the [module docs](mod@crate::plan) for how it is decided).
///
/// ```
/// use tower_toolschema::{ToolSchemaLayer, locate::locate, plan::plan};
///
/// let body = br#"{"model":"claude-sonnet-4","messages":[],"tools":[{"name":"f","strict":true,"input_schema":{}}]}"#;
/// let plans = plan(ToolSchemaLayer::anthropic().config(), &locate(body, None).unwrap(), None);
/// assert_eq!(plans[0].profile.name(), "anthropic-strict");
/// assert!(plans[0].strict);
/// assert_eq!(plans[0].profiles.native.name(), "anthropic");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SlotPlan {
    /// The profiles of the slot's target (for its API, the host and the body's `model`).
    pub profiles: Profiles,
    /// The profile the slot is sanitized with (and checked against, as sent).
    pub profile: Profile,
    /// The slot asked for strict mode and the target has a strict profile: `profile` is that
    /// profile. When its schema cannot be made strict-compatible, or the request's strict tools
    /// together would go over the provider's request-wide limits, the layer sends it with
    /// `strict: false` under `profiles.native` instead, and reports that.
    pub strict: bool,
}

/// The plan of every slot of `located`, in order (`host`: the request's host, for `auto`).
/// O(slots); nothing is parsed or sanitized.
///
/// ```
/// use tower_toolschema::{ToolSchemaLayer, locate::locate, plan::plan};
///
/// // With `auto`, an OpenAI-compatible body goes by its host.
/// let body = br#"{"model":"llama-3.3-70b","messages":[],"tools":[{"type":"function","function":{"name":"f","parameters":{}}}]}"#;
/// let plans = plan(ToolSchemaLayer::auto().config(), &locate(body, None).unwrap(), Some("api.groq.com"));
/// assert_eq!(plans[0].profile.name(), "groq");
/// ```
pub fn plan(config: &Config, located: &Located<'_>, host: Option<&str>) -> Vec<SlotPlan> {
    located
        .slots
        .iter()
        .map(|found| plan_slot(config, found, located.model.as_deref(), host))
        .collect()
}

/// The plan of one slot of a body whose top-level `model` is `model`.
pub(crate) fn plan_slot(
    config: &Config,
    found: &Found<'_>,
    model: Option<&str>,
    host: Option<&str>,
) -> SlotPlan {
    let profiles = config.profiles_for(found.api, model, host);
    let (profile, strict) = profiles.pick(found.spec.dialect, found.strict_requested());
    let profile = profile.clone();
    SlotPlan {
        profiles,
        profile,
        strict,
    }
}
