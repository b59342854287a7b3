//! `gemini`: the Gemini API's `Schema` proto, used by `parameters`, `response` and
//! `responseSchema` (providers.md §1.3).

use super::registry::{Carries, ErrorText, Provider};
use crate::rules::*;
use schema_core::Keyword as K;
use std::borrow::Cow;

/// The Schema proto's complete field list (providers.md §1.3, v1beta content.proto): "any
/// other key is a proto parse error" — `Unknown name "additionalProperties" at '...parameters':
/// Cannot find field.` (router-for-me/CLIProxyAPI#97, janhq/jan#5927).
pub(crate) const SCHEMA_PROTO_KEYWORDS: KeywordSet = KeywordSet::of(&[
    K::Type,
    K::Format,
    K::Title,
    K::Description,
    K::Nullable,
    K::Enum,
    K::Items,
    K::MaxItems,
    K::MinItems,
    K::Properties,
    K::Required,
    K::MinProperties,
    K::MaxProperties,
    K::Minimum,
    K::Maximum,
    K::MinLength,
    K::MaxLength,
    K::Pattern,
    K::Example,
    K::AnyOf,
    K::PropertyOrdering,
    K::Default,
]);

/// The formats the Gemini Developer API is known to enforce without error: `format: only
/// 'enum' and 'date-time' are supported for STRING type` (enechange/collmbo#195); NUMBER
/// `float, double`; INTEGER `int32, int64`. The Dec-2025 proto says any value is allowed, but
/// that is unverified: the conservative list is kept and the rest goes to the description.
pub(crate) const SCHEMA_PROTO_FORMATS: &[Cow<'static, str>] = &[
    Cow::Borrowed("enum"),
    Cow::Borrowed("date-time"),
    Cow::Borrowed("float"),
    Cow::Borrowed("double"),
    Cow::Borrowed("int32"),
    Cow::Borrowed("int64"),
];

/// Any JSON value, said with typed branches (the proto needs `type` on every node that has
/// no `anyOf`: `type: must be specified when not using one_of, any_of or all_of fields`,
/// danny-avila/LibreChat#6971). Arrays need typed `items` (`...items: missing field`) and the
/// proto has no recursion, so arrays nest three levels deep (then hold strings): an array of
/// arrays of numbers stays valid.
pub(crate) const SCHEMA_PROTO_ANY_VALUE: &str = r#"{"anyOf":[{"type":"string","nullable":true},{"type":"number"},{"type":"boolean"},{"type":"object"},{"type":"array","items":{"anyOf":[{"type":"string","nullable":true},{"type":"number"},{"type":"boolean"},{"type":"object"},{"type":"array","items":{"anyOf":[{"type":"string","nullable":true},{"type":"number"},{"type":"boolean"},{"type":"object"},{"type":"array","items":{"type":"string"}}]}}]}}]}"#;

/// Gemini's function-name rule: `Invalid function name. Must start with a letter or an
/// underscore. Must be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.) or dashes (-),
/// with a maximum length of 64.` (google-gemini/gemini-cli#6704); newer text adds colons.
pub(crate) const GEMINI_TOOL_NAMES: ToolNameRule = ToolNameRule {
    first_extra: Cow::Borrowed("_"),
    first_digit: false,
    rest_extra: Cow::Borrowed("_.:-"),
    max_len: 64,
};

