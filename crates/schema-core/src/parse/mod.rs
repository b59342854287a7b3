//! The parser: JSON bytes → [`Schema`], in one streaming pass with bounded recursion.
//!
//! Two readers: the byte reader ([`bytes`]) reads every schema that has no diagnostic, straight
//! from its text; it gives up on anything else (a value of the wrong JSON type, a subtree past
//! the depth limit, invalid text), which the serde_json parser ([`serde_parse`] and its seeds
//! and visitors) then reads from the start. Its tree, diagnostics and errors are the ones
//! described here.
//!
//! Subschema positions are parsed recursively up to [`ParseOptions::max_depth`] schema levels;
//! deeper subtrees are skipped with serde_json's iterative skipper and replaced by `{}`.
//! Everything else (instances, unknown keywords) is captured as raw text, also iteratively, so
//! no input can make the parser recurse without bound. Keyword values of the wrong JSON type
//! are kept verbatim ([`Value::Raw`]) and reported.

use crate::error::{Diagnostic, SchemaError};
use crate::keyword::{Keyword, Shape};
use crate::keyword_mask::{KeywordMask, maybe_bit};
use crate::schema::{Entry, Key, Schema, SchemaObject, Value};

mod bytes;
mod direct;
mod keyword_seed;
mod path;
mod schema_seed;
mod scratch;
mod serde_parse;
mod shallow;
mod subschema;
mod verbatim;
use scratch::Scratch;

/// How to parse.
///
/// ```
/// use schema_core::{ParseOptions, Schema};
/// let opts = ParseOptions { max_depth: 2, ..ParseOptions::default() };
/// let parsed = Schema::parse(br#"{"items": {"items": {"items": {"type": "string"}}}}"#, &opts)?;
/// assert_eq!(parsed.schema.to_json_string(), r#"{"items":{"items":{"items":{}}}}"#);
/// assert_eq!(parsed.diagnostics[0].pointer, "/items/items/items");
/// # Ok::<(), schema_core::SchemaError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParseOptions {
    /// The deepest subschema kept, counted in schema levels (the root is level 0). Deeper
    /// subtrees are replaced by `{}` and reported. Default 64; values above
    /// [`ParseOptions::MAX_DEPTH`] are taken as that.
    pub max_depth: usize,
    /// Whether each object with `properties` the byte reader reads keeps room for the
    /// keywords that close an object where it lacks them (`required`,
    /// `additionalProperties`): for a caller that adds them (a strict provider's sanitizer),
    /// which else reallocates the object's entries. Default `false` (no room kept).
    ///
    /// ```
    /// use schema_core::{Keyword, ParseOptions, Schema, Value};
    /// let opts = ParseOptions { room_to_close: true, ..ParseOptions::default() };
    /// let mut s = Schema::parse(br#"{"properties":{}}"#, &opts)?.schema;
    /// let o = s.make_object();
    /// o.insert(Keyword::Required, Value::Strings(Vec::new()));
    /// assert_eq!(s.to_json_string(), r#"{"properties":{},"required":[]}"#);
    /// # Ok::<(), schema_core::SchemaError>(())
    /// ```
    pub room_to_close: bool,
}

impl ParseOptions {
    /// The largest `max_depth` in force, whatever is asked: the parser recurses once per
    /// schema level, and this many levels fit a 2 MiB stack (the default of spawned threads)
    /// with room to spare, also in debug builds.
    pub const MAX_DEPTH: usize = 256;
}

impl Default for ParseOptions {
    fn default() -> ParseOptions {
        ParseOptions {
            max_depth: 64,
            room_to_close: false,
        }
    }
}

/// A parsed schema and what the parser had to keep as data or replace.
#[derive(Clone, Debug)]
pub struct Parsed {
    /// The schema.
    pub schema: Schema,
    /// One entry per keyword kept as data, subtree cut at the depth limit, or non-schema root.
    pub diagnostics: Vec<Diagnostic>,
    /// The keywords the tree's objects may hold, at every level: the union of their presence
    /// masks ([`crate::SchemaObject::keyword_mask`]), so a search of the whole tree for a
    /// keyword outside it would find none. [`KeywordMask::ALL`] where the parser did not
    /// gather it (a tree read with diagnostics, or built by hand).
    ///
    /// ```
    /// use schema_core::{Keyword, KeywordMask, ParseOptions, Schema};
    /// let p = Schema::parse(br##"{"properties":{"a":{"$ref":"#/$defs/b"}}}"##, &ParseOptions::default())?;
    /// assert!(p.keywords.intersects(KeywordMask::of(&[Keyword::Ref])));
    /// let p = Schema::parse(br#"{"properties":{"a":{"type":"string"}}}"#, &ParseOptions::default())?;
    /// assert!(!p.keywords.intersects(KeywordMask::of(&[Keyword::Ref, Keyword::AnyOf])));
    /// # Ok::<(), schema_core::SchemaError>(())
    /// ```
    pub keywords: KeywordMask,
}

impl Schema {
    /// Parses JSON bytes with default options, dropping the diagnostics.
    ///
    /// ```
    /// let s = schema_core::Schema::from_slice(br#"{"type": ["string", "null"]}"#)?;
    /// assert_eq!(s.to_json_string(), r#"{"type":["string","null"]}"#);
    /// # Ok::<(), schema_core::SchemaError>(())
    /// ```
    pub fn from_slice(bytes: &[u8]) -> Result<Schema, SchemaError> {
        Schema::parse(bytes, &ParseOptions::default()).map(|p| p.schema)
    }

    /// Parses JSON text with default options, dropping the diagnostics.
    #[allow(clippy::should_implement_trait)]
    pub fn from_str(text: &str) -> Result<Schema, SchemaError> {
        Schema::from_slice(text.as_bytes())
    }

