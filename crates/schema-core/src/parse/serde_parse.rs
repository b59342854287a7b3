//! The serde_json parser's entry and state: every input, every diagnostic, every error.

use super::path;
use super::schema_seed::SchemaSeed;
use super::scratch::Scratch;
use super::verbatim::{MAX_RECOVERED, raw_at};
use super::{Parsed, describe};
use crate::error::{Diagnostic, DiagnosticKind, SchemaError};
use crate::instance::Instance;
use crate::keyword::Shape;
use crate::schema::{Entry, Schema};
use serde::de::DeserializeSeed;

impl Schema {
    /// The serde_json parser: every input, every diagnostic and error.
    pub(super) fn parse_with_serde(
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
            keywords: crate::KeywordMask::ALL,
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

pub(super) struct Ctx<'i> {
    pub(super) max_depth: usize,
    pub(super) diagnostics: Vec<Diagnostic>,
    /// Where the value being read is (its pointer's text made only for a diagnostic).
    pub(super) path: path::Path,
    /// The whole input, to copy a value verbatim when serde_json only gave its `f64`.
    pub(super) input: &'i [u8],
    /// A float was read as `f64` since the last value was kept as data.
    pub(super) float_seen: bool,
    /// How many values were copied back from the input (bounded: each costs a scan).
    pub(super) recovered: usize,
    /// The members of the maps of subschemas being read, innermost last: each map's are
    /// moved into a map sized for them once it ends (grown entry by entry, a map allocates
    /// and rehashes several times on the way). Kept across parses ([`Scratch`]).
    pub(super) members: Vec<(String, Schema)>,
    /// The entries of the schema objects being read, innermost last: each object's are moved
    /// into a `Vec` of their number once it ends (pushed one by one, an object's entries
    /// reallocated once or twice on the way). Kept across parses ([`Scratch`]).
    pub(super) entries: Vec<Entry>,
}

impl Ctx<'_> {
    /// The pointer of the value being read.
    pub(super) fn pointer(&self) -> String {
        self.path.text(self.input)
    }

    /// `text`, the value at [`Ctx::pointer`] as serde_json handed it over; when that is not
    /// the input's own spelling (`respelled`), the value's text copied back from the input
    /// instead (a scan per pointer segment: at most [`MAX_RECOVERED`] per parse).
    pub(super) fn verbatim(&mut self, text: String, respelled: bool) -> String {
        if respelled && self.recovered < MAX_RECOVERED {
            self.recovered += 1;
            if let Some(t) = raw_at(self.input, &self.pointer()) {
                return crate::instance::minify(t);
            }
        }
        text
    }

    pub(super) fn wrong_type(&mut self, keyword: &str, shape: Shape, raw: &Instance) {
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

/// A subschema position's content: a schema, or something else kept as raw text.
pub(super) enum Node {
    Schema(Schema),
    Other(Instance),
}

impl Node {
    pub(super) fn to_json(&self) -> String {
        match self {
            Node::Schema(s) => s.to_json_string(),
            Node::Other(i) => i.as_json().to_owned(),
        }
    }
}
