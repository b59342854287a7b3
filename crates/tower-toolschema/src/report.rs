//! What the layer did to a request: [`SanitizeReport`], inserted into the request's extensions.
//!
//! ```
//! use tower_toolschema::report::{Outcome, SanitizeReport};
//!
//! fn log(req: &http::Request<()>) {
//!     if let Some(report) = req.extensions().get::<SanitizeReport>() {
//!         for slot in &report.slots {
//!             for change in slot.changes.iter() {
//!                 println!("{}{}: {} ({})", slot.pointer, change.pointer, change.message, change.rule);
//!             }
//!         }
//!         assert!(!matches!(report.outcome, Outcome::Skipped(_)) || report.slots.is_empty());
//!     }
//! }
//! # log(&http::Request::new(()));
//! ```

mod slot_reports;

use std::fmt;
use std::sync::Arc;

use crate::shapes::{Api, SlotRole};

pub use slot_reports::SlotReports;

/// One change made to a schema: the engine's own type, as `provider_rules` reports it.
pub use provider_rules::Change;
/// Why a tool name was renamed (`provider_rules`' own type).
pub use provider_rules::RenameReason;

/// A tool name the layer renamed for the provider (the response maps it back,
/// [`crate::restore`]).
///
/// ```
/// use tower_toolschema::{ToolSchemaLayer, restore::prepare_request, shapes::Api};
/// use tower_toolschema::report::RenameReason;
/// let body = br#"{"model":"gpt-4o","messages":[],"tools":[{"type":"function","function":{"name":"fs.read"}}]}"#;
/// let (_, report, _) = prepare_request(ToolSchemaLayer::openai().config(), Some(Api::OpenAiChat), bytes::Bytes::from_static(body));
/// let r = &report.renames[0];
/// assert_eq!((r.original.as_str(), r.sent.as_str()), ("fs.read", "fs_read"));
/// assert_eq!(r.why, [RenameReason::Characters]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Rename {
    /// The tool's own name.
    pub original: String,
    /// The name sent to the provider instead.
    pub sent: String,
    /// Why: what the provider's rule refuses in the name (length, characters), or that an
    /// earlier tool of the request has it (collision).
    pub why: Vec<RenameReason>,
}

/// An earlier tool call of the conversation's history whose arguments were encoded for a tool
/// with encodings ([`crate::encoding`]), or could not be (`error`: they went on as they came).
///
/// ```
/// use tower_toolschema::{ToolSchemaLayer, encoding::EncodingSanitizer, restore::prepare_request, shapes::Api};
/// let body = br#"{"model":"gpt-4o","messages":[{"role":"assistant","tool_calls":[{"id":"c1","type":"function",
///   "function":{"name":"set","arguments":"{\"env\":{\"A\":\"1\"}}"}}]}],
///   "tools":[{"type":"function","function":{"name":"set","strict":true,"parameters":{"type":"object",
///   "properties":{"env":{"type":"object","additionalProperties":{"type":"string"}}},"required":["env"]}}}]}"#;
/// let layer = ToolSchemaLayer::openai().sanitizer(EncodingSanitizer);
/// let (out, report, _) = prepare_request(layer.config(), Some(Api::OpenAiChat), bytes::Bytes::from_static(body));
/// assert_eq!(report.history[0].tool, "set");
/// assert!(report.history[0].error.is_none());
/// assert!(std::str::from_utf8(&out)?.contains(r#"{\"env\":[{\"key\":\"A\",\"value\":\"1\"}]}"#));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct EncodedCall {
    /// The tool called (its own name).
    pub tool: String,
    /// Why the arguments were not encoded (not JSON, nested too deep); `None`: encoded.
    pub error: Option<String>,
}

/// A string the reports that say it share (the report of a known tool list reuses the kept
/// one's, without a copy); it reads as a `&str` and compares with `str` and `String`.
///
/// ```
/// use tower_toolschema::report::SharedStr;
/// let s = SharedStr::from("/tools/0/function/parameters");
/// assert_eq!(s, "/tools/0/function/parameters");
/// assert!(s.starts_with("/tools") && s.as_str().len() == 28);
/// assert_eq!(s.to_string(), String::from("/tools/0/function/parameters"));
/// ```
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SharedStr(Arc<str>);

