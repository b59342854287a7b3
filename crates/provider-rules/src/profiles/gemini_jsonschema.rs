//! `gemini-jsonschema`: `parametersJsonSchema` / `responseJsonSchema` (providers.md §1.4).

use crate::rules::*;
use schema_core::Keyword as K;
use std::borrow::Cow;

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
        // `allOf` is not in the list.
        all_of: AllOf::Merge,
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
        ..Rules::GEMINI
    };
}
