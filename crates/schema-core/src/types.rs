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

    /// Parses a type name (exact, lower case).
    pub fn from_name(name: &str) -> Option<InstanceType> {
        InstanceType::ALL.into_iter().find(|t| t.as_str() == name)
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
