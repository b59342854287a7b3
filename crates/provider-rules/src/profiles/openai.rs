//! `openai`: Chat Completions / Responses function parameters, non-strict (providers.md §4.2).

use crate::rules::*;
use std::borrow::Cow;

/// OpenAI's function-name rule: `Expected a string that matches the pattern
/// '^[a-zA-Z0-9_-]+$'` (brekkylab/ailoy#109), at most 64 characters.
pub(crate) const OPENAI_TOOL_NAMES: ToolNameRule = ToolNameRule {
    first_extra: Cow::Borrowed("_-"),
    first_digit: true,
    rest_extra: Cow::Borrowed("_-"),
    max_len: 64,
};

/// Constructs OpenAI's regex engine refuses: Unicode classes, `'^(?!__.*__$)[^\\p{Cc}…]' is
/// not a 'regex'` (Alishahryar1/free-claude-code#1730, BerriAI/litellm#40485). Lookahead is
/// accepted outside strict mode (peers.md §3 #43). ECMA-262's control escapes (`\cC`) are not
/// a 'regex' either (issue 19).
pub(crate) const OPENAI_FORBIDDEN_PATTERN_SYNTAX: &[Cow<'static, str>] = &[
    Cow::Borrowed("\\p{"),
    Cow::Borrowed("\\P{"),
    Cow::Borrowed("\\c"),
];

/// Strict mode also refuses lookaround: `Invalid JSON schema: regex lookaround is not
/// supported. Found at $.properties.email.pattern.` (decolua/9router#1556).
pub(crate) const OPENAI_STRICT_FORBIDDEN_PATTERN_SYNTAX: &[Cow<'static, str>] = &[
    Cow::Borrowed("\\p{"),
    Cow::Borrowed("\\P{"),
    Cow::Borrowed("\\c"),
    Cow::Borrowed("(?="),
    Cow::Borrowed("(?!"),
    Cow::Borrowed("(?<="),
    Cow::Borrowed("(?<!"),
];

impl Rules {
    /// OpenAI non-strict: plain JSON Schema, with the few shapes OpenAI refuses repaired.
    pub const OPENAI: Rules = Rules {
        name: Cow::Borrowed("openai"),
        // `In context=('properties', 'paths'), array schema missing items.` (sigoden/aichat#1049)
        missing_items: MissingItems::Empty,
        // `In context=(), object schema missing properties.` (spring-ai#4776)
        root: Root {
            properties: true,
            // `root must not be anyOf/allOf` (CLIProxyAPI's Codex tests); `schema must have
            // type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top
            // level` (cecli-dev/cecli#281).
            no_composition: true,
            ..Root::OBJECT
        },
        tool_names: OPENAI_TOOL_NAMES,
        tool_limit: Some(ToolLimit {
            max: 128,
            source: Cow::Borrowed(
                "OpenAI API reference, `tools`: \"A max of 128 functions are supported.\"",
            ),
        }),
        forbidden_pattern_syntax: Some(Cow::Borrowed(OPENAI_FORBIDDEN_PATTERN_SYNTAX)),
        // A malformed MCP schema (a bare property map, draft-03 `required: true`) is
        // repaired rather than forwarded with its properties as unknown keywords (peers.md
        // §3 #37).
        wrap_bare_properties: true,
        // A property map with a non-schema member (`"q": "string"`, hand-written MCP
        // servers; 9router#2489: `Invalid value at '...parameters.properties[6].value'
        // (...Schema), "object"`) keeps its valid members.
        repair_property_maps: true,
        promote_boolean_required: true,
        ..Rules::PERMISSIVE
    };
}
