//! [`Rules`]: everything a provider can differ in, as one plain data value.

pub use crate::keyword_set::KeywordSet;
use schema_core::Keyword;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// How a `type` list (`["string", "null"]`) is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TypeLists {
    /// Kept as a list.
    Keep,
    /// One type per node: `null` becomes the profile's [`NullStyle`], several other types
    /// become an `anyOf` of typed branches (or collapse where `anyOf` is not accepted).
    Split,
}

/// How "or null" is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NullStyle {
    /// `"type": ["string", "null"]` (and `anyOf` with a `{"type": "null"}` branch kept).
    TypeList,
    /// `"nullable": true` (OpenAPI 3.0, Gemini's Schema proto).
    Nullable,
    /// `"anyOf": [{...}, {"type": "null"}]`.
    AnyOf,
}

/// What may stand beside `anyOf`. Where `anyOf` is not an accepted keyword at all, unions
/// collapse to their best branch instead (see [`Rules::collapses_unions`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Unions {
    /// `anyOf` (and `oneOf` if it is an accepted keyword) as JSON Schema has them.
    Keep,
    /// `anyOf` must be the only keyword of its node: siblings move into each branch (Vertex).
    Alone,
}

/// Which enum values are accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Enums {
    /// Any JSON values.
    Any,
    /// Scalars only (strings, numbers, booleans, null): no objects or arrays.
    Scalars,
    /// Strings and numbers.
    StringsNumbers,
    /// Strings, numbers and booleans (no null, no objects or arrays).
    StringsNumbersBooleans,
    /// Strings only, and only on `type: string`.
    Strings,
}

impl Enums {
    /// Whether a value of this JSON type may be an enum member.
    pub fn accepts(self, t: schema_core::JsonType) -> bool {
        use schema_core::JsonType as J;
        match self {
            Enums::Any => true,
            Enums::Scalars => !matches!(t, J::Object | J::Array),
            Enums::StringsNumbers => matches!(t, J::String | J::Integer | J::Number),
            Enums::StringsNumbersBooleans => {
                matches!(t, J::String | J::Integer | J::Number | J::Boolean)
            }
            Enums::Strings => t == J::String,
        }
    }
}

/// How `$ref` is treated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Refs {
    /// Kept (with siblings, recursion, definitions).
    Keep,
    /// Kept, but a `$ref` with siblings other than `description`/`default` is inlined.
    NoSiblings,
    /// Every local `$ref` is inlined; recursion is unrolled a bounded number of times.
    Inline,
    /// The provider accepts local `$ref`s that are not circular (xAI: "$ref/$defs
    /// (non-circular references only)"): the engine inlines as with [`Refs::Inline`], the check
    /// names only circular and unresolved references.
    NonCircular,
    /// Local references kept, recursion included (OpenAI strict: "Definitions are supported",
    /// "Recursive schemas are supported", providers.md §4.3): `#` and `#/$defs/NAME`
    /// (`#/definitions/NAME` becomes `#/$defs/NAME`). A `$ref` with any sibling is inlined at
    /// that node only (openai-agents: "we can't use `$ref`s if there are also other properties
    /// defined"); definitions no reference reaches are dropped. A schema with references of
    /// another kind (another document, into `properties`, anchors, nested `$id`s or `$defs`)
    /// is inlined as under [`Refs::Inline`].
    Local,
    /// [`Refs::Local`] where no reference is circular and inlining would make the schema
    /// larger, else as [`Refs::Inline`]; an `allOf` member that is a `$ref` is inlined
    /// (Anthropic strict: `$ref`, `$defs`, `definitions` supported; "recursive schemas" and
    /// "allOf with `$ref`" not, providers.md §5.3).
    LocalAcyclic,
}

