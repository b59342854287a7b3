//! The `type` keyword's values: the seven type names, one or a list.

/// The seven JSON Schema type names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum InstanceType {
    /// `"null"`
    Null,
    /// `"boolean"`
    Boolean,
    /// `"object"`
    Object,
    /// `"array"`
    Array,
    /// `"number"`
    Number,
    /// `"string"`
    String,
    /// `"integer"`
    Integer,
}

impl InstanceType {
    /// Every type, in the order JSON Schema lists them.
    pub const ALL: [InstanceType; 7] = [
        InstanceType::Null,
        InstanceType::Boolean,
        InstanceType::Object,
        InstanceType::Array,
        InstanceType::Number,
        InstanceType::String,
        InstanceType::Integer,
    ];

    /// The type's JSON name.
    pub const fn as_str(self) -> &'static str {
        match self {
            InstanceType::Null => "null",
            InstanceType::Boolean => "boolean",
            InstanceType::Object => "object",
            InstanceType::Array => "array",
            InstanceType::Number => "number",
            InstanceType::String => "string",
            InstanceType::Integer => "integer",
        }
    }

    /// The type's JSON name as a JSON string, quoted (`"string"`): what the serializer
    /// writes, in one copy.
    pub(crate) const fn as_quoted(self) -> &'static str {
        match self {
            InstanceType::Null => "\"null\"",
            InstanceType::Boolean => "\"boolean\"",
            InstanceType::Object => "\"object\"",
            InstanceType::Array => "\"array\"",
            InstanceType::Number => "\"number\"",
            InstanceType::String => "\"string\"",
            InstanceType::Integer => "\"integer\"",
        }
    }

    /// Parses a type name (exact, lower case).
    pub fn from_name(name: &str) -> Option<InstanceType> {
        InstanceType::ALL.into_iter().find(|t| t.as_str() == name)
    }

    /// The type a name spells in any case: `"STRING"` (Google's genai `Type` enum, schemas
    /// from gemini-cli and ADK), `"String"`, `"string"`.
    ///
    /// ```
    /// use schema_core::InstanceType;
    /// assert_eq!(InstanceType::from_name_any_case("OBJECT"), Some(InstanceType::Object));
    /// assert_eq!(InstanceType::from_name_any_case("Strings"), None);
    /// ```
    pub fn from_name_any_case(name: &str) -> Option<InstanceType> {
        InstanceType::ALL
            .into_iter()
            .find(|t| t.as_str().eq_ignore_ascii_case(name))
    }
}

impl std::fmt::Display for InstanceType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The value of `type`: one name or a list of names.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TypeSet {
    /// `"type": "string"`
    Single(InstanceType),
    /// `"type": ["string", "null"]`
    List(Vec<InstanceType>),
}

impl TypeSet {
    /// The types named, in order.
    pub fn as_slice(&self) -> &[InstanceType] {
        match self {
            TypeSet::Single(t) => std::slice::from_ref(t),
            TypeSet::List(l) => l,
        }
    }

    /// Whether `t` is named (an `integer` is also a `number`: `contains(Integer)` is true for
    /// `"number"`).
    pub fn allows(&self, t: InstanceType) -> bool {
        self.as_slice()
            .iter()
            .any(|&x| x == t || (x == InstanceType::Number && t == InstanceType::Integer))
    }
}

impl crate::Schema {
    /// Reads `type` names spelled in another case (`"STRING"`, `["OBJECT", "NULL"]`: Google's
    /// genai `Type` enum) as the types they name, written as JSON Schema spells them
    /// (lower-case); returns the pointers of the nodes changed. The parser keeps such a value
    /// as it is (a malformed `type`, so the round trip stays lossless); a rewriter calls this.
    ///
    /// ```
    /// let mut s = schema_core::Schema::from_str(r#"{"type":"OBJECT","properties":{"a":{"type":"STRING"}}}"#)?;
    /// assert_eq!(s.read_type_names_any_case(), ["", "/properties/a"]);
    /// assert_eq!(s.to_json_string(), r#"{"type":"object","properties":{"a":{"type":"string"}}}"#);
    /// # Ok::<(), schema_core::SchemaError>(())
    /// ```
    pub fn read_type_names_any_case(&mut self) -> Vec<String> {
        struct Read(Vec<String>);
        impl crate::Transform for Read {
            fn pre(&mut self, p: &str, s: &mut crate::Schema) {
                if s.read_type_name_any_case() {
                    self.0.push(p.to_owned());
                }
            }
        }
        let mut read = Read(Vec::new());
        self.transform(&mut read);
        read.0
    }
}

impl crate::Schema {
    /// [`Schema::read_type_names_any_case`](crate::Schema::read_type_names_any_case) on this
    /// node only (not its subschemas), for a caller that walks the tree itself: whether its
    /// `type` was read so.
    ///
    /// ```
    /// let mut s = schema_core::Schema::from_str(r#"{"type":"STRING"}"#)?;
    /// assert!(s.read_type_name_any_case());
    /// assert_eq!(s.to_json_string(), r#"{"type":"string"}"#);
    /// assert!(!s.read_type_name_any_case());
    /// # Ok::<(), schema_core::SchemaError>(())
    /// ```
    pub fn read_type_name_any_case(&mut self) -> bool {
        let Some(o) = self.as_object_mut() else {
            return false;
        };
        let Some(crate::Value::Raw(raw)) = o.get(crate::Keyword::Type) else {
            return false;
        };
        let Some(t) = any_case_types(raw.as_json()) else {
            return false;
        };
        o.insert(crate::Keyword::Type, crate::Value::Type(t));
        true
    }
}

/// A `type` value (JSON text) whose names are type names in some case.
fn any_case_types(json: &str) -> Option<TypeSet> {
    if json.starts_with('[') {
        let names: Vec<String> = serde_json::from_str(json).ok()?;
        let list = names
            .iter()
            .map(|n| InstanceType::from_name_any_case(n))
            .collect::<Option<Vec<_>>>()?;
        return Some(TypeSet::List(list));
    }
    let name: String = serde_json::from_str(json).ok()?;
    InstanceType::from_name_any_case(&name).map(TypeSet::Single)
}
