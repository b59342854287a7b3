//! [`Rules`]: everything a provider can differ in, as one plain data value.

pub use crate::keyword_set::KeywordSet;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

mod kinds;
pub use kinds::*;

/// One provider profile: everything the engine needs to rewrite a schema for it and
/// everything [`check`](fn@crate::check) needs to predict a rejection. Plain data: a `const`,
/// derivable with struct update syntax, loadable from TOML or JSON.
///
/// ```
/// use provider_rules::{AdditionalProperties, Rules};
/// // A Gemini variant for an endpoint that accepts additionalProperties.
/// const MINE: Rules = Rules {
///     additional_properties: AdditionalProperties::Keep,
///     ..Rules::GEMINI
/// };
/// assert_eq!(MINE.type_lists, Rules::GEMINI.type_lists);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Rules {
    /// The profile's name (`gemini`, `openai-strict`, ...).
    pub name: Cow<'static, str>,
    /// The built-in profile a custom one derives from (`extends = "gemini"` in TOML), which
    /// gives it its provider: that provider's error texts, slot routing and companions
    /// ([`Rules::base`]). `None` for the built-ins themselves.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extends: Option<Cow<'static, str>>,
    /// The keywords the provider accepts; any other is removed (its meaning goes to the
    /// description when `hints` is on).
    pub keywords: KeywordSet,
    /// Whether keywords unknown to JSON Schema (`x-*`, vendor keys) are accepted.
    pub unknown_keywords: bool,
    /// How `type` lists are written.
    pub type_lists: TypeLists,
    /// How "or null" is written.
    pub null_style: NullStyle,
    /// Whether a node whose only type is `null` is accepted.
    pub null_type: bool,
    /// What may stand beside `anyOf` (where `anyOf` is accepted at all).
    pub unions: Unions,
    /// Which enum values are accepted.
    pub enums: Enums,
    /// Whether `""` may be an enum member.
    pub empty_string_enum: bool,
    /// Whether non-string enum values are turned into strings (`1` → `"1"`) rather than moved
    /// to the description. Off by default: a model would then send `"1"` for `1`.
    pub stringify_enums: bool,
    /// How `$ref` is treated.
    pub refs: Refs,
    /// How tuples are written.
    pub tuples: Tuples,
    /// What an array without `items` gets.
    pub missing_items: MissingItems,
    /// Whether every node needs a `type` (inferred from its keywords when missing).
    pub type_required: bool,
    /// The schema (JSON text) put where a node accepts any value but the provider needs a
    /// type; `None` leaves such nodes as they are. When it is one type (no `anyOf` of
    /// alternatives), it is the last resort: a node whose keywords spoke of a type as it was
    /// entered (`enum`/`const` values, `if`/`then`/`else`, `contains`, a tuple's positions)
    /// keeps that type, and an open tuple folds to its positions.
    pub any_value: Option<Cow<'static, str>>,
    /// Whether the schema must be valid JSON Schema 2020-12: draft-07 tuples become
    /// `prefixItems`, `additionalItems` becomes `items`, draft-04 boolean exclusive bounds
    /// become numbers, `dependencies` becomes `dependentRequired`/`dependentSchemas`.
    pub draft_2020: bool,
    /// Whether type-specific keywords are only accepted on their own type (`items` only on
    /// arrays, `properties` only on objects...).
    pub keywords_on_own_type_only: bool,
    /// What is done with `additionalProperties`.
    pub additional_properties: AdditionalProperties,
    /// Whether `true`/`false` are accepted as subschemas (other than `additionalProperties`).
    pub boolean_schemas: bool,
    /// Whether an object-shaped property literally named `properties` is accepted (xAI
    /// misreads it as the keyword).
    pub property_named_properties: bool,
    /// String formats kept; `None` keeps every format.
    pub formats: Option<Cow<'static, [Cow<'static, str>]>>,
    /// Regular-expression constructs the provider refuses in `pattern` (`\p{`, lookaround...);
    /// a pattern holding one goes to the description. `None`: any pattern.
    pub forbidden_pattern_syntax: Option<Cow<'static, [Cow<'static, str>]>>,
    /// The rule for a tool's top-level property names, where the provider has one. Keys are
    /// not renamed (that needs the response side to map them back): keys that break the rule
    /// are reported in [`Report::unfixable`](crate::Report::unfixable).
    pub property_keys: Option<PropertyKeyRule>,
    /// Whether `required` may only name the node's own properties.
    pub required_defined: bool,
    /// Whether an object may have an empty `properties` map. When not (Gemini's Schema proto:
    /// `...parameters.properties: should be non-empty for OBJECT type`), an empty map is
    /// removed — losslessly: it asserts nothing — except at a root that [`Root::properties`]
    /// asks a map of. Defaults to `true` (kept).
    #[serde(default = "yes")]
    pub empty_properties: bool,
    /// Whether a tool's parameters written as a bare property map, without the object around
    /// it (`{"foo": {"type": "string"}}`, sent by malformed MCP servers), are wrapped into
    /// `{"type": "object", "properties": {...}}` (for [`Slot::Parameters`](crate::Slot)
    /// only). Without it, the members are unknown keywords and the properties are lost.
    /// Defaults to `false` (left as they are).
    #[serde(default)]
    pub wrap_bare_properties: bool,
    /// Whether a `properties` map with members that are not schemas (`{"q": "string"}`,
    /// `{"n": 5}`) is repaired member by member: a JSON type name becomes `{"type": ...}`,
    /// anything else a described any-value schema, the valid members stay. Without it, the
    /// whole map is malformed and every property is lost. Defaults to `false` (left as is).
    #[serde(default)]
    pub repair_property_maps: bool,
    /// Whether a draft-03 boolean `required` on a property schema (`"foo": {"type":
    /// "string", "required": true}`) becomes the property's name in its parent's `required`
    /// list (`required: false` is removed). Without it, the malformed value is dropped and the
    /// property is no longer required. Defaults to `false` (left as they are).
    #[serde(default)]
    pub promote_boolean_required: bool,
    /// Whether `default` may stand beside `anyOf`. When not (the historical gemini-cli
    /// sanitizer: "Vertex AI gets confused if both anyOf and default are set"), such a
    /// `default` is removed and said in the description ("Default: \"x\"."). Defaults to
    /// `true` (kept). Read only where `default` is in [`keywords`](Rules::keywords): elsewhere
    /// every `default` is an unsupported keyword.
    #[serde(default = "yes")]
    pub default_beside_any_of: bool,
    /// Whether `type` names may be spelled in any case (Gemini's Schema proto: `Type` is an
    /// enum, `"STRING"` as genai serializes it). Elsewhere `check` names them; the engine
    /// always reads them as types and writes them lower-case. Defaults to `false`.
    #[serde(default)]
    pub type_names_any_case: bool,
    /// What the root of a tool's parameters must be.
    pub root: Root,
    /// Strict mode: every object closed, every node typed; see also
    /// [`all_required`](Rules::all_required).
    pub strict: bool,
    /// In strict mode, whether every property must be listed in `required`, optional ones
    /// made nullable so a call can send `null` instead (OpenAI: `'required' is required to be
    /// supplied and to be an array including every key in properties`). Anthropic's strict
    /// mode keeps optional properties. Defaults to `true`.
    #[serde(default = "yes")]
    pub all_required: bool,
    /// The lossless encodings used when the caller decodes ([`crate::encode`],
    /// [`SanitizeOptions::encode`](crate::SanitizeOptions)). Defaults to none.
    #[serde(default)]
    pub encodings: crate::encode::Encodings,
    /// Size limits.
    pub limits: Limits,
    /// Limits over all the strict schemas of one request.
    #[serde(default)]
    pub request_limits: RequestLimits,
    /// How many tools one request may carry (`None`: no documented maximum).
    #[serde(default)]
    pub tool_limit: Option<ToolLimit>,
    /// The tool-name rule.
    pub tool_names: ToolNameRule,
    /// Whether lost constraints are folded into `description`.
    pub hints: bool,
}

