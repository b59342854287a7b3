//! The API-shape table: for each LLM API, the URL patterns that identify it and the JSON paths
//! of the schema slots in its request body.
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

/// An LLM HTTP API whose request bodies carry schema slots.
///
/// See the [module docs](crate::shapes) for an example.
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
    pub fn name(self) -> &'static str {
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
        SHAPES.iter().map(|s| s.api).find(|a| a.name() == name)
    }

    /// The shape entry of this API.
    ///
    /// ```
    /// use tower_toolschema::shapes::Api;
    /// assert!(!Api::AnthropicMessages.shape().slots.is_empty());
    /// ```
    pub fn shape(self) -> &'static ApiShape {
        // Every variant has exactly one entry; the fallback keeps this panic-free.
        SHAPES.iter().find(|s| s.api == self).unwrap_or(&SHAPES[0])
    }
}

impl fmt::Display for Api {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which provider family's rules an API's slots take by default.
///
/// See the [module docs](crate::shapes) for an example.
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
/// See the [module docs](crate::shapes) for an example.
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

/// Which schema language a slot speaks.
///
/// See the [module docs](crate::shapes) for an example.
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
/// See the [module docs](crate::shapes) for an example.
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
/// array `name`. See the [module docs](crate::shapes) for an example.
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
}

/// One API: how to recognise its URLs and where its schema slots are.
///
/// URL patterns are matched on the path, segment by segment: a leading `**` matches any prefix,
/// `*` any one segment, `*:name` a segment ending in `:name`; anything else literally.
/// See the [module docs](crate::shapes) for an example.
#[derive(Debug, Clone, Copy)]
pub struct ApiShape {
    /// The API.
    pub api: Api,
    /// The provider family whose profiles its slots take by default.
    pub family: Family,
    /// URL path patterns.
    pub paths: &'static [&'static str],
    /// The schema slots of its request body.
    pub slots: &'static [SlotSpec],
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
            .flat_map(|shape| {
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
    }
}

macro_rules! gemini_slots {
    ($p:literal) => {
        [
            slot(
                concat!($p, "tools[].functionDeclarations[].parameters"),
                SlotRole::ToolParameters,
                Dialect::Native,
            ),
            slot(
                concat!($p, "tools[].functionDeclarations[].response"),
                SlotRole::ToolOutput,
                Dialect::Native,
            ),
            slot(
                concat!($p, "tools[].functionDeclarations[].parametersJsonSchema"),
                SlotRole::ToolParameters,
                Dialect::JsonSchema,
            ),
            slot(
                concat!($p, "tools[].functionDeclarations[].responseJsonSchema"),
                SlotRole::ToolOutput,
                Dialect::JsonSchema,
            ),
            slot(
                concat!($p, "tools[].function_declarations[].parameters"),
                SlotRole::ToolParameters,
                Dialect::Native,
            ),
            slot(
                concat!($p, "tools[].function_declarations[].response"),
                SlotRole::ToolOutput,
                Dialect::Native,
            ),
            slot(
                concat!($p, "tools[].function_declarations[].parameters_json_schema"),
                SlotRole::ToolParameters,
                Dialect::JsonSchema,
            ),
            slot(
                concat!($p, "tools[].function_declarations[].response_json_schema"),
                SlotRole::ToolOutput,
                Dialect::JsonSchema,
            ),
            slot(
                concat!($p, "generationConfig.responseSchema"),
                SlotRole::Output,
                Dialect::Native,
            ),
            slot(
                concat!($p, "generationConfig.responseJsonSchema"),
                SlotRole::Output,
                Dialect::JsonSchema,
            ),
            slot(
                concat!($p, "generationConfig._responseJsonSchema"),
                SlotRole::Output,
                Dialect::JsonSchema,
            ),
            slot(
                concat!($p, "generation_config.response_schema"),
                SlotRole::Output,
                Dialect::Native,
            ),
            slot(
                concat!($p, "generation_config.response_json_schema"),
                SlotRole::Output,
                Dialect::JsonSchema,
            ),
        ]
    };
}

