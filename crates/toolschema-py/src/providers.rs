//! The one adapter between the Python package and the engine's profile lookup: built-in
//! profiles by name, custom profiles from TOML / JSON, and the profiles a request body takes.
//! Everything else in this crate asks here, so a change to how provider-rules finds its
//! profiles is a change to this file only.

use provider_rules::{Provider, Rules, RulesError};
use std::sync::Arc;
use tower_toolschema::{Profile, Profiles};

/// A profile the caller chose: a built-in, or a custom one loaded from text.
#[derive(Clone, Debug)]
pub enum Chosen {
    /// A built-in profile.
    Builtin(&'static Rules),
    /// A provider whose name is not a profile's (`deepseek`, `azure-openai`): its native
    /// profile, and its profiles by role for request bodies (as the CLI's `--provider`).
    Provider(&'static Provider),
    /// A custom profile (`Profile.from_toml`).
    Custom(Arc<Rules>),
}

impl Chosen {
    /// The rules.
    pub fn rules(&self) -> &Rules {
        match self {
            Chosen::Builtin(r) => r,
            Chosen::Provider(p) => p.native,
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
            Chosen::Provider(p) => return Profiles::of_provider(p),
            Chosen::Custom(r) => Profile::custom(r.name().to_owned(), (**r).clone()),
        };
        Profiles::for_profile(profile)
    }
}

/// A name as the CLI's `--provider` takes it: a provider of the registry whose name is not a
/// profile's, or a built-in profile (ASCII case aside).
pub fn lookup(name: &str) -> Option<Chosen> {
    if let Some(p) = provider_rules::provider(name)
        && provider_rules::profile(name).is_none()
    {
        return Some(Chosen::Provider(p));
    }
    let typed = name.trim();
    provider_rules::profile_names()
        .find(|n| n.eq_ignore_ascii_case(typed))
        .and_then(provider_rules::profile)
        .map(Chosen::Builtin)
}

/// The names of the built-in profiles, in the engine's order.
pub fn names() -> Vec<&'static str> {
    provider_rules::profile_names().collect()
}

/// The names [`lookup`] takes: the profiles, then the providers whose names are not a
/// profile's.
pub fn accepted() -> Vec<&'static str> {
    let mut all = names();
    all.extend(provider_rules::provider_names().filter(|n| provider_rules::profile(n).is_none()));
    all
}

/// A custom profile from TOML text (`extends = "gemini"` plus overrides, or a whole profile).
pub fn from_toml(text: &str) -> Result<Rules, RulesError> {
    Rules::from_toml(text)
}

/// A custom profile from JSON text (the same shape as TOML).
pub fn from_json(text: &str) -> Result<Rules, RulesError> {
    Rules::from_json(text)
}
