//! The optional response-side hook (feature `validate`): the tool calls of a non-streaming
//! response are validated against the **original** (unsanitized) schemas of the tools in its
//! request, with [`tool_calls::validate`], and the findings are attached to the response's
//! extensions as [`ToolCallFindings`]. The response bytes are never changed.
//!
//! Sanitizing drops the constraints a provider cannot express, so a model may send arguments
//! the provider accepted but the tool will not; the finding's message (the
//! [`tool_calls::CallError`]'s `Display`) is written for the model, to send back as
//! the tool result.
//!
//! Where calls sit is read from the response side of the
//! [shape table](crate::shapes_response) (every API's `calls`, under its envelope prefix), the
//! table the way back reads too: OpenAI Chat `choices[].message.tool_calls[].function.{name,
//! arguments}` (arguments is JSON text; also the legacy `function_call`), OpenAI Responses
//! `output[]` items of type `function_call`, Anthropic `content[]` blocks of type `tool_use`,
//! Gemini `candidates[].content.parts[].functionCall|function_call.{name, args}` (also under
//! Code Assist's `response`), and `message.tool_calls[]` (Ollama's native and Cohere v2's),
//! Bedrock Converse `output.message.content[].toolUse`.
//!
//! A response is read only when it is JSON, not `text/event-stream`, not compressed and under
//! the layer's body limit; otherwise it goes on untouched, and the findings say why it was not
//! inspected ([`NotInspected`]). A read response goes on as the very same `Bytes`; a body error
//! is forwarded after the bytes read before it; a body over the limit is replayed whole.
//!
//! ```
//! use std::convert::Infallible;
//! use bytes::Bytes;
//! use http_body_util::Full;
//! use tower::{Layer, ServiceExt};
//! use tower_toolschema::{ToolSchemaBody, ToolSchemaLayer};
//! use tower_toolschema::validate::{CallOutcome, ToolCallFindings};
//!
//! # #[tokio::main(flavor = "current_thread")] async fn main() {
//! // An upstream answering with a tool call that misses a required field.
//! let upstream = tower::service_fn(|_req: http::Request<ToolSchemaBody<Full<Bytes>>>| async {
//!     let body = r#"{"choices":[{"message":{"role":"assistant","tool_calls":[{"id":"c1","type":"function",
//!         "function":{"name":"call_tool","arguments":"{\"name\":\"search\"}"}}]}}]}"#;
//!     Ok::<_, Infallible>(http::Response::builder()
//!         .header("content-type", "application/json")
//!         .body(Full::new(Bytes::from_static(body.as_bytes()))).unwrap())
//! });
//! let svc = ToolSchemaLayer::openai().validate_tool_calls(true).layer(upstream);
//!
//! let request = r#"{"model":"gpt-4o","messages":[],"tools":[{"type":"function","function":{"name":"call_tool",
//!     "parameters":{"type":"object","properties":{"toolName":{"type":"string"}},"required":["toolName"]}}}]}"#;
//! let req = http::Request::post("/v1/chat/completions")
//!     .header("content-type", "application/json")
//!     .body(Full::new(Bytes::from_static(request.as_bytes()))).unwrap();
//! let res = svc.oneshot(req).await.unwrap();
//!
//! let findings = res.extensions().get::<ToolCallFindings>().unwrap();
//! let call = &findings.calls[0];
//! assert_eq!(call.tool, "call_tool");
//! assert_eq!(call.pointer, "/choices/0/message/tool_calls/0");
//! assert!(matches!(call.outcome, CallOutcome::Invalid(_)));
//! assert!(call.outcome.to_string().contains(r#""toolName" is missing — you sent "name""#));
//! # }
//! ```

mod body;
mod calls;
mod future;
mod layer;

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, OnceLock};

use bytes::Bytes;
use http::Extensions;
use serde_json::Value;
use tool_calls::{CallError, DEFAULT_NAMESPACE, LookupError, Tool, ToolCatalog};

use calls::{Args, Call, calls};

pub use body::ToolCallsBody;
pub use future::ValidateResponseFuture;
pub use layer::{ValidateToolCalls, ValidateToolCallsLayer};

use crate::report::{Outcome, SanitizeReport, SkipReason};
use crate::rewrite::OriginalTool;

