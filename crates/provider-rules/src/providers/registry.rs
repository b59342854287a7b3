//! What a provider is, as data: [`Provider`], its profiles by [`Role`], its error texts.

use crate::rules::{RequestLimits, Rules, ToolNameRule};
use std::borrow::Cow;

/// One LLM provider: everything the crates and the CLI need to know of it, in one value,
/// defined in one file under `providers/` and named once more in [`PROVIDERS`](crate::PROVIDERS).
///
/// ```
/// let gemini = provider_rules::provider("gemini").unwrap();
/// assert_eq!(gemini.native.name(), "gemini");
/// assert_eq!(gemini.json_schema().name(), "gemini-jsonschema");
/// assert!(gemini.models.contains(&"gemini"));
/// assert_eq!(
///     gemini.error_text("type-list"),
///     Some("Proto field is not repeating, cannot start list.")
/// );
/// ```
#[derive(Debug)]
pub struct Provider {
    /// The provider's name (`gemini`, `azure-openai`, ...): what `--provider` and
    /// `ToolSchemaLayer::for_provider` take.
    pub name: &'static str,
    /// One line on what the provider is: its API and the slots its profiles serve. What the
    /// rules do is said by [`Provider::traits`], derived from the rules themselves.
    pub description: &'static str,
    /// The profile of the provider's own schema slots (`parameters`, `input_schema`, ...).
    pub native: &'static Rules,
    /// The profile of JSON-Schema slots where the API has both (Gemini's `*JsonSchema`);
    /// `None`: the native profile serves them.
    pub json_schema: Option<&'static Rules>,
    /// The profile of tools and response formats marked `strict`; `None`: no strict mode
    /// (strict tools take the native profile).
    pub strict: Option<&'static Rules>,
    /// Model-name prefixes (lower case) that identify the provider on an OpenAI-compatible
    /// gateway (`gemini` for `gemini-2.5-pro`).
    pub models: &'static [&'static str],
    /// The vendor part of OpenRouter-style `vendor/model` names (`x-ai` in `x-ai/grok-4`).
    pub vendors: &'static [&'static str],
    /// Hosts that identify the provider: the domain itself and every subdomain (`x.ai`
    /// matches `api.x.ai`).
    pub hosts: &'static [&'static str],
    /// The APIs (by the tower layer's `Api::name()`) whose requests take this provider's
    /// profiles by default: its own API and the vendor copies of it (Gemini's count-tokens
    /// and cached-contents bodies, Vertex's OpenAI-compatible endpoint...). Where those APIs
    /// sit in bodies is the layer's shape table.
    pub apis: &'static [&'static str],
    /// Whether requests to this provider's APIs may carry other providers' models, and then
    /// take those providers' profiles (by [`models`](Provider::models),
    /// [`vendors`](Provider::vendors) and [`hosts`](Provider::hosts)).
    pub carries: Carries,
    /// The provider's own error texts by rule: what a user searching for their 400 will
    /// recognise (the checker's `provider_error`).
    pub errors: &'static [ErrorText],
}

/// Which other providers' models a provider's APIs carry (see [`Provider::carries`]).
///
/// ```
/// use provider_rules::provider;
/// assert!(provider("openai").unwrap().carries.allows("xai"));
/// assert!(!provider("gemini").unwrap().carries.allows("anthropic"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Carries {
    /// Only its own (Gemini's API serves Gemini models).
    Own,
    /// Any provider's (OpenAI-compatible gateways serve every vendor's models), recognised by
    /// host and model.
    Any,
    /// These providers' models, recognised by model only (Code Assist's Antigravity serves
    /// Claude).
    Only(&'static [&'static str]),
}

impl Carries {
    /// Whether requests may be routed to the provider `name`.
    pub fn allows(self, name: &str) -> bool {
        match self {
            Carries::Own => false,
            Carries::Any => true,
            Carries::Only(names) => names.contains(&name),
        }
    }
}

/// One of a provider's error texts, and the rules (`check`'s rule ids) it answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ErrorText {
    /// The rule ids (`type-list`, `items-missing`, ...).
    pub rules: &'static [&'static str],
    /// The provider's text, as public 400s show it.
    pub text: &'static str,
}

/// The role a profile plays for its provider.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// The provider's own schema slots.
    Native,
    /// JSON-Schema slots (Gemini's `*JsonSchema`).
    JsonSchema,
    /// Tools and formats marked `strict`.
    Strict,
}

