//! `portable`: what gemini, openai, anthropic, xai and bedrock all accept at once.

use super::registry::{Carries, Provider};
use crate::rules::*;
use schema_core::Keyword as K;
use std::borrow::Cow;

impl Rules {
    /// The intersection of the non-strict profiles, for a gateway that does not know its
    /// upstream. Nullability is an `anyOf` with a `{"type": "null"}` branch, which all accept.
    pub const PORTABLE: Rules = Rules {
        name: Cow::Borrowed("portable"),
        // Gemini's proto list, without `nullable` (not JSON Schema: others would ignore it).
        keywords: super::gemini::SCHEMA_PROTO_KEYWORDS.without(&[K::Nullable, K::Example]),
        null_style: NullStyle::AnyOf,
        // xAI rejects boolean property schemas and misreads a property named `properties`.
        boolean_schemas: false,
        property_named_properties: false,
        // OpenAI wants `properties` at the root; Anthropic and Bedrock want no root union.
        root: Root {
            object: true,
            properties: true,
            no_composition: true,
            ..Root::OBJECT
        },
        // Gemini's `type: must be specified` and `items: missing field`, with null as a branch;
        // objects without an empty `properties` (G13).
        any_value: Some(Cow::Borrowed(
            r#"{"anyOf":[{"type":"string"},{"type":"number"},{"type":"boolean"},{"type":"object"},{"type":"array","items":{"anyOf":[{"type":"string"},{"type":"number"},{"type":"boolean"},{"type":"object"},{"type":"array","items":{"anyOf":[{"type":"string"},{"type":"number"},{"type":"boolean"},{"type":"object"},{"type":"array","items":{"type":"string"}},{"type":"null"}]}},{"type":"null"}]}},{"type":"null"}]}"#,
        )),
        // The strictest of the name rules: Gemini's first character, OpenAI's charset.
        tool_names: ToolNameRule {
            first_extra: Cow::Borrowed("_"),
            first_digit: false,
            rest_extra: Cow::Borrowed("_-"),
            max_len: 64,
        },
        // What OpenAI's and xAI's regex engines refuse.
        forbidden_pattern_syntax: Some(Cow::Borrowed(super::xai::XAI_FORBIDDEN_PATTERN_SYNTAX)),
        // Anthropic's and Bedrock's property-key rule.
        property_keys: Some(super::anthropic::ANTHROPIC_PROPERTY_KEYS),
        // Gemini's `properties: should be non-empty for OBJECT type` (G13) is inherited: nested
        // empty maps are dropped. At the root, OpenAI's `object schema missing properties`
        // (`root.properties`) wins; Gemini no longer raises G13 there (providers.md §8: "was
        // REJ (2025-03), later OK"). Gemini's `default` beside `anyOf` rule is inherited too.
        ..Rules::GEMINI
    };
}

impl Provider {
    /// Not a provider: the profile for a gateway that does not know its upstream.
    pub const PORTABLE: Provider = Provider {
        name: "portable",
        description: "the subset gemini, openai, anthropic, xai and bedrock all accept at once, for a gateway that does not know its upstream",
        native: &Rules::PORTABLE,
        json_schema: None,
        strict: None,
        models: &[],
        vendors: &[],
        hosts: &[],
        apis: &[],
        carries: Carries::Own,
        // Built on Gemini's proto list: Gemini's texts are the nearest.
        errors: super::gemini::GEMINI_ERRORS,
    };
}