/// What the response-side hook found, in the response's extensions.
///
/// ```
/// use std::convert::Infallible;
/// use tower::ServiceExt;
/// use tower_toolschema::ValidateToolCalls;
/// use tower_toolschema::validate::{Inspection, NotInspected, ToolCallFindings};
///
/// # #[tokio::main(flavor = "current_thread")] async fn main() {
/// // Around a service that is not a `ToolSchema`, the request's schemas are unknown.
/// let upstream = tower::service_fn(|_req: http::Request<String>| async {
///     Ok::<_, Infallible>(http::Response::builder().header("content-type", "application/json").body(String::from("{}")).unwrap())
/// });
/// let res = ValidateToolCalls::new(upstream, 1024).oneshot(http::Request::new(String::new())).await.unwrap();
/// let findings: &ToolCallFindings = res.extensions().get().unwrap();
/// assert_eq!(findings.inspection, Inspection::NotInspected(NotInspected::RequestNotInspected));
/// assert!(findings.calls.is_empty() && !findings.is_inspected());
/// # }
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ToolCallFindings {
    /// Whether the response was read, and if not, why.
    pub inspection: Inspection,
    /// Every tool call of the response, in body order (valid ones too).
    pub calls: Vec<ToolCallFinding>,
}

impl ToolCallFindings {
    pub(crate) fn not_inspected(reason: NotInspected) -> Self {
        ToolCallFindings {
            inspection: Inspection::NotInspected(reason),
            calls: Vec::new(),
        }
    }

    /// Whether the response was read.
    ///
    /// ```
    /// # use tower_toolschema::validate::ToolCallFindings;
    /// fn read(f: &ToolCallFindings) -> bool { f.is_inspected() }
    /// ```
    pub fn is_inspected(&self) -> bool {
        matches!(self.inspection, Inspection::Inspected)
    }

    /// The calls that are not valid (invalid arguments, unknown tool, unreadable arguments).
    ///
    /// ```
    /// # use tower_toolschema::validate::ToolCallFindings;
    /// fn all_good(f: &ToolCallFindings) -> bool { f.problems().next().is_none() }
    /// ```
    pub fn problems(&self) -> impl Iterator<Item = &ToolCallFinding> {
        self.calls.iter().filter(|c| !c.outcome.is_valid())
    }
}

/// Whether a response was read.
///
/// ```
/// use tower_toolschema::validate::{Inspection, NotInspected};
/// let why = Inspection::NotInspected(NotInspected::NoTools);
/// assert!(matches!(why, Inspection::NotInspected(r) if r.to_string() == "not inspected: the request declared no tools"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Inspection {
    /// The response was read and its tool calls validated.
    Inspected,
    /// The response went on untouched, unread.
    NotInspected(NotInspected),
}

/// Why a response was not inspected.
///
/// `Display` starts with `not inspected: `.
///
/// ```
/// use tower_toolschema::validate::NotInspected;
/// assert_eq!(NotInspected::Streaming.to_string(), "not inspected: a streaming (text/event-stream) response");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum NotInspected {
    /// The request's tool schemas are unknown: its body was not inspected by the layer (not a
    /// JSON POST to a known API, or an empty body).
    RequestNotInspected,
    /// The request's body could not be inspected (over the limit, compressed, invalid...).
    RequestSkipped(SkipReason),
    /// The request declared no tools.
    NoTools,
    /// A streaming response (`text/event-stream`).
    Streaming,
    /// A `Content-Type` other than JSON.
    NotJson(String),
    /// A compressed response (`Content-Encoding`).
    Compressed(String),
    /// Larger than the body limit (replayed whole).
    TooLarge {
        /// The limit in bytes.
        limit: usize,
    },
    /// The response body failed; the error was forwarded.
    BodyError(String),
    /// Not valid JSON.
    InvalidJson(String),
}

impl fmt::Display for NotInspected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not inspected: ")?;
        match self {
            NotInspected::RequestNotInspected => {
                f.write_str("the request's tool schemas are unknown (its body was not inspected)")
            }
            NotInspected::RequestSkipped(r) => write!(f, "the request was not inspected: {r}"),
            NotInspected::NoTools => f.write_str("the request declared no tools"),
            NotInspected::Streaming => f.write_str("a streaming (text/event-stream) response"),
            NotInspected::NotJson(ct) => write!(f, "not a JSON response ({ct})"),
            NotInspected::Compressed(enc) => write!(f, "a compressed response ({enc})"),
            NotInspected::TooLarge { limit } => {
                write!(f, "the response is larger than the limit of {limit} bytes")
            }
            NotInspected::BodyError(e) => write!(f, "the response body failed: {e}"),
            NotInspected::InvalidJson(e) => write!(f, "the response is not valid JSON: {e}"),
        }
    }
}

