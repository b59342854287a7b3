//! The layer's configuration (shared by every clone of a layer and its services).

use std::fmt;
use std::sync::Arc;

use http::{HeaderMap, Method, Uri, header};

use crate::cache::{CacheConfig, SlotCache};
use crate::profile::Profiles;
use crate::rename_memo::RenameMemo;
use crate::report::SkipReason;
use crate::sanitizer::{RulesSanitizer, SlotSanitizer};
use crate::shapes::{Api, ApiShape};
use crate::slots::request_cache::RequestCache;
use provider_rules::{Carries, PROVIDERS, Provider};

/// Which profiles a layer applies.
///
/// ```
/// use tower_toolschema::{Config, Profiles, Target, ToolSchemaLayer};
///
/// let auto = ToolSchemaLayer::new(Config::new(Target::Auto));
/// let fixed = ToolSchemaLayer::new(Config::new(Target::Fixed(Profiles::vertex())));
/// # let _ = (auto, fixed);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Target {
    /// Per request, from the URL path, the host and the body's `model`; requests to paths that
    /// are not in the [API-shape table](crate::shapes) pass through without buffering.
    Auto,
    /// Always these profiles. Requests to unknown paths are still inspected (JSON POSTs only):
    /// the body is recognised by its shape.
    Fixed(Profiles),
}

type Predicate = dyn Fn(&Method, &Uri, &HeaderMap) -> bool + Send + Sync;

/// The configuration of a [`ToolSchemaLayer`](crate::ToolSchemaLayer).
///
/// Built with [`Config::new`] and the layer's builder methods.
///
/// ```
/// use tower_toolschema::{Config, Target, ToolSchemaLayer};
///
/// let layer = ToolSchemaLayer::new(Config::new(Target::Auto)).limit(1 << 20).rename_tools(false);
/// let config: &Config = layer.config();
/// assert_eq!(config.body_limit(), 1 << 20);
/// assert!(!config.renames_tools());
/// ```
#[derive(Clone)]
pub struct Config {
    pub(crate) target: Target,
    pub(crate) api_profiles: Vec<(Api, Profiles)>,
    pub(crate) limit: usize,
    pub(crate) predicate: Option<Arc<Predicate>>,
    pub(crate) sanitizer: Arc<dyn SlotSanitizer>,
    pub(crate) cache_config: CacheConfig,
    pub(crate) cache: Arc<SlotCache>,
    /// Whole tool lists' results ([`crate::slots::request_cache`]): replaced by every change
    /// of the configuration ([`Config::changed`]).
    pub(crate) requests: Arc<RequestCache>,
    /// What renaming made of tool lists seen before ([`crate::rename_memo`]).
    pub(crate) rename_memo: Arc<RenameMemo>,
    /// Whether refused tool names are renamed (and mapped back): see [`crate::restore`].
    pub(crate) rename_tools: bool,
}

impl fmt::Debug for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Config")
            .field("target", &self.target)
            .field("api_profiles", &self.api_profiles)
            .field("limit", &self.limit)
            .field("predicate", &self.predicate.is_some())
            .field("cache", &self.cache_config)
            .finish_non_exhaustive()
    }
}

/// The default body limit: 16 MiB.
///
/// ```
/// use tower_toolschema::{Config, DEFAULT_LIMIT, Target};
/// assert_eq!(Config::new(Target::Auto).body_limit(), DEFAULT_LIMIT);
/// ```
pub const DEFAULT_LIMIT: usize = 16 << 20;

impl Config {
    /// A configuration for `target` with the defaults: 16 MiB body limit, the default cache, the
    /// `provider_rules` sanitizer, every request considered.
    ///
    /// ```
    /// use tower_toolschema::{Config, Profiles, Target};
    /// let config = Config::new(Target::Fixed(Profiles::anthropic()));
    /// assert_eq!(config.target(), &Target::Fixed(Profiles::anthropic()));
    /// assert!(config.renames_tools());
    /// ```
    pub fn new(target: Target) -> Config {
        let cache_config = CacheConfig::default();
        Config {
            target,
            api_profiles: Vec::new(),
            limit: DEFAULT_LIMIT,
            predicate: None,
            sanitizer: Arc::new(RulesSanitizer),
            cache_config,
            cache: Arc::new(SlotCache::new(cache_config)),
            requests: Arc::new(RequestCache::new(cache_config)),
            rename_memo: Arc::new(RenameMemo::new(cache_config)),
            rename_tools: true,
        }
    }

