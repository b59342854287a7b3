//! The parser: JSON bytes → [`Schema`], in one streaming pass with bounded recursion.
//!
//! Subschema positions are parsed recursively up to [`ParseOptions::max_depth`] schema levels;
//! deeper subtrees are skipped with serde_json's iterative skipper and replaced by `{}`.
//! Everything else (instances, unknown keywords) is captured as raw text, also iteratively, so
//! no input can make the parser recurse without bound. Keyword values of the wrong JSON type
//! are kept verbatim ([`Value::Raw`]) and reported.

use crate::error::{Diagnostic, DiagnosticKind, SchemaError};
use crate::instance::Instance;
use crate::keyword::{Keyword, Shape};
use crate::keyword_mask::maybe_bit;
use crate::schema::{Dependency, Entry, Key, Schema, SchemaMap, SchemaObject, Value};
use crate::ser::push_json_string;
use indexmap::IndexMap;
use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::fmt;

mod bytes;
mod direct;
mod path;
mod scratch;
mod shallow;
mod verbatim;
use direct::{DirectVisitor, reads_direct};
use scratch::Scratch;
use shallow::interpret;
use verbatim::{
    MAX_RECOVERED, capture_map_rest, capture_seq_rest, dependency_json, raw_at, resume_map,
};

/// How to parse.
///
/// ```
/// use schema_core::{ParseOptions, Schema};
/// let opts = ParseOptions { max_depth: 2 };
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
}

impl ParseOptions {
    /// The largest `max_depth` in force, whatever is asked: the parser recurses once per
    /// schema level, and this many levels fit a 2 MiB stack (the default of spawned threads)
    /// with room to spare, also in debug builds.
    pub const MAX_DEPTH: usize = 256;
}

impl Default for ParseOptions {
    fn default() -> ParseOptions {
        ParseOptions { max_depth: 64 }
    }
}

/// A parsed schema and what the parser had to keep as data or replace.
#[derive(Clone, Debug)]
pub struct Parsed {
    /// The schema.
    pub schema: Schema,
    /// One entry per keyword kept as data, subtree cut at the depth limit, or non-schema root.
    pub diagnostics: Vec<Diagnostic>,
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
            let read = bytes::read(text, max_depth, &mut scratch.entries, &mut scratch.members);
            if let Some(schema) = read {
                scratch.keep();
                return Ok(Parsed {
                    schema,
                    diagnostics: Vec::new(),
                });
            }
            scratch.entries.clear();
            scratch.members.clear();
        }
        Schema::parse_with_serde(bytes, max_depth, scratch)
    }

    /// The serde_json parser: every input, every diagnostic and error.
    fn parse_with_serde(
        bytes: &[u8],
        max_depth: usize,
        mut scratch: Scratch,
    ) -> Result<Parsed, SchemaError> {
        let mut ctx = Ctx {
            max_depth,
            diagnostics: Vec::new(),
            path: path::Path::in_buffer(std::mem::take(&mut scratch.segments)),
            input: bytes,
            float_seen: false,
            recovered: 0,
            members: std::mem::take(&mut scratch.members),
            entries: std::mem::take(&mut scratch.entries),
        };
        // UTF-8 is checked once, over the whole input: serde_json's reader of `&str` then
        // neither re-checks each string nor each value captured as raw text (its reader of
        // bytes does both). Input that is not UTF-8 goes through the reader of bytes, which
        // says where it fails.
        let parsed = match std::str::from_utf8(bytes) {
            Ok(text) => run(&mut serde_json::Deserializer::from_str(text), &mut ctx),
            Err(_) => run(&mut serde_json::Deserializer::from_slice(bytes), &mut ctx),
        };
        Scratch {
            entries: ctx.entries,
            members: ctx.members,
            segments: ctx.path.into_buffer(),
        }
        .keep();
        let parsed = parsed.map_err(SchemaError::from_json)?;
        let schema = match parsed {
            Node::Schema(s) => s,
            Node::Other(raw) => {
                ctx.diagnostics.push(Diagnostic {
                    pointer: String::new(),
                    kind: DiagnosticKind::NotASchema {
                        found: raw.json_type(),
                    },
                });
                Schema::default()
            }
        };
        Ok(Parsed {
            schema,
            diagnostics: ctx.diagnostics,
        })
    }
}

/// One parse: the root value, then the end of the input.
fn run<'de, R: serde_json::de::Read<'de>>(
    de: &mut serde_json::Deserializer<R>,
    ctx: &mut Ctx<'_>,
) -> Result<Node, serde_json::Error> {
    // Our own visitor bounds the recursion (max_depth schema levels, each a fixed number of
    // frames); everything deeper is skipped iteratively. serde_json's fixed limit of 128 JSON
    // levels would otherwise refuse valid schemas whose `properties` maps double the JSON
    // depth.
    de.disable_recursion_limit();
    let node = SchemaSeed { ctx, depth: 0 }.deserialize(&mut *de)?;
    de.end()?;
    Ok(node)
}