impl SharedStr {
    /// The text.
    ///
    /// ```
    /// assert_eq!(tower_toolschema::report::SharedStr::from("openai").as_str(), "openai");
    /// ```
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::ops::Deref for SharedStr {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for SharedStr {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl std::borrow::Borrow<str> for SharedStr {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for SharedStr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl fmt::Display for SharedStr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<String> for SharedStr {
    fn from(s: String) -> Self {
        SharedStr(Arc::from(s))
    }
}

impl From<&str> for SharedStr {
    fn from(s: &str) -> Self {
        SharedStr(Arc::from(s))
    }
}

impl From<SharedStr> for String {
    fn from(s: SharedStr) -> Self {
        s.0.to_string()
    }
}

impl PartialEq<str> for SharedStr {
    fn eq(&self, other: &str) -> bool {
        *self.0 == *other
    }
}

impl PartialEq<&str> for SharedStr {
    fn eq(&self, other: &&str) -> bool {
        *self.0 == **other
    }
}

impl PartialEq<String> for SharedStr {
    fn eq(&self, other: &String) -> bool {
        *self.0 == **other
    }
}

impl PartialEq<SharedStr> for str {
    fn eq(&self, other: &SharedStr) -> bool {
        *self == *other.0
    }
}

impl PartialEq<SharedStr> for &str {
    fn eq(&self, other: &SharedStr) -> bool {
        **self == *other.0
    }
}

impl PartialEq<SharedStr> for String {
    fn eq(&self, other: &SharedStr) -> bool {
        **self == *other.0
    }
}

/// What happened to one schema slot.
///
/// ```
/// use tower_toolschema::{ToolSchemaLayer, sanitize_body, shapes::SlotRole};
///
/// let body = br#"{"contents":[],"tools":[{"functionDeclarations":[{"name":"lookup","parameters":{"type":"object","additionalProperties":false}}]}]}"#;
/// let (_, report) = sanitize_body(ToolSchemaLayer::gemini().config(), None, bytes::Bytes::from_static(body));
/// let slot = &report.slots[0];
/// assert_eq!(slot.pointer, "/tools/0/functionDeclarations/0/parameters");
/// assert_eq!((slot.tool.as_deref(), slot.role), (Some("lookup"), SlotRole::ToolParameters));
/// assert_eq!(slot.profile, "gemini");
/// assert!(!slot.changes.is_empty() && !slot.cached && slot.error.is_none());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SlotReport {
    /// JSON pointer of the slot in the body (`/tools/3/function/parameters`).
    pub pointer: SharedStr,
    /// The tool (or response format) name, when the slot has one.
    pub tool: Option<SharedStr>,
    /// What the slot holds.
    pub role: SlotRole,
    /// The name of the profile applied.
    pub profile: SharedStr,
    /// The changes made (empty: the slot went on byte-identical).
    pub changes: Arc<[Change]>,
    /// Whether the result came from the sanitized-slot cache.
    pub cached: bool,
    /// The tool asked for strict mode but could not have it, so it was sent with
    /// `strict: false` under the non-strict profile: its schema cannot be made
    /// strict-compatible, or the request's strict tools together would go over the provider's
    /// request-wide limits ([`strict_over_request_limits`](SlotReport::strict_over_request_limits)).
    pub strict_downgraded: bool,
    /// The strict downgrade was for the request-wide limits (Anthropic: 20 strict tools, 24
    /// optional and 16 union-typed parameters over all strict schemas): the earlier strict
    /// tools used the budget up.
    pub strict_over_request_limits: bool,
    /// The tool's name is invalid for the target (reported, not renamed).
    pub tool_name_problem: Option<String>,
    /// What the target will still reject that sanitizing cannot fix without renaming (property
    /// keys): reported, like tool names, until the response side maps names back.
    pub unfixable: Arc<[String]>,
    /// The slot could not be sanitized (not a schema, unparseable); it went on untouched.
    pub error: Option<String>,
    /// Whether the result, under the profile applied, satisfies the provider's strict mode
    /// (what the sanitizer said; always true under a profile without strict rules).
    pub strict_compatible: bool,
    /// The sanitized schema's JSON text when the slot was rewritten (for a slot that stores
    /// its schema as a JSON string, the schema itself, not the string): shared with the cache,
    /// not copied.
    pub schema: Option<bytes::Bytes>,
    /// The tool's argument decoder (the identity unless the rewrite makes the model send what
    /// the tool does not take, e.g. strict nulls): applied on the way back ([`crate::restore`]).
    pub decoder: Arc<provider_rules::Decoder>,
}

impl SlotReport {
    /// Whether any change lost information.
    ///
    /// ```
    /// use tower_toolschema::{ToolSchemaLayer, sanitize_body};
    /// let body = br#"{"messages":[],"tools":[{"name":"f","input_schema":{"type":"object"}}]}"#;
    /// let (_, report) = sanitize_body(ToolSchemaLayer::anthropic().config(), None, bytes::Bytes::from_static(body));
    /// assert!(report.slots[0].changes.is_empty() && !report.slots[0].lossy());
    /// ```
    pub fn lossy(&self) -> bool {
        self.changes.iter().any(|c| c.lossy)
    }
}

/// Why a body was not inspected or not rewritten.
///
/// ```
/// use tower_toolschema::report::{Outcome, SkipReason};
/// use tower_toolschema::{ToolSchemaLayer, sanitize_body};
///
/// let (_, report) = sanitize_body(ToolSchemaLayer::openai().config(), None, bytes::Bytes::from_static(b"{\"tools\": ["));
/// assert!(matches!(report.outcome, Outcome::Skipped(SkipReason::InvalidJson(_))));
/// assert_eq!(SkipReason::TooLarge { limit: 10 }.to_string(), "the body is larger than the limit of 10 bytes");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SkipReason {
    /// Larger than the body limit (the body was replayed whole).
    TooLarge {
        /// The limit in bytes.
        limit: usize,
    },
    /// The body stream failed; the error reached the inner service.
    BodyError(String),
    /// The body is compressed (`Content-Encoding`); it went on untouched. Put
    /// `tower_http::decompression::RequestDecompressionLayer` in front to have it inspected.
    Compressed(String),
    /// Not valid JSON, or truncated.
    InvalidJson(String),
    /// A key on a schema-slot path appears twice; which one the upstream reads is unknown.
    DuplicateKey(String),
    /// The body has trailers: rewriting is skipped, everything goes on untouched.
    Trailers,
}

impl fmt::Display for SkipReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SkipReason::TooLarge { limit } => {
                write!(f, "the body is larger than the limit of {limit} bytes")
            }
            SkipReason::BodyError(e) => write!(f, "the request body failed: {e}"),
            SkipReason::Compressed(enc) => write!(
                f,
                "the body is compressed ({enc}); decompress it before this layer"
            ),
            SkipReason::InvalidJson(e) => write!(f, "{e}"),
            SkipReason::DuplicateKey(p) => write!(
                f,
                "duplicate key at {p}: refusing to guess which one the upstream reads"
            ),
            SkipReason::Trailers => f.write_str("the body has trailers"),
        }
    }
}

