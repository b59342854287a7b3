//! Recognising what the input is: one JSON Schema, an MCP `tools/list` result, a JSON array of
//! MCP tools, or a whole LLM request body (reading it is [`super::read`]'s).
//!
//! The document is never rebuilt from a `serde_json::Map` (which would reorder keys): schema
//! slots are located as byte ranges of the original text (through borrowed
//! [`RawValue`]s), and results are spliced back into it, so everything that is not a schema
//! slot stays byte-for-byte what it was.

use super::error::CliError;
use super::read::{Source, parse_json, read_source};
use provider_rules::Slot;
use serde::de::{Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use std::fmt;
use std::ops::Range;
use std::path::Path;
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
    /// The schema's JSON text (for a slot that stores its schema as a JSON string, the
    /// string's content).
    pub schema: String,
}

impl Item {
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
            range: span(&source.text, raw),
            schema: raw.get().to_owned(),
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

/// A JSON object's entries, in order, values raw.
type Entries<'a> = Vec<(String, &'a RawValue)>;

/// What recognising a document reads of it, read once: its top-level entries, its tools (the
/// top-level `tools` array, or the document itself when it is an array) and, when asked, each
/// tool's entries. Detection and the search for slots share it, so the tools are not scanned
/// once for each.
struct Scanned<'a> {
    /// The top-level keys, in order (`None`: the document is not an object).
    top: Option<Vec<String>>,
    /// Each tool's entries (`None` for a tool that is not an object).
    tools: Option<Vec<Option<Entries<'a>>>>,
}