    /// The target.
    ///
    /// ```
    /// use tower_toolschema::{Target, ToolSchemaLayer};
    /// assert_eq!(ToolSchemaLayer::auto().config().target(), &Target::Auto);
    /// ```
    pub fn target(&self) -> &Target {
        &self.target
    }

    /// The body limit in bytes.
    ///
    /// ```
    /// assert_eq!(tower_toolschema::ToolSchemaLayer::auto().config().body_limit(), 16 << 20);
    /// ```
    pub fn body_limit(&self) -> usize {
        self.limit
    }

    /// Whether refused tool names are renamed
    /// ([`ToolSchemaLayer::rename_tools`](crate::ToolSchemaLayer::rename_tools)).
    ///
    /// ```
    /// use tower_toolschema::ToolSchemaLayer;
    /// assert!(ToolSchemaLayer::openai().config().renames_tools());
    /// assert!(!ToolSchemaLayer::openai().rename_tools(false).config().renames_tools());
    /// ```
    pub fn renames_tools(&self) -> bool {
        self.rename_tools
    }

    pub(crate) fn set_cache(&mut self, config: CacheConfig) {
        self.cache_config = config;
        self.cache = Arc::new(SlotCache::new(config));
        self.rename_memo = Arc::new(RenameMemo::new(config));
        self.changed();
    }

    /// The configuration is about to change: the tool-list results made under it go (the
    /// slot cache is keyed by profile and replaced with the engine, so it stays).
    pub(crate) fn changed(&mut self) {
        self.requests = Arc::new(RequestCache::new(self.cache_config));
    }

    pub(crate) fn set_predicate(&mut self, f: Arc<Predicate>) {
        self.predicate = Some(f);
    }

    /// The profiles for slots of `api` in a request with this `model` and `host`.
    pub(crate) fn profiles_for(
        &self,
        api: Api,
        model: Option<&str>,
        host: Option<&str>,
    ) -> Profiles {
        if let Some((_, p)) = self.api_profiles.iter().find(|(a, _)| *a == api) {
            return p.clone();
        }
        match &self.target {
            Target::Fixed(p) => p.clone(),
            Target::Auto => Profiles::of_provider(auto_provider(api, model, host)),
        }
    }

    /// What to do with a request before reading its body.
    pub(crate) fn decide(&self, method: &Method, uri: &Uri, headers: &HeaderMap) -> Decision {
        if !matches!(*method, Method::POST | Method::PUT | Method::PATCH) {
            return Decision::Pass;
        }
        if let Some(p) = &self.predicate
            && !p(method, uri, headers)
        {
            return Decision::Pass;
        }
        if !is_json(headers) {
            return Decision::Pass;
        }
        let shape = ApiShape::for_path(uri.path());
        if shape.is_none() && self.target == Target::Auto {
            return Decision::Pass;
        }
        let api = shape.map(|s| s.api);
        if let Some(enc) = content_encoding(headers) {
            return Decision::Skip(api, SkipReason::Compressed(enc));
        }
        let host = uri.host().map(str::to_owned).or_else(|| {
            headers
                .get(header::HOST)
                .and_then(|h| h.to_str().ok())
                .map(|h| h.split(':').next().unwrap_or(h).to_owned())
        });
        Decision::Inspect(RequestCtx { shape, host })
    }
}

/// The decision taken before reading a body.
#[derive(Debug)]
pub(crate) enum Decision {
    /// Not ours: forward as is, no buffering.
    Pass,
    /// Cannot be inspected (forwarded untouched, or rejected by policy), no buffering.
    Skip(Option<Api>, SkipReason),
    /// Buffer and inspect.
    Inspect(RequestCtx),
}

/// What is known of a request whose body is inspected.
#[derive(Debug, Clone)]
pub(crate) struct RequestCtx {
    pub(crate) shape: Option<&'static ApiShape>,
    pub(crate) host: Option<String>,
}

