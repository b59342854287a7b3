//! The provider registry: one [`Provider`] per file, and [`PROVIDERS`], the one list that
//! names them. Every field of a profile that differs from [`Rules::PERMISSIVE`] carries a
//! comment citing the provider error it prevents (providers.md, the research notes the crate
//! was written from).
//!
//! Everything else reads this list: the checker's error texts, the tower layer's profiles
//! and `auto` routing, the CLI's `providers` and `matrix`. See the crate docs, "Adding a
//! provider".

mod registry;

pub use registry::{Carries, ErrorText, Provider, Role};

/// Declares each provider's module and lists it in [`PROVIDERS`]: one line per provider.
macro_rules! providers {
    ($($module:ident => $name:ident,)*) => {
        $(mod $module;)*

        /// Every provider, in the order `toolschema providers` lists them. Adding a provider
        /// is one file in this directory and one line in this list.
        ///
        /// ```
        /// assert_eq!(provider_rules::PROVIDERS[0].name, "gemini");
        /// ```
        pub const PROVIDERS: &[&Provider] = &[$(&Provider::$name),*];
    };
}

providers! {
    gemini => GEMINI,
    code_assist => GEMINI_CODE_ASSIST,
    vertex => VERTEX,
    openai => OPENAI,
    anthropic => ANTHROPIC,
    xai => XAI,
    bedrock => BEDROCK,
    portable => PORTABLE,
    mistral => MISTRAL,
    groq => GROQ,
    deepseek => DEEPSEEK,
    ollama => OLLAMA,
    cohere => COHERE,
    azure_openai => AZURE_OPENAI,
}

use crate::rules::*;
use std::borrow::Cow;

impl Rules {
    /// The default every profile starts from: plain JSON Schema, nothing rewritten.
    pub const PERMISSIVE: Rules = Rules {
        name: Cow::Borrowed("permissive"),
        extends: None,
        keywords: KeywordSet::ALL,
        unknown_keywords: true,
        type_lists: TypeLists::Keep,
        null_style: NullStyle::TypeList,
        null_type: true,
        unions: Unions::Keep,
        enums: Enums::Any,
        empty_string_enum: true,
        stringify_enums: false,
        refs: Refs::Keep,
        tuples: Tuples::Keep,
        missing_items: MissingItems::Keep,
        type_required: false,
        any_value: None,
        draft_2020: false,
        keywords_on_own_type_only: false,
        additional_properties: AdditionalProperties::Keep,
        boolean_schemas: true,
        property_named_properties: true,
        formats: None,
        forbidden_pattern_syntax: None,
        property_keys: None,
        required_defined: false,
        empty_properties: true,
        wrap_bare_properties: false,
        type_names_any_case: false,
        tool_limit: None,
        repair_property_maps: false,
        promote_boolean_required: false,
        default_beside_any_of: true,
        root: Root::ANY,
        strict: false,
        all_required: true,
        encodings: crate::encode::Encodings::NONE,
        request_limits: RequestLimits {
            strict_tools: None,
            optional_parameters: None,
            union_parameters: None,
            fields: None,
        },
        limits: Limits {
            max_depth: None,
            max_properties: None,
            max_enum_values: None,
            max_string_chars: None,
            max_min_items: None,
        },
        tool_names: ToolNameRule {
            first_extra: Cow::Borrowed("_-"),
            first_digit: true,
            rest_extra: Cow::Borrowed("_-"),
            max_len: 64,
        },
        hints: true,
    };
}

const PROFILE_COUNT: usize = registry::count_profiles(PROVIDERS);
/// A `static`, not a `const`: each use of a `const` may hold its own copy of every profile,
/// and the engine finds its plans made once per built-in profile by the profile's address
/// (a copy in another crate missed them, and every call paid for a new plan).
static ALL_PROFILES: [&Rules; PROFILE_COUNT] = registry::collect_profiles(PROVIDERS);

/// Every built-in profile, each once, in the order of [`PROVIDERS`] (a provider's native,
/// JSON-Schema and strict profiles). Derived from the registry: a new provider's profiles are
/// in it without another line.
///
/// ```
/// assert!(provider_rules::PROFILES.iter().any(|r| r.name() == "groq-strict"));
/// ```
pub static PROFILES: &[&Rules] = &ALL_PROFILES;

