//! The API-shape table: for each LLM API, the URL patterns that identify it, the JSON paths
//! of the schema slots in its request body and, on the way back, where tool names and calls sit
//! in its requests, responses and stream events ([`ApiShape::response`]).
//!
//! The table is data ([`SHAPES`]): one [`ApiShape`] entry per API, checked in order (the first
//! entry with a matching URL pattern wins, so specific patterns come before generic ones).
//!
//! ```
//! use tower_toolschema::shapes::{Api, ApiShape};
//!
//! let shape = ApiShape::for_path("/v1beta/models/gemini-2.5-flash:generateContent").unwrap();
//! assert_eq!(shape.api, Api::Gemini);
//! assert!(shape.slots.iter().any(|s| s.path == "tools[].functionDeclarations[].parametersJsonSchema"));
//!
//! // Code Assist's `v1internal` envelope: the same slots under `request.`.
//! let shape = ApiShape::for_path("/v1internal:streamGenerateContent").unwrap();
//! assert_eq!(shape.api, Api::CodeAssist);
//!
//! // Paths that cannot carry tools are not in the table.
//! assert!(ApiShape::for_path("/v1/embeddings").is_none());
//! ```

use std::fmt;

use crate::shapes_response::{self as response, ResponseShape};

/// An LLM HTTP API whose request bodies carry schema slots.
///
/// ```
/// use tower_toolschema::shapes::{Api, ApiShape};
/// let api = ApiShape::for_path("/v1/messages").unwrap().api;
/// assert_eq!(api, Api::AnthropicMessages);
/// assert_eq!(api.to_string(), "anthropic-messages");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Api {
    /// OpenAI Chat Completions (`/v1/chat/completions`) and every OpenAI-compatible gateway
    /// (Azure, OpenRouter, Groq, Mistral, DeepSeek, xAI, Ollama's `/v1`).
    OpenAiChat,
    /// OpenAI Responses (`/v1/responses`, `/v1/responses/input_tokens`).
    OpenAiResponses,
    /// Anthropic Messages (`/v1/messages`, `/v1/messages/count_tokens`).
    AnthropicMessages,
    /// Anthropic Message Batches (`/v1/messages/batches`): `requests[].params` holds a Messages body.
    AnthropicBatches,
    /// Gemini API `:generateContent` / `:streamGenerateContent`.
    Gemini,
    /// Gemini API `:countTokens` (top level and `generateContentRequest.`).
    GeminiCountTokens,
    /// Gemini API `cachedContents`.
    GeminiCachedContents,
    /// Gemini's OpenAI-compatible endpoint (`/v1beta/openai/chat/completions`): OpenAI shapes,
    /// Gemini's Schema proto behind them.
    GeminiOpenAiCompat,
    /// Gemini Code Assist / Antigravity (`/v1internal:*`): the Gemini body under `request`.
    CodeAssist,
    /// Vertex AI, Gemini models (`publishers/google`, `endpoints`).
    VertexGemini,
    /// Vertex AI, Claude models (`publishers/anthropic/...:rawPredict`): Anthropic shapes.
    VertexAnthropic,
    /// Vertex AI's OpenAI-compatible endpoint (`endpoints/openapi/chat/completions`).
    VertexOpenAiCompat,
    /// Amazon Bedrock Converse (`/model/{id}/converse`, `/converse-stream`).
    BedrockConverse,
    /// Amazon Bedrock InvokeModel with an Anthropic body (`/model/{id}/invoke`).
    BedrockInvoke,
    /// Ollama's native chat API (`/api/chat`): OpenAI-style `tools`, and the structured-output
    /// `format` (a JSON Schema when it is an object; the string `"json"` is not a schema).
    /// Ollama's OpenAI-compatible `/v1/chat/completions` is [`Api::OpenAiChat`].
    OllamaChat,
    /// Cohere Chat v2 (`/v2/chat`): OpenAI-style `tools`, and `response_format.json_schema`, which
    /// is the schema itself (no `.schema` wrapper).
    CohereChat,
}