impl<'a> Scanned<'a> {
    fn of(raw: &'a RawValue) -> Scanned<'a> {
        let mut de = serde_json::Deserializer::from_str(raw.get());
        // Each in one pass: the tools' entries are read where they are (not captured first).
        let (top, tools) = if raw.get().starts_with('[') {
            (None, de.deserialize_seq(ToolsVisitor).ok())
        } else if raw.get().starts_with('{') {
            match de.deserialize_map(TopVisitor) {
                Ok((keys, tools)) => (Some(keys), tools),
                Err(_) => (None, None),
            }
        } else {
            (None, None)
        };
        Scanned { top, tools }
    }

    /// Whether the top level has a `tools` key (an array or not).
    fn has_tools_key(&self) -> bool {
        self.top
            .as_ref()
            .is_some_and(|t| t.iter().any(|k| k == "tools"))
    }
}

/// Where the object whose entries these are ends in `text` (after its `}`), found from its
/// last value; `None` for no entries.
fn object_end(text: &str, entries: &[(String, &RawValue)]) -> Option<usize> {
    let (_, last) = entries.last()?;
    let after = span(text, last).end;
    let close = after
        + text
            .get(after..)?
            .find(|c: char| !c.is_ascii_whitespace())?;
    Some(if text.as_bytes().get(close) == Some(&b'}') {
        close + 1
    } else {
        after
    })
}

/// Keys only a request body has at its top level.
const BODY_KEYS: &[&str] = &[
    "messages",
    "contents",
    "input",
    "model",
    "toolConfig",
    "tool_config",
    "request",
    "requests",
    "generationConfig",
    "generation_config",
    "system",
    "systemInstruction",
    "system_instruction",
    "response_format",
    "functions",
    "text",
    "output_config",
    "output_format",
    "max_tokens",
    "anthropic_version",
    "inferenceConfig",
    "generateContentRequest",
];

/// Keys a request body's tool entries have (an MCP tool has `inputSchema`).
const BODY_TOOL_KEYS: &[&str] = &[
    "function",
    "input_schema",
    "functionDeclarations",
    "function_declarations",
    "toolSpec",
    "parameters",
];

fn detect(raw: &RawValue) -> Kind {
    detect_in(raw, &Scanned::of(raw))
}

fn detect_in(raw: &RawValue, scanned: &Scanned<'_>) -> Kind {
    if raw.get().starts_with('[') {
        return Kind::ToolArray;
    }
    let Some(top) = &scanned.top else {
        return Kind::Schema;
    };
    let has = |k: &str| top.iter().any(|key| key == k);
    let tool_keys = |keys: &[&str]| {
        scanned.tools.as_ref().is_some_and(|t| {
            t.iter().any(|o| {
                o.as_ref()
                    .is_some_and(|o| o.iter().any(|(k, _)| keys.contains(&k.as_str())))
            })
        })
    };
    let body_like = BODY_KEYS.iter().any(|k| has(k)) || tool_keys(BODY_TOOL_KEYS);
    if !body_like
        && let Some(t) = &scanned.tools
        && (t.is_empty() || tool_keys(&["inputSchema"]))
    {
        return Kind::McpList;
    }
    if !body_like && has("result") && mcp_tools(raw).is_some() {
        return Kind::McpList;
    }
    if body_like { Kind::Body } else { Kind::Schema }
}

/// The `tools` array of an MCP result (or of a JSON-RPC response's `result`), with the pointer
/// of the object holding it.
fn mcp_tools(raw: &RawValue) -> Option<(&'static str, Vec<&RawValue>)> {
    let top = object(raw)?;
    if let Some((_, t)) = top.iter().find(|(k, _)| k == "tools") {
        return Some(("", array(t)?));
    }
    let (_, result) = top.iter().find(|(k, _)| k == "result")?;
    let inner = object(result)?;
    let (_, t) = inner.iter().find(|(k, _)| k == "tools")?;
    Some(("/result", array(t)?))
}

/// The slot label of a tools/list entry without an object `inputSchema` (issue 19): shown
/// beside the tool's name in `matrix`.
pub const NO_INPUT_SCHEMA: &str = "no input schema";

/// The slots of `tools` (each tool's entries; `None` for a tool that is not an object).
fn tool_items(
    source: &Source,
    base: &str,
    tools: &[Option<Entries<'_>>],
) -> Result<Vec<Item>, CliError> {
    let mut items = Vec::new();
    let mut any_tool = tools.is_empty();
    for (i, entries) in tools.iter().enumerate() {
        let Some(entries) = entries else {
            continue;
        };
        let name = entries
            .iter()
            .find(|(k, _)| k == "name")
            .and_then(|(_, v)| serde_json::from_str::<String>(v.get()).ok());
        for (key, slot) in [
            ("inputSchema", Slot::Parameters),
            ("outputSchema", Slot::Schema),
        ] {
            let found = entries.iter().find(|(k, _)| k == key).map(|(_, v)| *v);
            if slot == Slot::Parameters && name.is_some() {
                // An MCP tool without an object `inputSchema` is said, and stands for a tool
                // without parameters (an empty range: nothing to splice where there is none).
                let input = provider_rules::tool_input_schema(found.map(RawValue::get));
                if let Some(problem) = &input.problem {
                    let tool_name = name.clone().unwrap_or_default();
                    eprintln!("warning: {}: tool {tool_name:?}: {problem}", source.name);
                    let end = object_end(&source.text, entries).unwrap_or(0);
                    items.push(Item {
                        tool: Some(tool_name),
                        tool_index: i,
                        label: NO_INPUT_SCHEMA.to_owned(),
                        pointer: format!("{base}/{i}/{key}"),
                        slot,
                        range: found.map_or(end..end, |v| span(&source.text, v)),
                        // A non-object value is sanitized as it is (into an object schema).
                        schema: found.map_or(input.schema.into_owned(), |v| v.get().to_owned()),
                    });
                    any_tool = true;
                    continue;
                }
            }
            let Some(v) = found else {
                continue;
            };
            any_tool = true;
            items.push(Item {
                tool: Some(name.clone().unwrap_or_else(|| format!("#{i}"))),
                tool_index: i,
                label: key.to_owned(),
                pointer: format!("{base}/{i}/{key}"),
                slot,
                range: span(&source.text, v),
                schema: v.get().to_owned(),
            });
        }
    }
    if !any_tool {
        return Err(CliError::usage(format!(
            "{}: a JSON array, but not of MCP tools (objects with \"name\" and \"inputSchema\"); pass one schema with --as parameters, or a request body with --api NAME",
            source.name
        )));
    }
    Ok(items)
}

/// The byte range of `raw` (borrowed from `text`) inside `text`.
pub fn span(text: &str, raw: &RawValue) -> Range<usize> {
    let start = (raw.get().as_ptr() as usize).saturating_sub(text.as_ptr() as usize);
    let start = start.min(text.len());
    start..(start + raw.get().len()).min(text.len())
}

/// The entries of a JSON object, in order, values raw; `None` if `raw` is not an object.
pub fn object(raw: &RawValue) -> Option<Vec<(String, &RawValue)>> {
    if !raw.get().starts_with('{') {
        return None;
    }
    let mut de = serde_json::Deserializer::from_str(raw.get());
    de.deserialize_map(ObjectVisitor).ok()
}

/// The elements of a JSON array, raw; `None` if `raw` is not an array.
pub fn array(raw: &RawValue) -> Option<Vec<&RawValue>> {
    if !raw.get().starts_with('[') {
        return None;
    }
    let mut de = serde_json::Deserializer::from_str(raw.get());
    de.deserialize_seq(ArrayVisitor).ok()
}

struct ObjectVisitor;

impl<'de> Visitor<'de> for ObjectVisitor {
    type Value = Vec<(String, &'de RawValue)>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::new();
        while let Some((k, v)) = map.next_entry::<String, &'de RawValue>()? {
            out.push((k, v));
        }
        Ok(out)
    }
}

/// A visitor's methods for every scalar, each returning `$none`.
macro_rules! none_for_scalars {
    ($none:expr) => {
        fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
            Ok($none)
        }
        fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
            Ok($none)
        }
        fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
            Ok($none)
        }
        fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
            Ok($none)
        }
        fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
            Ok($none)
        }
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok($none)
        }
    };
}

