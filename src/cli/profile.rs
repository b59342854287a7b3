//! Choosing the profile a command applies: a built-in (`--provider NAME`) or a custom one
//! loaded from a TOML / JSON file (`--rules FILE`).

use super::error::CliError;
use provider_rules::{PROFILES, PROVIDERS, Provider, Role, Rules};
use std::path::Path;
use tower_toolschema::{Profile, Profiles};

/// The built-in profiles `matrix` shows by default: every non-strict one, from the registry.
pub fn matrix_default() -> Vec<&'static str> {
    PROFILES
        .iter()
        .filter(|r| !r.strict)
        .map(|r| r.name())
        .collect()
}

/// The lines of `toolschema providers`: every built-in profile, and every provider whose
/// name is not a profile's (`deepseek`: OpenAI's profile, its own strict one), with one line
/// each, in registry order. All of it read from the registry.
pub fn provider_lines() -> Vec<(&'static str, String)> {
    let mut lines: Vec<(&'static str, String)> = Vec::new();
    for p in PROVIDERS {
        if provider_rules::profile(p.name).is_none() {
            let roles: Vec<String> = p
                .profiles()
                .map(|(role, r)| format!("{} ({})", r.name(), role_name(role)))
                .collect();
            lines.push((
                p.name,
                format!("{}; profiles: {}", p.description, roles.join(", ")),
            ));
        }
        for (_, rules) in p.profiles() {
            let name = rules.name();
            if !lines.iter().any(|(n, _)| *n == name) {
                lines.push((name, description(rules)));
            }
        }
    }
    lines
}

/// One line about a built-in profile: its provider's description, its role there and what
/// its rules do ([`Rules::traits`]).
pub fn description(rules: &Rules) -> String {
    let traits = rules.traits().join(", ");
    match provider_rules::family(rules) {
        Some((p, role)) => format!("{} [{}] {traits}", p.description, role_name(role)),
        None => format!("a custom profile: {traits}"),
    }
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::Native => "native",
        Role::JsonSchema => "JSON-Schema slots",
        Role::Strict => "strict",
    }
}

/// The names of the built-in profiles, comma-separated (for error messages).
pub fn names_list() -> String {
    provider_rules::profile_names()
        .collect::<Vec<_>>()
        .join(", ")
}

/// A built-in profile by name, or an error listing the valid names.
pub fn builtin(name: &str) -> Result<&'static Rules, CliError> {
    let name = super::names::resolve(
        "provider",
        name,
        provider_rules::profile_names(),
        " (run `toolschema providers` for a description of each)",
    )?;
    provider_rules::profile(name).ok_or_else(|| {
        CliError::usage(format!(
            "unknown provider {name:?}; valid providers: {} (run `toolschema providers` for a description of each)",
            names_list()
        ))
    })
}

/// The profile a command applies.
#[derive(Debug, Clone)]
pub enum Choice {
    /// A built-in profile.
    Builtin(&'static Rules),
    /// A provider whose name is not a profile's (`deepseek`): its profiles by role.
    Provider(&'static Provider),
    /// A custom profile loaded from a file.
    Custom(Box<Rules>),
}

impl Choice {
    /// From `--provider NAME` and `--rules FILE` (at least one must be given; `--rules` wins).
    /// `NAME` is a built-in profile or a provider of the registry.
    pub fn from_args(provider: Option<&str>, rules: Option<&Path>) -> Result<Choice, CliError> {
        match (provider, rules) {
            (_, Some(path)) => Ok(Choice::Custom(Box::new(load_rules(path)?))),
            (Some(name), None) => match provider_rules::provider(name) {
                Some(p) if provider_rules::profile(name).is_none() => Ok(Choice::Provider(p)),
                _ => Ok(Choice::Builtin(builtin(name)?)),
            },
            (None, None) => Err(CliError::usage(format!(
                "no profile chosen: pass --provider NAME (one of: {}) or --rules FILE",
                names_list()
            ))),
        }
    }

    /// The rules (a provider's native ones).
    pub fn rules(&self) -> &Rules {
        match self {
            Choice::Builtin(r) => r,
            Choice::Provider(p) => p.native,
            Choice::Custom(r) => r,
        }
    }

    /// The profile's name.
    pub fn name(&self) -> &str {
        self.rules().name()
    }

    /// The profiles the request-body sanitizer applies, by the profile's provider
    /// ([`Profiles::for_profile`]): a provider's native profile, or a custom profile that
    /// `extends` one, takes the provider's companions (Gemini's `*JsonSchema` slots take
    /// `gemini-jsonschema`, tools marked `strict` the strict profile); a strict or JSON-Schema
    /// profile, or one extending nothing, applies to every slot.
    pub fn profiles(&self) -> Profiles {
        match self {
            Choice::Builtin(r) => Profiles::for_profile(
                Profile::builtin(r.name())
                    .unwrap_or_else(|| Profile::custom(r.name().to_owned(), (*r).clone())),
            ),
            Choice::Provider(p) => Profiles::of_provider(p),
            Choice::Custom(r) => {
                Profiles::for_profile(Profile::custom(r.name().to_owned(), (**r).clone()))
            }
        }
    }

    /// The rules of a profile named in a body report: this choice's own, or a built-in.
    pub fn rules_named(&self, name: &str) -> Option<&Rules> {
        if name == self.name() {
            return Some(self.rules());
        }
        provider_rules::profile(name)
    }
}

/// Loads a custom profile from a TOML or JSON file (by extension; content-sniffed otherwise).
pub fn load_rules(path: &Path) -> Result<Rules, CliError> {
    let shown = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| {
        CliError::usage(format!(
            "cannot read the rules file {shown}: {e} (pass a TOML or JSON profile, e.g. one written by `toolschema rules gemini --format toml`)"
        ))
    })?;
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let json = match ext.as_deref() {
        Some("json") => true,
        Some("toml") => false,
        _ => text.trim_start().starts_with('{'),
    };
    let loaded = if json {
        Rules::from_json(&text)
    } else {
        Rules::from_toml(&text)
    };
    loaded.map_err(|e| {
        CliError::usage(format!(
            "the rules file {shown} is not a valid profile: {e} (start from `toolschema rules gemini --format toml`, or write `extends = \"gemini\"` plus the fields to override)"
        ))
    })
}
