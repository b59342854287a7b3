//! Progressive tool disclosure: two meta-tools, `get_dynamic_tools` and `call_dynamic_tool`,
//! stand in for a catalogue too large to send on every turn, and their handler.

use crate::aliases::probable_alias;
use crate::catalog::{envelope_example, run};
use crate::{Coercion, DispatchError, LookupError, Tool, ToolCatalog, validate_with};
use serde_json::{Map, Value, json};

/// The discovery meta-tool's name.
pub const GET_DYNAMIC_TOOLS: &str = "get_dynamic_tools";
/// The dispatch meta-tool's name.
pub const CALL_DYNAMIC_TOOL: &str = "call_dynamic_tool";
/// How many namespaces a meta-tool description names.
const NAMESPACES_IN_DESCRIPTION: usize = 40;
/// How long a tool description may be in a listing.
const LISTED_DESCRIPTION_CHARS: usize = 200;

/// A meta-tool declaration to send to the model in place of the catalogue's tools.
///
/// ```
/// let tools = tool_calls::ToolCatalog::new().meta_tools();
/// assert_eq!(tools[0].name, "get_dynamic_tools");
/// assert_eq!(tools[1].input_schema["required"], serde_json::json!(["namespace", "toolName", "arguments"]));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct MetaTool {
    /// `get_dynamic_tools` or `call_dynamic_tool`.
    pub name: &'static str,
    /// What the model reads.
    pub description: String,
    /// A plain, portable JSON Schema that every provider accepts.
    pub input_schema: Value,
}

/// The published schema of `get_dynamic_tools`.
fn get_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "namespace": {"type": "string", "description": "The namespace to list or to describe a tool from. Omit to list the namespaces."},
            "pattern": {"type": "string", "description": "Only list tools whose name or description matches: a case-insensitive substring, or a glob with * and ?."},
            "toolName": {"type": "string", "description": "Describe this tool: its description, input schema and the exact call_dynamic_tool input to call it with."}
        }
    })
}

/// The published schema of `call_dynamic_tool`.
fn call_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "namespace": {"type": "string", "description": "The tool's namespace."},
            "toolName": {"type": "string", "description": "The tool's name."},
            "arguments": {"type": "object", "properties": {}, "description": "The tool's arguments: a JSON object matching its input schema (not JSON text)."}
        },
        "required": ["namespace", "toolName", "arguments"]
    })
}

/// The schema an input is validated with: the published one, closed to unknown fields so a
/// misnamed key is answered with the name meant.
fn closed(mut schema: Value) -> Value {
    if let Some(map) = schema.as_object_mut() {
        map.insert("additionalProperties".into(), Value::Bool(false));
    }
    schema
}

/// A tool validated for dispatch through `call_dynamic_tool`.
///
/// ```
/// use serde_json::json;
/// let mut c = tool_calls::ToolCatalog::new();
/// c.register("mail", tool_calls::Tool::new("send", "", json!({"type": "object"})));
/// let call = c.prepare_dynamic_call(&json!({"namespace": "mail", "toolName": "send", "arguments": {}})).unwrap();
/// assert_eq!(call.tool.name(), "send");
/// ```
#[derive(Debug, Clone)]
pub struct PreparedCall<'a> {
    /// The namespace.
    pub namespace: String,
    /// The tool to run.
    pub tool: &'a Tool,
    /// Its validated arguments (lenient repairs applied).
    pub arguments: Value,
    /// Lenient repairs made to the envelope or the arguments.
    pub coercions: Vec<Coercion>,
}

/// Case-insensitive glob (`*`, `?`) match; without wildcards, a substring match.
fn matches_pattern(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.to_lowercase().chars().collect();
    let t: Vec<char> = text.to_lowercase().chars().collect();
    if !p.iter().any(|c| matches!(c, '*' | '?')) {
        return text.to_lowercase().contains(&pattern.to_lowercase());
    }
    let (mut pi, mut ti, mut star, mut mark) = (0, 0, None, 0);
    while ti < t.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == t[ti]) {
            pi += 1;
            ti += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some(pi);
            mark = ti;
            pi += 1;
        } else if let Some(s) = star {
            pi = s + 1;
            mark += 1;
            ti = mark;
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|c| *c == '*')
}

fn first_line(text: &str) -> String {
    crate::json_type::truncate(
        text.lines().next().unwrap_or_default(),
        LISTED_DESCRIPTION_CHARS,
    )
}

/// The string sent under `field`, or under a key that probably means it.
fn field_or_alias<'v>(input: &'v Value, field: &str) -> Option<&'v str> {
    let obj = input.as_object()?;
    if let Some(v) = obj.get(field) {
        return v.as_str();
    }
    let keys: Vec<&str> = obj.keys().map(String::as_str).collect();
    probable_alias(field, &keys)
        .and_then(|k| obj.get(k))
        .and_then(Value::as_str)
}

