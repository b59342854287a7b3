//! Where the tool calls of a response sit: read from the response side of the
//! [shape table](crate::shapes_response) (each API's envelope prefix and [`CallPath`]s), the
//! table the way back (`restore`) reads too. Nothing here names an API.
//!
//! The validator does not know which API answered (it sees the response only), so it reads
//! every distinct call path of the table; a real body matches one API's paths. Recursion
//! follows a table path only (a handful of levels), never the body's depth.

use std::fmt::Write as _;
use std::sync::LazyLock;

use serde_json::Value;

use crate::shapes::Api;
use crate::shapes_response::{CallPath, Step, segments};

/// The arguments of one call as found in the response.
pub(super) enum Args<'a> {
    /// A JSON value (Anthropic `input`, Gemini `args`).
    Value(&'a Value),
    /// JSON text (OpenAI `arguments`).
    Text(&'a str),
    /// Absent (Gemini omits `args` for a call with no arguments).
    Missing,
}

/// One tool call of a response.
pub(super) struct Call<'a> {
    /// RFC 6901 pointer of the call (the table's `call` member of the call object).
    pub(super) pointer: String,
    pub(super) name: &'a str,
    pub(super) args: Args<'a>,
}

fn args_of(v: Option<&Value>) -> Args<'_> {
    match v {
        None | Some(Value::Null) => Args::Missing,
        Some(Value::String(s)) => Args::Text(s),
        Some(other) => Args::Value(other),
    }
}

/// Every (envelope prefix, call path) of the table, once each, in table order.
static PATHS: LazyLock<Vec<(&'static str, &'static CallPath)>> = LazyLock::new(|| {
    let mut out: Vec<(&'static str, &'static CallPath)> = Vec::new();
    for api in Api::ALL {
        let shape = &api.shape().response;
        for path in shape.calls {
            let key = (shape.response_prefix, path);
            if !out.contains(&key) {
                out.push(key);
            }
        }
    }
    out
});

/// The tool calls of a response body, in table order (body order within one path).
pub(super) fn calls(v: &Value) -> Vec<Call<'_>> {
    let mut out = Vec::new();
    for (prefix, path) in PATHS.iter() {
        let segs: Vec<&str> = segments(prefix).chain(segments(path.at)).collect();
        let mut pointer = String::new();
        walk(v, &segs, &mut pointer, &mut |at_ptr, holder| {
            if !holds(holder, path.when) {
                return;
            }
            let mut ptr = at_ptr.to_owned();
            let call_segs: Vec<&str> = segments(path.call).collect();
            walk(holder, &call_segs, &mut ptr, &mut |call_ptr, call| {
                let (Some(name), Some(args)) =
                    (under(path.call, path.name), under(path.call, path.args))
                else {
                    return;
                };
                if let Some(name) = get(call, name).and_then(Value::as_str) {
                    out.push(Call {
                        pointer: call_ptr.to_owned(),
                        name,
                        args: args_of(get(call, args)),
                    });
                }
            });
        });
    }
    out
}

/// `path` relative to the member `call` it starts with (the table's test keeps that so).
fn under(call: &str, path: &'static str) -> Option<&'static str> {
    if call.is_empty() {
        return Some(path);
    }
    path.strip_prefix(call)?.strip_prefix('.')
}

/// Whether `obj` satisfies a table `when`.
fn holds(obj: &Value, when: Option<(&str, &str)>) -> bool {
    match when {
        None => true,
        Some((k, want)) => obj.get(k).and_then(Value::as_str) == Some(want),
    }
}

/// The value at the dotted `path` under `v` (the first present spelling of an `a|b` segment).
fn get<'a>(v: &'a Value, path: &str) -> Option<&'a Value> {
    segments(path).try_fold(v, |at, seg| Step::parse(seg).keys().find_map(|k| at.get(k)))
}

/// Calls `f` with every value at `segs` under `v` and its pointer (`ptr` is `v`'s on entry,
/// and again on return). `name[]` steps into every element of `name`; `a|b` reads each
/// present spelling. Table keys hold no `~` or `/`, so they are pointer tokens as they are.
fn walk<'a>(v: &'a Value, segs: &[&str], ptr: &mut String, f: &mut dyn FnMut(&str, &'a Value)) {
    let Some((first, rest)) = segs.split_first() else {
        f(ptr, v);
        return;
    };
    let step = Step::parse(first);
    for k in step.keys() {
        let Some(child) = v.get(k) else { continue };
        let len = ptr.len();
        ptr.push('/');
        ptr.push_str(k);
        if step.every {
            for (i, item) in child.as_array().into_iter().flatten().enumerate() {
                let at = ptr.len();
                let _ = write!(ptr, "/{i}");
                walk(item, rest, ptr, f);
                ptr.truncate(at);
            }
        } else {
            walk(child, rest, ptr, f);
        }
        ptr.truncate(len);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn found(v: &Value) -> Vec<(String, String)> {
        calls(v)
            .into_iter()
            .map(|c| (c.pointer, c.name.to_owned()))
            .collect()
    }

    #[test]
    fn each_api_shape_points_at_its_calls() {
        let cases = [
            (
                json!({"choices":[{"message":{"tool_calls":[{"function":{"name":"a","arguments":"{}"}}],
                    "function_call":{"name":"b","arguments":"{}"}}}]}),
                vec![
                    ("/choices/0/message/tool_calls/0", "a"),
                    ("/choices/0/message/function_call", "b"),
                ],
            ),
            (
                json!({"message":{"function_call":{"name":"c"}}}),
                vec![("/message/function_call", "c")],
            ),
            (
                json!({"output":[{"type":"message"},{"type":"function_call","name":"d","arguments":"{}"}]}),
                vec![("/output/1", "d")],
            ),
            (
                json!({"output":{"message":{"content":[{"text":"x"},{"toolUse":{"name":"e","input":{}}}]}}}),
                vec![("/output/message/content/1/toolUse", "e")],
            ),
            (
                json!({"content":[{"type":"text"},{"type":"tool_use","name":"f","input":{}}]}),
                vec![("/content/1", "f")],
            ),
            (
                json!({"candidates":[{"content":{"parts":[{"text":"x"},{"function_call":{"name":"g"}}]}}]}),
                vec![("/candidates/0/content/parts/1/function_call", "g")],
            ),
        ];
        for (body, want) in cases {
            let want: Vec<(String, String)> = want
                .into_iter()
                .map(|(p, n)| (p.to_owned(), n.to_owned()))
                .collect();
            assert_eq!(found(&body), want, "{body}");
        }
    }

    #[test]
    fn calls_without_a_string_name_are_not_calls() {
        let body = json!({"content":[{"type":"tool_use","name":7,"input":{}}],
            "candidates":[{"content":{"parts":[{"functionCall":{"args":{}}}]}}]});
        assert!(calls(&body).is_empty());
    }
}
