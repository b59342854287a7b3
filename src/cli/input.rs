//! Reading input and recognising what it is: one JSON Schema, an MCP `tools/list` result, a JSON
//! array of MCP tools, or a whole LLM request body.
//!
//! The document is never rebuilt from a `serde_json::Map` (which would reorder keys): schema
//! slots are located as byte ranges of the original text (through borrowed
//! [`RawValue`]s), and results are spliced back into it, so everything that is not a schema
//! slot stays byte-for-byte what it was.

use super::error::CliError;
use bytes::Bytes;
use provider_rules::Slot;
use serde::de::{Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use std::fmt;
use std::io::Read;
use std::ops::Range;
use std::path::Path;
use tower_toolschema::report::Outcome;
use tower_toolschema::sanitizer::{SchemaSlot, SlotOutcome, SlotSanitizer};
use tower_toolschema::shapes::{Api, SHAPES, SlotRole};
use tower_toolschema::{CacheConfig, Profile, Profiles, ToolSchemaLayer};

/// Input text and the name to call it by in messages (a path, or `<stdin>`).
#[derive(Debug, Clone)]
pub struct Source {
    /// The file name as given, or `<stdin>`.
    pub name: String,
    /// The whole text.
    pub text: String,
}

/// Reads `file` (`None` or `-`: standard input).
pub fn read_source(file: Option<&Path>) -> Result<Source, CliError> {
    let (name, bytes) = read_bytes(file)?;
    let text = String::from_utf8(bytes).map_err(|e| {
        CliError::usage(format!(
            "{name} is not UTF-8 text (invalid byte at offset {}); JSON must be UTF-8",
            e.utf8_error().valid_up_to()
        ))
    })?;
    Ok(Source { name, text })
}

/// Reads `file` (`None` or `-`: standard input) as bytes, with the name to call it by.
pub fn read_bytes(file: Option<&Path>) -> Result<(String, Vec<u8>), CliError> {
    Ok(match file {
        None => read_stdin()?,
        Some(p) if p.as_os_str() == "-" => read_stdin()?,
        Some(p) => {
            let name = p.display().to_string();
            let bytes = std::fs::read(p).map_err(|e| {
                CliError::usage(format!(
                    "cannot read {name}: {e} (check the path, or pass - to read standard input)"
                ))
            })?;
            (name, bytes)
        }
    })
}

fn read_stdin() -> Result<(String, Vec<u8>), CliError> {
    let name = "<stdin>".to_owned();
    let mut bytes = Vec::new();
    std::io::stdin()
        .read_to_end(&mut bytes)
        .map_err(|e| CliError::usage(format!("cannot read standard input: {e}")))?;
    Ok((name, bytes))
}

/// The error for text that is not valid JSON: `NAME:LINE:COLUMN: invalid JSON: WHAT`.
pub fn json_error(name: &str, e: &serde_json::Error) -> CliError {
    let full = e.to_string();
    let what = match full.rfind(" at line ") {
        Some(i) => &full[..i],
        None => full.as_str(),
    };
    CliError::usage(format!(
        "{name}:{}:{}: invalid JSON: {what} (fix the JSON at that position)",
        e.line(),
        e.column()
    ))
}

/// Parses `text` as JSON and returns the JSON value's raw text, or the error with line and
/// column.
pub fn parse_json<'a>(name: &str, text: &'a str) -> Result<&'a RawValue, CliError> {
    serde_json::from_str::<&RawValue>(text).map_err(|e| json_error(name, &e))
}

/// Parses `text` as a `serde_json::Value` (for validation, where key order does not matter),
/// or the error with line and column.
///
/// A `Value` is built, cloned and dropped by recursion, one call per level, so the depth is
/// bounded first (by a scan that does not recurse): up to [`schema_core::MAX_VALUE_DEPTH`]
/// JSON levels (a schema of 200 levels of `properties` takes 401) is read; deeper is an error
/// saying so, not a stack overflow, and not "invalid JSON" (serde_json's own limit, 128 levels,
/// refuses valid schemas of 64 levels).
pub fn parse_value(name: &str, text: &str) -> Result<serde_json::Value, CliError> {
    // Invalid JSON is said so first, at its position (this check does not recurse).
    parse_json(name, text)?;
    let depth = schema_core::nesting(text);
    if depth > schema_core::MAX_VALUE_DEPTH {
        return Err(CliError::usage(format!(
            "{name}: nested too deep (more than {} levels of arrays and objects; {depth} found)",
            schema_core::MAX_VALUE_DEPTH
        )));
    }
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    let value = serde::Deserialize::deserialize(&mut de).map_err(|e| json_error(name, &e))?;
    de.end().map_err(|e| json_error(name, &e))?;
    Ok(value)
}

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

