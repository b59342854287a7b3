//! `ollama`: Ollama's native chat API (`/api/chat`, providers.md §7 "Ollama"), whose
//! `tools[].function.parameters` is decoded into a typed Go struct.

use super::registry::{Carries, ErrorText, Provider};
use crate::rules::*;
use schema_core::Keyword as K;
use std::borrow::Cow;

impl Rules {
    /// Ollama native `/api/chat` tool parameters and `format`.
    pub const OLLAMA: Rules = Rules {
        name: Cow::Borrowed("ollama"),
        // The Go struct (`api/types.go`): root `{type, $defs, items, required, properties}`,
        // property `{anyOf, type (string or list), items, description, enum (any),
        // properties, required}`. "Every other keyword is silently dropped (no 400)": what it
        // does not read goes to the description, where the model still sees it.
        keywords: KeywordSet::of(&[
            K::Type,
            K::Description,
            K::Enum,
            K::Items,
            K::Properties,
            K::Required,
            K::AnyOf,
        ]),
        unknown_keywords: false,
        // `$defs` is read, `$ref` is not: references are inlined.
        refs: Refs::Inline,
        // No `prefixItems` in the struct: a tuple folds into its `items`.
        tuples: Tuples::Fold,
        // `properties` is a `map[string]ToolProperty` and `anyOf` a `[]ToolProperty`: a
        // `true`/`false` schema there fails the decode.
        boolean_schemas: false,
        // `json: cannot unmarshal array into Go struct field .tools.function.parameters.properties…`
        // (`properties: []`, ollama#10328): malformed maps are repaired member by member, a
        // bare property map is wrapped, a draft-03 `required: true` (a bool where `[]string`
        // is decoded) becomes the parent's `required` entry.
        wrap_bare_properties: true,
        repair_property_maps: true,
        promote_boolean_required: true,
        // `type` decodes as a string or a list ("type (string or list)", current builds).
        // Older builds (< ~2025-04) rejected type lists (tidyverse/ellmer#342); not kept up
        // with: current builds are the target.
        ..Rules::PERMISSIVE
    };
}

impl Provider {
    /// Ollama (providers.md §7).
    pub const OLLAMA: Provider = Provider {
        name: "ollama",
        description: "Ollama native /api/chat tool parameters and format, decoded into a Go struct that reads a few keywords and drops the rest",
        native: &Rules::OLLAMA,
        json_schema: None,
        strict: None,
        models: &[],
        vendors: &[],
        // A local server (`localhost:11434`): no host identifies it; its native API does.
        hosts: &[],
        apis: &["ollama-chat"],
        carries: Carries::Own,
        errors: &[ErrorText {
            rules: &["malformed-keyword", "bare-properties", "boolean-schema"],
            text: "json: cannot unmarshal array into Go struct field .tools.function.parameters.properties…",
        }],
    };
}
