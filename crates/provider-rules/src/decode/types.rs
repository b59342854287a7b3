//! The decoder's types: a [`Decoder`] tree, its union [`Branch`]es, what a decoding made
//! ([`Decoded`]) and why it could not ([`DecodeError`]).

use crate::encode::Encoding;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// How one value of a tool's arguments is decoded; the identity when [empty](Decoder::is_identity).
///
/// See the [module docs](crate::decode) for an example.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Decoder {
    /// Members of this object that are removed when their value is `null` (the strict rewrite
    /// made them required and nullable; the original neither required them nor accepted
    /// `null`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub drop_null: Vec<String>,
    /// Decoders of this object's properties' values.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub properties: BTreeMap<String, Decoder>,
    /// The decoder of this array's items.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub items: Option<Box<Decoder>>,
    /// Decoders of this array's leading items, by position.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub prefix_items: Vec<Decoder>,
    /// The decoder of this object's other members' values.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub additional_properties: Option<Box<Decoder>>,
    /// The branches of this value's `anyOf`: the first whose types admit the value decodes it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub any_of: Vec<Branch>,
    /// How this value was encoded ([`crate::encode`]): decoded by it, in place of the fields
    /// above.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encoding: Option<Encoding>,
    /// A decoder applied to this value after this one (at the root: the encodings' tree, after
    /// the strict nulls are removed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub then: Option<Box<Decoder>>,
    /// At the root of a tree: the decoders of the schema's kept definitions (`$defs`), by
    /// name, and under `""` the root's own (for `$ref: "#"`), which
    /// [`reference`](Decoder::reference) names.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub defs: BTreeMap<String, Decoder>,
    /// The schema here is a `$ref`: the value is decoded by the root's
    /// [`defs`](Decoder::defs) entry of this name, in place of the fields above (followed
    /// through recursion, bounded by the value's depth).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<String>,
}

/// What [`Decoder::decode_json_noted`] made: the decoded text (`None`: unchanged) and what the
/// decoding could not do as asked (duplicate map keys, strings that are not JSON text...).
///
/// ```
/// use provider_rules::decode::Decoder;
/// use provider_rules::encode::Encoding;
/// let d = Decoder { encoding: Some(Encoding::Json), ..Decoder::default() };
/// let out = d.decode_json_noted(r#""not json""#)?;
/// assert_eq!(out.text, None);
/// assert_eq!(out.notes.len(), 1);
/// # Ok::<(), provider_rules::decode::DecodeError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Decoded {
    /// The decoded text; `None` when nothing changed.
    pub text: Option<String>,
    /// What was kept as it came, and why.
    pub notes: Vec<String>,
}

/// One `anyOf` branch of a [`Decoder`].
///
/// ```
/// use provider_rules::decode::{Branch, Decoder};
/// let b = Branch { types: vec!["object".into()], ..Branch::default() };
/// assert_eq!(serde_json::to_string(&b).unwrap(), r#"{"types":["object"]}"#);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Branch {
    /// The JSON types the branch admits (its `type`; empty: any type).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub types: Vec<String>,
    /// The types the branch admitted before it was encoded, where they differ (used when
    /// encoding a value in the tool's terms; empty: the same as `types`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub from_types: Vec<String>,
    /// How a value this branch takes is decoded.
    #[serde(default, skip_serializing_if = "Decoder::is_identity")]
    pub decoder: Decoder,
}

/// Why arguments could not be decoded (they go on as they are).
///
/// ```
/// use provider_rules::decode::{DecodeError, Decoder};
/// let d = Decoder { drop_null: vec!["a".into()], ..Decoder::default() };
/// assert!(matches!(d.decode_json("{\"a\":"), Err(DecodeError::NotJson(_))));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// The arguments are not JSON text.
    #[error("the arguments are not JSON: {0}")]
    NotJson(String),
}