    /// Parses a `serde_json::Value` (never fails: a non-schema becomes `{}`).
    ///
    /// ```
    /// let v = serde_json::json!({"type": "object", "properties": {}});
    /// let s = schema_core::Schema::from_value(&v);
    /// assert_eq!(s.to_value(), v);
    /// ```
    pub fn from_value(value: &serde_json::Value) -> Schema {
        Schema::parse_value(value, &ParseOptions::default()).schema
    }

    /// Parses a `serde_json::Value` with options, keeping the diagnostics.
    pub fn parse_value(value: &serde_json::Value, options: &ParseOptions) -> Parsed {
        let text = serde_json::to_string(value).unwrap_or_else(|_| "null".to_owned());
        match Schema::parse(text.as_bytes(), options) {
            Ok(p) => p,
            // Text serialized by serde_json is valid JSON; never panic if it somehow is not.
            Err(_) => Parsed {
                schema: Schema::default(),
                diagnostics: Vec::new(),
                keywords: KeywordMask::ALL,
            },
        }
    }

    /// Parses JSON bytes with options, keeping the diagnostics.
    pub fn parse(bytes: &[u8], options: &ParseOptions) -> Result<Parsed, SchemaError> {
        let mut scratch = Scratch::take();
        let max_depth = options.max_depth.min(ParseOptions::MAX_DEPTH);
        // The byte reader first: it reads what has no diagnostic, and gives up on anything
        // else, which serde_json then reads from the start.
        if let Ok(text) = std::str::from_utf8(bytes) {
            let read = bytes::read(
                text,
                max_depth,
                options.room_to_close,
                &mut scratch.entries,
                &mut scratch.members,
            );
            if let Some((schema, keywords)) = read {
                scratch.keep();
                return Ok(Parsed {
                    schema,
                    diagnostics: Vec::new(),
                    keywords,
                });
            }
            scratch.entries.clear();
            scratch.members.clear();
        }
        Schema::parse_with_serde(bytes, max_depth, scratch)
    }

    /// [`Schema::parse`] with the serde_json parser alone (no byte reader first): the judge
    /// the byte reader is fuzzed against (`fuzz/fuzz_targets/byte_reader.rs`). Only in fuzzing
    /// builds (`--cfg fuzzing`, which cargo-fuzz sets).
    #[cfg(fuzzing)]
    #[doc(hidden)]
    pub fn parse_serde_only(bytes: &[u8], options: &ParseOptions) -> Result<Parsed, SchemaError> {
        let max_depth = options.max_depth.min(ParseOptions::MAX_DEPTH);
        Schema::parse_with_serde(bytes, max_depth, Scratch::take())
    }
}

/// What a shape expects, for messages.
pub(crate) fn describe(shape: Shape) -> &'static str {
    match shape {
        Shape::Schema => "a schema (an object or a boolean)",
        Shape::SchemaArray => "an array of schemas",
        Shape::SchemaOrArray => "a schema or an array of schemas",
        Shape::SchemaMap => "an object whose values are schemas",
        Shape::Dependencies => "an object of schemas or arrays of strings",
        Shape::Type => "a type name or an array of type names",
        Shape::String => "a string",
        Shape::Number => "a number",
        Shape::NumberOrBool => "a number",
        Shape::Bool => "a boolean",
        Shape::StringArray => "an array of strings",
        Shape::StringArrayMap => "an object whose values are arrays of strings",
        Shape::Instance => "a JSON value",
        Shape::InstanceArray => "an array",
    }
}

/// Adds an entry to the object being read, whose entries are `entries[start..]` and presence
/// mask `maybe`. Duplicate keys: the last value wins, at the first position (as serde_json's
/// order-preserving map does). (Its own function, as `visit_map`'s frame is on the stack once
/// per schema level.)
pub(super) fn push_entry(
    entries: &mut Vec<Entry>,
    start: usize,
    maybe: &mut u64,
    key: Key,
    value: Value,
) {
    let earlier = match &key {
        Key::Known(kw) if *maybe & maybe_bit(*kw) == 0 => None,
        _ => entries[start..].iter_mut().find(|e| e.key == key),
    };
    match earlier {
        Some(e) => e.value = value,
        None => {
            if let Key::Known(kw) = key {
                *maybe |= maybe_bit(kw);
            }
            entries.push(Entry { key, value });
        }
    }
}

/// The object whose entries are `entries[start..]`, moved (one copy) into a `Vec` of their
/// number.
pub(super) fn object_of(entries: &mut Vec<Entry>, start: usize, maybe: u64) -> SchemaObject {
    SchemaObject {
        entries: entries.split_off(start),
        maybe,
    }
}

/// [`object_of`] with room for the keywords that close an object with `properties` where it
/// lacks them, `required` and `additionalProperties` ([`ParseOptions::room_to_close`]).
pub(super) fn object_to_close(entries: &mut Vec<Entry>, start: usize, maybe: u64) -> SchemaObject {
    let room = if maybe & maybe_bit(Keyword::Properties) == 0 {
        0
    } else {
        CLOSING
            .iter()
            .filter(|k| maybe & maybe_bit(**k) == 0)
            .count()
    };
    if room == 0 {
        return object_of(entries, start, maybe);
    }
    let mut kept = Vec::with_capacity(entries.len().saturating_sub(start) + room);
    kept.extend(entries.drain(start..));
    SchemaObject {
        entries: kept,
        maybe,
    }
}

/// The keywords [`object_to_close`] keeps room for.
const CLOSING: [Keyword; 2] = [Keyword::Required, Keyword::AdditionalProperties];