struct Ctx<'i> {
    max_depth: usize,
    diagnostics: Vec<Diagnostic>,
    /// Where the value being read is (its pointer's text made only for a diagnostic).
    path: path::Path,
    /// The whole input, to copy a value verbatim when serde_json only gave its `f64`.
    input: &'i [u8],
    /// A float was read as `f64` since the last value was kept as data.
    float_seen: bool,
    /// How many values were copied back from the input (bounded: each costs a scan).
    recovered: usize,
    /// The members of the maps of subschemas being read, innermost last: each map's are
    /// moved into a map sized for them once it ends (grown entry by entry, a map allocates
    /// and rehashes several times on the way). Kept across parses ([`Scratch`]).
    members: Vec<(String, Schema)>,
    /// The entries of the schema objects being read, innermost last: each object's are moved
    /// into a `Vec` of their number once it ends (pushed one by one, an object's entries
    /// reallocated once or twice on the way). Kept across parses ([`Scratch`]).
    entries: Vec<Entry>,
}

impl Ctx<'_> {
    /// The pointer of the value being read.
    fn pointer(&self) -> String {
        self.path.text(self.input)
    }

    /// `text`, the value at [`Ctx::pointer`] as serde_json handed it over; when that is not
    /// the input's own spelling (`respelled`), the value's text copied back from the input
    /// instead (a scan per pointer segment: at most [`MAX_RECOVERED`] per parse).
    fn verbatim(&mut self, text: String, respelled: bool) -> String {
        if respelled && self.recovered < MAX_RECOVERED {
            self.recovered += 1;
            if let Some(t) = raw_at(self.input, &self.pointer()) {
                return crate::instance::minify(t);
            }
        }
        text
    }

    fn wrong_type(&mut self, keyword: &str, shape: Shape, raw: &Instance) {
        self.diagnostics.push(Diagnostic {
            pointer: self.pointer(),
            kind: DiagnosticKind::WrongType {
                keyword: keyword.to_owned(),
                expected: describe(shape),
                found: raw.json_type(),
            },
        });
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

/// A subschema position's content: a schema, or something else kept as raw text.
enum Node {
    Schema(Schema),
    Other(Instance),
}

impl Node {
    fn to_json(&self) -> String {
        match self {
            Node::Schema(s) => s.to_json_string(),
            Node::Other(i) => i.as_json().to_owned(),
        }
    }
}

struct SchemaSeed<'a, 'i> {
    ctx: &'a mut Ctx<'i>,
    depth: usize,
}

impl<'de> DeserializeSeed<'de> for SchemaSeed<'_, '_> {
    type Value = Node;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Node, D::Error> {
        d.deserialize_any(self)
    }
}

fn scalar<E>(text: String) -> Result<Node, E> {
    Ok(Node::Other(Instance::from_trusted(text)))
}

impl<'de> Visitor<'de> for SchemaSeed<'_, '_> {
    type Value = Node;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON Schema")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Node, E> {
        Ok(Node::Schema(Schema::Bool(v)))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Node, E> {
        scalar(v.to_string())
    }
    fn visit_u64<E>(self, v: u64) -> Result<Node, E> {
        scalar(v.to_string())
    }
    fn visit_f64<E>(self, v: f64) -> Result<Node, E> {
        self.ctx.float_seen = true;
        scalar(serde_json::to_string(&v).unwrap_or_else(|_| "null".to_owned()))
    }
    fn visit_str<E>(self, v: &str) -> Result<Node, E> {
        let mut t = String::with_capacity(v.len() + 2);
        push_json_string(&mut t, v);
        scalar(t)
    }
    fn visit_unit<E>(self) -> Result<Node, E> {
        scalar("null".to_owned())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
        let mut text = String::from("[");
        capture_seq_rest(&mut seq, &mut text, false)?;
        Ok(Node::Other(Instance::from_trusted(text)))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
        if self.depth > self.ctx.max_depth {
            while map.next_key::<IgnoredAny>()?.is_some() {
                map.next_value::<IgnoredAny>()?;
            }
            self.ctx.diagnostics.push(Diagnostic {
                pointer: self.ctx.pointer(),
                kind: DiagnosticKind::DepthLimit {
                    limit: self.ctx.max_depth,
                },
            });
            return Ok(Node::Schema(Schema::default()));
        }
        let start = self.ctx.entries.len();
        if start == 0 {
            // Room for the entries of most schemas' objects, nested ones included (once per
            // thread: the buffer is kept for the next parse).
            self.ctx.entries.reserve(16);
        }
        // (An error ends the whole parse: what it leaves here is dropped with it.)
        let mut maybe = 0u64;
        while let Some(name) = map.next_key_seed(KeyName)? {
            let key = Key::from_name(&name);
            let value = match &key {
                // The pointer only says where in a diagnostic: it is extended here only for
                // keywords that hold subschemas; a keyword of another shape adds its name when
                // it reports (see `KeywordSeed`), and an unknown keyword never reports.
                Key::Known(kw) if kw.has_subschemas() => {
                    let mark = self.ctx.path.len();
                    self.ctx.path.push_keyword(*kw);
                    let value = map.next_value_seed(KeywordSeed {
                        ctx: self.ctx,
                        depth: self.depth,
                        keyword: *kw,
                    });
                    self.ctx.path.truncate(mark);
                    value?
                }
                Key::Known(kw) => map.next_value_seed(KeywordSeed {
                    ctx: self.ctx,
                    depth: self.depth,
                    keyword: *kw,
                })?,
                Key::Other(_) => {
                    Value::Raw(Instance::from_borrowed(map.next_value::<&RawValue>()?))
                }
            };
            push_entry(&mut self.ctx.entries, start, &mut maybe, key, value);
        }
        Ok(Node::Schema(Schema::Object(object_of(
            &mut self.ctx.entries,
            start,
            maybe,
        ))))
    }
}

/// Adds an entry to the object being read, whose entries are `entries[start..]` and presence
/// mask `maybe`. Duplicate keys: the last value wins, at the first position (as serde_json's
/// order-preserving map does). (Its own function, as `visit_map`'s frame is on the stack once
/// per schema level.)
fn push_entry(entries: &mut Vec<Entry>, start: usize, maybe: &mut u64, key: Key, value: Value) {
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
fn object_of(entries: &mut Vec<Entry>, start: usize, maybe: u64) -> SchemaObject {
    SchemaObject {
        entries: entries.split_off(start),
        maybe,
    }
}

struct KeywordSeed<'a, 'i> {
    ctx: &'a mut Ctx<'i>,
    depth: usize,
    keyword: Keyword,
}

impl<'de> DeserializeSeed<'de> for KeywordSeed<'_, '_> {
    type Value = Value;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        let shape = self.keyword.shape();
        if self.keyword.has_subschemas() {
            return d.deserialize_any(SubschemaVisitor {
                ctx: self.ctx,
                depth: self.depth,
                keyword: self.keyword,
            });
        }
        if reads_direct(shape) {
            return d.deserialize_any(DirectVisitor {
                ctx: self.ctx,
                keyword: self.keyword,
            });
        }
        // Other shallow shapes (numbers, whose text serde_json would re-spell; booleans;
        // instances): borrow the raw text (captured iteratively), then interpret it.
        let raw = <&RawValue as serde::Deserialize>::deserialize(d)?;
        match interpret(shape, raw.get()) {
            Some(v) => Ok(v),
            None => {
                let raw = Instance::from_borrowed(raw);
                let mark = self.ctx.path.len();
                self.ctx.path.push_keyword(self.keyword);
                self.ctx.wrong_type(self.keyword.as_str(), shape, &raw);
                self.ctx.path.truncate(mark);
                Ok(Value::Raw(raw))
            }
        }
    }
}

/// Deserializes an object key, borrowing it from the input when it holds no escape.
struct KeyName;

impl<'de> DeserializeSeed<'de> for KeyName {
    type Value = Cow<'de, str>;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Cow<'de, str>, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeyName {
    type Value = Cow<'de, str>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key")
    }
    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Borrowed(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(v))
    }
}