impl Api {
    /// A stable, lower-case name (`"openai-chat"`, `"gemini"`, ...), used in reports and logs.
    ///
    /// ```
    /// assert_eq!(tower_toolschema::shapes::Api::BedrockConverse.name(), "bedrock-converse");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Api::OpenAiChat => "openai-chat",
            Api::OpenAiResponses => "openai-responses",
            Api::AnthropicMessages => "anthropic-messages",
            Api::AnthropicBatches => "anthropic-batches",
            Api::Gemini => "gemini",
            Api::GeminiCountTokens => "gemini-count-tokens",
            Api::GeminiCachedContents => "gemini-cached-contents",
            Api::GeminiOpenAiCompat => "gemini-openai-compat",
            Api::CodeAssist => "code-assist",
            Api::VertexGemini => "vertex-gemini",
            Api::VertexAnthropic => "vertex-anthropic",
            Api::VertexOpenAiCompat => "vertex-openai-compat",
            Api::BedrockConverse => "bedrock-converse",
            Api::BedrockInvoke => "bedrock-invoke",
            Api::OllamaChat => "ollama-chat",
            Api::CohereChat => "cohere-chat",
        }
    }

    /// The API with this [`name`](Api::name).
    ///
    /// ```
    /// use tower_toolschema::shapes::Api;
    /// assert_eq!(Api::from_name("openai-responses"), Some(Api::OpenAiResponses));
    /// assert_eq!(Api::from_name("nope"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Api> {
        Api::ALL.into_iter().find(|a| a.name() == name)
    }

    /// Every API, in declaration order.
    ///
    /// ```
    /// use tower_toolschema::shapes::Api;
    /// assert!(Api::ALL.iter().all(|a| a.shape().api == *a));
    /// ```
    pub const ALL: [Api; 16] = [
        Api::OpenAiChat,
        Api::OpenAiResponses,
        Api::AnthropicMessages,
        Api::AnthropicBatches,
        Api::Gemini,
        Api::GeminiCountTokens,
        Api::GeminiCachedContents,
        Api::GeminiOpenAiCompat,
        Api::CodeAssist,
        Api::VertexGemini,
        Api::VertexAnthropic,
        Api::VertexOpenAiCompat,
        Api::BedrockConverse,
        Api::BedrockInvoke,
        Api::OllamaChat,
        Api::CohereChat,
    ];

    /// The shape entry of this API: an exhaustive match, so a new variant does not compile
    /// without its entry.
    ///
    /// ```
    /// use tower_toolschema::shapes::Api;
    /// assert!(!Api::AnthropicMessages.shape().slots.is_empty());
    /// ```
    pub fn shape(self) -> &'static ApiShape {
        match self {
            Api::OpenAiChat => &OPENAI_CHAT,
            Api::OpenAiResponses => &OPENAI_RESPONSES,
            Api::AnthropicMessages => &ANTHROPIC_MESSAGES,
            Api::AnthropicBatches => &ANTHROPIC_BATCHES,
            Api::Gemini => &GEMINI,
            Api::GeminiCountTokens => &GEMINI_COUNT_TOKENS,
            Api::GeminiCachedContents => &GEMINI_CACHED_CONTENTS,
            Api::GeminiOpenAiCompat => &GEMINI_OPENAI_COMPAT,
            Api::CodeAssist => &CODE_ASSIST,
            Api::VertexGemini => &VERTEX_GEMINI,
            Api::VertexAnthropic => &VERTEX_ANTHROPIC,
            Api::VertexOpenAiCompat => &VERTEX_OPENAI_COMPAT,
            Api::BedrockConverse => &BEDROCK_CONVERSE,
            Api::BedrockInvoke => &BEDROCK_INVOKE,
            Api::OllamaChat => &OLLAMA_CHAT,
            Api::CohereChat => &COHERE_CHAT,
        }
    }
}

impl fmt::Display for Api {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A provider family by name, for [`Profiles::for_family`](crate::Profiles::for_family).
///
/// The shape table does not use it: which provider an API's slots take is the registry's
/// [`Provider::apis`](provider_rules::Provider::apis) (see [`auto_provider`](crate::auto_provider)).
///
/// ```
/// use tower_toolschema::{Profiles, shapes::Family};
/// assert_eq!(Profiles::for_family(Family::Bedrock).native.name(), "bedrock");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Family {
    /// OpenAI (strict tools take the strict profile).
    OpenAi,
    /// Anthropic (strict tools take the strict profile).
    Anthropic,
    /// Gemini API: Schema-proto slots take `gemini`, `*JsonSchema` slots `gemini-jsonschema`.
    Gemini,
    /// Gemini Code Assist / Antigravity.
    CodeAssist,
    /// Vertex AI Gemini.
    Vertex,
    /// xAI (only reached through `auto`'s host / model detection).
    Xai,
    /// Amazon Bedrock Converse.
    Bedrock,
}

/// What a schema slot holds.
///
/// ```
/// use tower_toolschema::shapes::{Api, SlotRole};
/// let roles: Vec<SlotRole> = Api::OpenAiChat.shape().slots.iter().map(|s| s.role).collect();
/// assert_eq!(roles, [SlotRole::ToolParameters, SlotRole::ToolParameters, SlotRole::Output]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SlotRole {
    /// A tool's input schema (root rules apply: an object schema).
    ToolParameters,
    /// A tool's output / response schema.
    ToolOutput,
    /// A structured-output (response format) schema.
    Output,
}

impl SlotRole {
    /// The engine's view of the role: whether root rules apply (a tool's input schema).
    ///
    /// ```
    /// use tower_toolschema::shapes::SlotRole;
    /// assert_eq!(SlotRole::ToolParameters.engine_slot(), provider_rules::Slot::Parameters);
    /// assert_eq!(SlotRole::Output.engine_slot(), provider_rules::Slot::Schema);
    /// ```
    pub fn engine_slot(self) -> provider_rules::Slot {
        match self {
            SlotRole::ToolParameters => provider_rules::Slot::Parameters,
            SlotRole::ToolOutput | SlotRole::Output => provider_rules::Slot::Schema,
        }
    }
}

/// Which schema language a slot speaks.
///
/// ```
/// use tower_toolschema::shapes::{Api, Dialect};
/// let dialect = |path: &str| Api::Gemini.shape().slots.iter().find(|s| s.path == path).map(|s| s.dialect);
/// assert_eq!(dialect("tools[].functionDeclarations[].parameters"), Some(Dialect::Native));
/// assert_eq!(dialect("tools[].functionDeclarations[].parametersJsonSchema"), Some(Dialect::JsonSchema));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Dialect {
    /// The provider's own schema dialect (Gemini's `Schema` proto for `parameters`,
    /// `responseSchema`; plain JSON Schema subsets elsewhere).
    Native,
    /// Gemini's `*JsonSchema` slots: JSON Schema proper, with different rules.
    JsonSchema,
}

