//! `tools/call` requests: the exposed name mapped back to the server's, the arguments validated
//! against the tool's original schema (tool-calls), and an invalid call answered as a tool error
//! the model can act on instead of being forwarded.

use super::errors;
use super::list::Tool;
use super::message::{json_string, result};
use crate::cli::input::span;
use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;
use std::collections::HashMap;
use std::ops::Range;

/// What to do with a `tools/call`.
#[derive(Debug, PartialEq)]
pub enum Call {
    /// Forward it, after these edits of its text (none: the very same bytes).
    Forward(Vec<(Range<usize>, String)>),
    /// Answer it with this JSON-RPC response; the server never sees it.
    Answer(String),
    /// A tool this proxy never saw listed: forward as it is.
    Unknown(String),
}

#[derive(Deserialize)]
struct CallParams<'a> {
    #[serde(borrow)]
    name: &'a RawValue,
    #[serde(borrow, default)]
    arguments: Option<&'a RawValue>,
}

/// Decides a `tools/call` request: `text` its message, `id` its id's JSON text, `params`
/// borrowed from `text`.
pub fn handle(text: &str, id: &str, params: &RawValue, tools: &HashMap<String, Tool>) -> Call {
    let Ok(p) = serde_json::from_str::<CallParams<'_>>(params.get()) else {
        return Call::Forward(Vec::new()); // not a call this proxy can read: the server answers
    };
    let Ok(name) = serde_json::from_str::<String>(p.name.get()) else {
        return Call::Forward(Vec::new());
    };
    let Some(tool) = tools.get(&name) else {
        return Call::Unknown(name);
    };
    let mut edits = Vec::new();
    if tool.original != name {
        edits.push((span(text, p.name), json_string(&tool.original)));
    }
    let args = match p.arguments.map(|a| serde_json::from_str::<Value>(a.get())) {
        None => Value::Object(serde_json::Map::new()),
        Some(Ok(v)) => v,
        Some(Err(_)) => return Call::Forward(edits), // beyond what serde_json reads: the server decides
    };
    if !args.is_object() {
        let example = tool_calls::worked_example(&tool.schema);
        return Call::Answer(tool_error(
            id,
            &errors::arguments_not_object(&name, &example),
        ));
    }
    // What the sanitizing made the model send that the tool does not take (a strict profile's
    // nulls for optional properties; with encodings, entries for maps, JSON text for any
    // values, ...): provider-rules' decoder for the tool undoes it first, keeping every other
    // byte of the arguments, so the call is checked and forwarded in the tool's own terms.
    let decoded = match p.arguments {
        Some(raw) if !tool.decoder.is_identity() => match tool.decoder.decode_json(raw.get()) {
            Ok(Some(out)) => serde_json::from_str::<Value>(&out)
                .ok()
                .map(|v| (raw, out, v)),
            _ => None,
        },
        _ => None,
    };
    let checked = decoded.as_ref().map_or(&args, |(_, _, v)| v);
    match tool_calls::validate(&tool.schema, checked) {
        Ok(()) => {
            if let Some((raw, out, _)) = decoded {
                edits.push((span(text, raw), out));
            }
            Call::Forward(edits)
        }
        Err(err) => Call::Answer(tool_error(id, &errors::invalid_call(&name, &err))),
    }
}

/// A `tools/call` result with `isError: true` and one text block.
fn tool_error(id: &str, text: &str) -> String {
    result(
        id,
        &format!(
            "{{\"content\":[{{\"type\":\"text\",\"text\":{}}}],\"isError\":true}}",
            json_string(text)
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::input::splice;
    use provider_rules::Rules;
    use serde_json::json;

    /// The tool as `tools/list` under `rules` leaves it: its decoder from the sanitizing.
    fn tools(rules: &Rules) -> HashMap<String, Tool> {
        let schema = json!({
            "type": "object",
            "properties": {"city": {"type": "string"}, "days": {"type": "integer", "minimum": 1}},
            "required": ["city"],
            "additionalProperties": false
        });
        let decoder = provider_rules::sanitize_slice(
            schema.to_string().as_bytes(),
            rules,
            provider_rules::Slot::Parameters,
        )
        .unwrap()
        .decoder;
        HashMap::from([(
            "get_weather".to_owned(),
            Tool {
                original: "get weather".to_owned(),
                schema,
                decoder,
            },
        )])
    }

    fn decide(text: &str, rules: &Rules) -> Call {
        let env: super::super::message::Envelope<'_> = serde_json::from_str(text).unwrap();
        handle(
            text,
            &env.id_key().unwrap(),
            env.params.unwrap(),
            &tools(rules),
        )
    }

    #[test]
    fn a_valid_call_goes_on_under_the_server_name() {
        let text = r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"get_weather","arguments":{"city":"Oslo"}}}"#;
        let Call::Forward(edits) = decide(text, &Rules::GEMINI) else {
            panic!("forwarded")
        };
        assert_eq!(
            splice(text, edits),
            r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"get weather","arguments":{"city":"Oslo"}}}"#
        );
    }

    #[test]
    fn an_invalid_call_is_answered_with_the_field_meant_and_an_example() {
        let text = r#"{"jsonrpc":"2.0","id":"k","method":"tools/call","params":{"name":"get_weather","arguments":{"City":"Oslo","days":0}}}"#;
        let Call::Answer(resp) = decide(text, &Rules::GEMINI) else {
            panic!("answered")
        };
        let v: Value = serde_json::from_str(&resp).unwrap();
        assert_eq!(v["id"], "k");
        assert_eq!(v["result"]["isError"], true);
        let msg = v["result"]["content"][0]["text"].as_str().unwrap();
        assert!(
            msg.contains(r#""city" is missing — you sent "City"; the field is "city""#),
            "{msg}"
        );
        assert!(msg.contains("\"days\""), "{msg}");
        assert!(msg.contains("Expected {\"city\":\"<string>\""), "{msg}");
    }

    #[test]
    fn strict_nulls_are_removed_before_the_call_goes_on() {
        let text = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_weather","arguments":{"city":"Oslo","days":null}}}"#;
        assert!(matches!(decide(text, &Rules::GEMINI), Call::Answer(_)));
        let Call::Forward(edits) = decide(text, &Rules::OPENAI_STRICT) else {
            panic!("forwarded")
        };
        let out = splice(text, edits);
        // Only the null member goes: the arguments' other bytes are kept.
        assert!(out.contains(r#""arguments":{"city":"Oslo"}}}"#), "{out}");
        let out: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(out["params"]["arguments"], json!({"city": "Oslo"}));
        assert_eq!(out["params"]["name"], "get weather");
    }

    #[test]
    fn an_unknown_tool_is_forwarded_unvalidated() {
        let text = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"other","arguments":{}}}"#;
        assert_eq!(
            decide(text, &Rules::GEMINI),
            Call::Unknown("other".to_owned())
        );
    }
}
