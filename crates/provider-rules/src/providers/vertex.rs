//! `vertex`: Vertex AI's `Schema` (providers.md §2.2).

use super::registry::{Carries, Provider};
use crate::rules::*;
use schema_core::Keyword as K;
use std::borrow::Cow;

impl Rules {
    /// Vertex AI Gemini `parameters` / `responseSchema`.
    pub const VERTEX: Rules = Rules {
        name: Cow::Borrowed("vertex"),
        // Vertex's Schema adds `additional_properties` (field 26) to the Gemini proto.
        keywords: super::gemini::SCHEMA_PROTO_KEYWORDS.with(&[K::AdditionalProperties]),
        additional_properties: AdditionalProperties::Keep,
        // `When using any_of, it must be the only field set.` (vercel/ai#19000; LiteLLM
        // moves siblings into the branches, BerriAI/litellm#11164).
        unions: Unions::Alone,
        // `default` never stands beside `anyOf` here: it moves into the branches with the
        // other siblings, and Vertex documents `default` (providers.md §8). Whether Vertex
        // wants it inside a branch is not known (LiteLLM keeps only title/description there).
        default_beside_any_of: true,
        // Vertex's `Type` has no NULL.
        null_type: false,
        // Vertex wants `ref`/`defs` without `$`; inlining avoids both spellings.
        refs: Refs::Inline,
        // Vertex has `additional_properties`: maps stay maps.
        encodings: crate::encode::Encodings {
            maps: false,
            open_objects: false,
            ..crate::encode::Encodings::SCHEMA_PROTO
        },
        tool_limit: Some(ToolLimit {
            max: 64,
            source: Cow::Borrowed(
                "Vertex AI SDK reference, FunctionDeclarationsTool.functionDeclarations: \"Maximum 64 function declarations can be provided.\"",
            ),
        }),
        ..Rules::GEMINI
    };
}

impl Provider {
    /// Vertex AI, Gemini models (providers.md §2).
    pub const VERTEX: Provider = Provider {
        name: "vertex",
        description: "Vertex AI Gemini (aiplatform): Vertex's Schema in parameters and responseSchema; JSON Schema in the *JsonSchema slots",
        native: &Rules::VERTEX,
        json_schema: Some(&Rules::GEMINI_JSONSCHEMA),
        strict: None,
        models: &[],
        vendors: &[],
        hosts: &["aiplatform.googleapis.com"],
        apis: &["vertex-gemini", "vertex-openai-compat"],
        carries: Carries::Own,
        errors: super::gemini::GEMINI_ERRORS,
    };
}
