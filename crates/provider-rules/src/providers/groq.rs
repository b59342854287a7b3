//! `groq` and `groq-strict`: GroqCloud's OpenAI-compatible Chat Completions
//! (`api.groq.com/openai/v1`, providers.md §7 "Groq").

use super::registry::{Carries, ErrorText, Provider};
use crate::rules::*;
use schema_core::Keyword as K;
use std::borrow::Cow;

impl Rules {
    /// Groq function parameters, best-effort mode.
    pub const GROQ: Rules = Rules {
        name: Cow::Borrowed("groq"),
        // "Validates `parameters` against the 2020-12 meta-schema: `schema is not valid JSON
        // Schema: … does not validate with https://json-schema.org/draft/2020-12/schema#…`"
        // (langchain#31132).
        draft_2020: true,
        tuples: Tuples::PrefixItems,
        // `invalid JSON schema for tool X, tools[24].function.parameters: 'required' present
        // but 'properties' is missing` (usestrix/strix#1088): `required` names only the node's
        // own properties (a name without a property is dropped, and said in the description).
        required_defined: true,
        // "Name pattern `^[a-zA-Z0-9_-]+$` [S-weak]": OpenAI's rule, inherited.
        // No documented maximum of tools per request found (OpenAI's 128 is not this
        // provider's).
        tool_limit: None,
        ..Rules::OPENAI
    };

    /// Groq `strict: true` structured outputs and tools.
    pub const GROQ_STRICT: Rules = Rules {
        name: Cow::Borrowed("groq-strict"),
        // `minItems is not supported` (beeai-framework#1215, response_format). Which other
        // keywords strict mode refuses is not documented: OpenAI's strict subset is the
        // conservative start, without the array bounds.
        keywords: Rules::OPENAI_STRICT
            .keywords
            .without(&[K::MinItems, K::MaxItems]),
        // "All fields must be `required` and objects must set `additionalProperties: false`"
        // (console.groq.com/docs/structured-outputs): inherited from OpenAI strict.
        // No documented maximum of tools per request found (OpenAI's 128 is not this
        // provider's).
        tool_limit: None,
        // Whether strict mode takes `$defs` and recursion is not documented: refs are
        // inlined.
        refs: Refs::Inline,
        ..Rules::OPENAI_STRICT
    };
}

impl Provider {
    /// Groq (providers.md §7).
    pub const GROQ: Provider = Provider {
        name: "groq",
        description: "GroqCloud OpenAI-compatible Chat Completions function parameters (2020-12 meta-schema); tools marked strict take the strict subset",
        native: &Rules::GROQ,
        json_schema: None,
        strict: Some(&Rules::GROQ_STRICT),
        models: &[],
        vendors: &[],
        hosts: &["groq.com"],
        apis: &[],
        carries: Carries::Own,
        errors: &[
            ErrorText {
                rules: &["required-undefined"],
                text: "invalid JSON schema for tool X, tools[24].function.parameters: 'required' present but 'properties' is missing",
            },
            ErrorText {
                rules: &["draft-2020", "malformed-keyword"],
                text: "schema is not valid JSON Schema: … does not validate with https://json-schema.org/draft/2020-12/schema#",
            },
            ErrorText {
                rules: &["unsupported-keyword"],
                text: "minItems is not supported",
            },
        ],
    };
}