macro_rules! anthropic_slots {
    ($p:literal) => {
        [
            slot(
                concat!($p, "tools[].input_schema"),
                SlotRole::ToolParameters,
                Dialect::Native,
            ),
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

const GEMINI_SLOTS: [SlotSpec; 13] = gemini_slots!("");
const GEMINI_REQUEST_SLOTS: [SlotSpec; 13] = gemini_slots!("request.");
const GEMINI_COUNT_TOKENS_SLOTS: [SlotSpec; 26] = {
    let a = gemini_slots!("");
    let b = gemini_slots!("generateContentRequest.");
    let mut out = [a[0]; 26];
    let mut i = 0;
    while i < 13 {
        out[i] = a[i];
        out[13 + i] = b[i];
        i += 1;
    }
    out
};
const GEMINI_CACHED_SLOTS: [SlotSpec; 8] = {
    let a = gemini_slots!("");
    let mut out = [a[0]; 8];
    let mut i = 0;
    while i < 8 {
        out[i] = a[i];
        i += 1;
    }
    out
};

const OPENAI_CHAT_SLOTS: [SlotSpec; 3] = [
    slot(
        "tools[].function.parameters",
        SlotRole::ToolParameters,
        Dialect::Native,
    ),
    slot(
        "functions[].parameters",
        SlotRole::ToolParameters,
        Dialect::Native,
    ),
    slot(
        "response_format.json_schema.schema",
        SlotRole::Output,
        Dialect::Native,
    ),
];

/// Responses: top-level `tools` (and namespace nesting), the same under the `tools` of
/// `additional_tools` / `tool_search_output` input items, and `text.format.schema`.
const OPENAI_RESPONSES_SLOTS: [SlotSpec; 9] = [
    slot(
        "tools[].parameters",
        SlotRole::ToolParameters,
        Dialect::Native,
    ),
    slot(
        "tools[].output_schema",
        SlotRole::ToolOutput,
        Dialect::Native,
    ),
    slot(
        "tools[].tools[].parameters",
        SlotRole::ToolParameters,
        Dialect::Native,
    ),
    slot(
        "tools[].tools[].output_schema",
        SlotRole::ToolOutput,
        Dialect::Native,
    ),
    slot(
        "input[].tools[].parameters",
        SlotRole::ToolParameters,
        Dialect::Native,
    ),
    slot(
        "input[].tools[].output_schema",
        SlotRole::ToolOutput,
        Dialect::Native,
    ),
    slot(
        "input[].tools[].tools[].parameters",
        SlotRole::ToolParameters,
        Dialect::Native,
    ),
    slot(
        "input[].tools[].tools[].output_schema",
        SlotRole::ToolOutput,
        Dialect::Native,
    ),
    slot("text.format.schema", SlotRole::Output, Dialect::Native),
];

/// Ollama's native `/api/chat`: the OpenAI Chat tool slot, and `format` when it is an object.
const OLLAMA_CHAT_SLOTS: [SlotSpec; 2] = [
    slot(
        "tools[].function.parameters",
        SlotRole::ToolParameters,
        Dialect::Native,
    ),
    SlotSpec {
        path: "format",
        role: SlotRole::Output,
        dialect: Dialect::Native,
        encoding: Encoding::JsonObject,
    },
];

/// Cohere Chat v2: the OpenAI Chat tool slot; `response_format.json_schema` is the schema itself.
const COHERE_CHAT_SLOTS: [SlotSpec; 2] = [
    slot(
        "tools[].function.parameters",
        SlotRole::ToolParameters,
        Dialect::Native,
    ),
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
    ),
    SlotSpec {
        path: "outputConfig.textFormat.structure.jsonSchema.schema",
        role: SlotRole::Output,
        dialect: Dialect::Native,
        encoding: Encoding::JsonString,
    },
];

/// The API-shape table, checked in order.
///
/// See the [module docs](crate::shapes) for an example.
pub static SHAPES: &[ApiShape] = &[
    ApiShape {
        api: Api::CodeAssist,
        family: Family::CodeAssist,
        paths: &[
            "**/v1internal:generateContent",
            "**/v1internal:streamGenerateContent",
            "**/v1internal:countTokens",
        ],
        slots: &GEMINI_REQUEST_SLOTS,
    },
    ApiShape {
        api: Api::VertexAnthropic,
        family: Family::Anthropic,
        paths: &[
            "**/publishers/anthropic/models/*:rawPredict",
            "**/publishers/anthropic/models/*:streamRawPredict",
            "**/publishers/anthropic/models/*:countTokens",
        ],
        slots: &ANTHROPIC_SLOTS,
    },
    ApiShape {
        api: Api::VertexOpenAiCompat,
        family: Family::Vertex,
        paths: &["**/endpoints/openapi/chat/completions"],
        slots: &OPENAI_CHAT_SLOTS,
    },
    ApiShape {
        api: Api::VertexGemini,
        family: Family::Vertex,
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
    },
    ApiShape {
        api: Api::GeminiCountTokens,
        family: Family::Gemini,
        paths: &["**/*:countTokens"],
        slots: &GEMINI_COUNT_TOKENS_SLOTS,
    },
    ApiShape {
        api: Api::Gemini,
        family: Family::Gemini,
        paths: &["**/*:generateContent", "**/*:streamGenerateContent"],
        slots: &GEMINI_SLOTS,
    },
    ApiShape {
        api: Api::GeminiCachedContents,
        family: Family::Gemini,
        paths: &["**/cachedContents", "**/cachedContents/*"],
        slots: &GEMINI_CACHED_SLOTS,
    },
    ApiShape {
        api: Api::GeminiOpenAiCompat,
        family: Family::Gemini,
        paths: &["**/v1beta/openai/chat/completions"],
        slots: &OPENAI_CHAT_SLOTS,
    },
    ApiShape {
        api: Api::AnthropicBatches,
        family: Family::Anthropic,
        paths: &["**/v1/messages/batches"],
        slots: &ANTHROPIC_BATCH_SLOTS,
    },
    ApiShape {
        api: Api::AnthropicMessages,
        family: Family::Anthropic,
        paths: &["**/v1/messages", "**/v1/messages/count_tokens"],
        slots: &ANTHROPIC_SLOTS,
    },
    ApiShape {
        api: Api::BedrockConverse,
        family: Family::Bedrock,
        paths: &["**/model/*/converse", "**/model/*/converse-stream"],
        slots: &BEDROCK_CONVERSE_SLOTS,
    },
    ApiShape {
        api: Api::BedrockInvoke,
        family: Family::Anthropic,
        paths: &[
            "**/model/*/invoke",
            "**/model/*/invoke-with-response-stream",
        ],
        slots: &ANTHROPIC_SLOTS,
    },
    ApiShape {
        api: Api::OpenAiResponses,
        family: Family::OpenAi,
        paths: &["**/responses", "**/responses/input_tokens"],
        slots: &OPENAI_RESPONSES_SLOTS,
    },
    ApiShape {
        api: Api::OpenAiChat,
        family: Family::OpenAi,
        paths: &["**/chat/completions"],
        slots: &OPENAI_CHAT_SLOTS,
    },
    // New entries go last: fuzz seeds name an API by its index in this table.
    ApiShape {
        api: Api::OllamaChat,
        family: Family::OpenAi,
        paths: &["**/api/chat"],
        slots: &OLLAMA_CHAT_SLOTS,
    },
    ApiShape {
        api: Api::CohereChat,
        family: Family::OpenAi,
        paths: &["**/v2/chat"],
        slots: &COHERE_CHAT_SLOTS,
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_api_has_one_entry_and_slots() {
        for s in SHAPES {
            assert_eq!(
                SHAPES.iter().filter(|t| t.api == s.api).count(),
                1,
                "{}",
                s.api
            );
            assert!(!s.slots.is_empty());
            assert_eq!(Api::from_name(s.api.name()), Some(s.api));
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
