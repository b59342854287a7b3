//! The built-in profiles, one file each. Every field that differs from [`Rules::PERMISSIVE`]
//! carries a comment citing the provider error it prevents (`../shared/research/providers.md`,
//! copied into the crate docs as sources).

mod anthropic;
mod anthropic_strict;
mod bedrock;
mod gemini;
mod gemini_code_assist;
mod gemini_jsonschema;
mod openai;
mod openai_strict;
mod portable;
mod vertex;
mod xai;

use crate::rules::*;
use std::borrow::Cow;

impl Rules {
    /// The default every profile starts from: plain JSON Schema, nothing rewritten.
    pub const PERMISSIVE: Rules = Rules {
        name: Cow::Borrowed("permissive"),
        keywords: KeywordSet::ALL,
        unknown_keywords: true,
        type_lists: TypeLists::Keep,
        null_style: NullStyle::TypeList,
        null_type: true,
        unions: Unions::Keep,
        all_of: AllOf::Keep,
        enums: Enums::Any,
        empty_string_enum: true,
        stringify_enums: false,
        refs: Refs::Keep,
        tuples: Tuples::Keep,
        missing_items: MissingItems::Keep,
        type_required: false,
        any_value: None,
        draft_2020: false,
        keywords_on_own_type_only: false,
        additional_properties: AdditionalProperties::Keep,
        boolean_schemas: true,
        property_named_properties: true,
        formats: None,
        forbidden_pattern_syntax: None,
        property_keys: None,
        required_defined: false,
        empty_properties: true,
        wrap_bare_properties: false,
        type_names_any_case: false,
        tool_limit: None,
        repair_property_maps: false,
        promote_boolean_required: false,
        default_beside_any_of: true,
        root: Root::ANY,
        strict: false,
        all_required: true,
        request_limits: RequestLimits {
            strict_tools: None,
            optional_parameters: None,
            union_parameters: None,
        },
        limits: Limits {
            max_depth: None,
            max_properties: None,
            max_enum_values: None,
            max_string_chars: None,
            max_min_items: None,
        },
        tool_names: ToolNameRule {
            first_extra: Cow::Borrowed("_-"),
            first_digit: true,
            rest_extra: Cow::Borrowed("_-"),
            max_len: 64,
        },
        hints: true,
    };
}

/// Every built-in profile, by name.
pub const PROFILES: &[&Rules] = &[
    &Rules::GEMINI,
    &Rules::GEMINI_CODE_ASSIST,
    &Rules::GEMINI_JSONSCHEMA,
    &Rules::VERTEX,
    &Rules::OPENAI,
    &Rules::OPENAI_STRICT,
    &Rules::ANTHROPIC,
    &Rules::ANTHROPIC_STRICT,
    &Rules::XAI,
    &Rules::BEDROCK,
    &Rules::PORTABLE,
];

/// A built-in profile by name (`gemini`, `openai-strict`, ...).
///
/// ```
/// assert_eq!(provider_rules::profile("gemini").unwrap().name(), "gemini");
/// assert!(provider_rules::profile("nope").is_none());
/// ```
pub fn profile(name: &str) -> Option<&'static Rules> {
    PROFILES.iter().copied().find(|r| r.name == name)
}

/// The names of the built-in profiles.
pub fn profile_names() -> impl Iterator<Item = &'static str> {
    PROFILES.iter().map(|r| match &r.name {
        Cow::Borrowed(s) => *s,
        Cow::Owned(_) => "",
    })
}
