//! [`RuleId`]: the stable name of every rule, in a [`Change`](crate::Change) and a
//! [`Violation`](crate::Violation).

use serde::{Deserialize, Deserializer, Serialize, Serializer};

macro_rules! rule_ids {
    ($($(#[doc = $doc:literal])+ $variant:ident = $name:literal,)+) => {
        /// The rule a [`Change`](crate::Change) was made by, or a
        /// [`Violation`](crate::Violation) breaks: a closed set, each with a stable name
        /// ([`RuleId::as_str`]), which is how it is serialized and displayed.
        ///
        /// ```
        /// use provider_rules::RuleId;
        /// assert_eq!(RuleId::TypeList.as_str(), "type-list");
        /// assert_eq!("type-list".parse::<RuleId>(), Ok(RuleId::TypeList));
        /// assert_eq!(RuleId::TypeList.to_string(), "type-list");
        /// assert_eq!(serde_json::to_string(&RuleId::TypeList).unwrap(), r#""type-list""#);
        /// assert!(RuleId::TypeList == "type-list");
        /// ```
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum RuleId {
            $($(#[doc = $doc])+ $variant,)+
        }

        impl RuleId {
            /// Every rule, in declaration order.
            pub const ALL: &'static [RuleId] = &[$(RuleId::$variant,)+];

            /// The rule's stable name (`"type-list"`, `"ref-inline"`, ...).
            ///
            /// ```
            /// assert_eq!(provider_rules::RuleId::RefInline.as_str(), "ref-inline");
            /// ```
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(RuleId::$variant => $name,)+
                }
            }
        }

        impl std::str::FromStr for RuleId {
            type Err = UnknownRule;

            fn from_str(s: &str) -> Result<RuleId, UnknownRule> {
                match s {
                    $($name => Ok(RuleId::$variant),)+
                    _ => Err(UnknownRule(s.to_owned())),
                }
            }
        }
    };
}

rule_ids! {
    /// `additionalProperties` dropped, closed or repaired where the provider wants it so.
    AdditionalProperties = "additional-properties",
    /// `allOf` merged into its node.
    AllOf = "all-of",
    /// `anyOf` made the only keyword of its node.
    AnyOfAlone = "any-of-alone",
    /// A node accepting anything given the profile's any-value schema.
    AnyValue = "any-value",
    /// A tool's parameters written as a bare property map, wrapped.
    BareProperties = "bare-properties",
    /// Draft-03 boolean `required` on a property, moved to its object's list.
    BooleanRequired = "boolean-required",
    /// A boolean subschema where the provider wants an object.
    BooleanSchema = "boolean-schema",
    /// `if`/`then`/`else` folded.
    Conditional = "conditional",
    /// `const` said as a one-value `enum`.
    Const = "const",
    /// `default` beside `anyOf`.
    DefaultBesideAnyOf = "default-beside-any-of",
    /// `dependentSchemas` (or draft-07 `dependencies`) folded.
    DependentSchemas = "dependent-schemas",
    /// A subtree past the depth limit.
    Depth = "depth",
    /// Draft-07 spellings read as 2020-12 (boolean exclusive bounds, array `items`...).
    Draft2020 = "draft-2020",
    /// An `anyOf`/`oneOf`/`allOf` with no branch.
    EmptyUnion = "empty-union",
    /// An `enum` with no value.
    EnumEmpty = "enum-empty",
    /// An `enum` holding `""`.
    EnumEmptyString = "enum-empty-string",
    /// `null` in an `enum` said with the profile's null spelling.
    EnumNull = "enum-null",
    /// Non-string `enum` values made strings.
    EnumStringify = "enum-stringify",
    /// `enum` values of a JSON type the provider refuses.
    EnumValues = "enum-values",
    /// An exclusive bound said another way (`> 0` on integers is `minimum: 1`).
    ExclusiveBound = "exclusive-bound",
    /// A keyword on a type it does not apply to.
    ForeignKeyword = "foreign-keyword",
    /// A `format` the provider does not accept.
    Format = "format",
    /// `items` of the wrong JSON type.
    ItemsMalformed = "items-malformed",
    /// An array schema without `items`.
    ItemsMissing = "items-missing",
    /// Input the parser could not read as written.
    Malformed = "malformed",
    /// A known keyword with a value of the wrong JSON type.
    MalformedKeyword = "malformed-keyword",
    /// The schema was rewritten to an equal meaning without another rule's change.
    Normalize = "normalize",
    /// `not` dropped.
    Not = "not",
    /// `type: "null"` where the provider has no null type.
    NullType = "null-type",
    /// Nullability said with the profile's spelling.
    Nullable = "nullable",
    /// `oneOf` said as `anyOf`.
    OneOf = "one-of",
    /// A `pattern` with syntax the provider refuses.
    PatternSyntax = "pattern-syntax",
    /// An empty `properties` map.
    PropertiesEmpty = "properties-empty",
    /// A property key the provider refuses (renaming it is the caller's to undo).
    PropertyKey = "property-key",
    /// A property map that was not a map of schemas, repaired.
    PropertyMapRepaired = "property-map-repaired",
    /// An object property named `properties`, which the provider misreads.
    PropertyNamedProperties = "property-named-properties",
    /// A `$ref` the provider refuses.
    Ref = "ref",
    /// A `$ref` inlined.
    RefInline = "ref-inline",
    /// Keywords beside a `$ref`.
    RefSiblings = "ref-siblings",
    /// Duplicate names in `required`.
    RequiredDuplicates = "required-duplicates",
    /// A `required` that is not a list of names.
    RequiredMalformed = "required-malformed",
    /// A `required` name with no property.
    RequiredUndefined = "required-undefined",
    /// The root's shape (an object, or not a schema at all).
    Root = "root",
    /// The root object without `properties`.
    RootProperties = "root-properties",
    /// A union at the root.
    RootUnion = "root-union",
    /// Something strict mode cannot say: the result is not strict-compatible.
    StrictIncompatible = "strict-incompatible",
    /// Strict mode's every-property-required.
    StrictRequired = "strict-required",
    /// More tools than the provider accepts.
    ToolCount = "tool-count",
    /// A tool name the provider refuses.
    ToolName = "tool-name",
    /// A tuple the provider refuses.
    Tuple = "tuple",
    /// A tuple folded into one `items` schema.
    TupleFold = "tuple-fold",
    /// Type names in another case (`"STRING"`).
    TypeCase = "type-case",
    /// A missing `type` inferred from the node's keywords.
    TypeInferred = "type-inferred",
    /// A list of types where the provider wants one.
    TypeList = "type-list",
    /// A node without `type` where the provider requires one.
    TypeMissing = "type-missing",
    /// A union collapsed into one node.
    UnionCollapse = "union-collapse",
    /// A keyword the provider does not know.
    UnknownKeyword = "unknown-keyword",
    /// A known keyword the provider does not accept.
    UnsupportedKeyword = "unsupported-keyword",
    /// `minItems` above the provider's limit.
    MinItems = "min-items",
    /// A map (an object open to extra properties) said as an array of key/value entries.
    EncodeMap = "encode-map",
    /// Any value said as a string of JSON text.
    EncodeAnyValue = "encode-any-value",
    /// A numeric or boolean enum said as a string enum of JSON texts.
    EncodeEnumText = "encode-enum-text",
    /// A tuple said as an object with one property per position.
    EncodeTuple = "encode-tuple",
    /// A number with an integer `multipleOf` said as the quotient, an integer.
    EncodeMultiple = "encode-multiple",
    /// An array that must contain a matching item said as an object holding that item apart.
    EncodeContains = "encode-contains",
    /// More properties across all tools than the provider accepts in one request.
    FieldCount = "field-count",
}

impl std::fmt::Display for RuleId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for RuleId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for RuleId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<RuleId, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

impl PartialEq<str> for RuleId {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for RuleId {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl AsRef<str> for RuleId {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

/// A name that is no [`RuleId`].
///
/// ```
/// let e = "no-such-rule".parse::<provider_rules::RuleId>().unwrap_err();
/// assert_eq!(e.to_string(), "unknown rule \"no-such-rule\"");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown rule {0:?}")]
pub struct UnknownRule(pub String);

#[cfg(test)]
mod tests {
    use super::RuleId;

    #[test]
    fn every_name_parses_back_to_its_rule_and_names_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for &r in RuleId::ALL {
            assert_eq!(r.as_str().parse::<RuleId>(), Ok(r));
            assert!(seen.insert(r.as_str()), "{r} twice");
            let json = serde_json::to_string(&r).unwrap();
            assert_eq!(json, format!("\"{r}\""));
            assert_eq!(serde_json::from_str::<RuleId>(&json).unwrap(), r);
        }
        assert!(serde_json::from_str::<RuleId>("\"nope\"").is_err());
    }

    /// A provider's error text is found by the rule id: a misspelt id in the registry would
    /// never be shown.
    #[test]
    fn every_error_text_in_the_registry_names_a_rule() {
        for p in crate::PROVIDERS {
            for e in p.errors {
                for r in e.rules {
                    assert!(r.parse::<RuleId>().is_ok(), "{}: {r:?} is no rule", p.name);
                }
            }
        }
    }
}
