//! `mistral`: La Plateforme's Chat Completions (`api.mistral.ai`, providers.md §7 "Mistral"):
//! the OpenAI shape, schemas validated before inference.

use super::registry::{Carries, ErrorText, Provider};
use crate::rules::*;
use schema_core::Keyword as K;
use std::borrow::Cow;

impl Rules {
    /// Mistral function parameters and `json_schema` response formats.
    pub const MISTRAL: Rules = Rules {
        name: Cow::Borrowed("mistral"),
        // "2025-08: stopped accepting `$id` and `$schema` (`Grammar error: … failed to compile
        // JSON schema`, BerriAI/litellm#13389)" (providers.md §7).
        keywords: KeywordSet::ALL.without(&[K::Id, K::SchemaUri]),
        // `Invalid tool schema: {…} is not valid under any of the given schemas` for a draft-04
        // boolean `exclusiveMinimum: True` (SylphxAI/pdf-reader-mcp#63): bounds become numbers,
        // and the rest of the schema is written as 2020-12 too (which meta-schema Mistral
        // validates against is not published, so its other draft-specific forms are not kept).
        // A `$ref` resolved against a removed `$id` ("list", a URN) would point nowhere:
        // references are inlined before the `$id`s go.
        refs: Refs::Inline,
        draft_2020: true,
        tuples: Tuples::PrefixItems,
        // "Tool name rules undocumented here → assume OpenAI's [I]": inherited.
        // No documented maximum of tools per request found (OpenAI's 128 is not this
        // provider's).
        tool_limit: None,
        ..Rules::OPENAI
    };
}

impl Provider {
    /// Mistral (providers.md §7).
    pub const MISTRAL: Provider = Provider {
        name: "mistral",
        description: "Mistral La Plateforme Chat Completions function parameters and response formats (OpenAI shape)",
        native: &Rules::MISTRAL,
        json_schema: None,
        // `response_format.json_schema` has a `strict` flag, but what it refuses is not
        // documented (providers.md §11: "Mistral/Groq/DeepSeek/Cohere keyword matrices are mostly
        // unknown"): strict tools take the native profile.
        strict: None,
        models: &[],
        vendors: &[],
        // `api.mistral.ai/v1/chat/completions` (providers.md §9).
        hosts: &["mistral.ai"],
        apis: &[],
        carries: Carries::Own,
        errors: &[
            ErrorText {
                rules: &["draft-2020"],
                text: "Invalid tool schema: {…} is not valid under any of the given schemas",
            },
            ErrorText {
                rules: &["unsupported-keyword"],
                text: "Grammar error: … failed to compile JSON schema",
            },
        ],
    };
}
