//! The request side of the way back: tool names the target refuses (too long, characters it
//! does not take, or shared by two tools) are renamed in the declarations *and* everywhere the
//! conversation names them (earlier calls, tool results, `tool_choice`, Gemini's
//! `allowedFunctionNames`), so the history stays consistent; the [`NameMap`] goes with the
//! response, where the names are mapped back ([`crate::restore`]).
//!
//! Positions come from the [way back's table](crate::shapes_response); only the name strings
//! change, every other byte is kept.

use std::ops::Range;
use std::sync::Arc;

use bytes::Bytes;

use crate::locate::RawText;
use provider_rules::{NameMap, ToolNameRule};

use crate::ToolSchemaLayer;
use crate::locate::range_in;
use crate::rename_memo::{Memo, RenameMemo};
use crate::report::Rename;
use crate::restore::json::{
    Jump, call_walk_path, each_at_many, each_at_many_with, elements, holds, read_call, string,
};
use crate::shapes_response::{NamePath, ResponseShape, segments};
use crate::slots::splice::{Edit, splice, spliced_vec};

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

/// Where a shape's declarations sit: each declaration path split at its first `[]` into a
/// *container* (the list's path under the request prefix, e.g. `tools`) and the path from each
/// of its elements (`function.name`); a declaration path without `[]` is read directly.
struct Layout {
    containers: Vec<String>,
    /// Per declaration path: its container and the path inside each element, or `None`
    /// (read directly).
    inner: Vec<Option<(usize, String)>>,
}

fn layout(shape: &ResponseShape) -> Layout {
    let mut containers: Vec<String> = Vec::new();
    let mut inner = Vec::with_capacity(shape.declarations.len());
    for p in shape.declarations {
        let segs: Vec<&str> = segments(p.path).collect();
        let Some(k) = segs.iter().position(|s| s.ends_with("[]")) else {
            inner.push(None);
            continue;
        };
        let mut container = String::from(shape.request_prefix);
        for s in &segs[..k] {
            container.push_str(s);
            container.push('.');
        }
        container.push_str(segs[k].trim_end_matches("[]"));
        let c = match containers.iter().position(|c| *c == container) {
            Some(c) => c,
            None => {
                containers.push(container);
                containers.len() - 1
            }
        };
        inner.push(Some((c, segs[k + 1..].join("."))));
    }
    Layout { containers, inner }
}

/// What renaming reads of a body, in one walk: the containers of the declarations (each in
/// body order), the declarations read directly, the names in the history (its name paths and
/// its earlier calls), each with its place, and the body's `model`.
struct Names<'a> {
    containers: Vec<(usize, RawText<'a>)>,
    direct: Vec<(usize, String, RawText<'a>)>,
    history: Vec<(String, RawText<'a>)>,
    model: Option<String>,
}

/// `known`: containers seen before, each with its key (the last segment of its path): the walk
/// takes a known container's bytes without reading them.
fn read_names<'a>(
    doc: RawText<'a>,
    shape: &ResponseShape,
    layout: &Layout,
    known: &[(&str, Arc<Memo>)],
) -> Names<'a> {
    let direct: Vec<usize> = (0..shape.declarations.len())
        .filter(|i| layout.inner.get(*i).is_some_and(Option::is_none))
        .collect();
    let nc = layout.containers.len();
    // The paths: containers, direct declarations, history names, earlier calls, `model`.
    let paths: Vec<&NamePath> = direct
        .iter()
        .filter_map(|i| shape.declarations.get(*i))
        .chain(shape.history)
        .collect();
    let calls = shape.history_calls;
    let mut full: Vec<String> = layout.containers.clone();
    full.extend(
        paths
            .iter()
            .map(|p| format!("{}{}", shape.request_prefix, p.path))
            .chain(
                calls
                    .iter()
                    .map(|c| call_walk_path(shape.request_prefix, c)),
            ),
    );
    // The body's own `model`, at its top level (also under an envelope).
    full.push("model".to_owned());
    let refs: Vec<&str> = full.iter().map(String::as_str).collect();
    let mut containers = Vec::new();
    let mut found = Vec::new();
    let mut model = None;
    let jump = |key: &str, rest: &[u8]| {
        known
            .iter()
            .find(|(k, m)| *k == key && rest.starts_with(&m.bytes))
            .map(|(_, m)| m.bytes.len())
    };
    let jump: Option<Jump<'_>> = (!known.is_empty()).then_some(&jump);
    each_at_many_with(doc, &refs, jump, &mut |i, holder, raw| {
        if i < nc {
            containers.push((i, raw));
            return;
        }
        let i = i - nc;
        match paths.get(i) {
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
        }
    });
    // Stable: each path's names stay in body order.
    found.sort_by_key(|(i, _, _)| *i);
    let (mut declared, mut history) = (Vec::new(), Vec::new());
    for (i, name, raw) in found {
        match direct.get(i) {
            Some(d) => declared.push((*d, name, raw)),
            None => history.push((name, raw)),
        }
    }
    Names {
        containers,
        direct: declared,
        history,
        model,
    }
}