/// One tool call of a response.
///
/// ```
/// use tower_toolschema::validate::{ToolCallFinding, ToolCallFindings};
///
/// /// What to send back to the model: one tool result per call that is not valid.
/// fn tool_results(findings: &ToolCallFindings) -> Vec<(String, String)> {
///     findings.problems().map(|c: &ToolCallFinding| (c.tool.clone(), c.outcome.to_string())).collect()
/// }
/// # let _ = tool_results;
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ToolCallFinding {
    /// The tool name the model called.
    pub tool: String,
    /// RFC 6901 pointer of the call in the response (`/choices/0/message/tool_calls/1`,
    /// `/output/2`, `/content/1`, `/candidates/0/content/parts/0/functionCall`).
    pub pointer: String,
    /// The verdict.
    pub outcome: CallOutcome,
}

/// The verdict on one call. `Display` is the message for the model.
///
/// ```
/// use tower_toolschema::validate::CallOutcome;
/// let unknown = CallOutcome::UnknownTool { name: "serch".into(), available: vec!["search".into(), "send".into()] };
/// assert_eq!(unknown.to_string(), r#"Tool not found: "serch". Tools in this request: search, send"#);
/// assert!(CallOutcome::Valid.is_valid());
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum CallOutcome {
    /// The arguments validate against the tool's original schema (or the tool has none).
    Valid,
    /// The arguments do not validate; the error lists every problem and the expected shape.
    Invalid(CallError),
    /// No tool of that name was declared in the request.
    UnknownTool {
        /// The name called.
        name: String,
        /// The tools the request declared, closest first.
        available: Vec<String>,
    },
    /// The arguments are JSON text that does not parse.
    MalformedArguments(String),
    /// The tool's original schema could not be read; the call was not checked.
    NotChecked(String),
}

impl CallOutcome {
    /// Whether the call is valid (or could not be checked).
    ///
    /// ```
    /// use tower_toolschema::validate::CallOutcome;
    /// assert!(!CallOutcome::MalformedArguments("EOF while parsing".into()).is_valid());
    /// assert!(CallOutcome::NotChecked("unreadable schema".into()).is_valid());
    /// ```
    pub fn is_valid(&self) -> bool {
        matches!(self, CallOutcome::Valid | CallOutcome::NotChecked(_))
    }
}

/// At most this many tool names in an unknown-tool message.
const MAX_NAMES: usize = 40;

impl fmt::Display for CallOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CallOutcome::Valid => f.write_str("valid"),
            CallOutcome::Invalid(e) => write!(f, "{e}"),
            CallOutcome::UnknownTool { name, available } => {
                write!(
                    f,
                    "Tool not found: {}. Tools in this request: ",
                    quoted(name)
                )?;
                if available.is_empty() {
                    return f.write_str("none");
                }
                let shown = &available[..available.len().min(MAX_NAMES)];
                f.write_str(&shown.join(", "))?;
                if available.len() > shown.len() {
                    write!(f, ", … ({} in total)", available.len())?;
                }
                Ok(())
            }
            CallOutcome::MalformedArguments(e) => write!(
                f,
                "\"arguments\" is not valid JSON text ({e}) — send a JSON object of the tool's parameters"
            ),
            CallOutcome::NotChecked(e) => write!(f, "not checked: {e}"),
        }
    }
}

fn quoted(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| format!("\"{s}\""))
}

/// The tools of one request: name → original parameters schema (first declaration wins).
#[derive(Debug, Default)]
pub(crate) struct RequestTools {
    tools: HashMap<String, Option<Bytes>>,
    /// Names in declaration order.
    order: Vec<String>,
}

impl RequestTools {
    fn new(list: Vec<OriginalTool>) -> Self {
        let mut out = RequestTools::default();
        for (name, schema) in list {
            if !out.tools.contains_key(&name) {
                out.order.push(name.clone());
                out.tools.insert(name, schema);
            }
        }
        out
    }
}

