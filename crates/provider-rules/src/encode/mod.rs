//! Lossless encodings: where a dialect cannot say a constraint, the schema says it another way
//! and the [`Decoder`] brings the model's value back to the tool's terms.
//!
//! - [`map`]: an object open to any or typed extra properties → an array of
//!   `{"key": string, "value": V}` entries;
//! - [`any_value`]: a node that accepts any value → a string holding JSON text;
//! - [`enum_text`]: a numeric or boolean `enum`/`const` where only string enums exist → a string
//!   enum of their JSON texts;
//! - [`tuple`](mod@tuple): `prefixItems` (draft-07 `items: [...]`) where the dialect has no tuples → an
//!   object with one property per position (`"0"`, `"1"`, ...);
//! - [`multiple`]: a number with an integer `multipleOf` where the dialect has none → the
//!   quotient, an integer (`3` for `15` with `multipleOf: 5`);
//! - [`contains`](mod@contains): an array that must contain a matching item, where the dialect
//!   has no `contains` → an object holding that item apart (`match`, `rest`, `at`).
//!
//! Which encodings a profile uses is data ([`Rules::encodings`](crate::Rules::encodings)); they
//! run only when the caller decodes ([`SanitizeOptions::encode`], see
//! [`sanitize_with`](crate::sanitize_with)). Each is a change in the report with its own rule
//! name, not a lossy one.
//!
//! ```
//! use provider_rules::{sanitize_with, Rules, SanitizeOptions, Slot};
//! use schema_core::Schema;
//! let tool = Schema::from_str(r#"{"type":"object","properties":{
//!     "env":{"type":"object","additionalProperties":{"type":"string"}}},"required":["env"]}"#)?;
//! let out = sanitize_with(&tool, &Rules::OPENAI_STRICT, Slot::Parameters, &SanitizeOptions::ENCODE);
//! assert!(out.report.strict_compatible);
//! assert!(out.report.changes.iter().any(|c| c.rule == "encode-map" && !c.lossy));
//! // What the model sends, and what the tool receives.
//! let sent = r#"{"env":[{"key":"A","value":"1"},{"key":"B","value":"2"}]}"#;
//! assert_eq!(out.decoder.decode_json(sent)?.as_deref(), Some(r#"{"env":{"A":"1","B":"2"}}"#));
//! // And the other way, for the history and tests.
//! let encoded = out.decoder.encode_value(&serde_json::json!({"env": {"A": "1"}}));
//! assert_eq!(encoded, serde_json::json!({"env": [{"key": "A", "value": "1"}]}));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod any_value;
pub mod contains;
pub mod enum_text;
pub mod map;
pub mod multiple;
mod ordered;
mod ratio;
mod text;
pub mod tuple;
mod walk;

use crate::decode::Decoder;
use serde::{Deserialize, Serialize};

pub(crate) use walk::run;

/// Which lossless encodings a profile uses when the caller decodes (all off by default).
///
/// ```
/// use provider_rules::{Encodings, Rules};
/// assert!(Rules::OPENAI_STRICT.encodings.maps);
/// assert!(Rules::GEMINI.encodings.enum_text);
/// assert!(!Rules::OPENAI.encodings.any());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Encodings {
    /// Objects with typed or any extra properties (`additionalProperties` a schema or `true`,
    /// no `properties`) become arrays of key/value entries.
    pub maps: bool,
    /// Also objects that say nothing of their members (`{"type": "object"}`, no
    /// `properties`): maps of any values.
    pub open_objects: bool,
    /// Nodes that accept any value (`{}`, `true`, annotations only) below the root become
    /// strings of JSON text.
    pub any_value: bool,
    /// Numeric and boolean `enum`/`const` values become a string enum of their JSON texts.
    pub enum_text: bool,
    /// Tuples become objects with one property per position; and, where the dialect has no
    /// `contains` and is not strict, arrays that must contain an item hold it apart
    /// ([`contains`](mod@contains)).
    pub tuples: bool,
    /// Numbers with an integer `multipleOf` become their quotient (an integer).
    pub multiples: bool,
    /// Objects whose names a `propertyNames` schema says (the dialect has no `propertyNames`)
    /// become entries keyed by those names, also where [`maps`](Self::maps) is off: a dialect
    /// that keeps `additionalProperties` (Vertex, providers.md §2.2) can say the values but
    /// not the names.
    ///
    /// ```
    /// use provider_rules::Rules;
    /// assert!(!Rules::VERTEX.encodings.maps && Rules::VERTEX.encodings.named_maps);
    /// ```
    pub named_maps: bool,
}

impl Encodings {
    /// No encoding.
    pub const NONE: Encodings = Encodings {
        maps: false,
        open_objects: false,
        any_value: false,
        enum_text: false,
        tuples: false,
        multiples: false,
        named_maps: false,
    };