/// How the schema is stored in its slot.
///
/// ```
/// use tower_toolschema::shapes::{Api, Encoding};
/// let slots = Api::BedrockConverse.shape().slots;
/// let structured = slots.iter().find(|s| s.path.ends_with("jsonSchema.schema")).unwrap();
/// assert_eq!(structured.encoding, Encoding::JsonString);
/// assert_eq!(slots[0].encoding, Encoding::Json);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Encoding {
    /// The slot's JSON value is the schema.
    Json,
    /// The slot's JSON value is a *string* holding the schema's JSON text (Bedrock's
    /// `outputConfig.textFormat.structure.jsonSchema.schema`): parsed, sanitized, re-encoded.
    JsonString,
    /// The slot's JSON value is the schema when it is an object; any other value is not a
    /// schema and the slot is not there (Ollama's `format`, which may also be the string
    /// `"json"` for plain JSON mode).
    ///
    /// ```
    /// use tower_toolschema::shapes::{Api, Encoding};
    /// let format = Api::OllamaChat.shape().slots.iter().find(|s| s.path == "format").unwrap();
    /// assert_eq!(format.encoding, Encoding::JsonObject);
    /// ```
    JsonObject,
}

/// One schema slot of an API body.
///
/// `path` is a dotted path from the body's root; `name[]` steps into every element of the
/// array `name`.
///
/// ```
/// use tower_toolschema::shapes::Api;
/// let spec = &Api::OpenAiChat.shape().slots[0];
/// assert_eq!(spec.path, "tools[].function.parameters");
/// assert_eq!(spec.name, Some("tools[].function.name"));
/// assert_eq!(spec.strict, Some("tools[].function.strict"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SlotSpec {
    /// The slot's path, e.g. `tools[].function.parameters`.
    pub path: &'static str,
    /// What the slot holds.
    pub role: SlotRole,
    /// Which dialect it speaks.
    pub dialect: Dialect,
    /// How the schema is stored.
    pub encoding: Encoding,
    /// Where the slot's name sits (the tool's or the response format's), a path in the same
    /// syntax; the object holding it is the one that declares the slot (`tools[].function` for
    /// `tools[].function.parameters`). `None`: the slot has no name.
    pub name: Option<&'static str>,
    /// Where the `strict` flag that asks for strict mode for this slot sits; `None`: the API
    /// has no such flag here.
    pub strict: Option<&'static str>,
}

/// One API: how to recognise its URLs and where its schema slots are.
///
/// URL patterns are matched on the path, segment by segment: a leading `**` matches any prefix,
/// `*` any one segment, `*:name` a segment ending in `:name`; anything else literally.
///
/// ```
/// use tower_toolschema::shapes::{Api, ApiShape};
/// let path = "/v1/projects/p/locations/l/publishers/anthropic/models/claude:rawPredict";
/// let shape = ApiShape::for_path(path).unwrap();
/// assert_eq!(shape.api, Api::VertexAnthropic);
/// assert_eq!(shape.copy_of, Some(Api::AnthropicMessages));
/// assert!(shape.response.renames());
/// ```
#[derive(Debug, Clone, Copy)]
pub struct ApiShape {
    /// The API.
    pub api: Api,
    /// The API whose body shape this one copies (a vendor hosting it, or a sibling endpoint
    /// taking the same body). A body recognised by its shape alone is named after the API it
    /// copies, not after the copy.
    pub copy_of: Option<Api>,
    /// URL path patterns.
    pub paths: &'static [&'static str],
    /// The schema slots of its request body.
    pub slots: &'static [SlotSpec],
    /// The way back: where tool names sit in its requests besides the slots, where tool calls
    /// sit in its responses and stream events.
    pub response: ResponseShape,
}

impl ApiShape {
    /// The first table entry one of whose patterns matches `path` (a URL path, no query).
    ///
    /// ```
    /// use tower_toolschema::shapes::{Api, ApiShape};
    /// let s = ApiShape::for_path("/model/anthropic.claude-sonnet-4/converse").unwrap();
    /// assert_eq!(s.api, Api::BedrockConverse);
    /// ```
    ///
    /// The patterns are split once per process; a call splits `path` once (on the stack) and
    /// compares segments, without allocating: O(patterns × segments).
    pub fn for_path(path: &str) -> Option<&'static ApiShape> {
        let path = path.split('?').next().unwrap_or(path);
        const MAX: usize = 16;
        let mut segs = [""; MAX];
        let mut n = 0;
        for seg in path.rsplit('/').filter(|s| !s.is_empty()) {
            if n == MAX {
                // An unusually deep path: the plain matcher.
                return SHAPES
                    .iter()
                    .copied()
                    .find(|shape| shape.paths.iter().any(|p| path_matches(p, path)));
            }
            segs[n] = seg;
            n += 1;
        }
        let segs = &segs[..n];
        compiled_patterns()
            .iter()
            .find(|p| {
                let len_ok = if p.anchored {
                    p.segs_rev.len() == n
                } else {
                    p.segs_rev.len() <= n
                };
                len_ok
                    && p.segs_rev
                        .iter()
                        .zip(segs)
                        .all(|(p, s)| segment_matches(p, s))
            })
            .map(|p| p.shape)
    }
}

