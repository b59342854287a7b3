//! `xai`: Grok function parameters, always strict (providers.md §6).

use super::registry::{Carries, ErrorText, Provider};
use crate::rules::*;
use schema_core::Keyword as K;
use std::borrow::Cow;

/// "pattern: ECMA-262 subset; no backreferences, `\p{…}`, `\b`, lookaround, inline flags".
pub(crate) const XAI_FORBIDDEN_PATTERN_SYNTAX: &[Cow<'static, str>] = &[
    Cow::Borrowed("\\p{"),
    Cow::Borrowed("\\P{"),
    Cow::Borrowed("(?="),
    Cow::Borrowed("(?!"),
    Cow::Borrowed("(?<="),
    Cow::Borrowed("(?<!"),
    Cow::Borrowed("\\b"),
    Cow::Borrowed("\\1"),
    Cow::Borrowed("(?i"),
    Cow::Borrowed("(?m"),
    Cow::Borrowed("(?s"),
];

impl Rules {
    /// xAI (Grok).
    pub const XAI: Rules = Rules {
        name: Cow::Borrowed("xai"),
        // "Rejected (400): maxContains/minContains".
        keywords: KeywordSet::ALL.without(&[K::MinContains, K::MaxContains]),
        // "Rejected (400): items as an array (use prefixItems)".
        draft_2020: true,
        tuples: Tuples::PrefixItems,
        // "properties with a schema of true or false" are rejected:
        // `/properties/properties/additionalProperties: property schema 'false' is not supported`
        // (vercel/ai#14678).
        boolean_schemas: false,
        property_named_properties: false,
        // "additionalProperties defaults to false and must be set to true explicitly", so open
        // objects say so. A nested `false` was rejected from April to September 2026 and is
        // accepted again (vercel/ai#20760); `additional-properties = "drop-false"` restores
        // the old behaviour should it come back.
        additional_properties: AdditionalProperties::ClosedByDefault,
        // "$ref/$defs (non-circular references only)": accepted; inlined all the same.
        refs: Refs::NonCircular,
        // Function parameters "must resolve exclusively to objects" (CLIProxyAPI xai executor).
        root: Root {
            object: true,
            properties: true,
            no_composition: true,
            ..Root::OBJECT
        },
        forbidden_pattern_syntax: Some(Cow::Borrowed(XAI_FORBIDDEN_PATTERN_SYNTAX)),
        // No documented maximum found (OpenAI's 128 is not xAI's).
        tool_limit: None,
        ..Rules::OPENAI
    };
}

/// xAI's error texts by rule (providers.md §6).
const XAI_ERRORS: &[ErrorText] = &[
    super::openai::PATTERN_SYNTAX_ERROR,
    ErrorText {
        rules: &[
            "additional-properties",
            "boolean-schema",
            "property-named-properties",
        ],
        text: "/properties/properties/additionalProperties: property schema 'false' is not supported",
    },
];

impl Provider {
    /// xAI Grok (providers.md §6), OpenAI-compatible and always strict.
    pub const XAI: Provider = Provider {
        name: "xai",
        description: "xAI Grok function parameters (OpenAI-compatible, always strict: one profile for every tool)",
        native: &Rules::XAI,
        json_schema: None,
        strict: None,
        models: &["grok"],
        vendors: &["x-ai", "xai"],
        hosts: &["x.ai"],
        apis: &[],
        carries: Carries::Own,
        errors: XAI_ERRORS,
    };
}