impl Refs {
    /// Whether local references are kept ([`Refs::Local`], [`Refs::LocalAcyclic`]).
    ///
    /// ```
    /// use provider_rules::{Refs, Rules};
    /// assert!(Rules::OPENAI_STRICT.refs.keeps_local());
    /// assert!(!Refs::Inline.keeps_local());
    /// ```
    pub fn keeps_local(self) -> bool {
        matches!(self, Refs::Local | Refs::LocalAcyclic)
    }

    /// The root's definition a kept reference names (`""` for `#`) and the keyword of the
    /// root it stands under; `None` when the reference is of another form.
    pub(crate) fn local_name(reference: &str) -> Option<(Keyword, String)> {
        if reference == "#" {
            return Some((Keyword::Defs, String::new()));
        }
        let (kw, rest) = if let Some(r) = reference.strip_prefix("#/$defs/") {
            (Keyword::Defs, r)
        } else {
            (
                Keyword::Definitions,
                reference.strip_prefix("#/definitions/")?,
            )
        };
        if rest.is_empty() || rest.contains('/') || rest.contains('%') {
            return None;
        }
        Some((kw, rest.replace("~1", "/").replace("~0", "~")))
    }

    /// Whether the checker needs the schema's circular references and their index.
    pub(crate) fn checks_targets(self) -> bool {
        matches!(self, Refs::NonCircular | Refs::Local | Refs::LocalAcyclic)
    }

    /// The keywords that may stand beside a `$ref` under [`Refs::NoSiblings`] (Gemini's
    /// JSON-Schema slots: "If `$ref` is set on a sub-schema, no other properties, except for
    /// than those starting as a `$`, may be set"; the errors allow `description`, `default`).
    pub const SIBLINGS: &'static [Keyword] = &[
        Keyword::Ref,
        Keyword::Description,
        Keyword::Default,
        Keyword::Defs,
        Keyword::Definitions,
        Keyword::Id,
        Keyword::SchemaUri,
        Keyword::Comment,
        Keyword::Anchor,
    ];
}

/// How tuples (`prefixItems`, draft-07 `items: [...]`) are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Tuples {
    /// As they are.
    Keep,
    /// 2020-12 `prefixItems` (draft-07 `items: [...]` and `additionalItems` are converted).
    PrefixItems,
    /// Folded into one `items` schema (an `anyOf` of the positions where unions are allowed).
    Fold,
}

/// What an array without `items` gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MissingItems {
    /// Nothing.
    Keep,
    /// `"items": {}`.
    Empty,
    /// A typed `items` derived from `contains`, `enum`, `default` or `examples`, else the
    /// profile's any-value schema.
    Derive,
}

/// What is done with `additionalProperties`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AdditionalProperties {
    /// Kept.
    Keep,
    /// Removed (a `false` or a map's value schema goes to the description).
    Drop,
    /// xAI since September 2026: objects are closed by default, so open objects get an
    /// explicit `true`; `false` is kept (accepted again, vercel/ai#20760).
    ClosedByDefault,
    /// xAI from April to September 2026: a nested `false` is refused (`property schema 'false'
    /// is not supported`), so it is dropped (lossless where objects are closed by default).
    DropFalse,
    /// Strict modes: every object gets `false`; an open object makes the schema not
    /// strict-compatible.
    ForceFalse,
}

/// What the root of a tool's parameters must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(default, rename_all = "kebab-case")]
pub struct Root {
    /// `type: "object"`.
    pub object: bool,
    /// A `properties` map (possibly empty).
    pub properties: bool,
    /// No `anyOf`/`oneOf`/`allOf` at the root (object branches are merged).
    pub no_composition: bool,
    /// Whether a standalone schema ([`Slot::Schema`](crate::Slot)) may have any root, even in
    /// strict mode (where the root rules otherwise apply to every slot). Defaults to `false`.
    pub standalone_any: bool,
}

impl Root {
    /// Anything goes.
    pub const ANY: Root = Root {
        object: false,
        properties: false,
        no_composition: false,
        standalone_any: false,
    };
    /// `type: "object"`.
    pub const OBJECT: Root = Root {
        object: true,
        properties: false,
        no_composition: false,
        standalone_any: false,
    };
}

