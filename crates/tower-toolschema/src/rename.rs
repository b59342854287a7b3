//! The request side of the way back: tool names the target refuses (too long, characters it
//! does not take, or shared by two tools) are renamed in the declarations *and* everywhere the
//! conversation names them (earlier calls, tool results, `tool_choice`, Gemini's
//! `allowedFunctionNames`), so the history stays consistent; the [`NameMap`] goes with the
//! response, where the names are mapped back ([`crate::restore`]).
//!
//! Positions come from the [way back's table](crate::shapes_response); only the name strings
//! change, every other byte is kept.

use crate::locate::RawText;
use provider_rules::{NameMap, ToolNameRule};

use crate::ToolSchemaLayer;
use crate::locate::range_in;
use crate::report::Rename;
use crate::restore::json::{call_walk_path, each_at_many, holds, read_call, string};
use crate::shapes_response::{NamePath, ResponseShape};
use crate::slots::splice::{Edit, splice};

impl<P> ToolSchemaLayer<P> {
    /// Whether tool names the target refuses are renamed in requests and mapped back in
    /// responses (on by default; reported in the [`RestoreReport`](crate::restore::RestoreReport)).
    /// Off: refused names are only reported ([`SlotReport::tool_name_problem`](crate::report::SlotReport::tool_name_problem)).
    ///
    /// ```
    /// let layer = tower_toolschema::ToolSchemaLayer::openai().rename_tools(false);
    /// assert!(!layer.config().renames_tools());
    /// ```
    pub fn rename_tools(mut self, on: bool) -> Self {
        self.config_mut().rename_tools = on;
        self
    }
}

/// What renaming reads of a body, in one walk: the declared names (path by path, each in body
/// order), the names in the history (its name paths and its earlier calls), each with its
/// place, and the body's `model`.
struct Names<'a> {
    declared: Vec<(String, RawText<'a>)>,
    history: Vec<(String, RawText<'a>)>,
    model: Option<String>,
}

fn read_names<'a>(doc: RawText<'a>, shape: &ResponseShape) -> Names<'a> {
    let paths: Vec<&NamePath> = shape.declarations.iter().chain(shape.history).collect();
    let calls = shape.history_calls;
    let mut full: Vec<String> = paths
        .iter()
        .map(|p| format!("{}{}", shape.request_prefix, p.path))
        .chain(
            calls
                .iter()
                .map(|c| call_walk_path(shape.request_prefix, c)),
        )
        .collect();
    // The body's own `model`, at its top level (also under an envelope).
    full.push("model".to_owned());
    let refs: Vec<&str> = full.iter().map(String::as_str).collect();
    let mut found = Vec::new();
    let mut model = None;
    each_at_many(doc, &refs, &mut |i, holder, raw| match paths.get(i) {
        Some(p) => {
            if holder.is_none_or(|m| holds(m, p.when))
                && let Some(name) = string(raw)
            {
                found.push((i, name, raw));
            }
        }
        None => match calls.get(i - paths.len()) {
            Some(c) => {
                if let Some((name_raw, name, _)) = read_call(c, holder, raw) {
                    found.push((i, name, name_raw));
                }
            }
            None => model = string(raw),
        },
    });
    // Stable: each path's names stay in body order.
    found.sort_by_key(|(i, _, _)| *i);
    let d = shape.declarations.len();
    let (mut declared, mut history) = (Vec::new(), Vec::new());
    for (i, name, raw) in found {
        if i < d {
            declared.push((name, raw));
        } else {
            history.push((name, raw));
        }
    }
    Names {
        declared,
        history,
        model,
    }
}

/// A body with its refused names renamed.
pub(crate) struct Renamed {
    /// The body to send.
    pub body: Vec<u8>,
    /// Every declaration's name, original and sent.
    pub names: NameMap,
    /// The renamed declarations and why, in declaration order (for the report).
    pub renames: Vec<Rename>,
}

