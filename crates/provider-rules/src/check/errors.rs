//! The providers' own error texts, by rule: what a user searching for their 400 will recognise.

use crate::rules::Rules;

/// The provider's own error text for a rule, where public 400s show it
/// (`../shared/research/providers.md` §1–7, peers.md §4).
pub(super) fn provider_error(rules: &Rules, rule: &str) -> Option<&'static str> {
    let n = rules.name();
    let family = if n.starts_with("gemini") || n.starts_with("vertex") || n == "portable" {
        "gemini"
    } else if n.starts_with("openai") {
        "openai"
    } else if n.starts_with("anthropic") || n.starts_with("bedrock") {
        "anthropic"
    } else if n.starts_with("xai") {
        "xai"
    } else {
        ""
    };
    Some(match (family, rule) {
        ("gemini", "unknown-keyword" | "unsupported-keyword" | "bare-properties") => {
            "Invalid JSON payload received. Unknown name \"…\" at '…parameters…': Cannot find field."
        }
        ("gemini", "type-list") => "Proto field is not repeating, cannot start list.",
        ("gemini", "enum-values") => {
            "Invalid value at '…enum[0]' (TYPE_STRING) / function declaration enum only allowed for STRING type"
        }
        ("gemini", "enum-empty-string") => "…enum[3]: cannot be empty",
        ("gemini", "type-missing") => {
            "…type: must be specified when not using one_of, any_of or all_of fields"
        }
        ("gemini", "items-missing") => "…items: missing field.",
        ("gemini", "foreign-keyword") => {
            "…items: field predicate failed: $type == Type.ARRAY / …properties: only allowed for OBJECT type"
        }
        ("gemini", "required-undefined") => "…required[0]: property is not defined",
        ("gemini", "properties-empty") => {
            "GenerateContentRequest.tools[0].function_declarations[1].parameters.properties: should be non-empty for OBJECT type"
        }
        ("gemini", "format") => "format: only 'enum' and 'date-time' are supported for STRING type",
        ("gemini", "any-of-alone") => "When using any_of, it must be the only field set.",
        // gemini-cli matches it in `geminiChat.ts::isSchemaDepthError`; the limit is not known.
        ("gemini", "depth") => "maximum schema depth exceeded",
        ("gemini", "ref") => {
            "reference to undefined schema / $ref 'X' was set alongside unsupported fields"
        }
        ("openai", "items-missing") => "array schema missing items.",
        ("openai", "root-properties") => "In context=(), object schema missing properties.",
        ("openai", "additional-properties") => {
            "'additionalProperties' is required to be supplied and to be false."
        }
        ("openai", "strict-required") => {
            "'required' is required to be supplied and to be an array including every key in properties."
        }
        ("openai", "format") => "'uri' is not a valid format.",
        ("openai", "unsupported-keyword") => {
            "'oneOf' is not permitted. / 'default' is not permitted."
        }
        ("openai", "root-union" | "root") => {
            "schema must have type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level."
        }
        ("anthropic", "root-union") => {
            "input_schema does not support oneOf, allOf, or anyOf at the top level"
        }
        ("anthropic", "root") => "input_schema.type: Input should be 'object'",
        ("anthropic", "tuple" | "draft-2020" | "malformed-keyword") => {
            "input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12"
        }
        ("anthropic", "additional-properties") => {
            "For 'object' type, 'additionalProperties' must be explicitly set to false"
        }
        ("anthropic", "property-key") => {
            "input_schema.properties: Property keys should match pattern '^[a-zA-Z0-9_.-]{1,64}$'"
        }
        ("openai" | "xai", "pattern-syntax") => {
            "… is not a 'regex' / regex lookaround is not supported"
        }
        ("anthropic", "min-items") => "For 'array' type, property 'maxItems' is not supported",
        ("xai", "additional-properties" | "boolean-schema" | "property-named-properties") => {
            "/properties/properties/additionalProperties: property schema 'false' is not supported"
        }
        _ => return None,
    })
}