/// The provider whose profiles an API's requests take by default: the one whose
/// [`apis`](Provider::apis) lists it. Every API has one, checked when the crate compiles
/// (`EVERY_API_HAS_ONE_PROVIDER`); the portable provider stands in only to keep this total.
pub(crate) fn api_provider(api: Api) -> &'static Provider {
    providers_of(api).0.unwrap_or(&Provider::PORTABLE)
}

/// The first provider of the registry that lists `api`, and how many do.
const fn providers_of(api: Api) -> (Option<&'static Provider>, usize) {
    let (mut first, mut count, mut i) = (None, 0, 0);
    while i < PROVIDERS.len() {
        let p = PROVIDERS[i];
        let mut j = 0;
        while j < p.apis.len() {
            if str_eq(p.apis[j], api.name()) {
                if first.is_none() {
                    first = Some(p);
                }
                count += 1;
            }
            j += 1;
        }
        i += 1;
    }
    (first, count)
}

const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
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

/// The registry claims every API of the shape table exactly once: an API no provider lists
/// (or two list) fails to compile.
const EVERY_API_HAS_ONE_PROVIDER: () = {
    let mut i = 0;
    while i < Api::ALL.len() {
        assert!(
            providers_of(Api::ALL[i]).1 == 1,
            "an API of the shape table is not listed by exactly one provider's `apis`"
        );
        i += 1;
    }
};
const _: () = EVERY_API_HAS_ONE_PROVIDER;

/// [`Target::Auto`]'s choice: the provider for a request to `api`, refined by the host and
/// the body's `model` where the API's provider [carries](Provider::carries) other providers'
/// models (OpenAI-compatible gateways serve every vendor's; Code Assist serves Claude). All
/// of it read from the registry: each provider's APIs, hosts, model prefixes and vendors.
///
/// ```
/// use tower_toolschema::{auto_provider, shapes::Api};
/// assert_eq!(auto_provider(Api::OpenAiChat, Some("grok-4"), None).name, "xai");
/// assert_eq!(auto_provider(Api::OpenAiChat, None, Some("api.groq.com")).name, "groq");
/// assert_eq!(auto_provider(Api::OllamaChat, Some("gemma3"), None).name, "ollama");
/// ```
pub fn auto_provider(api: Api, model: Option<&str>, host: Option<&str>) -> &'static Provider {
    let own = api_provider(api);
    let carried = |p: &&Provider| p.name != own.name && own.carries.allows(p.name);
    if own.carries == Carries::Any
        && let Some(h) = host
        && let Some(p) = PROVIDERS
            .iter()
            .copied()
            .filter(carried)
            .find(|p| p.serves_host(h))
    {
        return p;
    }
    model
        .and_then(|m| {
            PROVIDERS
                .iter()
                .copied()
                .filter(carried)
                .find(|p| p.serves_model(m))
        })
        .unwrap_or(own)
}

/// `application/json`, `*/*+json`, or no `Content-Type` at all (many clients send none).
/// Without allocating.
pub(crate) fn is_json(headers: &HeaderMap) -> bool {
    let Some(ct) = headers.get(header::CONTENT_TYPE) else {
        return true;
    };
    let Ok(ct) = ct.to_str() else { return false };
    let mime = ct.split(';').next().unwrap_or("").trim().as_bytes();
    let ends_json = mime.len() >= 5 && mime[mime.len() - 5..].eq_ignore_ascii_case(b"+json");
    mime.eq_ignore_ascii_case(b"application/json")
        || (mime.len() >= 12 && mime[..12].eq_ignore_ascii_case(b"application/") && ends_json)
}

/// The `Content-Encoding`, unless absent or `identity`.
pub(crate) fn content_encoding(headers: &HeaderMap) -> Option<String> {
    let mut encodings = headers
        .get_all(header::CONTENT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok().map(str::trim));
    let enc: Vec<&str> = encodings
        .by_ref()
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .filter(|e| !e.is_empty())
        .collect();
    if enc.iter().all(|e| e.eq_ignore_ascii_case("identity")) {
        None
    } else {
        Some(enc.join(", "))
    }
}

