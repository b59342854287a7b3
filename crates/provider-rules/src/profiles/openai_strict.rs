//! `openai-strict`: `strict: true` tools and `json_schema` response formats (providers.md §4.3).

use crate::rules::*;
use schema_core::Keyword as K;
use std::borrow::Cow;

impl Rules {
    /// OpenAI Structured Outputs / strict function calling.
    pub const OPENAI_STRICT: Rules = Rules {
        name: Cow::Borrowed("openai-strict"),
        // The supported subset (Structured Outputs guide); `default` gives `'default' is not
        // permitted`, `oneOf` gives `'oneOf' is not permitted` (livekit/agents#5302).
        keywords: KeywordSet::of(&[
            K::Type,
            K::Title,
            K::Description,
            K::Properties,
            K::Required,
            K::AdditionalProperties,
            K::Items,
            K::AnyOf,
            K::Enum,
            K::Const,
            K::Ref,
            K::Defs,
            K::Definitions,
            K::Pattern,
            K::Format,
            K::MultipleOf,
            K::Minimum,
            K::Maximum,
            K::ExclusiveMinimum,
            K::ExclusiveMaximum,
            K::MinItems,
            K::MaxItems,
            K::MinLength,
            K::MaxLength,
        ]),
        unknown_keywords: false,
        // "Composition: allOf ... not supported".
        all_of: AllOf::Merge,
        // "we can't use `$ref`s if there are also other properties defined" (openai-agents):
        // merges and the root's own rewriting give refs siblings, so every local ref is
        // inlined; a recursive one makes the result not strict-compatible (send it non-strict,
        // where refs are kept).
        refs: Refs::Inline,
        // `prefixItems` is not in the subset.
        tuples: Tuples::Fold,
        draft_2020: true,
        // Untyped arrays cannot be made strict (pydantic-ai
        // test_transformer_untyped_array_not_strict_compatible).
        missing_items: MissingItems::Empty,
        // `'additionalProperties' is required to be supplied and to be false.`
        // (lastmile-ai/openai-agents-mcp#2)
        additional_properties: AdditionalProperties::ForceFalse,
        // `In context=('properties', 'url'), 'uri' is not a valid format.` (can1357/oh-my-pi#206)
        formats: Some(Cow::Borrowed(&[
            Cow::Borrowed("date-time"),
            Cow::Borrowed("time"),
            Cow::Borrowed("date"),
            Cow::Borrowed("duration"),
            Cow::Borrowed("email"),
            Cow::Borrowed("hostname"),
            Cow::Borrowed("ipv4"),
            Cow::Borrowed("ipv6"),
            Cow::Borrowed("uuid"),
        ])),
        // `'required' is required to be supplied and to be an array including every key in
        // properties.` (kevinwatt/mysql-mcp#5)
        required_defined: true,
        strict: true,
        // "Root objects must not be `anyOf` and must be an object."
        root: Root {
            object: true,
            properties: true,
            no_composition: true,
            ..Root::OBJECT
        },
        // "up to 5000 object properties total, with up to 10 levels of nesting", 1000 enum
        // values, 120,000 characters.
        limits: Limits {
            max_depth: Some(10),
            max_properties: Some(5000),
            max_enum_values: Some(1000),
            max_string_chars: Some(120_000),
            max_min_items: None,
        },
        forbidden_pattern_syntax: Some(Cow::Borrowed(
            super::openai::OPENAI_STRICT_FORBIDDEN_PATTERN_SYNTAX,
        )),
        ..Rules::OPENAI
    };
}
