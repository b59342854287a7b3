//! [`ToolSchemaLayer`]: the layer and its builder.

use std::sync::Arc;

use http::{HeaderMap, Method, Uri};
use tower_layer::Layer;

use crate::cache::CacheConfig;
use crate::config::{Config, Target};
use crate::policy::{FailOpen, Reject};
use crate::profile::{Profiles, UnknownProvider};
use crate::sanitizer::SlotSanitizer;
use crate::service::ToolSchema;
use crate::shapes::Api;

/// A [`Layer`] that rewrites the tool schemas of LLM API requests into the dialect of the
/// target provider.
///
/// Cheap to clone; clones share one configuration and one sanitized-slot cache.
///
/// ```
/// use tower::Layer;
/// use tower_toolschema::ToolSchemaLayer;
///
/// let layer = ToolSchemaLayer::openai().limit(4 << 20);
/// let a = layer.layer("one upstream");
/// let b = layer.clone().layer("another");
/// assert_eq!((*a.get_ref(), *b.get_ref()), ("one upstream", "another"));
/// ```
#[derive(Debug, Clone)]
pub struct ToolSchemaLayer<P = FailOpen> {
    pub(crate) config: Arc<Config>,
    pub(crate) policy: P,
}

impl Default for ToolSchemaLayer {
    fn default() -> Self {
        Self::auto()
    }
}

impl ToolSchemaLayer {
    /// A layer with this configuration.
    ///
    /// ```
    /// use tower_toolschema::{Config, Target, ToolSchemaLayer};
    /// let layer = ToolSchemaLayer::new(Config::new(Target::Auto)).limit(1 << 20);
    /// # let _ = layer;
    /// ```
    pub fn new(config: Config) -> Self {
        ToolSchemaLayer {
            config: Arc::new(config),
            policy: FailOpen,
        }
    }

    /// Picks the profile per request from the path, the host and the body's `model`; requests
    /// to unknown paths pass through without buffering.
    ///
    /// ```
    /// use tower_toolschema::{ToolSchemaLayer, sanitize_body};
    /// let body = br#"{"model":"claude-sonnet-4","messages":[],"tools":[{"name":"f","input_schema":{"type":"object"}}]}"#;
    /// let (_, report) = sanitize_body(ToolSchemaLayer::auto().config(), None, bytes::Bytes::from_static(body));
    /// assert_eq!(report.slots[0].profile, "anthropic");
    /// ```
    pub fn auto() -> Self {
        Self::new(Config::new(Target::Auto))
    }

    /// Always these profiles.
    ///
    /// ```
    /// use tower_toolschema::{Profile, Profiles, ToolSchemaLayer};
    /// let layer = ToolSchemaLayer::fixed(Profiles::single(Profile::builtin("portable").unwrap()));
    /// # let _ = layer;
    /// ```
    pub fn fixed(profiles: Profiles) -> Self {
        Self::new(Config::new(Target::Fixed(profiles)))
    }

    /// A provider's rules by its name in the registry ([`provider_rules::PROVIDERS`]): its
    /// native profile, its JSON-Schema-slot and strict profiles where it has them. The named
    /// shortcuts below are this for their providers.
    ///
    /// ```
    /// use tower_toolschema::{Target, ToolSchemaLayer};
    /// let layer = ToolSchemaLayer::for_provider("groq")?;
    /// let Target::Fixed(set) = layer.config().target() else { unreachable!() };
    /// assert_eq!(set.strict.as_ref().map(|p| p.name()), Some("groq-strict"));
    /// assert!(ToolSchemaLayer::for_provider("groc").is_err());
    /// # Ok::<(), tower_toolschema::UnknownProvider>(())
    /// ```
    pub fn for_provider(name: &str) -> Result<Self, UnknownProvider> {
        Profiles::for_provider(name).map(Self::fixed)
    }

    /// Gemini API rules (`gemini`; `gemini-jsonschema` for `*JsonSchema` slots).
    ///
    /// ```
    /// use tower_toolschema::{Target, ToolSchemaLayer};
    /// let layer = ToolSchemaLayer::gemini();
    /// assert!(matches!(layer.config().target(), Target::Fixed(p) if p.native.name() == "gemini"));
    /// ```
    pub fn gemini() -> Self {
        Self::fixed(Profiles::gemini())
    }