/// A URL pattern split into its segments, last first.
struct CompiledPattern {
    shape: &'static ApiShape,
    anchored: bool,
    segs_rev: Vec<&'static str>,
}

/// Every pattern of the table, in table order.
fn compiled_patterns() -> &'static [CompiledPattern] {
    static PATTERNS: std::sync::OnceLock<Vec<CompiledPattern>> = std::sync::OnceLock::new();
    PATTERNS.get_or_init(|| {
        SHAPES
            .iter()
            .flat_map(|&shape| {
                shape.paths.iter().map(move |p| {
                    let (anchored, rest) = match p.strip_prefix("**") {
                        Some(rest) => (false, rest),
                        None => (true, *p),
                    };
                    CompiledPattern {
                        shape,
                        anchored,
                        segs_rev: rest.rsplit('/').filter(|s| !s.is_empty()).collect(),
                    }
                })
            })
            .collect()
    })
}

/// Matches one URL pattern (see [`ApiShape`]) against a path: segments are compared from the
/// end, without allocating. O(segments).
pub(crate) fn path_matches(pattern: &str, path: &str) -> bool {
    let path = path.strip_suffix('/').unwrap_or(path);
    let (anchored, pattern) = match pattern.strip_prefix("**") {
        Some(rest) => (false, rest),
        None => (true, pattern),
    };
    let mut pat = pattern.rsplit('/').filter(|s| !s.is_empty());
    let mut segs = path.rsplit('/').filter(|s| !s.is_empty());
    loop {
        match (pat.next(), segs.next()) {
            (None, None) => return true,
            (None, Some(_)) => return !anchored,
            (Some(_), None) => return false,
            (Some(p), Some(s)) => {
                if !segment_matches(p, s) {
                    return false;
                }
            }
        }
    }
}

fn segment_matches(pattern: &str, segment: &str) -> bool {
    if pattern == "*" {
        return true;
    }
    if let Some(suffix) = pattern.strip_prefix('*') {
        return segment.len() > suffix.len() && segment.ends_with(suffix);
    }
    pattern == segment
}

const fn slot(path: &'static str, role: SlotRole, dialect: Dialect) -> SlotSpec {
    SlotSpec {
        path,
        role,
        dialect,
        encoding: Encoding::Json,
        name: None,
        strict: None,
    }
}

impl SlotSpec {
    /// The same slot, named by the string at `path` (see [`SlotSpec::name`]).
    const fn named(mut self, path: &'static str) -> SlotSpec {
        self.name = Some(path);
        self
    }

    /// The same slot, with its `strict` flag at `path` (see [`SlotSpec::strict`]).
    const fn strict_at(mut self, path: &'static str) -> SlotSpec {
        self.strict = Some(path);
        self
    }

    /// The same slot, stored with `encoding`.
    const fn stored(mut self, encoding: Encoding) -> SlotSpec {
        self.encoding = encoding;
        self
    }
}

const PLACEHOLDER: SlotSpec = slot("", SlotRole::Output, Dialect::Native);

/// The slots of `parts`, in order, as one array (parts that do not add up to `N` fail to
/// compile).
const fn join<const N: usize>(parts: &[&[SlotSpec]]) -> [SlotSpec; N] {
    let mut out = [PLACEHOLDER; N];
    let (mut n, mut i) = (0, 0);
    while i < parts.len() {
        let mut j = 0;
        while j < parts[i].len() {
            out[n] = parts[i][j];
            n += 1;
            j += 1;
        }
        i += 1;
    }
    assert!(n == N, "the parts do not add up to N slots");
    out
}

// Gemini bodies are proto3 JSON: the server reads every field under its lowerCamel JSON name or
// its snake_case proto name, independently at each level, and the official SDKs mix them:
// google-genai for Python (3.x) writes `tools[].functionDeclarations[]` and `generationConfig`,
// but dumps each declaration with its pydantic field names (`parameters_json_schema`,
// `response_json_schema`); the JS SDK and gemini-cli write camelCase throughout; hand-written
// and proto-generated clients write snake_case. So each level's every spelling is a slot path.

/// One function-declaration list (spelled `$decl`) under `$p`: its slots, named by `name`.
macro_rules! declarations {
    ($p:literal, $decl:literal) => {{
        const NAME: &str = concat!($p, "tools[].", $decl, "[].name");
        [
            slot(
                concat!($p, "tools[].", $decl, "[].parameters"),
                SlotRole::ToolParameters,
                Dialect::Native,
            )
            .named(NAME),
            slot(
                concat!($p, "tools[].", $decl, "[].response"),
                SlotRole::ToolOutput,
                Dialect::Native,
            )
            .named(NAME),
            slot(
                concat!($p, "tools[].", $decl, "[].parametersJsonSchema"),
                SlotRole::ToolParameters,
                Dialect::JsonSchema,
            )
            .named(NAME),
            slot(
                concat!($p, "tools[].", $decl, "[].parameters_json_schema"),
                SlotRole::ToolParameters,
                Dialect::JsonSchema,
            )
            .named(NAME),
            slot(
                concat!($p, "tools[].", $decl, "[].responseJsonSchema"),
                SlotRole::ToolOutput,
                Dialect::JsonSchema,
            )
            .named(NAME),
            slot(
                concat!($p, "tools[].", $decl, "[].response_json_schema"),
                SlotRole::ToolOutput,
                Dialect::JsonSchema,
            )
            .named(NAME),
        ]
    }};
}

