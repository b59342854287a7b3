//! The choices a provider differs in, one type each: how type lists, unions, enums, `$ref`s,
//! tuples, missing `items` and `additionalProperties` are written, the root's shape, the
//! request's limits and the tool-name and property-key rules.

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
/// collapse to their best branch instead (see [`Rules::collapses_unions`](super::Rules::collapses_unions)).
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