/// How a slot stores its schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// The slot's JSON value is the schema.
    Json,
    /// The slot's JSON value is a string holding the schema's JSON text (Bedrock).
    JsonString,
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
    /// How the schema is stored.
    pub encoding: Encoding,
    /// The schema's JSON text.
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
    Api::from_name(name).ok_or_else(|| {
        let mut names: Vec<&str> = SHAPES.iter().map(|s| s.api.name()).collect();
        names.dedup();
        CliError::usage(format!(
            "unknown API {name:?}; valid APIs: {}",
            names.join(", ")
        ))
    })
}

/// Reads and recognises a document.
pub fn load(file: Option<&Path>, hints: &Hints) -> Result<Document, CliError> {
    parse_document(read_source(file)?, hints)
}

/// Recognises a document and locates its schema slots.
pub fn parse_document(source: Source, hints: &Hints) -> Result<Document, CliError> {
    let raw = parse_json(&source.name, &source.text)?;
    let kind = if hints.as_slot.is_some() {
        Kind::Schema
    } else if hints.api.is_some() {
        Kind::Body
    } else {
        detect(raw)
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
            encoding: Encoding::Json,
            schema: raw.get().to_owned(),
        }],
        Kind::McpList => {
            let (base, tools) = mcp_tools(raw).ok_or_else(|| {
                CliError::usage(format!(
                    "{}: expected an MCP tools/list result {{\"tools\": [...]}}",
                    source.name
                ))
            })?;
            tool_items(&source, &format!("{base}/tools"), tools)?
        }
        Kind::ToolArray => {
            let tools = array(raw).unwrap_or_default();
            tool_items(&source, "", tools)?
        }
        Kind::Body => return body_document(source, hints.api),
    };
    Ok(Document {
        source,
        kind,
        api: None,
        items,
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
    let text = raw.get();
    if text.starts_with('[') {
        return Kind::ToolArray;
    }
    let Some(top) = object(raw) else {
        return Kind::Schema;
    };
    let has = |k: &str| top.iter().any(|(key, _)| key == k);
    let tools = top
        .iter()
        .find(|(k, _)| k == "tools")
        .and_then(|(_, v)| array(v));
    let tool_keys = |keys: &[&str]| {
        tools.as_ref().is_some_and(|t| {
            t.iter().any(|tool| {
                object(tool).is_some_and(|o| o.iter().any(|(k, _)| keys.contains(&k.as_str())))
            })
        })
    };
    let body_like = BODY_KEYS.iter().any(|k| has(k)) || tool_keys(BODY_TOOL_KEYS);
    if !body_like
        && let Some(t) = &tools
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

fn tool_items(source: &Source, base: &str, tools: Vec<&RawValue>) -> Result<Vec<Item>, CliError> {
    let mut items = Vec::new();
    let mut any_tool = tools.is_empty();
    for (i, tool) in tools.into_iter().enumerate() {
        let Some(entries) = object(tool) else {
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
                    let end = span(&source.text, tool).end;
                    items.push(Item {
                        tool: Some(tool_name),
                        tool_index: i,
                        label: "no input schema".to_owned(),
                        pointer: format!("{base}/{i}/{key}"),
                        slot,
                        range: found.map_or(end..end, |v| span(&source.text, v)),
                        encoding: Encoding::Json,
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
                encoding: Encoding::Json,
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

/// A sanitizer that changes nothing: the layer's machinery then only locates the slots.
struct LocateOnly;

impl SlotSanitizer for LocateOnly {
    fn sanitize(&self, _: &[u8], _: &Profile, _: SchemaSlot) -> Result<SlotOutcome, String> {
        Ok(SlotOutcome::unchanged())
    }
}

/// A request body: its slots, as the layer's shape table locates them.
fn body_document(source: Source, api: Option<Api>) -> Result<Document, CliError> {
    let layer = ToolSchemaLayer::fixed(Profiles::single(
        Profile::builtin("portable")
            .unwrap_or_else(|| Profile::custom("portable", provider_rules::Rules::PORTABLE)),
    ))
    .cache(CacheConfig::disabled())
    .sanitizer(LocateOnly);
    let config = layer.config();
    let (_, report) = tower_toolschema::sanitize_body(
        config,
        api,
        Bytes::copy_from_slice(source.text.as_bytes()),
    );
    if let Outcome::Skipped(reason) = &report.outcome {
        return Err(CliError::usage(format!(
            "{}: cannot read the request body: {reason}",
            source.name
        )));
    }
    let mut items = Vec::new();
    let mut tools: Vec<String> = Vec::new();
    let pointers: Vec<&str> = report.slots.iter().map(|s| s.pointer.as_str()).collect();
    let ranges = raw_ranges(&source.text, &pointers);
    for (slot, range) in report.slots.iter().zip(ranges) {
        let Some(range) = range else {
            continue;
        };
        let raw = &source.text[range.clone()];
        let (encoding, schema) = if raw.starts_with('"') {
            match serde_json::from_str::<String>(raw) {
                Ok(s) => (Encoding::JsonString, s),
                Err(_) => continue,
            }
        } else {
            (Encoding::Json, raw.to_owned())
        };
        let key = slot.tool.clone().unwrap_or_else(|| slot.pointer.clone());
        let tool_index = match tools.iter().position(|t| *t == key) {
            Some(i) => i,
            None => {
                tools.push(key);
                tools.len() - 1
            }
        };
        items.push(Item {
            tool: slot.tool.clone(),
            tool_index,
            label: slot
                .pointer
                .rsplit('/')
                .next()
                .unwrap_or("schema")
                .to_owned(),
            pointer: slot.pointer.clone(),
            slot: match slot.role {
                SlotRole::ToolParameters => Slot::Parameters,
                _ => Slot::Schema,
            },
            range,
            encoding,
            schema,
        });
    }
    Ok(Document {
        source,
        kind: Kind::Body,
        api: api.or(report.api),
        items,
    })
}

/// The byte range of `raw` (borrowed from `text`) inside `text`.
pub fn span(text: &str, raw: &RawValue) -> Range<usize> {
    let start = (raw.get().as_ptr() as usize).saturating_sub(text.as_ptr() as usize);
    let start = start.min(text.len());
    start..(start + raw.get().len()).min(text.len())
}

/// The byte ranges of the values at several JSON pointers, in one pass: every container on
/// the way to a pointer is read once, whatever the number of pointers under it (a body with
/// 500 tools is not read 500 times). `None` where a pointer leads nowhere.
pub fn raw_ranges(text: &str, pointers: &[&str]) -> Vec<Option<Range<usize>>> {
    #[derive(Default)]
    struct Node {
        here: Vec<usize>,
        children: Vec<(String, Node)>,
    }
    fn insert(node: &mut Node, tokens: &[String], index: usize) {
        match tokens.split_first() {
            None => node.here.push(index),
            Some((first, rest)) => {
                let pos = match node.children.iter().position(|(k, _)| k == first) {
                    Some(p) => p,
                    None => {
                        node.children.push((first.clone(), Node::default()));
                        node.children.len() - 1
                    }
                };
                insert(&mut node.children[pos].1, rest, index);
            }
        }
    }
    fn walk(text: &str, raw: &RawValue, node: &Node, out: &mut [Option<Range<usize>>]) {
        for &i in &node.here {
            out[i] = Some(span(text, raw));
        }
        if node.children.is_empty() {
            return;
        }
        if raw.get().starts_with('[') {
            let Some(elems) = array(raw) else { return };
            for (tok, child) in &node.children {
                if let Some(e) = tok.parse::<usize>().ok().and_then(|i| elems.get(i)) {
                    walk(text, e, child, out);
                }
            }
        } else if let Some(entries) = object(raw) {
            for (tok, child) in &node.children {
                // The last of duplicate keys wins, as serde_json reads them.
                if let Some((_, v)) = entries.iter().rev().find(|(k, _)| k == tok) {
                    walk(text, v, child, out);
                }
            }
        }
    }
    let mut root = Node::default();
    for (i, p) in pointers.iter().enumerate() {
        let tokens: Option<Vec<String>> = if p.is_empty() {
            Some(Vec::new())
        } else {
            p.strip_prefix('/').map(|rest| {
                rest.split('/')
                    .map(|t| t.replace("~1", "/").replace("~0", "~"))
                    .collect()
            })
        };
        if let Some(tokens) = tokens {
            insert(&mut root, &tokens, i);
        }
    }
    let mut out = vec![None; pointers.len()];
    if let Ok(raw) = serde_json::from_str::<&RawValue>(text) {
        walk(text, raw, &root, &mut out);
    }
    out
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

/// A sanitized schema's text for the slot at `range` of `text`: compact where the original
/// was on one line, otherwise pretty-printed and indented like the line the slot starts on.
pub fn render_like(text: &str, range: &Range<usize>, compact: &str) -> String {
    let original = text.get(range.clone()).unwrap_or("");
    if !original.contains('\n') {
        return compact.to_owned();
    }
    let line_start = text[..range.start.min(text.len())]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    let indent: String = text[line_start..]
        .chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .collect();
    let pretty = schema_core::pretty(compact);
    let mut out = String::with_capacity(pretty.len() + 64);
    for (i, line) in pretty.lines().enumerate() {
        if i > 0 {
            out.push('\n');
            out.push_str(&indent);
        }
        out.push_str(line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_ranges_follow_escaped_pointers_and_keep_the_bytes() {
        let text = r#"{"a/b": [1, {"~x": {"k" : [true]}}], "c": 2}"#;
        let r = raw_ranges(
            text,
            &["/a~1b/1/~0x", "", "/a~1b/7", "/nope", "/c", "/a~1b/0"],
        );
        assert_eq!(&text[r[0].clone().unwrap()], r#"{"k" : [true]}"#);
        assert_eq!(&text[r[1].clone().unwrap()], text);
        assert!(r[2].is_none());
        assert!(r[3].is_none());
        assert_eq!(&text[r[4].clone().unwrap()], "2");
        assert_eq!(&text[r[5].clone().unwrap()], "1");
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