/// The declared names inside one container (`c`): each declaration path of it, from each
/// element.
fn declared_in<'a>(
    shape: &ResponseShape,
    layout: &Layout,
    c: usize,
    raw: RawText<'a>,
    out: &mut Vec<(usize, String, RawText<'a>)>,
) {
    let mine: Vec<(usize, &str)> = layout
        .inner
        .iter()
        .enumerate()
        .filter_map(|(d, inner)| match inner {
            Some((k, path)) if *k == c => Some((d, path.as_str())),
            _ => None,
        })
        .collect();
    if mine.is_empty() {
        return;
    }
    let refs: Vec<&str> = mine.iter().map(|(_, p)| *p).collect();
    for item in elements(raw).unwrap_or_default() {
        each_at_many(item, &refs, &mut |j, holder, raw| {
            let Some((d, _)) = mine.get(j) else { return };
            let Some(p) = shape.declarations.get(*d) else {
                return;
            };
            if holder.is_none_or(|m| holds(m, p.when))
                && let Some(name) = string(raw)
            {
                out.push((*d, name, raw));
            }
        });
    }
}

/// A body with its refused names renamed.
pub(crate) struct Renamed {
    /// The body to send.
    pub body: Vec<u8>,
    /// Every declaration's name, original and sent.
    pub names: Arc<NameMap>,
    /// The renamed declarations and why, in declaration order (for the report).
    pub renames: Vec<Rename>,
}

/// The names to send for the declarations `decl` (in declaration order) under `rule`, and the
/// renames for the report.
fn names_for(
    rule: &ToolNameRule,
    decl: &[(String, Option<Range<usize>>)],
) -> (NameMap, Vec<Rename>) {
    let map = NameMap::new(rule, decl.iter().map(|(n, _)| n.as_str()));
    let renames = (0..decl.len())
        .filter_map(|i| {
            let sent = map.declared(i)?;
            let original = &decl.get(i)?.0;
            (sent != original).then(|| Rename {
                original: original.clone(),
                sent: sent.to_owned(),
                why: map.reasons(rule, i),
            })
        })
        .collect();
    (map, renames)
}

/// The edits that give the declarations `decl` (in declaration order, each with its place)
/// the names `map` sends.
fn declared_edits(map: &NameMap, decl: Vec<(String, Option<Range<usize>>)>) -> Vec<Edit> {
    let mut edits = Vec::new();
    for (i, (name, range)) in decl.into_iter().enumerate() {
        if let Some(sent) = map.declared(i)
            && sent != name
            && let (Some(range), Ok(bytes)) = (range, serde_json::to_vec(sent))
        {
            edits.push(Edit { range, bytes });
        }
    }
    edits
}