impl Rules {
    /// Gemini API `parameters` / `response` / `responseSchema` (the Schema proto).
    pub const GEMINI: Rules = Rules {
        name: Cow::Borrowed("gemini"),
        extends: None,
        keywords: SCHEMA_PROTO_KEYWORDS,
        // `Unknown name "x-..." ... Cannot find field.`
        unknown_keywords: false,
        // `Unknown name "type" at '...': Proto field is not repeating, cannot start list.`
        // (zed-industries/zed#44875)
        type_lists: TypeLists::Split,
        // `{"type":"string","nullable":true}` → 200 where `["string","null"]` → 400
        // (aoci-spec/aoci-code#61).
        null_style: NullStyle::Nullable,
        // The proto has `NULL = 7` since 2025, and `anyOf` with a `{"type":"null"}` branch was
        // accepted live (aoci-spec/aoci-code#61).
        null_type: true,
        unions: Unions::Keep,
        // `Invalid value at '...enum[0]' (TYPE_STRING), 0` (google-gemini/gemini-cli#4120) and
        // `function declaration enum only allowed for STRING type` (decolua/9router#380).
        enums: Enums::Strings,
        // `...parameters.properties[action].enum[3]: cannot be empty` (sbroenne/mcp-server-excel#607).
        empty_string_enum: false,
        stringify_enums: false,
        // `Unknown name "$ref"` / `"$defs"`: not in the proto; recursion is unrolled.
        refs: Refs::Inline,
        // `...properties[where].items.items: missing field.` — a tuple reached the proto,
        // which has none (pleaseai/shunt#454).
        tuples: Tuples::Fold,
        // `...properties[tags].items: missing field.` (cline/cline#7339).
        missing_items: MissingItems::Derive,
        // `...properties[locale].type: must be specified` (vercel/ai#19002).
        type_required: true,
        any_value: Some(Cow::Borrowed(SCHEMA_PROTO_ANY_VALUE)),
        draft_2020: false,
        // `...items: field predicate failed: $type == Type.ARRAY` (anomalyco/opencode#48073);
        // `...properties: only allowed for OBJECT type` (anomalyco/opencode#11888).
        keywords_on_own_type_only: true,
        // `Unknown name "additionalProperties" ... Cannot find field.` (CLIProxyAPI#97); the
        // genai SDK refuses it for the Developer API too.
        additional_properties: AdditionalProperties::Drop,
        // A `true`/`false` subschema is not a proto message.
        boolean_schemas: false,
        property_named_properties: true,
        formats: Some(Cow::Borrowed(SCHEMA_PROTO_FORMATS)),
        forbidden_pattern_syntax: None,
        property_keys: None,
        // `...parameters.required[0]: property is not defined` (moltis-org/moltis#747).
        required_defined: true,
        // `GenerateContentRequest.tools[0].function_declarations[1].parameters.properties:
        // should be non-empty for OBJECT type` (langchain-ai/langchain-google#416,
        // pipecat-ai/pipecat-flows#110; peers.md §3 #36, G13).
        empty_properties: false,
        // A malformed MCP schema `{"foo": {"type": "string", "required": true}}` would
        // otherwise lose its properties as unknown keywords (`Unknown name "foo"`) and its
        // draft-03 `required` (CLIProxyAPI `normalizeMalformedSchemaObjects`; peers.md §3 #37).
        wrap_bare_properties: true,
        // The proto's `Type` is an enum: `"STRING"`, as genai serializes it, is accepted.
        type_names_any_case: true,
        tool_limit: None,
        // A property map with a non-schema member (`"q": "string"`, hand-written MCP
        // servers; 9router#2489: `Invalid value at '...parameters.properties[6].value'
        // (...Schema), "object"`) keeps its valid members.
        repair_property_maps: true,
        promote_boolean_required: true,
        // "Vertex AI gets confused if both anyOf and default are set": the historical
        // gemini-cli sanitizer removed such a `default` (peers.md §2.6 and §3 #55).
        default_beside_any_of: false,
        // "The schema must describe an object where the properties are the parameters."
        root: Root::OBJECT,
        strict: false,
        all_required: true,
        request_limits: RequestLimits {
            strict_tools: None,
            optional_parameters: None,
            union_parameters: None,
            fields: None,
        },
        // With a decoder on the way back, what the proto cannot say is said another way:
        // maps (no `additionalProperties`: `Unknown name "additionalProperties"`), tuples, numeric
        // enums (`only allowed for STRING type`), any-value nodes (every node needs a type).
        encodings: crate::encode::Encodings::SCHEMA_PROTO,
        limits: Rules::PERMISSIVE.limits,
        tool_names: GEMINI_TOOL_NAMES,
        hints: true,
    };
}

