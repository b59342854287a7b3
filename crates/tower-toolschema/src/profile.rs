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

use provider_rules::{PROFILES, Provider, Role};

use crate::shapes::Dialect;

#[derive(Clone)]
enum RulesRef {
    Static(&'static provider_rules::Rules),
    Owned(Arc<provider_rules::Rules>),
}

/// A profile: the rules of one provider dialect, with a name for reports.
///
/// Cheap to clone.
///
/// ```
/// use tower_toolschema::Profile;
/// let strict = Profile::builtin("anthropic-strict").unwrap();
/// assert_eq!(strict.name(), "anthropic-strict");
/// assert_eq!(strict.clone(), strict);
/// assert_ne!(strict, Profile::builtin("anthropic").unwrap());
/// ```
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
    /// A built-in profile by name: one of [`provider_rules::PROFILES`] (`"gemini"`,
    /// `"openai-strict"`, `"groq"`, ...); `None` for any other name.
    ///
    /// ```
    /// use tower_toolschema::Profile;
    /// assert_eq!(Profile::builtin("openai-strict").unwrap().rules().name(), "openai-strict");
    /// assert!(Profile::builtin("gemnii").is_none());
    /// ```
    pub fn builtin(name: &str) -> Option<Profile> {
        let idx = PROFILES.iter().position(|r| r.name() == name)?;
        Some(Profile::indexed(idx))
    }

    /// The built-in profile at `idx` in [`PROFILES`]; its cache id is its index.
    fn indexed(idx: usize) -> Profile {
        let rules = PROFILES[idx];
        Profile {
            name: rules.name.clone(),
            id: idx as u64 + 1,
            rules: RulesRef::Static(rules),
        }
    }

    /// The profile of registry rules (a provider's role): the built-in of that name.
    pub(crate) fn of(rules: &'static provider_rules::Rules) -> Profile {
        match PROFILES
            .iter()
            .position(|r| std::ptr::eq(*r, rules) || r.name == rules.name)
        {
            Some(idx) => Profile::indexed(idx),
            // Not reached for the registry's own values; a static `Rules` outside the
            // registry is still applied as it is, under its own name.
            None => Profile::custom(rules.name.clone(), rules.clone()),
        }
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
    /// ```
    /// let corp = tower_toolschema::Profile::custom("corp", provider_rules::Rules::PORTABLE);
    /// assert_eq!(corp.name(), "corp");
    /// ```
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
}

/// The profiles one target applies: per slot dialect, and for tools that ask for strict mode.
///
/// ```
/// use tower_toolschema::Profiles;
/// let set = Profiles::anthropic();
/// assert_eq!(set.native.name(), "anthropic");
/// assert_eq!(set.strict.as_ref().map(|p| p.name()), Some("anthropic-strict"));
/// ```
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

    /// A provider's profiles, by role: native, JSON-Schema slots (the native one where the
    /// provider has none), strict tools.
    ///
    /// ```
    /// use tower_toolschema::Profiles;
    /// let groq = Profiles::of_provider(provider_rules::provider("groq").unwrap());
    /// assert_eq!(groq.native.name(), "groq");
    /// assert_eq!(groq.strict.unwrap().name(), "groq-strict");
    /// ```
    pub fn of_provider(provider: &'static Provider) -> Profiles {
        Profiles {
            native: Profile::of(provider.native),
            json_schema: Profile::of(provider.json_schema()),
            strict: provider.strict.map(Profile::of),
        }
    }

    /// A provider's profiles by its name (one of [`provider_rules::PROVIDERS`]).
    ///
    /// ```
    /// use tower_toolschema::Profiles;
    /// assert_eq!(Profiles::for_provider("vertex")?.json_schema.name(), "gemini-jsonschema");
    /// let err = Profiles::for_provider("gemnii").unwrap_err();
    /// assert!(err.to_string().contains("gemini"));
    /// # Ok::<(), tower_toolschema::UnknownProvider>(())
    /// ```
    pub fn for_provider(name: &str) -> Result<Profiles, UnknownProvider> {
        provider_rules::provider(name)
            .map(Profiles::of_provider)
            .ok_or_else(|| UnknownProvider(name.to_owned()))
    }

    /// The profiles that go with one profile, by its provider ([`provider_rules::family`]):
    /// a provider's native profile, or a custom one that `extends` it, takes that provider's
    /// JSON-Schema and strict companions; any other profile (a strict or JSON-Schema one, or
    /// one extending nothing) applies to every slot.
    ///
    /// ```
    /// use tower_toolschema::{Profile, Profiles};
    /// let corp = provider_rules::Rules::from_toml("extends = \"gemini\"\nname = \"corp\"").unwrap();
    /// let set = Profiles::for_profile(Profile::custom("corp", corp));
    /// assert_eq!(set.native.name(), "corp");
    /// assert_eq!(set.json_schema.name(), "gemini-jsonschema");
    /// let strict = Profiles::for_profile(Profile::builtin("openai-strict").unwrap());
    /// assert_eq!(strict.native.name(), "openai-strict");
    /// assert!(strict.strict.is_none());
    /// ```
    pub fn for_profile(profile: Profile) -> Profiles {
        match provider_rules::family(profile.rules()) {
            Some((provider, Role::Native)) => Profiles {
                native: profile,
                ..Profiles::of_provider(provider)
            },
            _ => Profiles::single(profile),
        }
    }

