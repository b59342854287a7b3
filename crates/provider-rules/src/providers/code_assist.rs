//! `gemini-code-assist`: Code Assist / Antigravity `v1internal` (providers.md §3), whose
//! errors are often an opaque `Request contains an invalid argument.`

use super::registry::{Carries, Provider};
use crate::rules::*;
use schema_core::Keyword as K;
use std::borrow::Cow;

impl Rules {
    /// Code Assist / Antigravity `v1internal` `parameters`: the Gemini proto, stricter.
    pub const GEMINI_CODE_ASSIST: Rules = Rules {
        name: Cow::Borrowed("gemini-code-assist"),
        // No `anyOf`: "fold unions to one typed schema" (pleaseai/shunt#454; CLIProxyAPI
        // flattens anyOf/oneOf to the best branch for Antigravity).
        keywords: super::gemini::SCHEMA_PROTO_KEYWORDS.without(&[K::AnyOf]),
        // No NULL type: a null-only node becomes a nullable string (gemini-cli#21094: Code
        // Assist 400 on `["array","null"]`).
        null_type: false,
        // With no unions, "any value" can only be said in words; a node whose keywords
        // speak of a type keeps that type instead (`Rules::any_value`).
        any_value: Some(Cow::Borrowed(r#"{"type":"string"}"#)),
        ..Rules::GEMINI
    };
}

impl Provider {
    /// Gemini Code Assist / Antigravity (providers.md §3): the Gemini body under `request`.
    pub const GEMINI_CODE_ASSIST: Provider = Provider {
        name: "gemini-code-assist",
        description: "Gemini Code Assist / Antigravity (v1internal, cloudcode-pa): the Gemini body under request, opaque 400s",
        native: &Rules::GEMINI_CODE_ASSIST,
        json_schema: Some(&Rules::GEMINI_JSONSCHEMA),
        strict: None,
        models: &[],
        vendors: &[],
        hosts: &["cloudcode-pa.googleapis.com"],
        apis: &["code-assist"],
        // Antigravity serves Claude models too: "Both the Gemini and the Anthropic rule sets
        // apply" (providers.md §3.2); a claude-* model takes Anthropic's profiles.
        carries: Carries::Only(&["anthropic"]),
        errors: super::gemini::GEMINI_ERRORS,
    };
}
