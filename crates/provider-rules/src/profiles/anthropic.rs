//! `anthropic`: Messages `tools[].input_schema` (providers.md §5.2).

use crate::rules::*;
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