struct SubschemaVisitor<'a, 'i> {
    ctx: &'a mut Ctx<'i>,
    depth: usize,
    keyword: Keyword,
}

impl<'i> SubschemaVisitor<'_, 'i> {
    fn raw(self, text: String) -> Value {
        // serde_json hands floats over as `f64` only (`1.5e3` → `1500.0`): when one is in the
        // value, copy the value's text back from the input, so it stays verbatim.
        let respelled = std::mem::take(&mut self.ctx.float_seen);
        let raw = Instance::from_trusted(self.ctx.verbatim(text, respelled));
        self.ctx
            .wrong_type(self.keyword.as_str(), self.keyword.shape(), &raw);
        Value::Raw(raw)
    }

    fn child(&mut self) -> SchemaSeed<'_, 'i> {
        SchemaSeed {
            ctx: self.ctx,
            depth: self.depth + 1,
        }
    }
}

impl<'de> Visitor<'de> for SubschemaVisitor<'_, '_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(describe(self.keyword.shape()))
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        match self.keyword.shape() {
            Shape::Schema | Shape::SchemaOrArray => Ok(Value::Schema(Box::new(Schema::Bool(v)))),
            _ => Ok(self.raw(v.to_string())),
        }
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(self.raw(v.to_string()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(self.raw(v.to_string()))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        self.ctx.float_seen = true;
        Ok(self.raw(serde_json::to_string(&v).unwrap_or_else(|_| "null".to_owned())))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        let mut t = String::new();
        push_json_string(&mut t, v);
        Ok(self.raw(t))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(self.raw("null".to_owned()))
    }

    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<Value, A::Error> {
        if !matches!(
            self.keyword.shape(),
            Shape::SchemaArray | Shape::SchemaOrArray
        ) {
            let mut text = String::from("[");
            capture_seq_rest(&mut seq, &mut text, false)?;
            return Ok(self.raw(text));
        }
        let mut items = Vec::new();
        loop {
            let mark = self.ctx.path.len();
            self.ctx.path.push_index(items.len());
            let next = seq.next_element_seed(self.child())?;
            self.ctx.path.truncate(mark);
            match next {
                None => return Ok(Value::Schemas(items)),
                Some(Node::Schema(s)) => items.push(s),
                Some(other) => {
                    // Not an array of schemas after all: keep the whole value as data.
                    let mut text = String::from("[");
                    for s in &items {
                        text.push_str(&s.to_json_string());
                        text.push(',');
                    }
                    text.push_str(&other.to_json());
                    capture_seq_rest(&mut seq, &mut text, true)?;
                    return Ok(self.raw(text));
                }
            }
        }
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<Value, A::Error> {
        match self.keyword.shape() {
            Shape::Schema | Shape::SchemaOrArray => {
                // The map itself is the subschema.
                let node = SchemaSeed {
                    ctx: self.ctx,
                    depth: self.depth + 1,
                }
                .visit_map(map)?;
                match node {
                    Node::Schema(s) => Ok(Value::Schema(Box::new(s))),
                    Node::Other(i) => Ok(Value::Raw(i)),
                }
            }
            Shape::SchemaMap => {
                let start = self.ctx.members.len();
                if start == 0 {
                    // Room for the members of most schemas' maps, nested ones included (once
                    // per thread: the buffer is kept for the next parse).
                    self.ctx.members.reserve(16);
                }
                // (An error ends the whole parse: what it leaves here is dropped with it.)
                while let Some(name) = map.next_key_seed(KeyName)? {
                    let mark = self.ctx.path.len();
                    let input = self.ctx.input;
                    self.ctx.path.push_name(&name, input);
                    let node = map.next_value_seed(self.child())?;
                    self.ctx.path.truncate(mark);
                    match node {
                        Node::Schema(s) => self.ctx.members.push((name.into_owned(), s)),
                        Node::Other(i) => {
                            // Duplicate names as the map reads them (the last value at the
                            // first place).
                            let out: SchemaMap = self.ctx.members.drain(start..).collect();
                            let text = resume_map(
                                &mut map,
                                out.iter().map(|(k, s)| (k.as_str(), s.to_json_string())),
                                &name,
                                i.as_json(),
                            )?;
                            return Ok(self.raw(text));
                        }
                    }
                }
                // Sized once for every member (duplicate names: the last value at the first
                // place, as inserting one by one does).
                let out: SchemaMap = self.ctx.members.drain(start..).collect();
                Ok(Value::SchemaMap(out))
            }
            Shape::Dependencies => {
                let mut out: IndexMap<String, Dependency> = IndexMap::new();
                while let Some(name) = map.next_key_seed(KeyName)? {
                    let mark = self.ctx.path.len();
                    let input = self.ctx.input;
                    self.ctx.path.push_name(&name, input);
                    let node = map.next_value_seed(self.child())?;
                    self.ctx.path.truncate(mark);
                    let dep = match node {
                        Node::Schema(s) => Ok(Dependency::Schema(s)),
                        Node::Other(i) => serde_json::from_str::<Vec<String>>(i.as_json())
                            .map(Dependency::Required)
                            .map_err(|_| i),
                    };
                    match dep {
                        Ok(d) => {
                            out.insert(name.into_owned(), d);
                        }
                        Err(i) => {
                            let done = out.iter().map(|(k, d)| (k.as_str(), dependency_json(d)));
                            let text = resume_map(&mut map, done, &name, i.as_json())?;
                            return Ok(self.raw(text));
                        }
                    }
                }
                Ok(Value::Dependencies(out))
            }
            _ => {
                let mut text = String::from("{");
                capture_map_rest(&mut map, &mut text, false)?;
                Ok(self.raw(text))
            }
        }
    }
}