/// The overall result for a request.
///
/// ```
/// use tower_toolschema::{ToolSchemaLayer, report::Outcome, sanitize_body};
///
/// let body = br#"{"messages":[],"tools":[{"name":"f","input_schema":{"type":"object"}}]}"#;
/// let (_, report) = sanitize_body(ToolSchemaLayer::anthropic().config(), None, bytes::Bytes::from_static(body));
/// assert_eq!(report.outcome, Outcome::Unchanged);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Outcome {
    /// Inspected; nothing needed to change; the very same bytes went on.
    Unchanged,
    /// At least one slot was rewritten.
    Rewritten {
        /// Body length before.
        before: usize,
        /// Body length after (the new `Content-Length`).
        after: usize,
    },
    /// Not inspected or not rewritten; the body went on untouched.
    Skipped(SkipReason),
}

/// What the layer did to one request, in the request's extensions.
///
/// ```
/// use tower_toolschema::{SanitizeReport, ToolSchemaLayer, sanitize_body, shapes::Api};
///
/// let body = br#"{"generationConfig":{"responseSchema":{"type":"object","additionalProperties":false}}}"#;
/// let (_, report): (_, SanitizeReport) = sanitize_body(ToolSchemaLayer::gemini().config(), Some(Api::Gemini), bytes::Bytes::from_static(body));
/// assert_eq!(report.api, Some(Api::Gemini));
/// assert!(report.is_rewritten() && report.change_count() >= 1);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SanitizeReport {
    /// The API the body was recognised as, if any.
    pub api: Option<Api>,
    /// The overall result.
    pub outcome: Outcome,
    /// Every slot found, in body order (shared: see [`SlotReports`]).
    pub slots: SlotReports,
    /// The tool names renamed for the provider, in declaration order (empty when renaming is
    /// off or every name is fine); see [`Rename`].
    pub renames: Vec<Rename>,
    /// The earlier tool calls of the history whose arguments were encoded (or could not be),
    /// in body order: only for tools with encodings ([`crate::encoding`]); see [`EncodedCall`].
    pub history: Vec<EncodedCall>,
    /// The tools declared without a parameters slot (an OpenAI function without
    /// `parameters`, a Gemini declaration without one): their names, and whether the target
    /// refuses the name. Collected when renaming is on.
    pub(crate) unslotted: Vec<(String, bool)>,
}

impl SanitizeReport {
    pub(crate) fn skipped(api: Option<Api>, reason: SkipReason) -> Self {
        SanitizeReport {
            api,
            outcome: Outcome::Skipped(reason),
            slots: SlotReports::default(),
            renames: Vec::new(),
            history: Vec::new(),
            unslotted: Vec::new(),
        }
    }

    /// Whether the body was rewritten.
    ///
    /// ```
    /// # use tower_toolschema::report::SanitizeReport;
    /// fn changed(r: &SanitizeReport) -> bool { r.is_rewritten() }
    /// ```
    pub fn is_rewritten(&self) -> bool {
        matches!(self.outcome, Outcome::Rewritten { .. })
    }

    /// Total number of schema changes over all slots.
    ///
    /// ```
    /// # use tower_toolschema::report::SanitizeReport;
    /// fn n(r: &SanitizeReport) -> usize { r.change_count() }
    /// ```
    pub fn change_count(&self) -> usize {
        self.slots.iter().map(|s| s.changes.len()).sum()
    }
}
