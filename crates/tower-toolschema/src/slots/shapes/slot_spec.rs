//! What the table says of one schema slot: its path, role, dialect, encoding, name and
//! `strict` flag, and the `const` builders the table is written with.

/// What a schema slot holds.
///
/// ```
/// use tower_toolschema::shapes::{Api, SlotRole};
/// let roles: Vec<SlotRole> = Api::OpenAiChat.shape().slots.iter().map(|s| s.role).collect();
/// assert_eq!(roles, [SlotRole::ToolParameters, SlotRole::ToolParameters, SlotRole::Output]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SlotRole {
    /// A tool's input schema (root rules apply: an object schema).
    ToolParameters,
    /// A tool's output / response schema.
    ToolOutput,
    /// A structured-output (response format) schema.
    Output,
}

impl SlotRole {
    /// The engine's view of the role: whether root rules apply (a tool's input schema).
    ///
    /// ```
    /// use tower_toolschema::shapes::SlotRole;
    /// assert_eq!(SlotRole::ToolParameters.engine_slot(), provider_rules::Slot::Parameters);
    /// assert_eq!(SlotRole::Output.engine_slot(), provider_rules::Slot::Schema);
    /// ```
    pub fn engine_slot(self) -> provider_rules::Slot {
        match self {
            SlotRole::ToolParameters => provider_rules::Slot::Parameters,
            SlotRole::ToolOutput | SlotRole::Output => provider_rules::Slot::Schema,
        }
    }
}

/// Which schema language a slot speaks.
///
/// ```
/// use tower_toolschema::shapes::{Api, Dialect};
/// let dialect = |path: &str| Api::Gemini.shape().slots.iter().find(|s| s.path == path).map(|s| s.dialect);
/// assert_eq!(dialect("tools[].functionDeclarations[].parameters"), Some(Dialect::Native));
/// assert_eq!(dialect("tools[].functionDeclarations[].parametersJsonSchema"), Some(Dialect::JsonSchema));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Dialect {
    /// The provider's own schema dialect (Gemini's `Schema` proto for `parameters`,
    /// `responseSchema`; plain JSON Schema subsets elsewhere).
    Native,
    /// Gemini's `*JsonSchema` slots: JSON Schema proper, with different rules.
    JsonSchema,
}

/// How the schema is stored in its slot.
///
/// ```
/// use tower_toolschema::shapes::{Api, Encoding};
/// let slots = Api::BedrockConverse.shape().slots;
/// let structured = slots.iter().find(|s| s.path.ends_with("jsonSchema.schema")).unwrap();
/// assert_eq!(structured.encoding, Encoding::JsonString);
/// assert_eq!(slots[0].encoding, Encoding::Json);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Encoding {
    /// The slot's JSON value is the schema.
    Json,
    /// The slot's JSON value is a *string* holding the schema's JSON text (Bedrock's
    /// `outputConfig.textFormat.structure.jsonSchema.schema`): parsed, sanitized, re-encoded.
    JsonString,
    /// The slot's JSON value is the schema when it is an object; any other value is not a
    /// schema and the slot is not there (Ollama's `format`, which may also be the string
    /// `"json"` for plain JSON mode).
    ///
    /// ```
    /// use tower_toolschema::shapes::{Api, Encoding};
    /// let format = Api::OllamaChat.shape().slots.iter().find(|s| s.path == "format").unwrap();
    /// assert_eq!(format.encoding, Encoding::JsonObject);
    /// ```
    JsonObject,
}

/// One schema slot of an API body.
///
/// `path` is a dotted path from the body's root; `name[]` steps into every element of the
/// array `name`.
///
/// ```
/// use tower_toolschema::shapes::Api;
/// let spec = &Api::OpenAiChat.shape().slots[0];
/// assert_eq!(spec.path, "tools[].function.parameters");
/// assert_eq!(spec.name, Some("tools[].function.name"));
/// assert_eq!(spec.strict, Some("tools[].function.strict"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SlotSpec {
    /// The slot's path, e.g. `tools[].function.parameters`.
    pub path: &'static str,
    /// What the slot holds.
    pub role: SlotRole,
    /// Which dialect it speaks.
    pub dialect: Dialect,
    /// How the schema is stored.
    pub encoding: Encoding,
    /// Where the slot's name sits (the tool's or the response format's), a path in the same
    /// syntax; the object holding it is the one that declares the slot (`tools[].function` for
    /// `tools[].function.parameters`). `None`: the slot has no name.
    pub name: Option<&'static str>,
    /// Where the `strict` flag that asks for strict mode for this slot sits; `None`: the API
    /// has no such flag here.
    pub strict: Option<&'static str>,
}

pub(super) const fn slot(path: &'static str, role: SlotRole, dialect: Dialect) -> SlotSpec {
    SlotSpec {
        path,
        role,
        dialect,
        encoding: Encoding::Json,
        name: None,
        strict: None,
    }
}

impl SlotSpec {
    /// The same slot, named by the string at `path` (see [`SlotSpec::name`]).
    pub(super) const fn named(mut self, path: &'static str) -> SlotSpec {
        self.name = Some(path);
        self
    }

    /// The same slot, with its `strict` flag at `path` (see [`SlotSpec::strict`]).
    pub(super) const fn strict_at(mut self, path: &'static str) -> SlotSpec {
        self.strict = Some(path);
        self
    }

    /// The same slot, stored with `encoding`.
    pub(super) const fn stored(mut self, encoding: Encoding) -> SlotSpec {
        self.encoding = encoding;
        self
    }
}

const PLACEHOLDER: SlotSpec = slot("", SlotRole::Output, Dialect::Native);

/// The slots of `parts`, in order, as one array (parts that do not add up to `N` fail to
/// compile).
pub(super) const fn join<const N: usize>(parts: &[&[SlotSpec]]) -> [SlotSpec; N] {
    let mut out = [PLACEHOLDER; N];
    let (mut n, mut i) = (0, 0);
    while i < parts.len() {
        let mut j = 0;
        while j < parts[i].len() {
            out[n] = parts[i][j];
            n += 1;
            j += 1;
        }
        i += 1;
    }
    assert!(n == N, "the parts do not add up to N slots");
    out
}