/// Renames the refused names of `body`: `None` when every name is fine (or the body is not
/// JSON). The map lists every declaration. `validated`: the body is known to be valid JSON
/// (the slot scan read it whole), so it is not validated again (only split along the paths).
/// `memo`: a tool list seen before is not read again ([`crate::rename_memo`]).
pub(crate) fn rename_with(
    body: &[u8],
    validated: bool,
    shape: &ResponseShape,
    rule_for: &dyn Fn(Option<&str>) -> ToolNameRule,
    memo: Option<&RenameMemo>,
) -> Option<Renamed> {
    if !shape.renames() {
        return None;
    }
    let text = std::str::from_utf8(body).ok()?;
    let doc: RawText<'_> = match validated {
        true => RawText::new(text.trim_matches([' ', '\t', '\n', '\r'])),
        false => serde_json::from_str(text).ok()?,
    };
    let layout = layout(shape);
    let shape_id = std::ptr::from_ref(shape) as usize;
    // The containers seen before (under any rule: the jump only skips their bytes).
    let known: Vec<(&str, Arc<Memo>)> = memo
        .map(|m| m.of_shape(shape_id))
        .unwrap_or_default()
        .into_iter()
        .filter_map(|m| {
            let path = layout.containers.get(m.container)?;
            let key = path.rsplit('.').next()?;
            Some((key, m))
        })
        .collect();
    let Names {
        containers,
        direct,
        history,
        model,
    } = read_names(doc, shape, &layout, &known);
    // The body's `model` picks the rule where one URL serves every vendor (`auto`).
    let rule = rule_for(model.as_deref());
    let place = |raw: RawText<'_>| range_in(body, raw);
    // One container and nothing read directly: its names and what they become are the memo's.
    let single = match (containers.as_slice(), direct.is_empty()) {
        ([(c, raw)], true) => Some((*c, *raw)),
        _ => None,
    };
    // The memo's part: the container's renamed region, one shared buffer (`None`: read here).
    let mut region: Option<(Range<usize>, Bytes)> = None;
    let (mut edits, map, renames) = match (memo, single) {
        (Some(memo), Some((c, raw))) => {
            let start = place(raw)?.start;
            let bytes = raw.get().as_bytes();
            let m = match memo.find(shape_id, c, &rule, bytes) {
                Some(m) => m,
                None => {
                    let mut found = Vec::new();
                    declared_in(shape, &layout, c, raw, &mut found);
                    found.sort_by_key(|(d, _, _)| *d);
                    let decl: Vec<(String, Option<Range<usize>>)> = found
                        .into_iter()
                        .map(|(_, n, r)| {
                            let rel = range_in(bytes, r);
                            (n, rel)
                        })
                        .collect();
                    let (map, renames) = names_for(&rule, &decl);
                    let edits = declared_edits(&map, decl);
                    let spliced = match edits.is_empty() {
                        true => None,
                        false => {
                            let s = splice(bytes, edits)?;
                            let (r, middle) = s.region();
                            Some((r, middle.clone()))
                        }
                    };
                    let m = Arc::new(Memo {
                        shape: shape_id,
                        container: c,
                        rule: rule.clone(),
                        bytes: bytes.into(),
                        spliced,
                        names: Arc::new(map),
                        renames,
                    });
                    memo.insert(Arc::clone(&m));
                    m
                }
            };
            region = m
                .spliced
                .as_ref()
                .map(|(r, middle)| (r.start + start..r.end + start, middle.clone()));
            (Vec::new(), Arc::clone(&m.names), m.renames.clone())
        }
        _ => {
            let mut found = direct;
            for (c, raw) in containers {
                declared_in(shape, &layout, c, raw, &mut found);
            }
            found.sort_by_key(|(d, _, _)| *d);
            let decl: Vec<(String, Option<Range<usize>>)> =
                found.into_iter().map(|(_, n, r)| (n, place(r))).collect();
            let (map, renames) = names_for(&rule, &decl);
            (declared_edits(&map, decl), Arc::new(map), renames)
        }
    };
    if map.is_empty() {
        return None;
    }
    for (name, raw) in history {
        let sent = map.sent(&name);
        if let (true, Some(range), Ok(bytes)) = (sent != name, place(raw), serde_json::to_vec(sent))
        {
            edits.push(Edit { range, bytes });
        }
    }
    // Every replacement borrowed (the memo's region is its shared buffer): written once.
    let mut all: Vec<(Range<usize>, &[u8])> = edits
        .iter()
        .map(|e| (e.range.clone(), e.bytes.as_slice()))
        .collect();
    if let Some((r, middle)) = &region {
        all.push((r.clone(), middle));
    }
    let out = spliced_vec(body, &mut all)?;
    Some(Renamed {
        body: out,
        names: map,
        renames,
    })
}