    /// What Gemini's Schema proto needs: no `additionalProperties`, no tuples, string enums
    /// only, and no type for "any value". A bare `{"type": "object"}` stays: the proto writes
    /// a closed object so too (`additionalProperties: false` is dropped), and a second run must
    /// not read it as a map.
    pub const SCHEMA_PROTO: Encodings = Encodings {
        maps: true,
        open_objects: false,
        any_value: true,
        enum_text: true,
        tuples: true,
        multiples: true,
        named_maps: true,
    };

    /// Every encoding on: what the strict profiles use.
    pub const STRICT: Encodings = Encodings {
        maps: true,
        open_objects: true,
        any_value: true,
        enum_text: false,
        tuples: true,
        multiples: false,
        named_maps: true,
    };

    /// Whether any encoding is on.
    ///
    /// ```
    /// assert!(!provider_rules::Encodings::default().any());
    /// ```
    pub fn any(&self) -> bool {
        self.maps
            || self.open_objects
            || self.any_value
            || self.enum_text
            || self.tuples
            || self.multiples
            || self.named_maps
    }
}

/// Encodings run before the engine's steps, which can make up nodes (a property a
/// conditional or a dependent schema speaks of, described only; `items: {}`): a second run
/// would encode those. So `sanitize_with` with encodings runs once more on its own output
/// (`again`) and, where that changes something, returns the second result with both
/// decoders chained (the second's first: it undoes the last encoding) and both reports: then
/// sanitizing the result changes nothing. Strict-compatible where the second run says so and
/// the first run's reasons not to be were all at nodes the second run encoded.
pub(crate) fn settle(
    first: crate::Sanitized,
    again: impl Fn(&schema_core::Schema) -> crate::Sanitized,
) -> crate::Sanitized {
    if first.report.is_empty() {
        return first;
    }
    let second = again(&first.schema);
    if second.report.is_empty() {
        return first;
    }
    let encoded: Vec<&str> = second
        .report
        .changes
        .iter()
        .filter(|c| c.rule == any_value::RULE)
        .map(|c| c.pointer.as_str())
        .collect();
    let fixed = first
        .report
        .changes
        .iter()
        .filter(|c| c.rule == crate::RuleId::StrictIncompatible)
        .all(|c| encoded.contains(&c.pointer.as_str()));
    let strict_compatible = second.report.strict_compatible && fixed;
    let crate::Sanitized {
        schema,
        report,
        mut decoder,
    } = second;
    /// Puts `tail` at the end of `d`'s chain (a few links: two per run).
    fn append(d: &mut Decoder, tail: Decoder) {
        match d.then.as_deref_mut() {
            Some(next) => append(next, tail),
            None => d.then = Some(Box::new(tail)),
        }
    }
    if let (Some(later), Some(earlier)) =
        (decoder.then.as_deref_mut(), first.decoder.then.as_deref())
    {
        crate::decode::drop_repeated_json(later, earlier);
    }
    if !first.decoder.is_identity() {
        append(&mut decoder, first.decoder);
    }
    let mut changes = first.report.changes;
    changes.extend(report.changes);
    crate::Sanitized {
        schema,
        report: crate::Report {
            changes,
            strict_compatible,
            unfixable: report.unfixable,
        },
        decoder,
    }
}

/// The default of [`Encoding::Multiple`]'s `per`.
fn one() -> i64 {
    1
}

/// Whether a `per` is left out.
fn is_one(n: &i64) -> bool {
    *n == 1
}

/// An encoded node's description: its own, then what the encoding says.
pub(crate) fn described(own: Option<&str>, hint: &str) -> String {
    match own {
        Some(d) => format!("{d} {hint}"),
        None => hint.to_owned(),
    }
}

/// How [`sanitize_with`](crate::sanitize_with) runs.
///
/// ```
/// use provider_rules::SanitizeOptions;
/// assert!(!SanitizeOptions::default().encode);
/// assert!(SanitizeOptions::ENCODE.encode);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SanitizeOptions {
    /// Use the profile's [`Encodings`]: only for a caller that decodes the model's values with
    /// [`Sanitized::decoder`](crate::Sanitized::decoder).
    pub encode: bool,
}

impl SanitizeOptions {
    /// Encodings on.
    pub const ENCODE: SanitizeOptions = SanitizeOptions { encode: true };
}

