//! `tools/list` answers: each tool's `inputSchema` sanitized for the provider and its name made
//! valid, spliced into the answer; every other byte of the answer stays as the server sent it.

use super::errors;
use super::names::NameMap;
use crate::cli::input::span;
use provider_rules::{Rules, SanitizeOptions, Slot};
use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;
use std::ops::Range;

/// A tool as the proxy keeps it: its server-side name and original input schema.
#[derive(Debug, Clone)]
pub struct Tool {
    /// The server's own name.
    pub original: String,
    /// The schema the server published (calls are validated against it).
    pub schema: Value,
    /// What undoes, in a call's arguments, what the sanitized schema made the model send
    /// (provider-rules' decoder; the identity when the schema was not rewritten).
    pub decoder: provider_rules::Decoder,
}

/// One `tools/list` page, read.
#[derive(Debug, Default)]
pub struct Page {
    /// Edits of the message text (byte ranges of the text the result was borrowed from).
    pub edits: Vec<(Range<usize>, String)>,
    /// The page's tools by exposed name.
    pub tools: Vec<(String, Tool)>,
    /// The cursor of the next page.
    pub next_cursor: Option<String>,
    /// What a person should hear about (renames, lossy schemas, unreadable tools).
    pub notes: Vec<String>,
}

#[derive(Deserialize)]
struct ListResult<'a> {
    #[serde(borrow, default)]
    tools: Vec<&'a RawValue>,
    #[serde(rename = "nextCursor", default)]
    next_cursor: Option<String>,
}

#[derive(Deserialize)]
struct ToolRaw<'a> {
    #[serde(borrow)]
    name: &'a RawValue,
    #[serde(borrow, rename = "inputSchema", default)]
    input_schema: Option<&'a RawValue>,
}

/// What a listing is read for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// The client's listing: the edits that give the provider clean tools.
    Rewrite,
    /// The proxy's own listing: only the tools and their decoders (nothing goes on).
    Read,
}

/// Reads a `tools/list` `result` (borrowed from `text`), for `purpose`; `options` say whether
/// the profile's encodings are on (the calls' arguments are then decoded, [`super::call`]).
pub fn rewrite(
    text: &str,
    result: &RawValue,
    rules: &Rules,
    options: &SanitizeOptions,
    names: &mut NameMap,
    purpose: Purpose,
) -> Page {
    let mut page = Page::default();
    let list: ListResult<'_> = match serde_json::from_str(result.get()) {
        Ok(l) => l,
        Err(e) => {
            page.notes.push(errors::list_unreadable(&e.to_string()));
            return page;
        }
    };
    page.next_cursor = list.next_cursor;
    let mut read: Vec<(ToolRaw<'_>, String)> = Vec::with_capacity(list.tools.len());
    for raw in &list.tools {
        let tool = serde_json::from_str::<ToolRaw<'_>>(raw.get())
            .ok()
            .and_then(|t| {
                let name = serde_json::from_str::<String>(t.name.get()).ok()?;
                Some((t, name))
            });
        match tool {
            Some(t) => read.push(t),
            None => page
                .notes
                .push(errors::list_unreadable("a tool without a string name")),
        }
    }
    let originals: Vec<&str> = read.iter().map(|(_, n)| n.as_str()).collect();
    let exposed = names.expose(&originals);
    for ((raw, original), exposed) in read.iter().zip(exposed) {
        if exposed != *original && purpose == Purpose::Rewrite {
            page.edits
                .push((span(text, raw.name), super::message::json_string(&exposed)));
            page.notes
                .push(errors::renamed(original, &exposed, rules.name()));
        }
        let (schema, decoder) = match (raw.input_schema, purpose) {
            (Some(s), Purpose::Rewrite) => {
                sanitize_into(text, s, rules, options, original, &mut page)
            }
            // The decoder still: the calls after this listing are decoded as before it.
            (Some(s), Purpose::Read) => {
                sanitize_into(text, s, rules, options, original, &mut Page::default())
            }
            (None, _) => (
                Value::Object(serde_json::Map::new()),
                provider_rules::Decoder::default(),
            ),
        };
        page.tools.push((
            exposed,
            Tool {
                original: original.clone(),
                schema,
                decoder,
            },
        ));
    }
    page
}