/// One generation config (spelled `$cfg`) under `$p`. Field 24 of `GenerationConfig` is
/// `response_json_schema` with the JSON name `_responseJsonSchema`; field 28 is
/// `response_json_schema_ordered` with the JSON name `responseJsonSchema`.
macro_rules! generation_config {
    ($p:literal, $cfg:literal) => {
        [
            slot(
                concat!($p, $cfg, ".responseSchema"),
                SlotRole::Output,
                Dialect::Native,
            ),
            slot(
                concat!($p, $cfg, ".response_schema"),
                SlotRole::Output,
                Dialect::Native,
            ),
            slot(
                concat!($p, $cfg, ".responseJsonSchema"),
                SlotRole::Output,
                Dialect::JsonSchema,
            ),
            slot(
                concat!($p, $cfg, "._responseJsonSchema"),
                SlotRole::Output,
                Dialect::JsonSchema,
            ),
            slot(
                concat!($p, $cfg, ".response_json_schema"),
                SlotRole::Output,
                Dialect::JsonSchema,
            ),
            slot(
                concat!($p, $cfg, ".response_json_schema_ordered"),
                SlotRole::Output,
                Dialect::JsonSchema,
            ),
        ]
    };
}

/// Every Gemini slot under `$p`: both spellings of the declaration list, both of the
/// generation config, every spelling of each field in them.
macro_rules! gemini_slots {
    ($p:literal) => {
        join::<24>(&[
            &declarations!($p, "functionDeclarations"),
            &declarations!($p, "function_declarations"),
            &generation_config!($p, "generationConfig"),
            &generation_config!($p, "generation_config"),
        ])
    };
}

macro_rules! anthropic_slots {
    ($p:literal) => {
        [
            slot(
                concat!($p, "tools[].input_schema"),
                SlotRole::ToolParameters,
                Dialect::Native,
            )
            .named(concat!($p, "tools[].name"))
            .strict_at(concat!($p, "tools[].strict")),
            slot(
                concat!($p, "output_config.format.schema"),
                SlotRole::Output,
                Dialect::Native,
            ),
            slot(
                concat!($p, "output_format.schema"),
                SlotRole::Output,
                Dialect::Native,
            ),
        ]
    };
}

const GEMINI_SLOTS: [SlotSpec; 24] = gemini_slots!("");
const CODE_ASSIST_SLOTS: [SlotSpec; 24] = gemini_slots!("request.");
const GEMINI_COUNT_TOKENS_SLOTS: [SlotSpec; 72] = join(&[
    &GEMINI_SLOTS,
    &gemini_slots!("generateContentRequest."),
    &gemini_slots!("generate_content_request."),
]);
/// `CachedContent` has `tools`, no generation config.
const GEMINI_CACHED_SLOTS: [SlotSpec; 12] = join(&[
    &declarations!("", "functionDeclarations"),
    &declarations!("", "function_declarations"),
]);

/// The OpenAI Chat tool slot (also Ollama's and Cohere's): named and flagged in `function`.
const CHAT_TOOL: SlotSpec = slot(
    "tools[].function.parameters",
    SlotRole::ToolParameters,
    Dialect::Native,
)
.named("tools[].function.name");

const OPENAI_CHAT_SLOTS: [SlotSpec; 3] = [
    CHAT_TOOL.strict_at("tools[].function.strict"),
    slot(
        "functions[].parameters",
        SlotRole::ToolParameters,
        Dialect::Native,
    )
    .named("functions[].name"),
    slot(
        "response_format.json_schema.schema",
        SlotRole::Output,
        Dialect::Native,
    )
    .named("response_format.json_schema.name")
    .strict_at("response_format.json_schema.strict"),
];

/// One Responses tool list under `$p` (`$p` ends in `tools[].`): parameters and output schema,
/// named and flagged in the tool.
macro_rules! responses_tools {
    ($p:literal) => {
        [
            slot(
                concat!($p, "parameters"),
                SlotRole::ToolParameters,
                Dialect::Native,
            )
            .named(concat!($p, "name"))
            .strict_at(concat!($p, "strict")),
            slot(
                concat!($p, "output_schema"),
                SlotRole::ToolOutput,
                Dialect::Native,
            )
            .named(concat!($p, "name"))
            .strict_at(concat!($p, "strict")),
        ]
    };
}

/// Responses: top-level `tools` (and namespace nesting), the same under the `tools` of
/// `additional_tools` / `tool_search_output` input items, and `text.format.schema`.
const OPENAI_RESPONSES_SLOTS: [SlotSpec; 9] = join(&[
    &responses_tools!("tools[]."),
    &responses_tools!("tools[].tools[]."),
    &responses_tools!("input[].tools[]."),
    &responses_tools!("input[].tools[].tools[]."),
    &[
        slot("text.format.schema", SlotRole::Output, Dialect::Native)
            .named("text.format.name")
            .strict_at("text.format.strict"),
    ],
]);

/// Ollama's native `/api/chat`: the OpenAI Chat tool slot, and `format` when it is an object.
const OLLAMA_CHAT_SLOTS: [SlotSpec; 2] = [
    CHAT_TOOL,
    slot("format", SlotRole::Output, Dialect::Native).stored(Encoding::JsonObject),
];