    /// Gemini Code Assist / Antigravity rules.
    ///
    /// ```
    /// use tower_toolschema::{Target, ToolSchemaLayer};
    /// let layer = ToolSchemaLayer::gemini_code_assist();
    /// assert!(matches!(layer.config().target(), Target::Fixed(p) if p.native.name() == "gemini-code-assist"));
    /// ```
    pub fn gemini_code_assist() -> Self {
        Self::fixed(Profiles::gemini_code_assist())
    }

    /// Vertex AI (Gemini) rules.
    ///
    /// ```
    /// use tower_toolschema::{Target, ToolSchemaLayer};
    /// let layer = ToolSchemaLayer::vertex();
    /// assert!(matches!(layer.config().target(), Target::Fixed(p) if p.native.name() == "vertex"));
    /// ```
    pub fn vertex() -> Self {
        Self::fixed(Profiles::vertex())
    }

    /// OpenAI rules (`openai-strict` for tools marked `strict: true`).
    ///
    /// ```
    /// use tower_toolschema::{Target, ToolSchemaLayer};
    /// let layer = ToolSchemaLayer::openai();
    /// assert!(matches!(layer.config().target(), Target::Fixed(p) if p.native.name() == "openai"));
    /// ```
    pub fn openai() -> Self {
        Self::fixed(Profiles::openai())
    }

    /// Anthropic rules (`anthropic-strict` for tools marked `strict: true`).
    ///
    /// ```
    /// use tower_toolschema::{Target, ToolSchemaLayer};
    /// let layer = ToolSchemaLayer::anthropic();
    /// assert!(matches!(layer.config().target(), Target::Fixed(p) if p.native.name() == "anthropic"));
    /// ```
    pub fn anthropic() -> Self {
        Self::fixed(Profiles::anthropic())
    }

    /// xAI rules.
    ///
    /// ```
    /// use tower_toolschema::{Target, ToolSchemaLayer};
    /// let layer = ToolSchemaLayer::xai();
    /// assert!(matches!(layer.config().target(), Target::Fixed(p) if p.native.name() == "xai"));
    /// ```
    pub fn xai() -> Self {
        Self::fixed(Profiles::xai())
    }

    /// Amazon Bedrock rules.
    ///
    /// ```
    /// use tower_toolschema::{Target, ToolSchemaLayer};
    /// let layer = ToolSchemaLayer::bedrock();
    /// assert!(matches!(layer.config().target(), Target::Fixed(p) if p.native.name() == "bedrock"));
    /// ```
    pub fn bedrock() -> Self {
        Self::fixed(Profiles::bedrock())
    }

    /// The portable subset every provider accepts.
    ///
    /// ```
    /// use tower_toolschema::{Target, ToolSchemaLayer};
    /// let layer = ToolSchemaLayer::portable();
    /// assert!(matches!(layer.config().target(), Target::Fixed(p) if p.native.name() == "portable"));
    /// ```
    pub fn portable() -> Self {
        Self::fixed(Profiles::portable())
    }

    /// Answers requests that cannot be inspected (over the limit, compressed, invalid JSON, an
    /// ambiguous duplicate key, a failed body) with a clear JSON 413/415/400 instead of
    /// forwarding them untouched. Needs a response body type with `From<Bytes>` (axum's has).
    ///
    /// ```
    /// use tower_toolschema::{ToolSchemaLayer, policy::Reject};
    /// let layer: ToolSchemaLayer<Reject> = ToolSchemaLayer::openai().reject_invalid();
    /// # let _ = layer;
    /// ```
    pub fn reject_invalid(self) -> ToolSchemaLayer<Reject> {
        ToolSchemaLayer {
            config: self.config,
            policy: Reject,
        }
    }
}

impl<P> ToolSchemaLayer<P> {
    /// The configuration, to change it (the tool-list results made under it go).
    pub(crate) fn config_mut(&mut self) -> &mut Config {
        let cfg = Arc::make_mut(&mut self.config);
        cfg.changed();
        cfg
    }

    /// The largest body inspected, in bytes (default 16 MiB). Larger bodies go on untouched
    /// (or are answered 413 with [`reject_invalid`](ToolSchemaLayer::reject_invalid)); a body
    /// declared larger is never read.
    ///
    /// ```
    /// let layer = tower_toolschema::ToolSchemaLayer::auto().limit(1024);
    /// assert_eq!(layer.config().body_limit(), 1024);
    /// ```
    pub fn limit(mut self, bytes: usize) -> Self {
        self.config_mut().limit = bytes;
        self
    }