/// What the request pass left for the response pass.
#[derive(Debug)]
pub(crate) enum Captured {
    Tools(RequestTools),
    Skipped(SkipReason),
}

/// A handle in the request's extensions: the request pass fills it, the response pass reads it.
#[derive(Debug, Clone, Default)]
pub(crate) struct Capture(Arc<OnceLock<Captured>>);

impl Capture {
    fn get(&self) -> Option<&Captured> {
        self.0.get()
    }
}

/// Whether the request pass should collect the original tool schemas.
pub(crate) fn wants_tools(ext: &Extensions) -> bool {
    ext.get::<Capture>().is_some()
}

/// The request pass's result, for the response pass (a no-op without a [`Capture`]).
pub(crate) fn record(ext: &Extensions, report: &SanitizeReport, tools: Option<Vec<OriginalTool>>) {
    let Some(capture) = ext.get::<Capture>() else {
        return;
    };
    let captured = match &report.outcome {
        Outcome::Skipped(reason) => Captured::Skipped(reason.clone()),
        _ => Captured::Tools(RequestTools::new(tools.unwrap_or_default())),
    };
    let _ = capture.0.set(captured);
}

/// The request's tools, or why the response cannot be checked.
fn request_tools(capture: &Capture) -> Result<&RequestTools, NotInspected> {
    match capture.get() {
        None => Err(NotInspected::RequestNotInspected),
        Some(Captured::Skipped(r)) => Err(NotInspected::RequestSkipped(r.clone())),
        Some(Captured::Tools(t)) if t.tools.is_empty() => Err(NotInspected::NoTools),
        Some(Captured::Tools(t)) => Ok(t),
    }
}