/// The serde default of the capabilities that are on unless a profile says otherwise.
fn yes() -> bool {
    true
}

impl Rules {
    /// The profile's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The built-in profile this one is or derives from: [`extends`](Rules::extends), else
    /// the profile's own name. The registry finds its provider by it
    /// ([`family`](crate::family)).
    ///
    /// ```
    /// use provider_rules::Rules;
    /// assert_eq!(Rules::VERTEX.base(), "vertex");
    /// let corp = Rules::from_toml("extends = \"vertex\"\nname = \"corp\"")?;
    /// assert_eq!(corp.base(), "vertex");
    /// # Ok::<(), provider_rules::RulesError>(())
    /// ```
    pub fn base(&self) -> &str {
        self.extends.as_deref().unwrap_or(&self.name)
    }

    /// Whether the root must have `properties` (possibly empty) under these rules in this
    /// slot: [`Root::properties`] where the root is shaped. Such a root keeps an empty map
    /// even where [`Rules::empty_properties`] is off (`portable`: OpenAI's `object schema
    /// missing properties` wins over Gemini's `properties: should be non-empty for OBJECT
    /// type`, which Gemini no longer raises).
    ///
    /// ```
    /// use provider_rules::{Rules, Slot};
    /// assert!(Rules::OPENAI.keeps_root_properties(Slot::Parameters));
    /// assert!(!Rules::OPENAI.keeps_root_properties(Slot::Schema));
    /// ```
    pub fn keeps_root_properties(&self, slot: crate::slot::Slot) -> bool {
        self.root.properties && self.root_shaped(slot)
    }