/// Cohere Chat v2: the OpenAI Chat tool slot; `response_format.json_schema` is the schema itself.
const COHERE_CHAT_SLOTS: [SlotSpec; 2] = [
    CHAT_TOOL,
    slot(
        "response_format.json_schema",
        SlotRole::Output,
        Dialect::Native,
    ),
];

const ANTHROPIC_SLOTS: [SlotSpec; 3] = anthropic_slots!("");
const ANTHROPIC_BATCH_SLOTS: [SlotSpec; 3] = anthropic_slots!("requests[].params.");

const BEDROCK_CONVERSE_SLOTS: [SlotSpec; 2] = [
    slot(
        "toolConfig.tools[].toolSpec.inputSchema.json",
        SlotRole::ToolParameters,
        Dialect::Native,
    )
    .named("toolConfig.tools[].toolSpec.name"),
    slot(
        "outputConfig.textFormat.structure.jsonSchema.schema",
        SlotRole::Output,
        Dialect::Native,
    )
    .named("outputConfig.textFormat.structure.jsonSchema.name")
    .stored(Encoding::JsonString),
];

static CODE_ASSIST: ApiShape = ApiShape {
    api: Api::CodeAssist,
    copy_of: None,
    paths: &[
        "**/v1internal:generateContent",
        "**/v1internal:streamGenerateContent",
        "**/v1internal:countTokens",
    ],
    slots: &CODE_ASSIST_SLOTS,
    response: response::CODE_ASSIST,
};
static VERTEX_ANTHROPIC: ApiShape = ApiShape {
    api: Api::VertexAnthropic,
    copy_of: Some(Api::AnthropicMessages),
    paths: &[
        "**/publishers/anthropic/models/*:rawPredict",
        "**/publishers/anthropic/models/*:streamRawPredict",
        "**/publishers/anthropic/models/*:countTokens",
    ],
    slots: &ANTHROPIC_SLOTS,
    response: response::ANTHROPIC,
};
static VERTEX_OPENAI_COMPAT: ApiShape = ApiShape {
    api: Api::VertexOpenAiCompat,
    copy_of: Some(Api::OpenAiChat),
    paths: &["**/endpoints/openapi/chat/completions"],
    slots: &OPENAI_CHAT_SLOTS,
    response: response::CHAT,
};
static VERTEX_GEMINI: ApiShape = ApiShape {
    api: Api::VertexGemini,
    copy_of: Some(Api::Gemini),
    paths: &[
        "**/publishers/google/models/*:generateContent",
        "**/publishers/google/models/*:streamGenerateContent",
        "**/publishers/google/models/*:countTokens",
        "**/locations/*/endpoints/*:generateContent",
        "**/locations/*/endpoints/*:streamGenerateContent",
        "**/locations/*/cachedContents",
        "**/locations/*/cachedContents/*",
    ],
    slots: &GEMINI_SLOTS,
    response: response::GEMINI,
};
static GEMINI_COUNT_TOKENS: ApiShape = ApiShape {
    api: Api::GeminiCountTokens,
    copy_of: Some(Api::Gemini),
    paths: &["**/*:countTokens"],
    slots: &GEMINI_COUNT_TOKENS_SLOTS,
    response: response::NOT_READ,
};
static GEMINI: ApiShape = ApiShape {
    api: Api::Gemini,
    copy_of: None,
    paths: &["**/*:generateContent", "**/*:streamGenerateContent"],
    slots: &GEMINI_SLOTS,
    response: response::GEMINI,
};
static GEMINI_CACHED_CONTENTS: ApiShape = ApiShape {
    api: Api::GeminiCachedContents,
    copy_of: Some(Api::Gemini),
    paths: &["**/cachedContents", "**/cachedContents/*"],
    slots: &GEMINI_CACHED_SLOTS,
    response: response::NOT_READ,
};
static GEMINI_OPENAI_COMPAT: ApiShape = ApiShape {
    api: Api::GeminiOpenAiCompat,
    copy_of: Some(Api::OpenAiChat),
    paths: &["**/v1beta/openai/chat/completions"],
    slots: &OPENAI_CHAT_SLOTS,
    response: response::CHAT,
};
static ANTHROPIC_BATCHES: ApiShape = ApiShape {
    api: Api::AnthropicBatches,
    copy_of: None,
    paths: &["**/v1/messages/batches"],
    slots: &ANTHROPIC_BATCH_SLOTS,
    response: response::NOT_READ,
};
static ANTHROPIC_MESSAGES: ApiShape = ApiShape {
    api: Api::AnthropicMessages,
    copy_of: None,
    paths: &["**/v1/messages", "**/v1/messages/count_tokens"],
    slots: &ANTHROPIC_SLOTS,
    response: response::ANTHROPIC,
};
static BEDROCK_CONVERSE: ApiShape = ApiShape {
    api: Api::BedrockConverse,
    copy_of: None,
    paths: &["**/model/*/converse", "**/model/*/converse-stream"],
    slots: &BEDROCK_CONVERSE_SLOTS,
    response: response::BEDROCK_CONVERSE,
};
static BEDROCK_INVOKE: ApiShape = ApiShape {
    api: Api::BedrockInvoke,
    copy_of: Some(Api::AnthropicMessages),
    paths: &[
        "**/model/*/invoke",
        "**/model/*/invoke-with-response-stream",
    ],
    slots: &ANTHROPIC_SLOTS,
    response: response::ANTHROPIC,
};
static OPENAI_RESPONSES: ApiShape = ApiShape {
    api: Api::OpenAiResponses,
    copy_of: None,
    paths: &["**/responses", "**/responses/input_tokens"],
    slots: &OPENAI_RESPONSES_SLOTS,
    response: response::RESPONSES,
};
static OPENAI_CHAT: ApiShape = ApiShape {
    api: Api::OpenAiChat,
    copy_of: None,
    paths: &["**/chat/completions"],
    slots: &OPENAI_CHAT_SLOTS,
    response: response::CHAT,
};
static OLLAMA_CHAT: ApiShape = ApiShape {
    api: Api::OllamaChat,
    copy_of: Some(Api::OpenAiChat),
    paths: &["**/api/chat"],
    slots: &OLLAMA_CHAT_SLOTS,
    response: response::CHAT,
};
static COHERE_CHAT: ApiShape = ApiShape {
    api: Api::CohereChat,
    copy_of: Some(Api::OpenAiChat),
    paths: &["**/v2/chat"],
    slots: &COHERE_CHAT_SLOTS,
    response: response::CHAT,
};

