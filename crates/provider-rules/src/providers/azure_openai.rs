//! `azure-openai-strict`: Azure OpenAI structured outputs (providers.md §7 "Azure OpenAI"):
//! "the same subset of the JSON Schema as OpenAI", with older limits.

use super::registry::{Carries, Provider};
use crate::rules::*;
use std::borrow::Cow;

impl Rules {
    /// Azure OpenAI `strict: true` tools and `json_schema` response formats.
    pub const AZURE_OPENAI_STRICT: Rules = Rules {
        name: Cow::Borrowed("azure-openai-strict"),
        // "lists older limits: 100 object properties / 5 levels, 15,000 chars, 500 enum
        // values" (learn.microsoft.com copies): over them, a schema is sent non-strict.
        limits: Limits {
            max_depth: Some(5),
            max_properties: Some(100),
            max_enum_values: Some(500),
            max_string_chars: Some(15_000),
            ..Rules::OPENAI_STRICT.limits
        },
        // "Root objects cannot be the anyOf type": OpenAI strict's root rule, inherited. "The
        // same subset of the JSON Schema as OpenAI": definitions and recursion kept, as there.
        ..Rules::OPENAI_STRICT
    };
}

impl Provider {
    /// Azure OpenAI (providers.md §7).
    pub const AZURE_OPENAI: Provider = Provider {
        name: "azure-openai",
        description: "Azure OpenAI deployments (OpenAI shape); tools marked strict take OpenAI's strict subset under Azure's older size limits",
        native: &Rules::OPENAI,
        json_schema: None,
        strict: Some(&Rules::AZURE_OPENAI_STRICT),
        models: &[],
        vendors: &[],
        // `{resource}.openai.azure.com/openai/deployments/{deployment}/chat/completions`.
        hosts: &["openai.azure.com"],
        apis: &[],
        carries: Carries::Own,
        errors: &[],
    };
}
