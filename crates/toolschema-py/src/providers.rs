//! The one adapter between the Python package and the engine's profile lookup: built-in
//! profiles by name, custom profiles from TOML / JSON, and the profiles a request body takes.
//! Everything else in this crate asks here, so a change to how provider-rules finds its
//! profiles is a change to this file only.

use provider_rules::{Rules, RulesError};
use std::sync::Arc;
use tower_toolschema::{Profile, Profiles};

/// A profile the caller chose: a built-in, or a custom one loaded from text.
#[derive(Clone, Debug)]
pub enum Chosen {
    /// A built-in profile.
    Builtin(&'static Rules),
    /// A custom profile (`Profile.from_toml`).
    Custom(Arc<Rules>),
}

impl Chosen {
    /// The rules.
    pub fn rules(&self) -> &Rules {
        match self {
            Chosen::Builtin(r) => r,
            Chosen::Custom(r) => r,
        }
    }

    /// The profiles the request-body sanitizer applies, as the CLI's `--provider` / `--rules`
    /// choose them ([`Profiles::for_profile`]): a provider's native profile, or a custom one
    /// that `extends` it, takes that provider's companions (Gemini's `*JsonSchema` slots take
    /// `gemini-jsonschema`, tools marked `strict` the strict profile); any other profile
    /// applies to every slot.
    pub fn body_profiles(&self) -> Profiles {
        let profile = match self {
            Chosen::Builtin(r) => Profile::builtin(r.name())
                .unwrap_or_else(|| Profile::custom(r.name().to_owned(), (*r).clone())),
            Chosen::Custom(r) => Profile::custom(r.name().to_owned(), (**r).clone()),
        };
        Profiles::for_profile(profile)
    }
}

/// A built-in profile by name.
pub fn builtin(name: &str) -> Option<&'static Rules> {
    provider_rules::profile(name)
}

/// The names of the built-in profiles, in the engine's order.
pub fn names() -> Vec<&'static str> {
    provider_rules::profile_names().collect()
}

/// A custom profile from TOML text (`extends = "gemini"` plus overrides, or a whole profile).
pub fn from_toml(text: &str) -> Result<Rules, RulesError> {
    Rules::from_toml(text)
}

/// A custom profile from JSON text (the same shape as TOML).
pub fn from_json(text: &str) -> Result<Rules, RulesError> {
    Rules::from_json(text)
}