/// Sanitizes one `inputSchema` (an edit when it changes); the original as a value, and the
/// decoder of the calls' arguments.
fn sanitize_into(
    text: &str,
    schema: &RawValue,
    rules: &Rules,
    options: &SanitizeOptions,
    tool: &str,
    page: &mut Page,
) -> (Value, provider_rules::Decoder) {
    let original = match serde_json::from_str::<Value>(schema.get()) {
        Ok(v) => v,
        Err(e) => {
            page.notes
                .push(errors::schema_unreadable(tool, &e.to_string()));
            return (Value::Bool(true), provider_rules::Decoder::default());
        }
    };
    let mut decoder = provider_rules::Decoder::default();
    match provider_rules::sanitize_slice_with(
        schema.get().as_bytes(),
        rules,
        Slot::Parameters,
        options,
    ) {
        Ok(out) if out.report.is_empty() => {}
        Ok(out) => {
            let lossy = out.report.lossy_count();
            if lossy > 0 {
                page.notes.push(errors::lossy(tool, lossy, rules.name()));
            }
            page.edits
                .push((span(text, schema), out.schema.to_json_string()));
            decoder = out.decoder;
        }
        Err(e) => page
            .notes
            .push(errors::schema_unreadable(tool, &e.to_string())),
    }
    (original, decoder)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::input::splice;

    fn listed(text: &str, rules: &Rules) -> (String, Page) {
        let env: super::super::message::Envelope<'_> = serde_json::from_str(text).unwrap();
        let mut names = NameMap::new(rules);
        let page = rewrite(
            text,
            env.result.unwrap(),
            rules,
            &SanitizeOptions::default(),
            &mut names,
            Purpose::Rewrite,
        );
        (splice(text, page.edits.clone()), page)
    }

    #[test]
    fn schemas_are_sanitized_names_repaired_the_rest_untouched() {
        let text = r#"{"jsonrpc":"2.0","id":3,"result":{"tools":[{"name":"get weather","description":"d","inputSchema":{"type":"object","properties":{"n":{"type":["integer","null"]}},"additionalProperties":false},"annotations":{"x":1}}],"nextCursor":"c2"}}"#;
        let (out, page) = listed(text, &Rules::GEMINI);
        let v: Value = serde_json::from_str(&out).unwrap();
        let tool = &v["result"]["tools"][0];
        assert_eq!(tool["name"], "get_weather");
        assert_eq!(tool["annotations"], serde_json::json!({"x": 1}));
        assert!(
            provider_rules::check(&tool["inputSchema"], &Rules::GEMINI, Slot::Parameters)
                .is_empty()
        );
        assert_eq!(page.next_cursor.as_deref(), Some("c2"));
        assert_eq!(page.tools[0].1.original, "get weather");
        assert_eq!(page.tools[0].1.schema["additionalProperties"], false);
        // Everything but the two edited values is the same bytes.
        assert!(out.starts_with(r#"{"jsonrpc":"2.0","id":3,"result":{"tools":[{"name":"get_weather","description":"d","inputSchema":{"#));
        assert!(out.ends_with(r#","annotations":{"x":1}}],"nextCursor":"c2"}}"#));
    }

    #[test]
    fn a_clean_list_is_not_edited() {
        let text = r#"{"jsonrpc":"2.0","id":3,"result":{"tools":[{"name":"t","inputSchema":{"type":"object","properties":{"a":{"type":"string"}}}}]}}"#;
        let (out, page) = listed(text, &Rules::OPENAI);
        assert!(page.edits.is_empty());
        assert_eq!(out, text);
    }
}