/// Gemini's Schema proto spells types in upper case (`"OBJECT"`): lower-cased for validation.
fn normalize_types(v: &mut Value) {
    match v {
        Value::Object(map) => {
            for (k, child) in map.iter_mut() {
                if k == "type" {
                    match child {
                        Value::String(s) if s.bytes().any(|b| b.is_ascii_uppercase()) => {
                            *s = s.to_ascii_lowercase();
                        }
                        Value::Array(items) => {
                            for item in items {
                                if let Value::String(s) = item {
                                    *s = s.to_ascii_lowercase();
                                }
                            }
                        }
                        _ => normalize_types(child),
                    }
                } else {
                    normalize_types(child);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(normalize_types),
        _ => {}
    }
}

/// Validates every tool call of `body` against the request's original schemas.
pub(crate) fn inspect(
    body: &[u8],
    tools: &RequestTools,
) -> Result<Vec<ToolCallFinding>, NotInspected> {
    let v: Value =
        serde_json::from_slice(body).map_err(|e| NotInspected::InvalidJson(e.to_string()))?;
    let mut schemas: HashMap<&str, Result<Value, String>> = HashMap::new();
    let mut out = Vec::new();
    for call in calls(&v) {
        let outcome = judge(&call, tools, &mut schemas);
        trace_call(&call, &outcome);
        out.push(ToolCallFinding {
            tool: call.name.to_owned(),
            pointer: call.pointer,
            outcome,
        });
    }
    Ok(out)
}

fn judge<'t>(
    call: &Call<'_>,
    tools: &'t RequestTools,
    schemas: &mut HashMap<&'t str, Result<Value, String>>,
) -> CallOutcome {
    let Some((name, schema)) = tools.tools.get_key_value(call.name) else {
        return CallOutcome::UnknownTool {
            name: call.name.to_owned(),
            available: closest_first(call.name, &tools.order),
        };
    };
    let args: Cow<'_, Value> = match call.args {
        Args::Value(v) => Cow::Borrowed(v),
        Args::Missing => Cow::Owned(Value::Object(Default::default())),
        Args::Text(t) if t.trim().is_empty() => Cow::Owned(Value::Object(Default::default())),
        Args::Text(t) => match serde_json::from_str(t) {
            Ok(v) => Cow::Owned(v),
            Err(e) => return CallOutcome::MalformedArguments(e.to_string()),
        },
    };
    let Some(schema) = schema else {
        return CallOutcome::Valid;
    };
    let parsed = schemas.entry(name.as_str()).or_insert_with(|| {
        let mut v: Value = serde_json::from_slice(schema).map_err(|e| e.to_string())?;
        normalize_types(&mut v);
        Ok(v)
    });
    match parsed {
        Err(e) => CallOutcome::NotChecked(format!("the tool's schema is not JSON: {e}")),
        Ok(schema) => match tool_calls::validate(schema, &args) {
            Ok(()) => CallOutcome::Valid,
            Err(e) => CallOutcome::Invalid(e),
        },
    }
}

/// The request's tool names, closest to `name` first (the catalogue's ordering).
fn closest_first(name: &str, names: &[String]) -> Vec<String> {
    let mut catalog = ToolCatalog::new();
    for n in names {
        catalog.add(Tool::new(n.as_str(), "", Value::Object(Default::default())));
    }
    match catalog.get(DEFAULT_NAMESPACE, name) {
        Err(LookupError::ToolNotFound { available, .. }) => available,
        _ => names.to_vec(),
    }
}

fn trace_call(call: &Call<'_>, outcome: &CallOutcome) {
    match outcome {
        CallOutcome::Valid => {
            tracing::debug!(target: "tower_toolschema", tool = call.name, call = %call.pointer, "tool call valid")
        }
        other => {
            tracing::warn!(target: "tower_toolschema", tool = call.name, call = %call.pointer, "invalid tool call: {other}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tools(list: &[(&str, Option<Value>)]) -> RequestTools {
        RequestTools::new(
            list.iter()
                .map(|(n, s)| {
                    (
                        (*n).to_owned(),
                        s.as_ref().map(|s| Bytes::from(s.to_string())),
                    )
                })
                .collect(),
        )
    }

    #[test]
    fn gemini_upper_case_types_are_checked() {
        let t = tools(&[(
            "f",
            Some(json!({"type":"OBJECT","properties":{"n":{"type":"INTEGER"}},"required":["n"]})),
        )]);
        let body = json!({"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":{"n":"x"}}}]}}]});
        let found = inspect(body.to_string().as_bytes(), &t).unwrap();
        assert!(
            matches!(found[0].outcome, CallOutcome::Invalid(_)),
            "{found:?}"
        );
        let body = json!({"response":{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":{"n":2}}}]}}]}});
        let found = inspect(body.to_string().as_bytes(), &t).unwrap();
        assert_eq!(
            found[0].pointer,
            "/response/candidates/0/content/parts/0/functionCall"
        );
        assert_eq!(found[0].outcome, CallOutcome::Valid);
    }

    #[test]
    fn tools_without_schema_take_any_arguments_and_first_declaration_wins() {
        let t = tools(&[
            ("now", None),
            ("f", Some(json!({"required":["a"]}))),
            ("f", None),
        ]);
        let body = json!({"message":{"tool_calls":[
            {"function":{"name":"now","arguments":""}},
            {"function":{"name":"f","arguments":{"b":1}}},
            {"function":{"name":"f","arguments":"{not json"}}]}});
        let found = inspect(body.to_string().as_bytes(), &t).unwrap();
        assert_eq!(found[0].outcome, CallOutcome::Valid);
        assert!(matches!(found[1].outcome, CallOutcome::Invalid(_)));
        assert!(matches!(
            found[2].outcome,
            CallOutcome::MalformedArguments(_)
        ));
        assert!(
            found[2]
                .outcome
                .to_string()
                .starts_with("\"arguments\" is not valid JSON text")
        );
    }

    #[test]
    fn unknown_tools_list_the_closest_first_bounded() {
        let names: Vec<String> = (0..50).map(|i| format!("tool_{i:02}")).collect();
        let mut list: Vec<(&str, Option<Value>)> =
            names.iter().map(|n| (n.as_str(), None)).collect();
        list.push(("search", None));
        let t = tools(&list);
        let body = json!({"content":[{"type":"tool_use","id":"t","name":"serch","input":{}}]});
        let found = inspect(body.to_string().as_bytes(), &t).unwrap();
        let msg = found[0].outcome.to_string();
        assert!(
            msg.starts_with(r#"Tool not found: "serch". Tools in this request: search, "#),
            "{msg}"
        );
        assert!(msg.ends_with("… (51 in total)"), "{msg}");
    }
}