    /// Whether the root rules apply in this slot: always to a tool's parameters; to a
    /// standalone schema in strict modes, unless [`Root::standalone_any`].
    ///
    /// ```
    /// use provider_rules::{Rules, Slot};
    /// assert!(Rules::OPENAI_STRICT.root_shaped(Slot::Schema));
    /// assert!(!Rules::ANTHROPIC_STRICT.root_shaped(Slot::Schema));
    /// assert!(Rules::ANTHROPIC_STRICT.root_shaped(Slot::Parameters));
    /// ```
    pub fn root_shaped(&self, slot: crate::slot::Slot) -> bool {
        slot == crate::slot::Slot::Parameters || (self.strict && !self.root.standalone_any)
    }

    /// Whether `allOf` is merged into its node: exactly where it is not an accepted keyword
    /// (Gemini: `Unknown name "allOf"`; OpenAI strict: "Composition: allOf ... not supported").
    ///
    /// ```
    /// use provider_rules::Rules;
    /// assert!(Rules::GEMINI.merges_all_of());
    /// assert!(!Rules::ANTHROPIC.merges_all_of());
    /// ```
    pub fn merges_all_of(&self) -> bool {
        !self.keywords.contains(schema_core::Keyword::AllOf)
    }

    /// Whether unions collapse to their best branch (the rest said in the description):
    /// exactly where `anyOf` is not an accepted keyword (Code Assist).
    ///
    /// ```
    /// use provider_rules::Rules;
    /// assert!(Rules::GEMINI_CODE_ASSIST.collapses_unions());
    /// assert!(!Rules::GEMINI.collapses_unions());
    /// ```
    pub fn collapses_unions(&self) -> bool {
        !self.keywords.contains(schema_core::Keyword::AnyOf)
    }
}

/// Whether `kw` may stay on type `t` although it does not apply there: `format` does on any
/// type but an object (Gemini rejects a `format` on an OBJECT, as on an inferred object root
/// with `format` beside `properties`; issue 19).
pub(crate) fn format_tolerated(kw: schema_core::Keyword, t: schema_core::InstanceType) -> bool {
    kw == schema_core::Keyword::Format && t != schema_core::InstanceType::Object
}

#[cfg(test)]
mod tests {
    use super::PropertyKeyRule;
    use std::borrow::Cow;

    /// The ASCII reading of a key gives what reading it character by character gives, for
    /// rules whose extra characters are ASCII or not.
    #[test]
    fn a_key_read_as_bytes_is_judged_as_read_by_characters() {
        let by_chars = |r: &PropertyKeyRule, k: &str| {
            !k.is_empty()
                && k.chars().count() <= r.max_len as usize
                && k.chars()
                    .all(|c| c.is_ascii_alphanumeric() || r.extra.contains(c))
        };
        let rules = [
            PropertyKeyRule {
                extra: Cow::Borrowed("_.-"),
                max_len: 4,
            },
            PropertyKeyRule {
                extra: Cow::Borrowed("é$"),
                max_len: 3,
            },
        ];
        let keys = [
            "", "a", "a_b", "a.b-", "abcde", "$", "a$", "é", "aé", "ééé", "éééé", "a b", "~",
            "\u{7f}", "\0",
        ];
        for r in &rules {
            for k in keys {
                assert_eq!(r.accepts(k), by_chars(r, k), "{k:?} {:?}", r.extra);
            }
        }
    }
}