/// How one encoded value is decoded (a node of a [`Decoder`]).
///
/// ```
/// use provider_rules::decode::Decoder;
/// use provider_rules::encode::Encoding;
/// let d = Decoder { encoding: Some(Encoding::Json), ..Decoder::default() };
/// assert_eq!(d.decode_json(r#""{\"a\":1}""#)?.as_deref(), Some(r#"{"a":1}"#));
/// # Ok::<(), provider_rules::decode::DecodeError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Encoding {
    /// An array of `{"key", "value"}` entries back to an object (duplicate keys: the last
    /// wins, reported).
    Map {
        /// The decoder of the entries' values.
        #[serde(default, skip_serializing_if = "Decoder::is_identity")]
        value: Box<Decoder>,
    },
    /// A string of JSON text back to its value (a string that is not JSON text stays, reported).
    Json,
    /// A string enum member back to the number, boolean or null it spells.
    EnumText,
    /// An object with one property per position back to the array.
    Tuple {
        /// The positions' property names, in order.
        names: Vec<String>,
        /// The positions' decoders (as many as `names`, or none).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        items: Vec<Decoder>,
        /// Whether items past the positions travel in the property [`tuple::REST`], and their
        /// decoder.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rest: Option<Box<Decoder>>,
    },
    /// An integer quotient back to the multiple it counts (`× of / per`, written as decimal
    /// text).
    Multiple {
        /// The factor's numerator (the schema's `multipleOf` is `of / per`).
        of: i64,
        /// The factor's denominator (a power of 2 and 5; 1 is left out).
        #[serde(default = "one", skip_serializing_if = "is_one")]
        per: i64,
    },
    /// An object holding the matching item apart back to the array (`match` put back at `at`
    /// among `rest`).
    Contains {
        /// The `contains` schema the encoder finds the match by (`contains::matches`).
        test: serde_json::Value,
        /// The matching item's decoder.
        #[serde(default, skip_serializing_if = "Decoder::is_identity")]
        matched: Box<Decoder>,
        /// The other items' decoder.
        #[serde(default, skip_serializing_if = "Decoder::is_identity")]
        items: Box<Decoder>,
    },
}

impl Encoding {
    /// The rule name of the change that makes this encoding.
    ///
    /// ```
    /// assert_eq!(provider_rules::encode::Encoding::Json.rule(), "encode-any-value");
    /// ```
    pub fn rule(&self) -> crate::RuleId {
        match self {
            Encoding::Map { .. } => map::RULE,
            Encoding::Json => any_value::RULE,
            Encoding::EnumText => enum_text::RULE,
            Encoding::Tuple { .. } => tuple::RULE,
            Encoding::Multiple { .. } => multiple::RULE,
            Encoding::Contains { .. } => contains::RULE,
        }
    }

    /// Decodes the value at `s[i..]` into `out`: its end and whether it changed.
    pub(crate) fn decode_text(
        &self,
        s: &[u8],
        i: usize,
        out: &mut Vec<u8>,
        notes: &mut Vec<String>,
    ) -> Option<(usize, bool)> {
        // Each encoding reads the whole value: where it ends is found once, here.
        let at = text::At::of(s, i)?;
        match self {
            Encoding::Map { value } => map::decode_text(value, at, out, notes),
            Encoding::Json => any_value::decode_text(at, out, notes),
            Encoding::EnumText => enum_text::decode_text(at, out),
            Encoding::Tuple { names, items, rest } => {
                tuple::decode_text(names, items, rest.as_deref(), at, out, notes)
            }
            Encoding::Multiple { of, per } => multiple::decode_text(*of, *per, at, out, notes),
            Encoding::Contains { matched, items, .. } => {
                contains::decode_text(matched, items, at, out, notes)
            }
        }
    }

    /// Decodes a parsed value in place; whether it changed.
    pub(crate) fn decode_value(&self, v: &mut serde_json::Value, notes: &mut Vec<String>) -> bool {
        match self {
            Encoding::Map { value } => map::decode_value(value, v, notes),
            Encoding::Json => any_value::decode_value(v, notes),
            Encoding::EnumText => enum_text::decode_value(v),
            Encoding::Tuple { names, items, rest } => {
                tuple::decode_value(names, items, rest.as_deref(), v, notes)
            }
            Encoding::Multiple { of, per } => multiple::decode_value(*of, *per, v, notes),
            Encoding::Contains { matched, items, .. } => {
                contains::decode_value(matched, items, v, notes)
            }
        }
    }

    /// Encodes a value in the tool's terms into what the sanitized schema expects.
    pub(crate) fn encode_value(&self, v: &serde_json::Value) -> serde_json::Value {
        match self {
            Encoding::Map { value } => map::encode_value(value, v),
            Encoding::Json => any_value::encode_value(v),
            Encoding::EnumText => enum_text::encode_value(v),
            Encoding::Tuple { names, items, rest } => {
                tuple::encode_value(names, items, rest.as_deref(), v)
            }
            Encoding::Multiple { of, per } => multiple::encode_value(*of, *per, v),
            Encoding::Contains {
                test,
                matched,
                items,
            } => contains::encode_value(test, matched, items, v),
        }
    }
}
