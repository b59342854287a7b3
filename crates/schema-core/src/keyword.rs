//! The keyword table: every keyword schema-core knows, its JSON spelling and the shape of its value.
//!
//! This is data, not code: the parser, the serializer and the walk read the shape of a keyword
//! from [`Keyword::shape`] and never branch on individual keywords.

/// The JSON shape a keyword's value must have; anything else is kept as raw data and reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// One subschema (an object or a boolean): `not`, `additionalProperties`, `if`, ...
    Schema,
    /// An array of subschemas: `allOf`, `anyOf`, `oneOf`, `prefixItems`.
    SchemaArray,
    /// One subschema or an array of them (`items`, whose array form is the draft-07 tuple).
    SchemaOrArray,
    /// An object whose values are subschemas: `properties`, `$defs`, `patternProperties`, ...
    SchemaMap,
    /// draft-04..07 `dependencies`: values are a subschema or an array of property names.
    Dependencies,
    /// `type`: one type name or an array of them.
    Type,
    /// A string (`description`, `pattern`, `$ref`, ...).
    String,
    /// A number (`minimum`, `maxLength`, ...).
    Number,
    /// A number, or a boolean in draft-04 (`exclusiveMinimum`, `exclusiveMaximum`).
    NumberOrBool,
    /// A boolean (`uniqueItems`, `nullable`, `deprecated`, ...).
    Bool,
    /// An array of strings (`required`, `propertyOrdering`).
    StringArray,
    /// An object whose values are arrays of strings (`dependentRequired`).
    StringArrayMap,
    /// An instance value kept verbatim and never walked (`const`, `default`, `example`, ...).
    Instance,
    /// An array of instance values kept verbatim (`enum`, `examples`).
    InstanceArray,
}