    /// Gemini API: `gemini` for Schema-proto slots, `gemini-jsonschema` for `*JsonSchema`.
    ///
    /// ```
    /// let set = tower_toolschema::Profiles::gemini();
    /// assert_eq!(set.native.name(), "gemini");
    /// assert_eq!(set.json_schema.name(), "gemini-jsonschema");
    /// ```
    pub fn gemini() -> Profiles {
        Profiles::of_provider(&Provider::GEMINI)
    }

    /// Gemini Code Assist / Antigravity (`v1internal`).
    ///
    /// ```
    /// let set = tower_toolschema::Profiles::gemini_code_assist();
    /// assert_eq!(set.native.name(), "gemini-code-assist");
    /// assert_eq!(set.json_schema.name(), "gemini-jsonschema");
    /// ```
    pub fn gemini_code_assist() -> Profiles {
        Profiles::of_provider(&Provider::GEMINI_CODE_ASSIST)
    }

    /// Vertex AI Gemini.
    ///
    /// ```
    /// let set = tower_toolschema::Profiles::vertex();
    /// assert_eq!(set.native.name(), "vertex");
    /// assert!(set.strict.is_none());
    /// ```
    pub fn vertex() -> Profiles {
        Profiles::of_provider(&Provider::VERTEX)
    }

    /// OpenAI: `openai`, `openai-strict` for strict tools.
    ///
    /// ```
    /// let set = tower_toolschema::Profiles::openai();
    /// assert_eq!(set.native.name(), "openai");
    /// assert_eq!(set.strict.map(|p| p.name().to_owned()).as_deref(), Some("openai-strict"));
    /// ```
    pub fn openai() -> Profiles {
        Profiles::of_provider(&Provider::OPENAI)
    }

    /// Anthropic: `anthropic`, `anthropic-strict` for strict tools.
    ///
    /// ```
    /// let set = tower_toolschema::Profiles::anthropic();
    /// assert_eq!(set.native.name(), "anthropic");
    /// assert_eq!(set.json_schema.name(), "anthropic");
    /// ```
    pub fn anthropic() -> Profiles {
        Profiles::of_provider(&Provider::ANTHROPIC)
    }

    /// xAI (always strict-like; one profile).
    ///
    /// ```
    /// let set = tower_toolschema::Profiles::xai();
    /// assert_eq!(set.native.name(), "xai");
    /// assert!(set.strict.is_none());
    /// ```
    pub fn xai() -> Profiles {
        Profiles::of_provider(&Provider::XAI)
    }

    /// Amazon Bedrock.
    ///
    /// ```
    /// let set = tower_toolschema::Profiles::bedrock();
    /// assert_eq!(set.native.name(), "bedrock");
    /// assert!(set.strict.is_none());
    /// ```
    pub fn bedrock() -> Profiles {
        Profiles::of_provider(&Provider::BEDROCK)
    }

    /// The portable subset every provider accepts.
    ///
    /// ```
    /// let set = tower_toolschema::Profiles::portable();
    /// assert_eq!(set.native.name(), "portable");
    /// assert_eq!(set.json_schema.name(), "portable");
    /// ```
    pub fn portable() -> Profiles {
        Profiles::of_provider(&Provider::PORTABLE)
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

/// A provider name that is not in the registry ([`provider_rules::PROVIDERS`]).
///
/// ```
/// let err = tower_toolschema::ToolSchemaLayer::for_provider("opneai").unwrap_err();
/// assert_eq!(err.name(), "opneai");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownProvider(String);

impl UnknownProvider {
    /// The name asked for.
    ///
    /// ```
    /// use tower_toolschema::Profiles;
    /// assert_eq!(Profiles::for_provider("gemnii").unwrap_err().name(), "gemnii");
    /// ```
    pub fn name(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for UnknownProvider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown provider {:?}; known providers: ", self.0)?;
        for (i, name) in provider_rules::provider_names().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(name)?;
        }
        Ok(())
    }
}

impl std::error::Error for UnknownProvider {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_name_resolves_to_its_rules() {
        for rules in PROFILES {
            let p = Profile::builtin(rules.name()).expect("a registry profile");
            assert_eq!(p.rules(), *rules);
            assert_eq!(Profile::of(rules), p);
        }
        assert!(Profile::builtin("nope").is_none());
    }

    /// The engine finds the plans it made once per built-in profile by the profile's
    /// address: a profile of this crate must be the registry's own value, not a copy.
    #[test]
    fn a_builtin_profile_is_the_registrys_own_value() {
        for name in provider_rules::profile_names() {
            let ours = Profile::builtin(name).expect("a registry profile");
            let theirs = provider_rules::profile(name).expect("a registry profile");
            assert!(std::ptr::eq(ours.rules(), theirs), "{name}: a copy");
        }
        for set in [Profiles::gemini(), Profiles::openai(), Profiles::bedrock()] {
            for p in [
                Some(&set.native),
                Some(&set.json_schema),
                set.strict.as_ref(),
            ]
            .into_iter()
            .flatten()
            {
                let theirs = provider_rules::profile(p.name()).expect("a registry profile");
                assert!(std::ptr::eq(p.rules(), theirs), "{}: a copy", p.name());
            }
        }
    }

    #[test]
    fn a_mistyped_provider_is_an_error_not_a_portable_profile() {
        let err = Profiles::for_provider("gemnii").unwrap_err();
        assert_eq!(err.name(), "gemnii");
        assert!(err.to_string().contains("gemini, gemini-code-assist"));
    }
}