/// A built-in profile by name (`gemini`, `openai-strict`, ...).
///
/// ```
/// assert_eq!(provider_rules::profile("gemini").unwrap().name(), "gemini");
/// assert!(provider_rules::profile("nope").is_none());
/// ```
pub fn profile(name: &str) -> Option<&'static Rules> {
    PROFILES.iter().copied().find(|r| r.name == name)
}

/// [`PROVIDERS`] as a `static` (see [`ALL_PROFILES`]): a provider from [`provider`] has one
/// address, by which the engine finds its roles' plans.
pub(crate) static BUILT_IN_PROVIDERS: &[&Provider] = PROVIDERS;

/// The names of the built-in profiles.
///
/// ```
/// assert_eq!(provider_rules::profile_names().next(), Some("gemini"));
/// ```
pub fn profile_names() -> impl Iterator<Item = &'static str> {
    PROFILES.iter().map(|r| r.name())
}

/// A provider by name (`gemini`, `openai`, `azure-openai`, ...).
///
/// ```
/// let p = provider_rules::provider("groq").unwrap();
/// assert_eq!(p.strict.map(|r| r.name()), Some("groq-strict"));
/// assert!(provider_rules::provider("nope").is_none());
/// ```
pub fn provider(name: &str) -> Option<&'static Provider> {
    BUILT_IN_PROVIDERS.iter().copied().find(|p| p.name == name)
}

/// The names of the providers.
///
/// ```
/// assert!(provider_rules::provider_names().any(|n| n == "ollama"));
/// ```
pub fn provider_names() -> impl Iterator<Item = &'static str> {
    PROVIDERS.iter().map(|p| p.name)
}

/// The provider a profile belongs to and its role there, found by the profile's
/// [`base`](Rules::base): a custom profile with `extends = "gemini"` belongs to Gemini as its
/// native profile whatever its name. A profile several providers share (`gemini-jsonschema`,
/// `openai`) belongs to the first that lists it. `None` for a profile extending nothing.
///
/// ```
/// use provider_rules::{Role, Rules, family};
/// let corp = Rules::from_toml("extends = \"gemini\"\nname = \"corp\"")?;
/// let (p, role) = family(&corp).unwrap();
/// assert_eq!((p.name, role), ("gemini", Role::Native));
/// assert_eq!(family(&Rules::OPENAI_STRICT).map(|(p, r)| (p.name, r)), Some(("openai", Role::Strict)));
/// # Ok::<(), provider_rules::RulesError>(())
/// ```
pub fn family(rules: &Rules) -> Option<(&'static Provider, Role)> {
    let base = rules.base();
    PROVIDERS
        .iter()
        .find_map(|p| p.role_of(base).map(|role| (*p, role)))
}

/// The provider's own error text for a check rule, by the profile's [`family`] (where many
/// rules are asked about, [`ErrorTexts`] finds the family once).
pub(crate) fn provider_error(rules: &Rules, rule: crate::RuleId) -> Option<&'static str> {
    family(rules)?.0.error_text(rule.as_str())
}

/// The error texts of one profile's provider: [`provider_error`] with the profile's
/// [`family`] found once, the first time a text is asked for.
pub(crate) struct ErrorTexts<'r> {
    rules: &'r Rules,
    provider: std::cell::OnceCell<Option<&'static Provider>>,
}

impl<'r> ErrorTexts<'r> {
    /// The texts of `rules`' provider (not yet looked up).
    pub(crate) fn new(rules: &'r Rules) -> ErrorTexts<'r> {
        ErrorTexts {
            rules,
            provider: std::cell::OnceCell::new(),
        }
    }

    /// The provider's text for `rule`.
    pub(crate) fn get(&self, rule: crate::RuleId) -> Option<&'static str> {
        (*self
            .provider
            .get_or_init(|| family(self.rules).map(|(p, _)| p)))?
        .error_text(rule.as_str())
    }
}