/// Limits over the schemas of one request (`None`: no limit known), which only a caller that
/// sees the whole request can count. Over all the strict schemas (the layer sends a strict tool
/// that would go over non-strict), Anthropic: "Complexity limits per request (combined across
/// all strict schemas): 20 strict tools, 24 optional parameters, 16 parameters with union
/// types". Over every tool, strict or not ([`fields`](RequestLimits::fields): reported, as
/// nothing the sanitizer may do fixes it), Cohere: "you can define a maximum of 200 fields
/// across all tools".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(default, rename_all = "kebab-case")]
pub struct RequestLimits {
    /// Strict tools per request.
    pub strict_tools: Option<u32>,
    /// Optional parameters (properties not required, at any depth) over all strict schemas.
    pub optional_parameters: Option<u32>,
    /// Parameters whose schema is a union (`anyOf`, a type list) over all strict schemas.
    pub union_parameters: Option<u32>,
    /// Fields (properties of every object, at any depth) over all the tools of a request,
    /// strict or not.
    pub fields: Option<u32>,
}

/// How many tools (function declarations) one request may carry, and where the provider says so.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct ToolLimit {
    /// The most tools one request may carry.
    pub max: u32,
    /// Where the provider documents it.
    pub source: Cow<'static, str>,
}

/// Size limits a provider enforces (`None`: no limit known).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(default, rename_all = "kebab-case")]
pub struct Limits {
    /// Deepest nesting of objects.
    pub max_depth: Option<u32>,
    /// Object properties in the whole schema.
    pub max_properties: Option<u32>,
    /// Enum values in the whole schema.
    pub max_enum_values: Option<u32>,
    /// Characters of property names, definition names, enum and const values together.
    pub max_string_chars: Option<u32>,
    /// The largest `minItems` accepted (Anthropic strict: 0 or 1).
    pub max_min_items: Option<u32>,
}

/// A tool-name rule: allowed first and other characters, and a length range.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct ToolNameRule {
    /// Characters allowed first (besides ASCII letters and digits when `first_alnum`).
    pub first_extra: Cow<'static, str>,
    /// Whether a digit may come first.
    pub first_digit: bool,
    /// Characters allowed after the first, besides ASCII letters and digits.
    pub rest_extra: Cow<'static, str>,
    /// The longest name accepted.
    pub max_len: u32,
}

/// A rule for the names of a tool's top-level properties (Anthropic:
/// `Property keys should match pattern '^[a-zA-Z0-9_.-]{1,64}$'`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct PropertyKeyRule {
    /// Characters allowed besides ASCII letters and digits.
    pub extra: Cow<'static, str>,
    /// The longest key accepted.
    pub max_len: u32,
}

impl PropertyKeyRule {
    /// Whether `key` follows the rule.
    ///
    /// ```
    /// use provider_rules::Rules;
    /// let rule = Rules::ANTHROPIC.property_keys.unwrap();
    /// assert!(rule.accepts("file.path"));
    /// assert!(!rule.accepts("$ref"));
    /// assert!(!rule.accepts(""));
    /// assert!(!rule.accepts("é") && rule.accepts(&"a".repeat(64)) && !rule.accepts(&"a".repeat(65)));
    /// ```
    pub fn accepts(&self, key: &str) -> bool {
        if key.is_ascii() {
            // One byte a character; an ASCII byte of `extra` is one of its characters (no
            // byte of a longer character is ASCII): the same answer without decoding.
            let extra = self.extra.as_bytes();
            return !key.is_empty()
                && key.len() <= self.max_len as usize
                && key
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || extra.contains(&b));
        }
        !key.is_empty()
            && key.chars().count() <= self.max_len as usize
            && key
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || self.extra.contains(c))
    }
}

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
