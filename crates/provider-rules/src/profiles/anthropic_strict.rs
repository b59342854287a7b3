//! `anthropic-strict`: strict tool use and structured outputs (providers.md §5.3).

use crate::rules::*;
use schema_core::Keyword as K;
use std::borrow::Cow;

impl Rules {
    /// Anthropic strict tool use / structured outputs.
    pub const ANTHROPIC_STRICT: Rules = Rules {
        name: Cow::Borrowed("anthropic-strict"),
        // The documented subset (and the SDK's `transform_schema`): numeric and length
        // constraints are "not supported (400 with details)".
        keywords: KeywordSet::of(&[
            K::Type,
            K::Title,
            K::Description,
            K::Properties,
            K::Required,
            K::AdditionalProperties,
            K::Items,
            K::MinItems,
            K::AnyOf,
            K::AllOf,
            K::Enum,
            K::Const,
            K::Default,
            K::Ref,
            K::Defs,
            K::Definitions,
            K::Format,
        ]),
        unknown_keywords: false,
        // "complex types in enums" are not supported.
        enums: Enums::Scalars,
        // "recursive schemas" are not supported.
        refs: Refs::Inline,
        // `For 'object' type, 'additionalProperties' must be explicitly set to false`
        // (vercel/ai#20681).
        additional_properties: AdditionalProperties::ForceFalse,
        formats: Some(Cow::Borrowed(&[
            Cow::Borrowed("date-time"),
            Cow::Borrowed("time"),
            Cow::Borrowed("date"),
            Cow::Borrowed("duration"),
            Cow::Borrowed("email"),
            Cow::Borrowed("hostname"),
            Cow::Borrowed("uri"),
            Cow::Borrowed("ipv4"),
            Cow::Borrowed("ipv6"),
            Cow::Borrowed("uuid"),
        ])),
        // `For 'array' type, property 'maxItems' is not supported`; minItems only 0 or 1.
        limits: Limits {
            max_min_items: Some(1),
            ..Rules::PERMISSIVE.limits
        },
        strict: true,
        // Structured outputs (`output_config.format`) list `anyOf` among the supported features
        // with no rule for the root (platform.claude.com/docs/en/build-with-claude/
        // structured-outputs, "JSON Schema limitations"), and the SDK's `transform_schema` takes
        // any node with `type`/`anyOf`; only a tool's `input_schema` must be an object.
        root: Root {
            standalone_any: true,
            ..Rules::ANTHROPIC.root
        },
        // Optional properties are part of the subset ("`required` and `additionalProperties`"
        // supported; "Complexity limits per request: … 24 optional parameters, 16 parameters
        // with union types"): making them required and nullable would turn each into a union.
        all_required: false,
        // "Complexity limits per request (combined across all strict schemas): 20 strict
        // tools, 24 optional parameters, 16 parameters with union types" (providers.md §5.3).
        request_limits: RequestLimits {
            strict_tools: Some(20),
            optional_parameters: Some(24),
            union_parameters: Some(16),
        },
        ..Rules::ANTHROPIC
    };
}