impl Rules {
    /// Gemini `parametersJsonSchema` / `responseJsonSchema`: JSON Schema, but "only the
    /// following properties are supported" (GenerationConfig.response_json_schema docs).
    pub const GEMINI_JSONSCHEMA: Rules = Rules {
        name: Cow::Borrowed("gemini-jsonschema"),
        // The published list, plus `nullable`, which gemini-cli writes for `[X, "null"]`
        // (commit 9de4289; gemini-cli#21094).
        keywords: KeywordSet::of(&[
            K::Id,
            K::Defs,
            K::Ref,
            K::Anchor,
            K::Type,
            K::Format,
            K::Title,
            K::Description,
            K::Enum,
            K::Items,
            K::PrefixItems,
            K::MinItems,
            K::MaxItems,
            K::Minimum,
            K::Maximum,
            K::AnyOf,
            K::OneOf,
            K::Properties,
            K::AdditionalProperties,
            K::Required,
            K::PropertyOrdering,
            K::Nullable,
        ]),
        unknown_keywords: false,
        // gemini-cli rewrites `type: [X, "null"]` → `type: X, nullable: true` before sending.
        type_lists: TypeLists::Split,
        null_style: NullStyle::Nullable,
        unions: Unions::Keep,
        // "`enum` (for strings and numbers)"; `enum: [true]` (a boolean `const`) is accepted
        // too (issue 19).
        enums: Enums::StringsNumbersBooleans,
        empty_string_enum: true,
        // `$ref 'X' was set alongside unsupported fields` (anomalyco/opencode#12295),
        // `reference to undefined schema` (gemini-cli#13326), and "cyclic references ... may only
        // be used within non-required properties": inlining with bounded unrolling avoids all three.
        refs: Refs::Inline,
        // `prefixItems` is listed; draft-07 `items: [...]` is not.
        tuples: Tuples::PrefixItems,
        draft_2020: true,
        // An array without `items` fails the `parametersJsonSchema` check of two real tools
        // (issue 19); `items: {}` says the same.
        missing_items: MissingItems::Empty,
        type_required: false,
        any_value: None,
        keywords_on_own_type_only: false,
        additional_properties: AdditionalProperties::Keep,
        boolean_schemas: true,
        formats: None,
        required_defined: false,
        // JSON Schema: an empty `properties` is fine (providers.md §8, G-J); G13 is the
        // Schema proto's error.
        empty_properties: true,
        // gemini-cli's anyOf-and-default rule was for the Schema proto `parameters`; it went
        // away when gemini-cli moved to `parametersJsonSchema` (#5330). (`default` is not in
        // the list above anyway.)
        default_beside_any_of: true,
        // "The schema must describe an object where the properties are the parameters."
        root: Root::OBJECT,
        // JSON Schema spells type names lower-case.
        type_names_any_case: false,
        // JSON Schema slots say maps, tuples and enums as JSON Schema does.
        encodings: crate::encode::Encodings::NONE,
        ..Rules::GEMINI
    };
}

/// The Gemini API's error texts by rule (providers.md §1.3-1.4; peers.md §4).
pub(crate) const GEMINI_ERRORS: &[ErrorText] = &[
    ErrorText {
        rules: &["unknown-keyword", "unsupported-keyword", "bare-properties"],
        text: "Invalid JSON payload received. Unknown name \"…\" at '…parameters…': Cannot find field.",
    },
    ErrorText {
        rules: &["type-list"],
        text: "Proto field is not repeating, cannot start list.",
    },
    ErrorText {
        rules: &["enum-values"],
        text: "Invalid value at '…enum[0]' (TYPE_STRING) / function declaration enum only allowed for STRING type",
    },
    ErrorText {
        rules: &["enum-empty-string"],
        text: "…enum[3]: cannot be empty",
    },
    ErrorText {
        rules: &["type-missing"],
        text: "…type: must be specified when not using one_of, any_of or all_of fields",
    },
    ErrorText {
        rules: &["items-missing"],
        text: "…items: missing field.",
    },
    ErrorText {
        rules: &["foreign-keyword"],
        text: "…items: field predicate failed: $type == Type.ARRAY / …properties: only allowed for OBJECT type",
    },
    ErrorText {
        rules: &["required-undefined"],
        text: "…required[0]: property is not defined",
    },
    ErrorText {
        rules: &["properties-empty"],
        text: "GenerateContentRequest.tools[0].function_declarations[1].parameters.properties: should be non-empty for OBJECT type",
    },
    ErrorText {
        rules: &["format"],
        text: "format: only 'enum' and 'date-time' are supported for STRING type",
    },
    ErrorText {
        rules: &["any-of-alone"],
        text: "When using any_of, it must be the only field set.",
    },
    // gemini-cli matches it in `geminiChat.ts::isSchemaDepthError`; the limit is not known.
    ErrorText {
        rules: &["depth"],
        text: "maximum schema depth exceeded",
    },
    ErrorText {
        rules: &["ref"],
        text: "reference to undefined schema / $ref 'X' was set alongside unsupported fields",
    },
];

impl Provider {
    /// The Gemini API (`generativelanguage.googleapis.com`, providers.md §1).
    pub const GEMINI: Provider = Provider {
        name: "gemini",
        description: "Gemini API (generateContent): the Schema proto in parameters, response and responseSchema; JSON Schema in the *JsonSchema slots",
        native: &Rules::GEMINI,
        json_schema: Some(&Rules::GEMINI_JSONSCHEMA),
        strict: None,
        // gemini-* and Gemma models on OpenAI-compatible gateways go to the Schema proto
        // (providers.md §1.5: the compat endpoint maps `parameters` onto it).
        models: &["gemini", "gemma"],
        vendors: &["google"],
        hosts: &["generativelanguage.googleapis.com"],
        apis: &[
            "gemini",
            "gemini-count-tokens",
            "gemini-cached-contents",
            "gemini-openai-compat",
        ],
        carries: Carries::Own,
        errors: GEMINI_ERRORS,
    };
}