    /// Uses these profiles for every slot of `api`, whatever the target.
    ///
    /// ```
    /// use tower_toolschema::{Profiles, ToolSchemaLayer, shapes::Api};
    /// // Everything on auto, but OpenAI Chat bodies go to a Gemini backend.
    /// let layer = ToolSchemaLayer::auto().api_profiles(Api::OpenAiChat, Profiles::gemini());
    /// # let _ = layer;
    /// ```
    pub fn api_profiles(mut self, api: Api, profiles: Profiles) -> Self {
        let cfg = self.config_mut();
        cfg.api_profiles.retain(|(a, _)| *a != api);
        cfg.api_profiles.push((api, profiles));
        self
    }

    /// Only requests for which `f` returns `true` are considered (others pass through).
    ///
    /// ```
    /// use tower_toolschema::ToolSchemaLayer;
    /// let layer = ToolSchemaLayer::auto().inspect_when(|_method, _uri, headers| !headers.contains_key("x-no-sanitize"));
    /// # let _ = layer;
    /// ```
    pub fn inspect_when<F>(mut self, f: F) -> Self
    where
        F: Fn(&Method, &Uri, &HeaderMap) -> bool + Send + Sync + 'static,
    {
        self.config_mut().set_predicate(Arc::new(f));
        self
    }

    /// Bounds of the sanitized-slot cache (a fresh cache, shared by the clones made after).
    ///
    /// ```
    /// use tower_toolschema::{CacheConfig, ToolSchemaLayer, sanitize_body};
    ///
    /// let layer = ToolSchemaLayer::anthropic().cache(CacheConfig::new().max_entries(8));
    /// let body = bytes::Bytes::from_static(br#"{"messages":[],"tools":[{"name":"f","input_schema":{"type":"object","properties":{"u":{"type":"string","format":"uri"}}}}]}"#);
    /// let (_, first) = sanitize_body(layer.config(), None, body.clone());
    /// let (_, again) = sanitize_body(layer.config(), None, body);
    /// assert!(!first.slots[0].cached && again.slots[0].cached);
    /// ```
    pub fn cache(mut self, config: CacheConfig) -> Self {
        self.config_mut().set_cache(config);
        self
    }

    /// Replaces the schema engine (the default is `provider_rules`).
    ///
    /// ```
    /// use tower_toolschema::sanitizer::{SchemaSlot, SlotOutcome, SlotSanitizer};
    /// use tower_toolschema::{Profile, ToolSchemaLayer, sanitize_body};
    ///
    /// /// Leaves every schema as it is.
    /// struct Untouched;
    /// impl SlotSanitizer for Untouched {
    ///     fn sanitize(&self, _: &[u8], _: &Profile, _: SchemaSlot) -> Result<SlotOutcome, String> {
    ///         Ok(SlotOutcome::unchanged())
    ///     }
    /// }
    /// let layer = ToolSchemaLayer::gemini().sanitizer(Untouched);
    /// let body = bytes::Bytes::from_static(br#"{"tools":[{"functionDeclarations":[{"name":"g","parameters":{"type":"object","additionalProperties":true}}]}]}"#);
    /// let (out, report) = sanitize_body(layer.config(), None, body.clone());
    /// assert_eq!(out, body);
    /// assert!(!report.is_rewritten());
    /// ```
    pub fn sanitizer(mut self, sanitizer: impl SlotSanitizer) -> Self {
        let cfg = self.config_mut();
        cfg.sanitizer = Arc::new(sanitizer);
        // Results of another engine must not be served.
        let cache = cfg.cache_config;
        cfg.set_cache(cache);
        self
    }

    /// The configuration.
    ///
    /// ```
    /// assert_eq!(tower_toolschema::ToolSchemaLayer::auto().config().target(), &tower_toolschema::Target::Auto);
    /// ```
    pub fn config(&self) -> &Config {
        &self.config
    }
}

impl<S, P: Clone> Layer<S> for ToolSchemaLayer<P> {
    type Service = ToolSchema<S, P>;

    fn layer(&self, inner: S) -> Self::Service {
        ToolSchema {
            inner,
            config: Arc::clone(&self.config),
            policy: self.policy.clone(),
        }
    }
}