impl ToolCatalog {
    /// The two meta-tools to declare to the model instead of every tool.
    ///
    /// ```
    /// use serde_json::json;
    /// let mut c = tool_calls::ToolCatalog::new();
    /// c.describe_namespace("mail", "Email");
    /// let [get, call] = c.meta_tools();
    /// assert!(get.description.contains("mail (0 tools): Email"));
    /// assert_eq!(call.name, "call_dynamic_tool");
    /// ```
    pub fn meta_tools(&self) -> [MetaTool; 2] {
        let mut listing: Vec<String> = self
            .namespaces()
            .take(NAMESPACES_IN_DESCRIPTION)
            .map(|(name, description, count)| {
                let d = first_line(description);
                let tools = if count == 1 { "tool" } else { "tools" };
                if d.is_empty() {
                    format!("{name} ({count} {tools})")
                } else {
                    format!("{name} ({count} {tools}): {d}")
                }
            })
            .collect();
        let total = self.namespaces().count();
        if total > NAMESPACES_IN_DESCRIPTION {
            listing.push(format!("… ({total} in total)"));
        }
        let get = MetaTool {
            name: GET_DYNAMIC_TOOLS,
            description: format!(
                "Discover the tools you can call with call_dynamic_tool. With no input: list the namespaces. \
                 With a namespace (and optionally a pattern): list its tools. With a namespace and a toolName: \
                 describe that tool, including the exact call_dynamic_tool input to call it with. Namespaces: {}",
                if listing.is_empty() {
                    "none".to_owned()
                } else {
                    listing.join("; ")
                }
            ),
            input_schema: get_schema(),
        };
        let call = MetaTool {
            name: CALL_DYNAMIC_TOOL,
            description: "Call a tool found with get_dynamic_tools: send its namespace, its toolName and its \
                          arguments as a JSON object matching the tool's input schema."
                .to_owned(),
            input_schema: call_schema(),
        };
        [get, call]
    }

    /// Answers a meta-tool call by name: `Ok` is the tool result for the model, `Err` displays
    /// as the message for the model.
    ///
    /// ```
    /// use serde_json::json;
    /// let c = tool_calls::ToolCatalog::new();
    /// assert!(c.handle_meta_call("get_dynamic_tools", &json!({})).is_ok());
    /// assert!(c.handle_meta_call("nope", &json!({})).is_err());
    /// ```
    pub fn handle_meta_call(&self, name: &str, input: &Value) -> Result<Value, DispatchError> {
        match name {
            GET_DYNAMIC_TOOLS => self.get_dynamic_tools(input),
            CALL_DYNAMIC_TOOL => self.call_dynamic_tool(input),
            other => Err(DispatchError::UnknownMetaTool(other.to_owned())),
        }
    }

    /// `get_dynamic_tools`: list namespaces; list a namespace's tools (matching `pattern`); or
    /// describe one tool with its `callWith` envelope.
    ///
    /// ```
    /// use serde_json::json;
    /// let mut c = tool_calls::ToolCatalog::new();
    /// c.register("mail", tool_calls::Tool::new("search", "Search mail", json!({"type": "object"})));
    /// let listed = c.get_dynamic_tools(&json!({"namespace": "mail", "pattern": "sea*"})).unwrap();
    /// assert_eq!(listed["tools"][0]["toolName"], "search");
    /// let described = c.get_dynamic_tools(&json!({"namespace": "mail", "toolName": "search"})).unwrap();
    /// assert_eq!(described["callWith"]["toolName"], "search");
    /// ```
    pub fn get_dynamic_tools(&self, input: &Value) -> Result<Value, DispatchError> {
        let schema = closed(get_schema());
        let input = if input.is_null() {
            json!({})
        } else {
            input.clone()
        };
        let ok = validate_with(&schema, &input, &self.options).map_err(DispatchError::Envelope)?;
        let input = ok.arguments;
        let namespace = input.get("namespace").and_then(Value::as_str);
        let tool_name = input.get("toolName").and_then(Value::as_str);
        let pattern = input
            .get("pattern")
            .and_then(Value::as_str)
            .unwrap_or_default();
        match (namespace, tool_name) {
            (Some(ns), Some(name)) => Ok(self.lookup(ns, name)?.to_json()),
            (None, Some(name)) => {
                let holders = self.namespaces_with(name);
                match holders.as_slice() {
                    [ns] => Ok(self.lookup(ns, name)?.to_json()),
                    _ => {
                        let mut names: Vec<&str> = Vec::new();
                        for (ns, _, _) in self.namespaces() {
                            for tool in self.tools(ns)? {
                                if !names.contains(&tool.name()) {
                                    names.push(tool.name());
                                }
                            }
                        }
                        Err(LookupError::ToolNotFound {
                            namespace: "(none given)".to_owned(),
                            name: name.to_owned(),
                            available: crate::aliases::closest_first(name, names)
                                .into_iter()
                                .map(str::to_owned)
                                .collect(),
                            elsewhere: holders,
                        }
                        .into())
                    }
                }
            }
            (Some(ns), None) => {
                let tools: Vec<Value> = self
                    .tools(ns)?
                    .filter(|t| pattern.is_empty() || matches_pattern(pattern, t.name()) || matches_pattern(pattern, t.description()))
                    .map(|t| json!({"toolName": t.name(), "description": first_line(t.description())}))
                    .collect();
                Ok(json!({
                    "namespace": ns,
                    "tools": tools,
                    "hint": format!("Describe a tool with get_dynamic_tools {{\"namespace\":{},\"toolName\":\"<name>\"}}, then call it with call_dynamic_tool.", Value::String(ns.to_owned())),
                }))
            }
            (None, None) => {
                let namespaces: Vec<Value> = self
                    .namespaces()
                    .map(|(name, description, count)| json!({"namespace": name, "description": description, "tools": count}))
                    .collect();
                Ok(json!({
                    "namespaces": namespaces,
                    "hint": "List a namespace's tools with get_dynamic_tools {\"namespace\":\"<namespace>\"}.",
                }))
            }
        }
    }