/// Renames the refused names of `body`: `None` when every name is fine (or the body is not
/// JSON). The map lists every declaration. `validated`: the body is known to be valid JSON
/// (the slot scan read it whole), so it is not validated again (only split along the paths).
pub(crate) fn rename(
    body: &[u8],
    validated: bool,
    shape: &ResponseShape,
    rule_for: &dyn Fn(Option<&str>) -> ToolNameRule,
) -> Option<Renamed> {
    if !shape.renames() {
        return None;
    }
    let text = std::str::from_utf8(body).ok()?;
    let doc: RawText<'_> = match validated {
        true => RawText::new(text.trim_matches([' ', '\t', '\n', '\r'])),
        false => serde_json::from_str(text).ok()?,
    };
    let Names {
        declared: decl,
        history,
        model,
    } = read_names(doc, shape);
    // The body's `model` picks the rule where one URL serves every vendor (`auto`).
    let rule = rule_for(model.as_deref());
    let map = NameMap::new(&rule, decl.iter().map(|(n, _)| n.as_str()));
    if map.is_empty() {
        return None;
    }
    let renames = (0..decl.len())
        .filter_map(|i| {
            let sent = map.declared(i)?;
            let original = &decl.get(i)?.0;
            (sent != original).then(|| Rename {
                original: original.clone(),
                sent: sent.to_owned(),
                why: map.reasons(&rule, i),
            })
        })
        .collect();
    let mut edits = Vec::new();
    let mut edit = |raw: RawText<'_>, to: &str| {
        if let (Some(range), Ok(bytes)) = (range_in(body, raw), serde_json::to_vec(to)) {
            edits.push(Edit { range, bytes });
        }
    };
    for (i, (name, raw)) in decl.iter().enumerate() {
        if let Some(sent) = map.declared(i)
            && sent != name
        {
            edit(*raw, sent);
        }
    }
    for (name, raw) in history {
        let sent = map.sent(&name);
        if sent != name {
            edit(raw, sent);
        }
    }
    let out = splice(body, edits)?.into_vec(body);
    Some(Renamed {
        body: out,
        names: map,
        renames,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shapes::Api;
    use crate::shapes_response::response_shape;
    use provider_rules::Rules;

    #[test]
    fn names_change_in_declarations_history_and_choice_only() {
        let body = br#"{"model":"gpt-4o","messages":[{"role":"user","name":"fs.read","content":"fs.read"},
            {"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"fs.read","arguments":"{\"name\":\"fs.read\"}"}}]},
            {"role":"tool","tool_call_id":"c1","content":"ok"}],
            "tools":[{"type":"function","function":{"name":"fs.read","parameters":{"type":"object"}}},
                     {"type":"function","function":{"name":"ok","parameters":{"type":"object"}}}],
            "tool_choice":{"type":"function","function":{"name":"fs.read"}}}"#;
        let Renamed {
            body: out,
            names: map,
            renames,
        } = rename(body, false, response_shape(Api::OpenAiChat), &|_| {
            Rules::OPENAI.tool_names.clone()
        })
        .unwrap();
        assert_eq!(renames.len(), 1);
        assert_eq!(renames[0].why, [provider_rules::RenameReason::Characters]);
        assert_eq!(map.sent("fs.read"), "fs_read");
        let want = String::from_utf8_lossy(body)
            .replace(
                r#""function":{"name":"fs.read","arguments""#,
                r#""function":{"name":"fs_read","arguments""#,
            )
            .replace(
                r#""function":{"name":"fs.read","parameters""#,
                r#""function":{"name":"fs_read","parameters""#,
            )
            .replace(
                r#""function":{"name":"fs.read"}}"#,
                r#""function":{"name":"fs_read"}}"#,
            );
        assert_eq!(String::from_utf8(out).unwrap(), want);
        // A user's `name` and the arguments' text are data, not tool names.
        assert!(want.contains(r#""name":"fs.read","content""#));
        // Known valid (whitespace around it too): read without a second validation, the same.
        let spaced = format!(" \n{}\r\n", String::from_utf8_lossy(body));
        let again = rename(
            spaced.as_bytes(),
            true,
            response_shape(Api::OpenAiChat),
            &|_| Rules::OPENAI.tool_names.clone(),
        )
        .unwrap();
        assert_eq!(
            String::from_utf8(again.body).unwrap(),
            format!(" \n{want}\r\n")
        );
    }

    #[test]
    fn gemini_allowed_names_and_code_assist_envelope() {
        let body = br#"{"request":{"contents":[{"parts":[{"functionCall":{"name":"a b","args":{}}}]},{"parts":[{"functionResponse":{"name":"a b","response":{}}}]}],
            "tools":[{"functionDeclarations":[{"name":"a b"}]}],
            "toolConfig":{"functionCallingConfig":{"mode":"ANY","allowedFunctionNames":["a b"]}}}}"#;
        let out = rename(body, false, response_shape(Api::CodeAssist), &|_| {
            Rules::GEMINI.tool_names.clone()
        })
        .unwrap()
        .body;
        let out = String::from_utf8(out).unwrap();
        assert!(!out.contains("a b"), "{out}");
        assert_eq!(out.matches("a_b").count(), 4);
        assert!(
            rename(
                br#"{"tools":[{"functionDeclarations":[{"name":"ok"}]}]}"#,
                true,
                response_shape(Api::Gemini),
                &|_| Rules::GEMINI.tool_names.clone()
            )
            .is_none()
        );
    }

    #[test]
    fn gemini_names_in_any_mix_of_camel_and_snake_case() {
        // Protobuf's JSON reader takes either spelling per field, so clients mix them.
        let body = br#"{"contents":[{"parts":[{"function_call":{"name":"a b","args":{}}}]},
            {"parts":[{"functionResponse":{"name":"a b","response":{}}},{"function_response":{"name":"a b","response":{}}}]}],
            "tools":[{"function_declarations":[{"name":"a b","parameters":{"type":"object"}}]},{"functionDeclarations":[{"name":"c d"}]}],
            "tool_config":{"functionCallingConfig":{"allowed_function_names":["a b","c d"]}}}"#;
        let out = rename(body, false, response_shape(Api::Gemini), &|_| {
            Rules::GEMINI.tool_names.clone()
        })
        .unwrap();
        let text = String::from_utf8(out.body).unwrap();
        assert!(!text.contains("a b") && !text.contains("c d"), "{text}");
        assert_eq!(text.matches("\"a_b\"").count(), 5, "{text}");
        assert_eq!(text.matches("\"c_d\"").count(), 2, "{text}");
        for config in [
            r#""toolConfig":{"function_calling_config":{"allowedFunctionNames":["a b"]}}"#,
            r#""tool_config":{"function_calling_config":{"allowed_function_names":["a b"]}}"#,
            r#""toolConfig":{"functionCallingConfig":{"allowed_function_names":["a b"]}}"#,
        ] {
            let body =
                format!(r#"{{"tools":[{{"functionDeclarations":[{{"name":"a b"}}]}}],{config}}}"#);
            let out = rename(body.as_bytes(), true, response_shape(Api::Gemini), &|_| {
                Rules::GEMINI.tool_names.clone()
            })
            .unwrap();
            let text = String::from_utf8(out.body).unwrap();
            assert!(!text.contains("a b"), "{text}");
        }
    }
}
