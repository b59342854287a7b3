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

mod api;
mod slot_spec;
mod url;

pub use api::Api;
pub use slot_spec::{Dialect, Encoding, SlotRole, SlotSpec};

use crate::shapes_response::{self as response, ResponseShape};
use slot_spec::{join, slot};

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

impl Api {
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
}
