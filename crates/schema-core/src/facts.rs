//! Facts about keywords and nodes that both rewriting and checking need: which types a
//! keyword speaks of, a node's declared types, a bare property map.

use crate::{
    InstanceType, JsonType, Key, Keyword, ParseOptions, Parsed, Schema, SchemaObject, TypeSet,
    Value,
};

impl Keyword {
    /// The types a type-specific keyword applies to (`None`: any type): `items` speaks of
    /// arrays only, `minimum` of numbers, `type` of every instance.
    ///
    /// ```
    /// use schema_core::{InstanceType as T, Keyword};
    /// assert_eq!(Keyword::Items.applies_to(), Some(&[T::Array][..]));
    /// assert_eq!(Keyword::Type.applies_to(), None);
    /// ```
    pub fn applies_to(self) -> Option<&'static [InstanceType]> {
        use Keyword as K;
        const STRING: &[InstanceType] = &[InstanceType::String];
        const NUMBER: &[InstanceType] = &[InstanceType::Number, InstanceType::Integer];
        const ARRAY: &[InstanceType] = &[InstanceType::Array];
        const OBJECT: &[InstanceType] = &[InstanceType::Object];
        const SCALAR: &[InstanceType] = &[
            InstanceType::String,
            InstanceType::Number,
            InstanceType::Integer,
        ];
        Some(match self {
            K::MinLength
            | K::MaxLength
            | K::Pattern
            | K::ContentEncoding
            | K::ContentMediaType
            | K::ContentSchema => STRING,
            K::Format => SCALAR,
            K::Minimum | K::Maximum | K::ExclusiveMinimum | K::ExclusiveMaximum | K::MultipleOf => {
                NUMBER
            }
            K::Items
            | K::PrefixItems
            | K::AdditionalItems
            | K::Contains
            | K::MinContains
            | K::MaxContains
            | K::MinItems
            | K::MaxItems
            | K::UniqueItems
            | K::UnevaluatedItems => ARRAY,
            K::Properties
            | K::PatternProperties
            | K::AdditionalProperties
            | K::PropertyNames
            | K::Required
            | K::DependentRequired
            | K::DependentSchemas
            | K::Dependencies
            | K::MinProperties
            | K::MaxProperties
            | K::UnevaluatedProperties
            | K::PropertyOrdering => OBJECT,
            _ => return None,
        })
    }
}

impl SchemaObject {
    /// The node's declared types: its `type`, as a slice (empty without one).
    ///
    /// ```
    /// use schema_core::{InstanceType as T, Schema};
    /// let s = Schema::from_str(r#"{"type": ["string", "null"]}"#)?;
    /// assert_eq!(s.as_object().unwrap().declared_types(), [T::String, T::Null]);
    /// # Ok::<(), schema_core::SchemaError>(())
    /// ```
    pub fn declared_types(&self) -> &[InstanceType] {
        self.types().map(TypeSet::as_slice).unwrap_or(&[])
    }

    /// The members parsed as property schemas, when this object is a bare property map (a
    /// tool's parameters written without the object around them, `{"foo": {"type":
    /// "string"}}`): at least one member, no known keyword, and every member an object with
    /// at least one known keyword (`type`, `description`, `enum`, `properties`, `$ref`...).
    /// Each member is parsed one schema level below the default depth limit, as it would
    /// have been under `properties`.
    ///
    /// ```
    /// let s = schema_core::Schema::from_str(r#"{"foo": {"type": "string"}}"#)?;
    /// let members = s.as_object().unwrap().bare_properties().unwrap();
    /// assert_eq!(members[0].0, "foo");
    /// let s = schema_core::Schema::from_str(r#"{"type": "object"}"#)?;
    /// assert!(s.as_object().unwrap().bare_properties().is_none());
    /// # Ok::<(), schema_core::SchemaError>(())
    /// ```
    pub fn bare_properties(&self) -> Option<Vec<(String, Parsed)>> {
        if self.is_empty() {
            return None;
        }
        let options = ParseOptions {
            max_depth: ParseOptions::default().max_depth.saturating_sub(1),
        };
        let mut out = Vec::with_capacity(self.len());
        for e in self.entries() {
            let (Key::Other(name), Value::Raw(raw)) = (&e.key, &e.value) else {
                return None;
            };
            if raw.json_type() != JsonType::Object {
                return None;
            }
            let parsed = Schema::parse(raw.as_json().as_bytes(), &options).ok()?;
            let looks_like_a_schema = parsed
                .schema
                .as_object()
                .is_some_and(|m| m.entries().iter().any(|x| matches!(x.key, Key::Known(_))));
            if !looks_like_a_schema {
                return None;
            }
            out.push((name.to_string(), parsed));
        }
        Some(out)
    }
}