/// A JSON object's keys, and the elements of its first `tools` value (as tools) when that is
/// an array.
struct TopVisitor;

impl<'de> Visitor<'de> for TopVisitor {
    type Value = (Vec<String>, Option<Vec<Option<Entries<'de>>>>);

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut keys = Vec::new();
        let mut tools = None;
        while let Some(k) = map.next_key::<String>()? {
            if k == "tools" && !keys.iter().any(|k| k == "tools") {
                tools = map.next_value::<MaybeArray<'de>>()?.0;
            } else {
                map.next_value::<serde::de::IgnoredAny>()?;
            }
            keys.push(k);
        }
        Ok((keys, tools))
    }
}

/// A value's elements, as tools, when it is an array (`None` for any other value, skipped).
struct MaybeArray<'de>(Option<Vec<Option<Entries<'de>>>>);

impl<'de> serde::Deserialize<'de> for MaybeArray<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = MaybeArray<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
                ToolsVisitor.visit_seq(seq).map(|v| MaybeArray(Some(v)))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                while map
                    .next_entry::<serde::de::IgnoredAny, serde::de::IgnoredAny>()?
                    .is_some()
                {}
                Ok(MaybeArray(None))
            }
            none_for_scalars!(MaybeArray(None));
        }
        d.deserialize_any(V)
    }
}

/// An array's elements as tools: each object's entries, `None` for any other element.
struct ToolsVisitor;

impl<'de> Visitor<'de> for ToolsVisitor {
    type Value = Vec<Option<Entries<'de>>>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON array")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::new();
        while let Some(tool) = seq.next_element::<MaybeObject<'de>>()? {
            out.push(tool.0);
        }
        Ok(out)
    }
}

/// A value's entries when it is an object (`None` for any other value, skipped).
struct MaybeObject<'de>(Option<Entries<'de>>);