/// The API-shape table, in the order URL patterns are tried (the first match wins, so specific
/// patterns come before generic ones). Every [`Api`] is in it once (a test walks [`Api::ALL`]);
/// fuzz seeds and the CLI name APIs by [`Api::name`], never by a position here.
///
/// ```
/// use tower_toolschema::shapes::{Api, SHAPES};
/// assert_eq!(SHAPES.len(), Api::ALL.len());
/// // Specific patterns first: Vertex's Claude endpoint before Anthropic Messages.
/// let at = |api| SHAPES.iter().position(|s| s.api == api);
/// assert!(at(Api::VertexAnthropic) < at(Api::AnthropicMessages));
/// ```
pub static SHAPES: [&ApiShape; 16] = [
    &CODE_ASSIST,
    &VERTEX_ANTHROPIC,
    &VERTEX_OPENAI_COMPAT,
    &VERTEX_GEMINI,
    &GEMINI_COUNT_TOKENS,
    &GEMINI,
    &GEMINI_CACHED_CONTENTS,
    &GEMINI_OPENAI_COMPAT,
    &ANTHROPIC_BATCHES,
    &ANTHROPIC_MESSAGES,
    &BEDROCK_CONVERSE,
    &BEDROCK_INVOKE,
    &OPENAI_RESPONSES,
    &OPENAI_CHAT,
    &OLLAMA_CHAT,
    &COHERE_CHAT,
];

#[cfg(test)]
mod tests {
    use super::*;

    /// Lists the variants in an exhaustive `match` with no wildcard (a new variant does not
    /// compile until it is named here) and returns them in that order.
    macro_rules! every_variant {
        ($($v:ident),* $(,)?) => {{
            fn named_here(api: Api) {
                match api {
                    $(Api::$v => {})*
                }
            }
            let _ = named_here;
            [$(Api::$v),*]
        }};
    }

    #[test]
    fn all_lists_every_variant_and_the_table_every_api() {
        let variants = every_variant!(
            OpenAiChat,
            OpenAiResponses,
            AnthropicMessages,
            AnthropicBatches,
            Gemini,
            GeminiCountTokens,
            GeminiCachedContents,
            GeminiOpenAiCompat,
            CodeAssist,
            VertexGemini,
            VertexAnthropic,
            VertexOpenAiCompat,
            BedrockConverse,
            BedrockInvoke,
            OllamaChat,
            CohereChat,
        );
        assert_eq!(Api::ALL, variants, "Api::ALL misses or reorders a variant");
        for api in variants {
            let in_table: Vec<Api> = SHAPES.iter().map(|s| s.api).filter(|a| *a == api).collect();
            assert_eq!(in_table, [api], "{api}: not in SHAPES exactly once");
            assert_eq!(api.shape().api, api);
        }
    }

    #[test]
    fn every_api_has_one_entry_and_slots() {
        // Walks the APIs, not the table: an API missing from `SHAPES` is caught here.
        assert_eq!(SHAPES.len(), Api::ALL.len());
        for (i, api) in Api::ALL.into_iter().enumerate() {
            // `ALL` is in declaration order, each variant once.
            assert_eq!(api as usize, i, "{api}");
            let shape = api.shape();
            assert_eq!(shape.api, api);
            assert_eq!(
                SHAPES.iter().filter(|s| std::ptr::eq(**s, shape)).count(),
                1,
                "{api}: not in SHAPES once"
            );
            assert!(!shape.slots.is_empty(), "{api}");
            assert_eq!(Api::from_name(api.name()), Some(api));
            if let Some(original) = shape.copy_of {
                assert_eq!(original.shape().copy_of, None, "{api}: a copy of a copy");
            }
        }
    }

    /// The segments of a path (`[]` is a segment of its own).
    fn segs(path: &str) -> Vec<&str> {
        path.split('.')
            .flat_map(|p| match p.strip_suffix("[]") {
                Some(k) => vec![k, "[]"],
                None => vec![p],
            })
            .collect()
    }

