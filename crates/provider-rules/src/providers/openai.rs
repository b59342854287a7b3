//! `openai`: Chat Completions / Responses function parameters, non-strict (providers.md §4.2).

use super::registry::{Carries, ErrorText, Provider};
use crate::rules::*;
use schema_core::Keyword as K;
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
        // "Definitions are supported", "Recursive schemas are supported" (`$ref: "#"` and
        // `$defs` recursion; providers.md §4.3): local refs are kept, recursion included; a
        // `$ref` with siblings is inlined at that node ("we can't use `$ref`s if there are
        // also other properties defined", openai-agents).
        refs: Refs::Local,
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
        // Maps, open objects, any-value nodes and tuples cannot be said in strict mode
        // (`additionalProperties` must be false, every node typed, no `prefixItems`); with a
        // decoder they are encoded instead of giving strict up.
        encodings: crate::encode::Encodings::STRICT,
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
        forbidden_pattern_syntax: Some(Cow::Borrowed(OPENAI_STRICT_FORBIDDEN_PATTERN_SYNTAX)),
        ..Rules::OPENAI
    };
}

/// OpenAI's and xAI's regex-engine error text.
pub(crate) const PATTERN_SYNTAX_ERROR: ErrorText = ErrorText {
    rules: &["pattern-syntax"],
    text: "… is not a 'regex' / regex lookaround is not supported",
};

/// OpenAI's error texts by rule (providers.md §4.2-4.3).
pub(crate) const OPENAI_ERRORS: &[ErrorText] = &[
    ErrorText {
        rules: &["items-missing"],
        text: "array schema missing items.",
    },
    ErrorText {
        rules: &["root-properties"],
        text: "In context=(), object schema missing properties.",
    },
    ErrorText {
        rules: &["additional-properties"],
        text: "'additionalProperties' is required to be supplied and to be false.",
    },
    ErrorText {
        rules: &["strict-required"],
        text: "'required' is required to be supplied and to be an array including every key in properties.",
    },
    ErrorText {
        rules: &["format"],
        text: "'uri' is not a valid format.",
    },
    ErrorText {
        rules: &["unsupported-keyword"],
        text: "'oneOf' is not permitted. / 'default' is not permitted.",
    },
    ErrorText {
        rules: &["root-union", "root"],
        text: "schema must have type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level.",
    },
    PATTERN_SYNTAX_ERROR,
];

impl Provider {
    /// OpenAI Chat Completions and Responses (providers.md §4).
    pub const OPENAI: Provider = Provider {
        name: "openai",
        description: "OpenAI Chat Completions / Responses function parameters and response formats; tools marked strict take the strict subset",
        native: &Rules::OPENAI,
        json_schema: None,
        strict: Some(&Rules::OPENAI_STRICT),
        models: &["gpt-", "o1", "o3", "o4", "chatgpt"],
        vendors: &["openai"],
        hosts: &["api.openai.com"],
        apis: &["openai-chat", "openai-responses"],
        // OpenAI-compatible gateways (OpenRouter, LiteLLM, ...) serve every vendor's models.
        carries: Carries::Any,
        errors: OPENAI_ERRORS,
    };
}
