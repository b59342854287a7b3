//! The APIs of the shape table, by name.

use std::fmt;

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
}

impl fmt::Display for Api {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shapes::SHAPES;

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
}