/// `Content-Length`, if present and valid.
pub(crate) fn content_length(headers: &HeaderMap) -> Option<u64> {
    headers
        .get(header::CONTENT_LENGTH)?
        .to_str()
        .ok()?
        .trim()
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_picks_provider_from_model_and_host() {
        let f = |api, model, host| auto_provider(api, model, host).name;
        assert_eq!(f(Api::OpenAiChat, Some("gpt-4o"), None), "openai");
        assert_eq!(f(Api::OpenAiChat, Some("gemini-2.5-flash"), None), "gemini");
        assert_eq!(f(Api::OpenAiChat, Some("grok-4"), None), "xai");
        assert_eq!(
            f(Api::OpenAiChat, Some("claude-sonnet-4-5"), None),
            "anthropic"
        );
        assert_eq!(
            f(Api::OpenAiChat, Some("google/gemini-2.5-pro"), None),
            "gemini"
        );
        assert_eq!(f(Api::OpenAiChat, Some("x-ai/grok-4"), None), "xai");
        assert_eq!(
            f(Api::OpenAiResponses, Some("anthropic/claude-opus-4"), None),
            "anthropic"
        );
        assert_eq!(
            f(Api::OpenAiChat, Some("meta-llama/llama-3"), None),
            "openai"
        );
        assert_eq!(f(Api::OpenAiChat, None, Some("api.x.ai")), "xai");
        assert_eq!(f(Api::OpenAiChat, Some("gpt-4o"), Some("api.x.ai")), "xai");
        assert_eq!(
            f(Api::CodeAssist, Some("gemini-2.5-pro"), None),
            "gemini-code-assist"
        );
        assert_eq!(
            f(Api::CodeAssist, Some("claude-sonnet-4-5"), None),
            "anthropic"
        );
        assert_eq!(
            f(Api::CodeAssist, Some("grok-4"), Some("api.x.ai")),
            "gemini-code-assist"
        );
        assert_eq!(f(Api::Gemini, Some("claude"), None), "gemini");
        assert_eq!(f(Api::VertexGemini, None, None), "vertex");
        // The new providers: by host on OpenAI-compatible paths, by API for their own.
        assert_eq!(
            f(
                Api::OpenAiChat,
                Some("mistral-large"),
                Some("api.mistral.ai")
            ),
            "mistral"
        );
        assert_eq!(
            f(Api::OpenAiChat, Some("llama-3.3-70b"), Some("api.groq.com")),
            "groq"
        );
        assert_eq!(
            f(
                Api::OpenAiChat,
                Some("deepseek-chat"),
                Some("api.deepseek.com")
            ),
            "deepseek"
        );
        assert_eq!(
            f(
                Api::OpenAiChat,
                Some("gpt-4o"),
                Some("corp.openai.azure.com")
            ),
            "azure-openai"
        );
        assert_eq!(f(Api::OllamaChat, Some("llama3.2"), None), "ollama");
        assert_eq!(f(Api::CohereChat, Some("command-a"), None), "cohere");
        // A look-alike host is not the provider's.
        assert_eq!(f(Api::OpenAiChat, None, Some("notgroq.com")), "openai");
    }

    #[test]
    fn header_predicates() {
        let mut h = HeaderMap::new();
        assert!(is_json(&h));
        h.insert(
            header::CONTENT_TYPE,
            "application/json; charset=utf-8".parse().unwrap(),
        );
        assert!(is_json(&h));
        h.insert(
            header::CONTENT_TYPE,
            "application/vnd.api+json".parse().unwrap(),
        );
        assert!(is_json(&h));
        h.insert(header::CONTENT_TYPE, "text/event-stream".parse().unwrap());
        assert!(!is_json(&h));
        assert_eq!(content_encoding(&h), None);
        h.insert(header::CONTENT_ENCODING, "identity".parse().unwrap());
        assert_eq!(content_encoding(&h), None);
        h.insert(header::CONTENT_ENCODING, "gzip".parse().unwrap());
        assert_eq!(content_encoding(&h).as_deref(), Some("gzip"));
        h.insert(header::CONTENT_LENGTH, "12".parse().unwrap());
        assert_eq!(content_length(&h), Some(12));
    }
}