    #[test]
    fn names_and_strict_flags_sit_in_an_object_on_the_slot_path() {
        for api in Api::ALL {
            for spec in api.shape().slots {
                let slot = segs(spec.path);
                for (path, key) in [(spec.name, "name"), (spec.strict, "strict")] {
                    let Some(path) = path else { continue };
                    let at = segs(path);
                    let (last, parent) = at.split_last().unwrap();
                    assert_eq!(*last, key, "{api} {}", spec.path);
                    assert!(
                        parent.len() < slot.len() && slot.starts_with(parent),
                        "{api} {}: {path} is not beside the slot path",
                        spec.path
                    );
                }
            }
        }
    }

    #[test]
    fn every_gemini_spelling_mix_is_a_slot() {
        let has = |api: Api, path: &str| api.shape().slots.iter().any(|s| s.path == path);
        for decl in ["functionDeclarations", "function_declarations"] {
            for (field, dialect) in [
                ("parameters", Dialect::Native),
                ("parametersJsonSchema", Dialect::JsonSchema),
                ("parameters_json_schema", Dialect::JsonSchema),
            ] {
                for (api, prefix) in [
                    (Api::Gemini, ""),
                    (Api::VertexGemini, ""),
                    (Api::GeminiCachedContents, ""),
                    (Api::CodeAssist, "request."),
                    (Api::GeminiCountTokens, ""),
                    (Api::GeminiCountTokens, "generateContentRequest."),
                    (Api::GeminiCountTokens, "generate_content_request."),
                ] {
                    let path = format!("{prefix}tools[].{decl}[].{field}");
                    let spec = api.shape().slots.iter().find(|s| s.path == path);
                    assert_eq!(spec.map(|s| s.dialect), Some(dialect), "{api} {path}");
                }
            }
        }
        for cfg in ["generationConfig", "generation_config"] {
            for field in [
                "responseSchema",
                "response_schema",
                "responseJsonSchema",
                "_responseJsonSchema",
                "response_json_schema",
            ] {
                assert!(has(Api::Gemini, &format!("{cfg}.{field}")), "{cfg}.{field}");
                assert!(has(Api::CodeAssist, &format!("request.{cfg}.{field}")));
            }
        }
    }

    #[test]
    fn paths_identify_apis() {
        let cases = [
            ("/v1/chat/completions", Api::OpenAiChat),
            ("/openai/deployments/gpt4/chat/completions", Api::OpenAiChat),
            ("/api/v1/chat/completions", Api::OpenAiChat),
            ("/chat/completions", Api::OpenAiChat),
            ("/api/chat", Api::OllamaChat),
            ("/v2/chat", Api::CohereChat),
            ("/cohere/v2/chat", Api::CohereChat),
            ("/v1/responses", Api::OpenAiResponses),
            ("/v1/responses/input_tokens", Api::OpenAiResponses),
            ("/v1/messages", Api::AnthropicMessages),
            ("/v1/messages/count_tokens", Api::AnthropicMessages),
            ("/v1/messages/batches", Api::AnthropicBatches),
            ("/v1beta/models/gemini-2.5-pro:generateContent", Api::Gemini),
            (
                "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse",
                Api::Gemini,
            ),
            ("/v1beta/tunedModels/x:generateContent", Api::Gemini),
            (
                "/v1beta/models/gemini-2.5-pro:countTokens",
                Api::GeminiCountTokens,
            ),
            ("/v1beta/cachedContents", Api::GeminiCachedContents),
            ("/v1beta/openai/chat/completions", Api::GeminiOpenAiCompat),
            ("/v1internal:generateContent", Api::CodeAssist),
            ("/v1internal:streamGenerateContent", Api::CodeAssist),
            (
                "/v1/projects/p/locations/us-central1/publishers/google/models/gemini-2.5-pro:generateContent",
                Api::VertexGemini,
            ),
            (
                "/v1/projects/p/locations/l/endpoints/123:generateContent",
                Api::VertexGemini,
            ),
            (
                "/v1/projects/p/locations/l/publishers/anthropic/models/claude-sonnet-4:rawPredict",
                Api::VertexAnthropic,
            ),
            (
                "/v1/projects/p/locations/l/endpoints/openapi/chat/completions",
                Api::VertexOpenAiCompat,
            ),
            (
                "/model/anthropic.claude-3-haiku/converse-stream",
                Api::BedrockConverse,
            ),
            ("/model/anthropic.claude-3-haiku/invoke", Api::BedrockInvoke),
        ];
        let plain = |path: &str| {
            let path = path.split('?').next().unwrap_or(path);
            SHAPES
                .iter()
                .copied()
                .find(|shape| shape.paths.iter().any(|p| path_matches(p, path)))
                .map(|s| s.api)
        };
        for (path, api) in cases {
            assert_eq!(ApiShape::for_path(path).map(|s| s.api), Some(api), "{path}");
            assert_eq!(plain(path), Some(api), "{path}");
        }
        let deep = format!("{}/v1/chat/completions/", "/a".repeat(40));
        assert_eq!(
            ApiShape::for_path(&deep).map(|s| s.api),
            Some(Api::OpenAiChat)
        );
        for path in [
            "/",
            "",
            "/v1/embeddings",
            "/v1/models",
            "/v1/chat",
            "/v2/chat/x",
            "/:generateContent",
            "/health",
        ] {
            assert!(ApiShape::for_path(path).is_none(), "{path}");
        }
    }
}
