//! `cohere`: Cohere Chat v2 (`/v2/chat`, providers.md §7 "Cohere"): OpenAI-style tools, and
//! the response format's schema directly at `response_format.json_schema`.

use super::registry::{Carries, Provider};
use crate::rules::*;
use std::borrow::Cow;

impl Rules {
    /// Cohere v2 tool parameters and `json_schema` response formats.
    pub const COHERE: Rules = Rules {
        name: Cow::Borrowed("cohere"),
        // `strict_tools: true` "guarantees names/params"; which keywords it refuses is not
        // documented (providers.md §11), so Cohere's keyword matrix is OpenAI's repairs on
        // plain JSON Schema, written as 2020-12 (no draft-04 boolean bounds, no draft-07
        // tuples) as the conservative form.
        draft_2020: true,
        tuples: Tuples::PrefixItems,
        // "you can define a maximum of 200 fields across all tools" (providers.md §7, from
        // docs.cohere.com tool-use-parameter-types): every object's properties, at any depth,
        // over every tool of the request (which nesting Cohere counts is not said; counting
        // all of it is the conservative reading). Reported by the layer and `check` on a
        // request body, as no rewrite may drop a tool's fields.
        request_limits: RequestLimits {
            fields: Some(200),
            ..RequestLimits::NONE
        },
        // No documented maximum of tools per request found (OpenAI's 128 is not this
        // provider's).
        tool_limit: None,
        ..Rules::OPENAI
    };
}

impl Provider {
    /// Cohere (providers.md §7).
    pub const COHERE: Provider = Provider {
        name: "cohere",
        description: "Cohere Chat v2 (/v2/chat) tool parameters and response_format.json_schema (OpenAI-style tools)",
        native: &Rules::COHERE,
        json_schema: None,
        // `strict_tools: true` exists ("guarantees names/params", providers.md §7), but what
        // it refuses is not documented ("Mistral/Groq/DeepSeek/Cohere keyword matrices are
        // mostly unknown", §11): no `cohere-strict` profile is made up; strict tools take the
        // native profile.
        strict: None,
        models: &[],
        vendors: &[],
        hosts: &["cohere.com", "cohere.ai"],
        apis: &["cohere-chat"],
        carries: Carries::Own,
        errors: &[],
    };
}
