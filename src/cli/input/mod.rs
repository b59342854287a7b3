//! Recognising what the input is: one JSON Schema, an MCP `tools/list` result, a JSON array of
//! MCP tools, or a whole LLM request body (reading it is [`super::read`]'s).
//!
//! The document is never rebuilt from a `serde_json::Map` (which would reorder keys): schema
//! slots are located as byte ranges of the original text (through borrowed
//! [`RawValue`]s), and results are spliced back into it, so everything that is not a schema
//! slot stays byte-for-byte what it was.

mod detect;
mod raw;
mod scan;
mod splice;
mod tools;

pub use raw::{array, object, span};
pub use splice::{render_like, splice};
pub use tools::NO_INPUT_SCHEMA;

use super::error::CliError;
use super::read::{Source, parse_json, read_source};
use detect::{detect, detect_in, mcp_tools};
use provider_rules::Slot;
use scan::Scanned;
use std::ops::Range;
use std::path::Path;
use tools::tool_items;
use tower_toolschema::shapes::Api;

/// What kind of document the input is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// One JSON Schema.
    Schema,
    /// An MCP `tools/list` result: `{"tools": [...]}` (also inside a JSON-RPC response).
    McpList,
    /// A JSON array of MCP tools.
    ToolArray,
    /// A whole LLM API request body.
    Body,
}

impl Kind {
    /// A stable lower-case name, used in reports.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Schema => "schema",
            Kind::McpList => "mcp-tools-list",
            Kind::ToolArray => "mcp-tool-array",
            Kind::Body => "request-body",
        }
    }
}

/// One schema slot of a document.
#[derive(Debug, Clone)]
pub struct Item {
    /// The tool's name, if the slot belongs to a named tool.
    pub tool: Option<String>,
    /// Which tool of the document (slots of one tool share it).
    pub tool_index: usize,
    /// What the slot is called (`inputSchema`, `outputSchema`, `parameters`, `schema`...).
    pub label: String,
    /// JSON pointer of the slot in the document (`""` for a lone schema).
    pub pointer: String,
    /// Whether root rules apply (a tool's input) or not.
    pub slot: Slot,
    /// The byte range of the slot's JSON value in the document.
    pub range: Range<usize>,
    /// The schema's JSON text when it is not the document's text at [`Item::range`]: for a
    /// slot that stores its schema as a JSON string, the string's content; for a tools/list
    /// entry without an `inputSchema`, the schema it stands for. `None` (most slots): the text
    /// at `range`, not copied (a tools/list's schemas would otherwise be held twice).
    pub own: Option<String>,
}

impl Item {
    /// The schema's JSON text, `text` being the text of the document the item is of.
    pub fn schema<'a>(&'a self, text: &'a str) -> &'a str {
        match &self.own {
            Some(own) => own,
            None => text.get(self.range.clone()).unwrap_or_default(),
        }
    }

    /// `tool "NAME"` / the slot pointer, to say where something is.
    pub fn display_name(&self) -> String {
        match &self.tool {
            Some(t) => t.clone(),
            None if self.pointer.is_empty() => "(schema)".to_owned(),
            None => self.pointer.clone(),
        }
    }
}

/// A parsed document: its text, kind and schema slots.
#[derive(Debug, Clone)]
pub struct Document {
    /// Where it came from.
    pub source: Source,
    /// What it is.
    pub kind: Kind,
    /// For a request body: the API it was recognised as (or given with `--api`).
    pub api: Option<Api>,
    /// The schema slots, in document order.
    pub items: Vec<Item>,
}

/// What the user said about the input.
#[derive(Debug, Clone, Copy, Default)]
pub struct Hints {
    /// `--as parameters|schema`: the input is one schema, in this slot.
    pub as_slot: Option<Slot>,
    /// `--api NAME`: the input is a request body of this API.
    pub api: Option<Api>,
}

/// `--api NAME` to an [`Api`], or an error listing the names.
pub fn api_by_name(name: &str) -> Result<Api, CliError> {
    let mut names: Vec<&str> = tower_toolschema::shapes::SHAPES
        .iter()
        .map(|s| s.api.name())
        .collect();
    names.dedup();
    let name = super::names::resolve("API", name, names, "")?;
    Api::from_name(name).ok_or_else(|| CliError::usage(format!("unknown API {name:?}")))
}

/// Reads and recognises a document.
pub fn load(file: Option<&Path>, hints: &Hints) -> Result<Document, CliError> {
    parse_document(read_source(file)?, hints)
}

/// Recognises a document and locates its schema slots.
pub fn parse_document(source: Source, hints: &Hints) -> Result<Document, CliError> {
    let raw = parse_json(&source.name, &source.text)?;
    // Detection and the search for slots share one reading of the tools.
    let scanned = (hints.as_slot.is_none() && hints.api.is_none()).then(|| Scanned::of(raw));
    let kind = match &scanned {
        _ if hints.as_slot.is_some() => Kind::Schema,
        _ if hints.api.is_some() => Kind::Body,
        Some(s) => detect_in(raw, s),
        None => detect(raw),
    };
    if kind == Kind::Schema
        && let Some(warning) = provider_rules::non_schema_root(raw.get())
    {
        eprintln!("warning: {}: {warning}", source.name);
    }
    let items = match kind {
        Kind::Schema => vec![Item {
            tool: None,
            tool_index: 0,
            label: "schema".to_owned(),
            pointer: String::new(),
            slot: hints.as_slot.unwrap_or(Slot::Parameters),
            // `raw` is borrowed from the text: its text is the text at its span.
            range: span(&source.text, raw),
            own: None,
        }],
        Kind::McpList => {
            let expected = || {
                CliError::usage(format!(
                    "{}: expected an MCP tools/list result {{\"tools\": [...]}}",
                    source.name
                ))
            };
            match scanned.as_ref().filter(|s| s.has_tools_key()) {
                Some(s) => {
                    let tools = s.tools.as_deref().ok_or_else(expected)?;
                    tool_items(&source, "/tools", tools)?
                }
                None => {
                    let (base, tools) = mcp_tools(raw).ok_or_else(expected)?;
                    let tools: Vec<_> = tools.into_iter().map(object).collect();
                    tool_items(&source, &format!("{base}/tools"), &tools)?
                }
            }
        }
        Kind::ToolArray => match &scanned {
            Some(s) => tool_items(&source, "", s.tools.as_deref().unwrap_or_default())?,
            None => {
                let tools: Vec<_> = array(raw)
                    .unwrap_or_default()
                    .into_iter()
                    .map(object)
                    .collect();
                tool_items(&source, "", &tools)?
            }
        },
        Kind::Body => return super::body::document(source, hints.api),
    };
    Ok(Document {
        source,
        kind,
        api: None,
        items,
    })
}
