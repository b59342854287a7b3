//! Profiles (a named `provider_rules::Rules`) and the set of profiles a target applies per slot.
//!
//! ```
//! use tower_toolschema::{Profile, Profiles};
//!
//! let gemini = Profile::builtin("gemini").unwrap();
//! assert_eq!(gemini.name(), "gemini");
//!
//! // Gemini's `parameters` (Schema proto) and `parametersJsonSchema` take different profiles.
//! let set = Profiles::gemini();
//! assert_eq!(set.native.name(), "gemini");
//! assert_eq!(set.json_schema.name(), "gemini-jsonschema");
//! assert_eq!(Profiles::openai().strict.map(|p| p.name().to_owned()).as_deref(), Some("openai-strict"));
//! ```

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::report::Change;
use crate::sanitizer::{SchemaSlot, SlotOutcome};
use crate::shapes::{Dialect, Family};

/// The names of the built-in profiles, in a fixed order (their cache ids).
pub(crate) const BUILTIN: [&str; 11] = [
    "gemini",
    "gemini-code-assist",
    "gemini-jsonschema",
    "vertex",
    "openai",
    "openai-strict",
    "anthropic",
    "anthropic-strict",
    "xai",
    "bedrock",
    "portable",
];

#[derive(Clone)]
enum RulesRef {
    Static(&'static provider_rules::Rules),
    Owned(Arc<provider_rules::Rules>),
}

/// A profile: the rules of one provider dialect, with a name for reports.
///
/// Cheap to clone. See the [module docs](crate::profile) for an example.
#[derive(Clone)]
pub struct Profile {
    name: Cow<'static, str>,
    /// Identity for the cache: built-ins by index, custom profiles unique per construction.
    id: u64,
    rules: RulesRef,
}

impl fmt::Debug for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Profile")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

impl PartialEq for Profile {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

impl Eq for Profile {}

impl Profile {
    /// A built-in profile by name: `"gemini"`, `"gemini-code-assist"`, `"gemini-jsonschema"`,
    /// `"vertex"`, `"openai"`, `"openai-strict"`, `"anthropic"`, `"anthropic-strict"`, `"xai"`,
    /// `"bedrock"`, `"portable"`.
    ///
    /// See the [module docs](crate::profile) for an example.
    pub fn builtin(name: &str) -> Option<Profile> {
        let idx = BUILTIN.iter().position(|n| *n == name)?;
        let rules = provider_rules::profile(name)?;
        Some(Profile {
            name: Cow::Borrowed(BUILTIN[idx]),
            id: idx as u64 + 1,
            rules: RulesRef::Static(rules),
        })
    }

    /// A custom profile from `rules` (e.g. `Rules { ..Rules::GEMINI }` with one field changed).
    ///
    /// ```
    /// use tower_toolschema::Profile;
    /// let p = Profile::custom("my-gemini", provider_rules::Rules::GEMINI);
    /// assert_eq!(p.name(), "my-gemini");
    /// assert_ne!(p, Profile::builtin("gemini").unwrap());
    /// ```
    pub fn custom(name: impl Into<Cow<'static, str>>, rules: provider_rules::Rules) -> Profile {
        static NEXT: AtomicU64 = AtomicU64::new(1 << 32);
        Profile {
            name: name.into(),
            id: NEXT.fetch_add(1, Ordering::Relaxed),
            rules: RulesRef::Owned(Arc::new(rules)),
        }
    }

    /// The profile's name.
    ///
    /// See the [module docs](crate::profile) for an example.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The profile's rules.
    ///
    /// ```
    /// let p = tower_toolschema::Profile::builtin("openai").unwrap();
    /// let _rules: &provider_rules::Rules = p.rules();
    /// ```
    pub fn rules(&self) -> &provider_rules::Rules {
        match &self.rules {
            RulesRef::Static(r) => r,
            RulesRef::Owned(r) => r,
        }
    }

    pub(crate) fn id(&self) -> u64 {
        self.id
    }

    /// A built-in that is known to exist (the names in [`BUILTIN`]).
    pub(crate) fn known(name: &'static str) -> Profile {
        match Profile::builtin(name) {
            Some(p) => p,
            None => Profile::custom(name, provider_rules::Rules::PORTABLE),
        }
    }
}

/// The profiles one target applies: per slot dialect, and for tools that ask for strict mode.
///
/// See the [module docs](crate::profile) for an example.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Profiles {
    /// For the provider's own dialect (`parameters`, `input_schema`, `responseSchema`, ...).
    pub native: Profile,
    /// For Gemini's `*JsonSchema` slots.
    pub json_schema: Profile,
    /// For tools and formats marked `strict: true`, if the provider has a strict mode.
    pub strict: Option<Profile>,
}

impl Profiles {
    /// One profile for every slot.
    ///
    /// ```
    /// use tower_toolschema::{Profile, Profiles};
    /// let set = Profiles::single(Profile::builtin("portable").unwrap());
    /// assert_eq!(set.json_schema.name(), "portable");
    /// ```
    pub fn single(profile: Profile) -> Profiles {
        Profiles {
            native: profile.clone(),
            json_schema: profile,
            strict: None,
        }
    }