impl<'de> serde::Deserialize<'de> for MaybeObject<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = MaybeObject<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                ObjectVisitor.visit_map(map).map(|e| MaybeObject(Some(e)))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
                Ok(MaybeObject(None))
            }
            none_for_scalars!(MaybeObject(None));
        }
        d.deserialize_any(V)
    }
}

struct ArrayVisitor;

impl<'de> Visitor<'de> for ArrayVisitor {
    type Value = Vec<&'de RawValue>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON array")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::new();
        while let Some(v) = seq.next_element::<&'de RawValue>()? {
            out.push(v);
        }
        Ok(out)
    }
}

/// Replaces the given byte ranges of `text` (non-overlapping) by new text.
pub fn splice(text: &str, mut edits: Vec<(Range<usize>, String)>) -> String {
    edits.sort_by_key(|(r, _)| r.start);
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (range, new) in edits {
        if range.start < at || range.end > text.len() {
            continue;
        }
        out.push_str(&text[at..range.start]);
        out.push_str(&new);
        at = range.end;
    }
    out.push_str(&text[at..]);
    out
}

/// Appends a sanitized schema's text for the slot at `range` of `text` to `out`: compact where
/// the original was on one line, otherwise pretty-printed and indented like the line the slot
/// starts on.
pub fn render_like_into(out: &mut String, text: &str, range: &Range<usize>, compact: &str) {
    let original = text.get(range.clone()).unwrap_or("");
    if !original.contains('\n') {
        out.push_str(compact);
        return;
    }
    let line_start = text[..range.start.min(text.len())]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    let indent: String = text[line_start..]
        .chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .collect();
    let pretty = schema_core::pretty(compact);
    out.reserve(pretty.len() + 64);
    for (i, line) in pretty.lines().enumerate() {
        if i > 0 {
            out.push('\n');
            out.push_str(&indent);
        }
        out.push_str(line);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render_like(text: &str, range: &Range<usize>, compact: &str) -> String {
        let mut out = String::new();
        render_like_into(&mut out, text, range, compact);
        out
    }

    #[test]
    fn splice_replaces_ranges_in_order() {
        let text = "0123456789";
        let out = splice(text, vec![(6..8, "B".into()), (1..3, "A".into())]);
        assert_eq!(out, "0A345B89");
    }

    #[test]
    fn render_like_indents_like_the_original() {
        let text = "{\n    \"s\": {\n      \"type\": \"x\"\n    }\n}";
        let start = text.find("{\n      ").unwrap();
        let end = text.rfind("}\n}").unwrap() + 1;
        let out = render_like(text, &(start..end), r#"{"type":"y"}"#);
        assert_eq!(out, "{\n      \"type\": \"y\"\n    }");
        let one_line = r#"{"s":{"type":"x"}}"#;
        assert_eq!(
            render_like(one_line, &(5..17), r#"{"type":"y"}"#),
            r#"{"type":"y"}"#
        );
    }

    #[test]
    fn detection() {
        let kind = |t: &str| detect(serde_json::from_str(t).unwrap());
        assert_eq!(kind(r#"{"type":"object"}"#), Kind::Schema);
        assert_eq!(
            kind(r#"{"tools":[{"name":"a","inputSchema":{}}]}"#),
            Kind::McpList
        );
        assert_eq!(kind(r#"{"tools":[]}"#), Kind::McpList);
        assert_eq!(
            kind(r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}"#),
            Kind::McpList
        );
        assert_eq!(kind(r#"[{"name":"a","inputSchema":{}}]"#), Kind::ToolArray);
        assert_eq!(
            kind(r#"{"model":"m","tools":[{"name":"a","input_schema":{}}]}"#),
            Kind::Body
        );
        assert_eq!(
            kind(r#"{"tools":[{"functionDeclarations":[]}]}"#),
            Kind::Body
        );
        assert_eq!(kind(r#"{"messages":[]}"#), Kind::Body);
    }
}