/// [`rename_with`] without the memo.
#[cfg(test)]
fn rename(
    body: &[u8],
    validated: bool,
    shape: &ResponseShape,
    rule_for: &dyn Fn(Option<&str>) -> ToolNameRule,
) -> Option<Renamed> {
    rename_with(body, validated, shape, rule_for, None)
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

    #[test]
    fn a_known_tool_list_renames_as_reading_it_again_does() {
        let cases: [(Api, &str, &ToolNameRule); 5] = [
            (
                Api::OpenAiChat,
                r#"{"model":"m","messages":[{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"fs.read","arguments":"{}"}}]}],
                "tools":[{"type":"function","function":{"name":"fs.read"}},{"type":"function","function":{"name":"fs.read"}},{"type":"function","function":{"name":"ok"}}],
                "functions":[{"name":"a b"}],"tool_choice":{"type":"function","function":{"name":"fs.read"}}}"#,
                &Rules::OPENAI.tool_names,
            ),
            (
                Api::OpenAiChat,
                r#"{"messages":[],"tools":[{"type":"function","function":{"name":"x.y","parameters":{"type":"object"}}},{"type":"function","function":{"name":"q"}}],"tool_choice":{"type":"function","function":{"name":"x.y"}}}"#,
                &Rules::OPENAI.tool_names,
            ),
            (
                Api::OpenAiResponses,
                r#"{"input":[{"type":"function_call","name":"a.b","arguments":"{}"}],"tools":[{"type":"function","name":"a.b"},{"type":"namespace","tools":[{"type":"function","name":"c d"}]},{"type":"web_search","name":"e f"}]}"#,
                &Rules::OPENAI.tool_names,
            ),
            (
                Api::CodeAssist,
                r#"{"request":{"contents":[{"parts":[{"functionCall":{"name":"a b","args":{}}}]}],"tools":[{"functionDeclarations":[{"name":"a b"}]},{"function_declarations":[{"name":"c d"}]}]}}"#,
                &Rules::GEMINI.tool_names,
            ),
            (
                Api::BedrockConverse,
                r#"{"messages":[{"content":[{"toolUse":{"name":"a b","input":{}}}]}],"toolConfig":{"tools":[{"toolSpec":{"name":"a b"}}],"toolChoice":{"tool":{"name":"a b"}}}}"#,
                &Rules::OPENAI.tool_names,
            ),
        ];
        for (api, body, rule) in cases {
            let shape = response_shape(api);
            let rule_for = |_: Option<&str>| rule.clone();
            let plain = rename(body.as_bytes(), false, shape, &rule_for).unwrap();
            let memo = RenameMemo::new(crate::cache::CacheConfig::new());
            // A miss, a hit, then a hit with another conversation around the same list.
            for turn in 0..3 {
                let text = match turn {
                    2 => body.replacen('{', r#"{"user":"u","#, 1),
                    _ => body.to_owned(),
                };
                let want = rename(text.as_bytes(), false, shape, &rule_for).unwrap();
                let got =
                    rename_with(text.as_bytes(), false, shape, &rule_for, Some(&memo)).unwrap();
                assert_eq!(
                    String::from_utf8_lossy(&got.body),
                    String::from_utf8_lossy(&want.body),
                    "{api:?} {turn}"
                );
                assert_eq!(got.names, want.names, "{api:?}");
                assert_eq!(got.renames, want.renames, "{api:?}");
                if turn == 0 {
                    assert_eq!(want.body, plain.body);
                }
            }
            // Kept only for a body whose declarations sit in one list.
            let kept = usize::from(api != Api::OpenAiChat || !body.contains("functions"));
            assert_eq!(memo.len(), kept, "{api:?}");
        }
    }
}