    /// Gemini API: `gemini` for Schema-proto slots, `gemini-jsonschema` for `*JsonSchema`.
    pub fn gemini() -> Profiles {
        Profiles {
            native: Profile::known("gemini"),
            json_schema: Profile::known("gemini-jsonschema"),
            strict: None,
        }
    }

    /// Gemini Code Assist / Antigravity (`v1internal`).
    pub fn gemini_code_assist() -> Profiles {
        Profiles {
            native: Profile::known("gemini-code-assist"),
            json_schema: Profile::known("gemini-jsonschema"),
            strict: None,
        }
    }

    /// Vertex AI Gemini.
    pub fn vertex() -> Profiles {
        Profiles {
            native: Profile::known("vertex"),
            json_schema: Profile::known("gemini-jsonschema"),
            strict: None,
        }
    }

    /// OpenAI: `openai`, `openai-strict` for strict tools.
    pub fn openai() -> Profiles {
        Profiles {
            strict: Some(Profile::known("openai-strict")),
            ..Profiles::single(Profile::known("openai"))
        }
    }

    /// Anthropic: `anthropic`, `anthropic-strict` for strict tools.
    pub fn anthropic() -> Profiles {
        Profiles {
            strict: Some(Profile::known("anthropic-strict")),
            ..Profiles::single(Profile::known("anthropic"))
        }
    }

    /// xAI (always strict-like; one profile).
    pub fn xai() -> Profiles {
        Profiles::single(Profile::known("xai"))
    }

    /// Amazon Bedrock.
    pub fn bedrock() -> Profiles {
        Profiles::single(Profile::known("bedrock"))
    }

    /// The portable subset every provider accepts.
    pub fn portable() -> Profiles {
        Profiles::single(Profile::known("portable"))
    }

    /// The default profiles of a provider family.
    ///
    /// ```
    /// use tower_toolschema::{Profiles, shapes::Family};
    /// assert_eq!(Profiles::for_family(Family::Vertex).native.name(), "vertex");
    /// ```
    pub fn for_family(family: Family) -> Profiles {
        match family {
            Family::OpenAi => Profiles::openai(),
            Family::Anthropic => Profiles::anthropic(),
            Family::Gemini => Profiles::gemini(),
            Family::CodeAssist => Profiles::gemini_code_assist(),
            Family::Vertex => Profiles::vertex(),
            Family::Xai => Profiles::xai(),
            Family::Bedrock => Profiles::bedrock(),
        }
    }

    /// The profile for a slot of `dialect`; `strict` when the tool asked for strict mode.
    /// Returns the profile and whether it is the strict one.
    pub(crate) fn pick(&self, dialect: Dialect, strict: bool) -> (&Profile, bool) {
        match (dialect, strict, &self.strict) {
            (Dialect::JsonSchema, _, _) => (&self.json_schema, false),
            (Dialect::Native, true, Some(s)) => (s, true),
            (Dialect::Native, _, _) => (&self.native, false),
        }
    }
}

pub(crate) fn engine_slot(slot: SchemaSlot) -> provider_rules::Slot {
    match slot {
        SchemaSlot::Parameters => provider_rules::Slot::Parameters,
        SchemaSlot::Schema => provider_rules::Slot::Schema,
    }
}

/// The provider-rules-backed sanitizing of one slot.
pub(crate) fn sanitize_with_rules(
    schema: &[u8],
    profile: &Profile,
    slot: SchemaSlot,
) -> Result<SlotOutcome, String> {
    // Parsed and sanitized in one step, so what the parser cut at its depth limit is reported.
    let out = provider_rules::sanitize_slice(schema, profile.rules(), engine_slot(slot))
        .map_err(|e| e.to_string())?;
    let strict_compatible = out.report.strict_compatible;
    let unfixable: Vec<String> = out.report.unfixable.iter().map(|v| v.to_string()).collect();
    let cost = if profile.rules().request_limits.is_limited() {
        provider_rules::strict_cost(&out.schema)
    } else {
        provider_rules::StrictCost::default()
    };
    if out.report.is_empty() {
        return Ok(SlotOutcome::unchanged()
            .strict_compatible(strict_compatible)
            .unfixable(unfixable)
            .strict_cost(cost));
    }
    let changes = out
        .report
        .changes
        .into_iter()
        .map(|c| Change {
            pointer: c.pointer,
            rule: c.rule,
            message: c.message,
            lossy: c.lossy,
        })
        .collect();
    Ok(
        SlotOutcome::rewritten(out.schema.to_json_string().into_bytes(), changes)
            .strict_compatible(strict_compatible)
            .unfixable(unfixable)
            .strict_cost(cost)
            .decoder(out.decoder),
    )
}

pub(crate) fn check_tool_name_with_rules(name: &str, profile: &Profile) -> Option<String> {
    provider_rules::check_tool_name(name, profile.rules()).map(|v| v.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_name_resolves_to_its_rules() {
        for name in BUILTIN {
            let p = Profile::builtin(name)
                .unwrap_or_else(|| panic!("{name} missing from provider_rules"));
            assert_eq!(p.rules().name(), name);
            assert_eq!(Profile::known(name), p);
        }
        assert!(Profile::builtin("nope").is_none());
    }
}