macro_rules! keywords {
    ($( $(#[$doc:meta])* $variant:ident = $name:literal : $shape:ident, )*) => {
        /// A keyword of JSON Schema (draft-04 to 2020-12), OpenAPI 3.0 or Gemini's Schema proto
        /// that has a typed home in [`SchemaObject`](crate::SchemaObject).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum Keyword {
            $( $(#[$doc])* $variant, )*
        }

        impl Keyword {
            /// Every known keyword, in the canonical order new keywords are written in.
            pub const ALL: &'static [Keyword] = &[ $( Keyword::$variant, )* ];

            /// The keyword as it is spelled in JSON.
            ///
            /// ```
            /// use schema_core::Keyword;
            /// assert_eq!(Keyword::AdditionalProperties.as_str(), "additionalProperties");
            /// ```
            pub const fn as_str(self) -> &'static str {
                match self { $( Keyword::$variant => $name, )* }
            }

            /// The keyword as a key of JSON text, quoted and followed by its colon
            /// (`"type":`): what the serializer writes before the value, in one copy.
            pub(crate) const fn as_key(self) -> &'static str {
                match self { $( Keyword::$variant => concat!("\"", $name, "\":"), )* }
            }

            /// The keyword's position in [`Keyword::ALL`] (stable within a release; for bit sets).
            ///
            /// ```
            /// use schema_core::Keyword;
            /// assert_eq!(Keyword::ALL[Keyword::Items.index() as usize], Keyword::Items);
            /// ```
            pub const fn index(self) -> u8 {
                self as u8
            }

            /// The JSON shape the keyword's value must have.
            pub const fn shape(self) -> Shape {
                match self { $( Keyword::$variant => Shape::$shape, )* }
            }

            /// Looks a keyword up by its JSON spelling.
            ///
            /// ```
            /// use schema_core::Keyword;
            /// assert_eq!(Keyword::from_name("$defs"), Some(Keyword::Defs));
            /// assert_eq!(Keyword::from_name("x-vendor"), None);
            /// ```
            pub fn from_name(name: &str) -> Option<Keyword> {
                match name { $( $name => Some(Keyword::$variant), )* _ => None }
            }
        }
    };
}

keywords! {
    /// `$schema`
    SchemaUri = "$schema": String,
    /// `$id`
    Id = "$id": String,
    /// `$anchor`
    Anchor = "$anchor": String,
    /// `$dynamicAnchor`
    DynamicAnchor = "$dynamicAnchor": String,
    /// `$recursiveAnchor` (2019-09)
    RecursiveAnchor = "$recursiveAnchor": Bool,
    /// `$ref`
    Ref = "$ref": String,
    /// `$dynamicRef`
    DynamicRef = "$dynamicRef": String,
    /// `$recursiveRef` (2019-09)
    RecursiveRef = "$recursiveRef": String,
    /// `$vocabulary`
    Vocabulary = "$vocabulary": Instance,
    /// `$comment`
    Comment = "$comment": String,
    /// `title`
    Title = "title": String,
    /// `description`
    Description = "description": String,
    /// `type`
    Type = "type": Type,
    /// `format`
    Format = "format": String,
    /// `enum`
    Enum = "enum": InstanceArray,
    /// `const`
    Const = "const": Instance,
    /// `default`
    Default = "default": Instance,
    /// `examples`
    Examples = "examples": InstanceArray,
    /// `example` (OpenAPI 3.0, Gemini)
    Example = "example": Instance,
    /// `nullable` (OpenAPI 3.0, Gemini)
    Nullable = "nullable": Bool,
    /// `discriminator` (OpenAPI 3.0)
    Discriminator = "discriminator": Instance,
    /// `deprecated`
    Deprecated = "deprecated": Bool,
    /// `readOnly`
    ReadOnly = "readOnly": Bool,
    /// `writeOnly`
    WriteOnly = "writeOnly": Bool,
    /// `properties`
    Properties = "properties": SchemaMap,
    /// `patternProperties`
    PatternProperties = "patternProperties": SchemaMap,
    /// `additionalProperties`
    AdditionalProperties = "additionalProperties": Schema,
    /// `propertyNames`
    PropertyNames = "propertyNames": Schema,
    /// `unevaluatedProperties`
    UnevaluatedProperties = "unevaluatedProperties": Schema,
    /// `required`
    Required = "required": StringArray,
    /// `dependentRequired`
    DependentRequired = "dependentRequired": StringArrayMap,
    /// `dependentSchemas`
    DependentSchemas = "dependentSchemas": SchemaMap,
    /// `dependencies` (draft-04 to draft-07)
    Dependencies = "dependencies": Dependencies,
    /// `minProperties`
    MinProperties = "minProperties": Number,
    /// `maxProperties`
    MaxProperties = "maxProperties": Number,
    /// `propertyOrdering` (Gemini)
    PropertyOrdering = "propertyOrdering": StringArray,
    /// `items` (a schema, or the draft-07 tuple array)
    Items = "items": SchemaOrArray,
    /// `prefixItems` (2020-12)
    PrefixItems = "prefixItems": SchemaArray,
    /// `additionalItems` (draft-04 to 2019-09)
    AdditionalItems = "additionalItems": Schema,
    /// `unevaluatedItems`
    UnevaluatedItems = "unevaluatedItems": Schema,
    /// `contains`
    Contains = "contains": Schema,
    /// `minContains`
    MinContains = "minContains": Number,
    /// `maxContains`
    MaxContains = "maxContains": Number,
    /// `minItems`
    MinItems = "minItems": Number,
    /// `maxItems`
    MaxItems = "maxItems": Number,
    /// `uniqueItems`
    UniqueItems = "uniqueItems": Bool,
    /// `minimum`
    Minimum = "minimum": Number,
    /// `maximum`
    Maximum = "maximum": Number,
    /// `exclusiveMinimum` (a number; a boolean in draft-04)
    ExclusiveMinimum = "exclusiveMinimum": NumberOrBool,
    /// `exclusiveMaximum` (a number; a boolean in draft-04)
    ExclusiveMaximum = "exclusiveMaximum": NumberOrBool,
    /// `multipleOf`
    MultipleOf = "multipleOf": Number,
    /// `minLength`
    MinLength = "minLength": Number,
    /// `maxLength`
    MaxLength = "maxLength": Number,
    /// `pattern`
    Pattern = "pattern": String,
    /// `contentEncoding`
    ContentEncoding = "contentEncoding": String,
    /// `contentMediaType`
    ContentMediaType = "contentMediaType": String,
    /// `contentSchema`
    ContentSchema = "contentSchema": Schema,
    /// `allOf`
    AllOf = "allOf": SchemaArray,
    /// `anyOf`
    AnyOf = "anyOf": SchemaArray,
    /// `oneOf`
    OneOf = "oneOf": SchemaArray,
    /// `not`
    Not = "not": Schema,
    /// `if`
    If = "if": Schema,
    /// `then`
    Then = "then": Schema,
    /// `else`
    Else = "else": Schema,
    /// `$defs` (2019-09+)
    Defs = "$defs": SchemaMap,
    /// `definitions` (draft-04 to draft-07)
    Definitions = "definitions": SchemaMap,
}

impl Keyword {
    /// Whether the keyword's value holds subschemas (the walk enters it).
    ///
    /// ```
    /// use schema_core::Keyword;
    /// assert!(Keyword::Properties.has_subschemas());
    /// assert!(!Keyword::Enum.has_subschemas());
    /// ```
    pub const fn has_subschemas(self) -> bool {
        matches!(
            self.shape(),
            Shape::Schema
                | Shape::SchemaArray
                | Shape::SchemaOrArray
                | Shape::SchemaMap
                | Shape::Dependencies
        )
    }
}

impl serde::Serialize for Keyword {
    /// A keyword serializes as its JSON spelling (`"additionalProperties"`).
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for Keyword {
    /// A keyword deserializes from its JSON spelling; any other string is an error.
    ///
    /// ```
    /// use schema_core::Keyword;
    /// let kws: Vec<Keyword> = serde_json::from_str(r#"["$ref", "anyOf"]"#).unwrap();
    /// assert_eq!(kws, [Keyword::Ref, Keyword::AnyOf]);
    /// assert_eq!(serde_json::to_string(&Keyword::Defs).unwrap(), r#""$defs""#);
    /// assert!(serde_json::from_str::<Keyword>(r#""x-vendor""#).is_err());
    /// ```
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Keyword, D::Error> {
        struct Name;
        impl serde::de::Visitor<'_> for Name {
            type Value = Keyword;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON Schema keyword name")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Keyword, E> {
                Keyword::from_name(v).ok_or_else(|| E::unknown_variant(v, &[]))
            }
        }
        deserializer.deserialize_str(Name)
    }
}

impl std::fmt::Display for Keyword {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_keyword_round_trips_through_its_name() {
        for &kw in Keyword::ALL {
            assert_eq!(Keyword::from_name(kw.as_str()), Some(kw));
        }
    }

    #[test]
    fn index_is_the_position_in_all() {
        assert!(Keyword::ALL.len() <= usize::from(u8::MAX));
        for (i, &kw) in Keyword::ALL.iter().enumerate() {
            assert_eq!(usize::from(kw.index()), i);
        }
    }

    #[test]
    fn serde_uses_the_json_name() {
        for &kw in Keyword::ALL {
            let text = serde_json::to_string(&kw).unwrap();
            assert_eq!(text, serde_json::to_string(kw.as_str()).unwrap());
            assert_eq!(serde_json::from_str::<Keyword>(&text).unwrap(), kw);
        }
        assert!(serde_json::from_str::<Keyword>("5").is_err());
    }

    #[test]
    fn names_are_unique() {
        let mut names: Vec<_> = Keyword::ALL.iter().map(|k| k.as_str()).collect();
        names.sort_unstable();
        let len = names.len();
        names.dedup();
        assert_eq!(names.len(), len);
    }
}