impl Provider {
    /// The profile of JSON-Schema slots: [`json_schema`](Provider::json_schema), else the
    /// native one.
    pub fn json_schema(&self) -> &'static Rules {
        self.json_schema.unwrap_or(self.native)
    }

    /// The provider's profiles with their roles: native, then JSON-Schema and strict where it
    /// has them.
    ///
    /// ```
    /// let names: Vec<_> = provider_rules::provider("openai").unwrap()
    ///     .profiles().map(|(_, r)| r.name()).collect();
    /// assert_eq!(names, ["openai", "openai-strict"]);
    /// ```
    pub fn profiles(&self) -> impl Iterator<Item = (Role, &'static Rules)> {
        [
            Some((Role::Native, self.native)),
            self.json_schema.map(|r| (Role::JsonSchema, r)),
            self.strict.map(|r| (Role::Strict, r)),
        ]
        .into_iter()
        .flatten()
    }

    /// The role of the profile named `name` here, if it is one of the provider's.
    pub fn role_of(&self, name: &str) -> Option<Role> {
        self.profiles()
            .find(|(_, r)| r.name == name)
            .map(|(role, _)| role)
    }

    /// The profile of `role` (the native one where the provider has none for it).
    pub fn profile(&self, role: Role) -> &'static Rules {
        match role {
            Role::Native => self.native,
            Role::JsonSchema => self.json_schema(),
            Role::Strict => self.strict.unwrap_or(self.native),
        }
    }

    /// The provider's error text for a rule, if it has one.
    pub fn error_text(&self, rule: &str) -> Option<&'static str> {
        self.errors
            .iter()
            .find(|e| e.rules.contains(&rule))
            .map(|e| e.text)
    }

    /// The provider's tool-name rule (its native profile's).
    ///
    /// ```
    /// assert_eq!(provider_rules::provider("anthropic").unwrap().tool_names().max_len, 128);
    /// ```
    pub fn tool_names(&self) -> &'static ToolNameRule {
        &self.native.tool_names
    }

    /// The provider's request-wide limits over strict schemas (its strict profile's).
    ///
    /// ```
    /// let limits = provider_rules::provider("anthropic").unwrap().request_limits();
    /// assert_eq!(limits.strict_tools, Some(20));
    /// ```
    pub fn request_limits(&self) -> RequestLimits {
        self.strict.unwrap_or(self.native).request_limits
    }

    /// Whether a model name (`gemini-2.5-pro`, `x-ai/grok-4`, case-insensitive) is one of the
    /// provider's, by its vendor part or its name's prefix.
    ///
    /// ```
    /// let xai = provider_rules::provider("xai").unwrap();
    /// assert!(xai.serves_model("Grok-4"));
    /// assert!(xai.serves_model("x-ai/grok-4"));
    /// assert!(!xai.serves_model("gpt-4o"));
    /// ```
    pub fn serves_model(&self, model: &str) -> bool {
        let model = model.trim().to_ascii_lowercase();
        match model.split_once('/') {
            Some((vendor, name)) => {
                self.vendors.contains(&vendor)
                    || (!is_vendor(vendor) && self.models.iter().any(|m| name.starts_with(m)))
            }
            None => self.models.iter().any(|m| model.starts_with(m)),
        }
    }

    /// Whether a host (`api.x.ai`) is the provider's: one of [`hosts`](Provider::hosts) or
    /// a subdomain of one.
    ///
    /// ```
    /// let xai = provider_rules::provider("xai").unwrap();
    /// assert!(xai.serves_host("api.x.ai"));
    /// assert!(!xai.serves_host("max.ai"));
    /// ```
    pub fn serves_host(&self, host: &str) -> bool {
        let host = host.trim_end_matches('.').to_ascii_lowercase();
        self.hosts
            .iter()
            .any(|h| host == *h || host.strip_suffix(h).is_some_and(|rest| rest.ends_with('.')))
    }

    /// What the provider's profiles do, derived from their rules (for `toolschema
    /// providers`; a test checks each claim against what sanitizing does).
    ///
    /// ```
    /// let traits = provider_rules::provider("gemini").unwrap().traits();
    /// assert!(traits.contains(&"one type per node"));
    /// assert!(traits.contains(&"$ref inlined"));
    /// ```
    pub fn traits(&self) -> Vec<&'static str> {
        self.native.traits()
    }
}

/// Whether a `vendor/` prefix names a known provider's vendor: then its models are that
/// vendor's, whatever the name after it says.
fn is_vendor(vendor: &str) -> bool {
    crate::PROVIDERS.iter().any(|p| p.vendors.contains(&vendor))
}

/// How many distinct profiles the providers have (by name).
pub(super) const fn count_profiles(providers: &[&Provider]) -> usize {
    let mut n = 0;
    while distinct(providers, n).is_some() {
        n += 1;
    }
    n
}

/// The distinct profiles of the providers, in order of first appearance.
pub(super) const fn collect_profiles<const N: usize>(
    providers: &[&Provider],
) -> [&'static Rules; N] {
    let mut out: [&'static Rules; N] = [&Rules::PERMISSIVE; N];
    let mut k = 0;
    while k < N {
        if let Some(r) = distinct(providers, k) {
            out[k] = r;
        }
        k += 1;
    }
    out
}

/// The `k`-th distinct profile (by name) of the providers' roles, in order.
const fn distinct(providers: &[&Provider], k: usize) -> Option<&'static Rules> {
    let mut seen = 0;
    let mut i = 0;
    while i < providers.len() {
        let roles = roles(providers[i]);
        let mut j = 0;
        while j < roles.len() {
            if let Some(r) = roles[j]
                && first_of(providers, i, j, r)
            {
                if seen == k {
                    return Some(r);
                }
                seen += 1;
            }
            j += 1;
        }
        i += 1;
    }
    None
}

const fn roles(p: &Provider) -> [Option<&'static Rules>; 3] {
    [Some(p.native), p.json_schema, p.strict]
}

/// Whether `r`, at role `j` of provider `i`, is its first appearance.
const fn first_of(providers: &[&Provider], i: usize, j: usize, r: &Rules) -> bool {
    let mut a = 0;
    while a <= i {
        let roles = roles(providers[a]);
        let mut b = 0;
        while b < roles.len() && (a < i || b < j) {
            if let Some(q) = roles[b]
                && same_name(q, r)
            {
                return false;
            }
            b += 1;
        }
        a += 1;
    }
    true
}

const fn same_name(a: &Rules, b: &Rules) -> bool {
    let (a, b) = (static_name(a).as_bytes(), static_name(b).as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// A built-in profile's name (built-ins borrow theirs).
pub(super) const fn static_name(r: &Rules) -> &'static str {
    match &r.name {
        Cow::Borrowed(s) => s,
        Cow::Owned(_) => "",
    }
}