    /// Validates a `call_dynamic_tool` input — the envelope, then the arguments against the
    /// tool's original schema — without running the tool (for async dispatch).
    ///
    /// ```
    /// use serde_json::json;
    /// let mut c = tool_calls::ToolCatalog::new();
    /// c.register("mail", tool_calls::Tool::new("search", "", json!({"type": "object"})));
    /// let err = c.prepare_dynamic_call(&json!({"namespace": "mail", "name": "search", "arguments": {}})).unwrap_err();
    /// assert!(err.to_string().starts_with(r#""toolName" is missing — you sent "name"; the field is "toolName""#));
    /// ```
    pub fn prepare_dynamic_call(&self, input: &Value) -> Result<PreparedCall<'_>, DispatchError> {
        let envelope = match validate_with(&closed(call_schema()), input, &self.options) {
            Ok(ok) => ok,
            Err(err) => {
                let guess =
                    field_or_alias(input, "namespace").zip(field_or_alias(input, "toolName"));
                let example = guess
                    .and_then(|(ns, name)| self.get(ns, name).ok().map(|t| (ns, t)))
                    .map(|(ns, t)| {
                        envelope_example(
                            ns,
                            t.name(),
                            t.input_schema(),
                            input.get("arguments"),
                            self.options.example_budget,
                        )
                    });
                return Err(DispatchError::Envelope(match example {
                    Some(example) => err.with_example(example),
                    None => err,
                }));
            }
        };
        let mut coercions = envelope.coercions;
        let args = envelope.arguments;
        let namespace = args
            .get("namespace")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let name = args
            .get("toolName")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let arguments = args
            .get("arguments")
            .cloned()
            .unwrap_or_else(|| Value::Object(Map::new()));
        let tool = self.get(namespace, name)?;
        match validate_with(tool.input_schema(), &arguments, &self.options) {
            Ok(ok) => {
                coercions.extend(ok.coercions.into_iter().map(|mut c| {
                    c.pointer = format!("/arguments{}", c.pointer);
                    c
                }));
                Ok(PreparedCall {
                    namespace: namespace.to_owned(),
                    tool,
                    arguments: ok.arguments,
                    coercions,
                })
            }
            Err(err) => Err(DispatchError::InvalidArguments {
                namespace: namespace.to_owned(),
                tool: name.to_owned(),
                error: err.nested_under("arguments").with_example(envelope_example(
                    namespace,
                    name,
                    tool.input_schema(),
                    Some(&arguments),
                    self.options.example_budget,
                )),
            }),
        }
    }

    /// `call_dynamic_tool`: validates the envelope and the arguments, then runs the tool.
    ///
    /// ```
    /// use serde_json::{json, Value};
    /// let mut c = tool_calls::ToolCatalog::new();
    /// c.register("mail", tool_calls::Tool::new("send", "", json!({"type": "object"}))
    ///     .with_handler(|_: Value| Ok(json!("sent"))));
    /// let out = c.call_dynamic_tool(&json!({"namespace": "mail", "toolName": "send", "arguments": {}})).unwrap();
    /// assert_eq!(out, json!("sent"));
    /// ```
    pub fn call_dynamic_tool(&self, input: &Value) -> Result<Value, DispatchError> {
        let call = self.prepare_dynamic_call(input)?;
        run(&call.namespace, call.tool, call.arguments)
    }
}

#[cfg(test)]
mod tests {
    use super::matches_pattern;

    #[test]
    fn patterns_glob_or_substring() {
        assert!(matches_pattern("sea*", "search"));
        assert!(matches_pattern("*ch", "Search"));
        assert!(matches_pattern("s?nd", "send"));
        assert!(matches_pattern("ear", "search"));
        assert!(!matches_pattern("x*", "search"));
    }
}
