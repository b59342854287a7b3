//! The schema slots of a list of MCP tools (`inputSchema`, `outputSchema`).

use super::Item;
use super::raw::span;
use super::scan::Entries;
use crate::cli::error::CliError;
use crate::cli::read::Source;
use provider_rules::Slot;
use serde_json::value::RawValue;

/// The slot label of a tools/list entry without an object `inputSchema` (issue 19): shown
/// beside the tool's name in `matrix`.
pub const NO_INPUT_SCHEMA: &str = "no input schema";

/// The slots of `tools` (each tool's entries; `None` for a tool that is not an object).
pub(super) fn tool_items(
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
                        // A non-object value is sanitized as it is (into an object schema), read
                        // where it stands; none, as the schema the tool stands for.
                        own: found.is_none().then(|| input.schema.into_owned()),
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
                // The schema is read where it stands in the text, not copied.
                range: span(&source.text, v),
                own: None,
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

#[cfg(test)]
mod tests {
    use crate::cli::input::{Hints, parse_document};
    use crate::cli::read::Source;

    #[test]
    fn a_slot_is_read_where_it_stands_unless_its_schema_is_not_its_text() {
        let text = r#"{"tools": [{"name": "a", "inputSchema": {"type": "object"}, "outputSchema": {"type": "string"}}, {"name": "b"}]}"#;
        let source = Source {
            name: "t".into(),
            text: text.into(),
        };
        let doc = parse_document(source, &Hints::default()).unwrap();
        let text = &doc.source.text;
        let schemas: Vec<(&str, bool)> = doc
            .items
            .iter()
            .map(|i| (i.schema(text), i.own.is_some()))
            .collect();
        // `a`'s slots are ranges of the text; `b` has no inputSchema: the schema it stands for
        // is its own.
        assert_eq!(
            schemas[..2],
            [
                (r#"{"type": "object"}"#, false),
                (r#"{"type": "string"}"#, false)
            ]
        );
        assert_eq!(schemas.len(), 3);
        assert!(schemas[2].1);
        assert!(doc.items[2].range.is_empty());
        assert!(schemas[2].0.contains("object"), "{}", schemas[2].0);
    }
}
