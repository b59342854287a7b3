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
    #[inline]
    pub fn declared_types(&self) -> &[InstanceType] {
        self.types().map(TypeSet::as_slice).unwrap_or(&[])
    }

    /// The members parsed as property schemas, when this object is a bare property map (a
    /// tool's parameters written without the object around them, `{"foo": {"type":
    /// "string"}}`): at least one member, no known keyword, and every member an object with
    /// at least one known keyword (`type`, `description`, `enum`, `properties`, `$ref`...) or
    /// itself a bare property map (`{"data": {"parent": {"type": "object", ...}}}`,
    /// CLIProxyAPI's malformed-MCP cases), read as an object of those properties in its turn
    /// (at most `MAX_NESTED_BARE_MAPS`, 8, deep). Each member is parsed one schema level below
    /// the default depth limit, as it would have been under `properties`.
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
        bare_members(self, ParseOptions::default().max_depth, 0)
    }
}

/// How many bare property maps may nest in one another (`{"data": {"parent": {...}}}`) and
/// still be read as objects.
const MAX_NESTED_BARE_MAPS: usize = 8;

fn bare_members(
    o: &SchemaObject,
    depth_left: usize,
    nested: usize,
) -> Option<Vec<(String, Parsed)>> {
    if o.is_empty() || nested > MAX_NESTED_BARE_MAPS {
        return None;
    }
    let options = ParseOptions {
        max_depth: depth_left.saturating_sub(1),
        ..ParseOptions::default()
    };
    let mut out = Vec::with_capacity(o.len());
    for e in o.entries() {
        let (Key::Other(name), Value::Raw(raw)) = (&e.key, &e.value) else {
            return None;
        };
        if raw.json_type() != JsonType::Object {
            return None;
        }
        let mut parsed = Schema::parse(raw.as_json().as_bytes(), &options).ok()?;
        let m = parsed.schema.as_object()?;
        if !m.entries().iter().any(|x| matches!(x.key, Key::Known(_))) {
            // A member that is a bare map itself: an object of those properties.
            let inner = bare_members(m, options.max_depth.saturating_sub(1), nested + 1)?;
            let mut props = crate::SchemaMap::default();
            for (k, p) in inner {
                parsed.diagnostics.extend(p.diagnostics);
                props.insert(k, p.schema);
            }
            let mut wrapped = SchemaObject::new();
            wrapped.insert(
                Keyword::Type,
                Value::Type(TypeSet::Single(InstanceType::Object)),
            );
            wrapped.insert(Keyword::Properties, Value::SchemaMap(props));
            parsed.schema = Schema::Object(wrapped);
        }
        out.push((name.to_string(), parsed));
    }
    Some(out)
}
