//! `anthropic`: Messages `tools[].input_schema` (providers.md §5.2).

use super::registry::{Carries, ErrorText, Provider};
use crate::rules::*;
use schema_core::Keyword as K;
use std::borrow::Cow;

/// Anthropic's tool-name rule: `String should match pattern '^[a-zA-Z0-9_-]{1,128}$'`
/// (home-assistant/core#147760).
pub(crate) const ANTHROPIC_TOOL_NAMES: ToolNameRule = ToolNameRule {
    first_extra: Cow::Borrowed("_-"),
    first_digit: true,
    rest_extra: Cow::Borrowed("_-"),
    max_len: 128,
};

/// Anthropic's top-level property-key rule, `^[a-zA-Z0-9_.-]{1,64}$`.
pub(crate) const ANTHROPIC_PROPERTY_KEYS: PropertyKeyRule = PropertyKeyRule {
    extra: Cow::Borrowed("_.-"),
    max_len: 64,
};

impl Rules {
    /// Anthropic non-strict.
    pub const ANTHROPIC: Rules = Rules {
        name: Cow::Borrowed("anthropic"),
        // `input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12`
        // for draft-07 tuples + `additionalItems` (kintone/mcp-server#553).
        draft_2020: true,
        tuples: Tuples::PrefixItems,
        // `input_schema does not support oneOf, allOf, or anyOf at the top level`
        // (anthropics/claude-code#5319); `input_schema.type: Input should be 'object'`.
        root: Root {
            no_composition: true,
            ..Root::OBJECT
        },
        tool_names: ANTHROPIC_TOOL_NAMES,
        // `tools.77.custom.input_schema.properties: Property keys should match pattern
        // '^[a-zA-Z0-9_.-]{1,64}$'` (anthropics/claude-code#4668); top-level keys only.
        property_keys: Some(ANTHROPIC_PROPERTY_KEYS),
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
        // "`$ref`, `$def`/`$defs`, `definitions`" supported; "recursive schemas" and "allOf
        // with `$ref`" not (providers.md §5.3): non-recursive local refs are kept, a recursive
        // schema is inlined.
        refs: Refs::LocalAcyclic,
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
        // As OpenAI strict: maps, open objects, any-value nodes and tuples (strict mode says
        // a tuple's positions in prose only) are encoded.
        encodings: crate::encode::Encodings::STRICT,
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
            fields: None,
        },
        ..Rules::ANTHROPIC
    };
}

/// Anthropic's error texts by rule (providers.md §5).
pub(crate) const ANTHROPIC_ERRORS: &[ErrorText] = &[
    ErrorText {
        rules: &["root-union"],
        text: "input_schema does not support oneOf, allOf, or anyOf at the top level",
    },
    ErrorText {
        rules: &["root"],
        text: "input_schema.type: Input should be 'object'",
    },
    ErrorText {
        rules: &["tuple", "draft-2020", "malformed-keyword"],
        text: "input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12",
    },
    ErrorText {
        rules: &["additional-properties"],
        text: "For 'object' type, 'additionalProperties' must be explicitly set to false",
    },
    ErrorText {
        rules: &["property-key"],
        text: "input_schema.properties: Property keys should match pattern '^[a-zA-Z0-9_.-]{1,64}$'",
    },
    ErrorText {
        rules: &["min-items"],
        text: "For 'array' type, property 'maxItems' is not supported",
    },
];

impl Provider {
    /// Anthropic Messages (providers.md §5), also on Vertex (`rawPredict`) and Bedrock
    /// (`invoke`).
    pub const ANTHROPIC: Provider = Provider {
        name: "anthropic",
        description: "Anthropic Messages input_schema (also Vertex rawPredict and Bedrock invoke); tools marked strict take the strict subset",
        native: &Rules::ANTHROPIC,
        json_schema: None,
        strict: Some(&Rules::ANTHROPIC_STRICT),
        models: &["claude"],
        vendors: &["anthropic"],
        hosts: &["api.anthropic.com"],
        apis: &[
            "anthropic-messages",
            "anthropic-batches",
            "vertex-anthropic",
            "bedrock-invoke",
        ],
        carries: Carries::Own,
        errors: ANTHROPIC_ERRORS,
    };
}
