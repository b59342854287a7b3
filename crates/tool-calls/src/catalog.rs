//! [`ToolCatalog`]: tools by namespace and name, with helpful answers for unknown names.

use crate::aliases::{bounded_list, closest_first};
use crate::example::{Node, placeholder, placeholder_for, render_bounded, to_value};
use crate::{CallError, ValidateOptions, Validated, validate_with};
use indexmap::IndexMap;
use serde_json::{Value, json};
use std::fmt;
use std::sync::Arc;

/// The namespace [`ToolCatalog::add`] puts tools in.
pub const DEFAULT_NAMESPACE: &str = "default";
/// At most this many names are listed in a "not found" answer.
const MAX_NAMES: usize = 40;

/// Runs a tool. Synchronous by design: the catalogue validates and routes, and an async
/// application dispatches itself from [`ToolCatalog::prepare_dynamic_call`] (which returns the
/// tool and its validated arguments) or blocks on its runtime inside the handler.
///
/// Any `Fn(Value) -> Result<Value, ToolError> + Send + Sync` closure is a handler.
///
/// ```
/// use tool_calls::{ToolError, ToolHandler};
/// let echo = |args: serde_json::Value| -> Result<serde_json::Value, ToolError> { Ok(args) };
/// assert_eq!(echo.call(serde_json::json!(1)).unwrap(), 1);
/// ```
pub trait ToolHandler: Send + Sync {
    /// Runs the tool with validated arguments.
    fn call(&self, arguments: Value) -> Result<Value, ToolError>;
}

impl<F> ToolHandler for F
where
    F: Fn(Value) -> Result<Value, ToolError> + Send + Sync,
{
    fn call(&self, arguments: Value) -> Result<Value, ToolError> {
        self(arguments)
    }
}

/// A tool's own failure, passed back to the model as its message.
///
/// ```
/// let e = tool_calls::ToolError::new("mailbox is locked");
/// assert_eq!(e.to_string(), "mailbox is locked");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ToolError {
    /// What went wrong, for the model.
    pub message: String,
}

impl ToolError {
    /// A tool error with this message.
    ///
    /// ```
    /// assert_eq!(tool_calls::ToolError::new("x").message, "x");
    /// ```
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
        }
    }
}

/// A tool: name, description, original input schema, and optionally a handler.
///
/// ```
/// use serde_json::json;
/// let tool = tool_calls::Tool::new("search", "Search mail", json!({"type": "object"}));
/// assert_eq!(tool.name(), "search");
/// ```
#[derive(Clone)]
pub struct Tool {
    name: String,
    description: String,
    input_schema: Value,
    handler: Option<Arc<dyn ToolHandler>>,
}

impl fmt::Debug for Tool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tool")
            .field("name", &self.name)
            .field("description", &self.description)
            .field("input_schema", &self.input_schema)
            .field("handler", &self.handler.is_some())
            .finish()
    }
}

impl Tool {
    /// A tool without a handler (validation and lookup only).
    ///
    /// ```
    /// let t = tool_calls::Tool::new("t", "d", serde_json::json!({}));
    /// assert_eq!(t.description(), "d");
    /// ```
    pub fn new(
        name: impl Into<String>,
        description: impl Into<String>,
        input_schema: Value,
    ) -> Self {
        Self {
            name: name.into(),
            description: description.into(),
            input_schema,
            handler: None,
        }
    }

    /// Attaches the handler that runs the tool.
    ///
    /// ```
    /// use serde_json::{json, Value};
    /// let t = tool_calls::Tool::new("t", "d", json!({})).with_handler(|_: Value| Ok(json!("done")));
    /// assert!(t.has_handler());
    /// ```
    pub fn with_handler(mut self, handler: impl ToolHandler + 'static) -> Self {
        self.handler = Some(Arc::new(handler));
        self
    }

    /// A tool from an MCP `tools/list` entry (`{"name", "description", "inputSchema"}`).
    ///
    /// ```
    /// use serde_json::json;
    /// let t = tool_calls::Tool::from_mcp(&json!({"name": "x", "inputSchema": {"type": "object"}})).unwrap();
    /// assert_eq!(t.input_schema(), &json!({"type": "object"}));
    /// ```
    pub fn from_mcp(entry: &Value) -> Option<Self> {
        let name = entry.get("name")?.as_str()?;
        let description = entry
            .get("description")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let schema = entry
            .get("inputSchema")
            .cloned()
            .unwrap_or_else(|| json!({"type": "object"}));
        Some(Self::new(name, description, schema))
    }

    /// The tool's name.
    ///
    /// ```
    /// assert_eq!(tool_calls::Tool::new("t", "", serde_json::json!({})).name(), "t");
    /// ```
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The tool's description.
    ///
    /// ```
    /// assert_eq!(tool_calls::Tool::new("t", "d", serde_json::json!({})).description(), "d");
    /// ```
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The tool's original input schema.
    ///
    /// ```
    /// use serde_json::json;
    /// assert_eq!(tool_calls::Tool::new("t", "", json!(true)).input_schema(), &json!(true));
    /// ```
    pub fn input_schema(&self) -> &Value {
        &self.input_schema
    }

    /// Whether a handler is attached.
    ///
    /// ```
    /// assert!(!tool_calls::Tool::new("t", "", serde_json::json!({})).has_handler());
    /// ```
    pub fn has_handler(&self) -> bool {
        self.handler.is_some()
    }

    /// Runs the handler on already validated arguments.
    pub(crate) fn run(&self, arguments: Value) -> Option<Result<Value, ToolError>> {
        self.handler.as_ref().map(|h| h.call(arguments))
    }
}

/// A namespace: a description and its tools, in registration order.
#[derive(Debug, Clone, Default)]
struct Namespace {
    description: String,
    tools: IndexMap<String, Tool>,
}

/// A looked-up tool: what to tell the model about it, and the exact envelope to call it with.
///
/// ```
/// use serde_json::json;
/// let mut catalog = tool_calls::ToolCatalog::new();
/// catalog.register("mail", tool_calls::Tool::new("search", "Search mail",
///     json!({"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]})));
/// let d = catalog.lookup("mail", "search").unwrap();
/// assert_eq!(d.call_with, json!({"namespace": "mail", "toolName": "search", "arguments": {"q": "<string>"}}));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ToolDescription {
    /// The namespace.
    pub namespace: String,
    /// The tool name.
    pub name: String,
    /// The description.
    pub description: String,
    /// The original input schema.
    pub input_schema: Value,
    /// The `call_dynamic_tool` input that calls it, with placeholder arguments.
    pub call_with: Value,
}

impl ToolDescription {
    /// The JSON answer `get_dynamic_tools` gives:
    /// `{"namespace","toolName","description","inputSchema","callWith"}`.
    ///
    /// ```
    /// use serde_json::json;
    /// let mut catalog = tool_calls::ToolCatalog::new();
    /// catalog.add(tool_calls::Tool::new("t", "d", json!({"type": "object"})));
    /// let v = catalog.lookup("default", "t").unwrap().to_json();
    /// assert_eq!(v["callWith"], json!({"namespace": "default", "toolName": "t", "arguments": {}}));
    /// ```
    pub fn to_json(&self) -> Value {
        json!({
            "namespace": self.namespace,
            "toolName": self.name,
            "description": self.description,
            "inputSchema": self.input_schema,
            "callWith": self.call_with,
        })
    }
}

/// A name the catalogue does not know, answered with the names it does, closest first.
///
/// ```
/// use serde_json::json;
/// use tool_calls::{Tool, ToolCatalog};
/// let mut catalog = ToolCatalog::new();
/// catalog.register("mail", Tool::new("send", "", json!({})));
/// catalog.register("mail", Tool::new("search", "", json!({})));
/// let err = catalog.get("mail", "serch").unwrap_err();
/// assert_eq!(err.to_string(), r#"Tool not found: "serch" in namespace "mail". Tools in this namespace: search, send"#);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LookupError {
    /// No such namespace.
    #[error(
        "Namespace not found: \"{namespace}\". Namespaces: {}",
        list_or_none(available)
    )]
    NamespaceNotFound {
        /// The namespace asked for.
        namespace: String,
        /// The namespaces there are, closest first.
        available: Vec<String>,
    },
    /// No such tool in the namespace.
    #[error(
        "Tool not found: \"{name}\" in namespace \"{namespace}\". Tools in this namespace: {}{}",
        list_or_none(available),
        elsewhere_note(name, elsewhere)
    )]
    ToolNotFound {
        /// The namespace searched.
        namespace: String,
        /// The tool name asked for.
        name: String,
        /// The tools in that namespace, closest first.
        available: Vec<String>,
        /// Other namespaces that have a tool of that name.
        elsewhere: Vec<String>,
    },
}

fn list_or_none(names: &[String]) -> String {
    if names.is_empty() {
        return "none".to_owned();
    }
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    bounded_list(&refs, MAX_NAMES)
}

fn elsewhere_note(name: &str, elsewhere: &[String]) -> String {
    match elsewhere {
        [] => String::new(),
        _ => format!(
            ". A tool named \"{name}\" is in namespace {}",
            list_or_none(
                &elsewhere
                    .iter()
                    .map(|n| format!("\"{n}\""))
                    .collect::<Vec<_>>()
            )
        ),
    }
}

/// Why a call could not be dispatched. `Display` is the message for the model.
///
/// ```
/// use serde_json::json;
/// use tool_calls::{Tool, ToolCatalog};
/// let mut catalog = ToolCatalog::new();
/// catalog.add(Tool::new("t", "", json!({"type": "object", "required": ["x"]})));
/// let err = catalog.call("default", "t", &json!({})).unwrap_err();
/// assert!(err.to_string().contains("\"x\" is missing"));
/// ```
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum DispatchError {
    /// The meta-tool input (the envelope) is malformed.
    #[error("{0}")]
    Envelope(CallError),
    /// The namespace or tool does not exist.
    #[error("{0}")]
    Lookup(#[from] LookupError),
    /// The tool's arguments do not validate against its original schema.
    #[error("Invalid arguments for tool \"{tool}\" in namespace \"{namespace}\":\n{error}")]
    InvalidArguments {
        /// The namespace.
        namespace: String,
        /// The tool.
        tool: String,
        /// What is wrong.
        error: CallError,
    },
    /// The tool exists but no handler is registered for it.
    #[error(
        "Tool \"{tool}\" in namespace \"{namespace}\" cannot be called here: it has no handler"
    )]
    NoHandler {
        /// The namespace.
        namespace: String,
        /// The tool.
        tool: String,
    },
    /// The tool ran and failed.
    #[error("Tool \"{tool}\" in namespace \"{namespace}\" failed: {error}")]
    Tool {
        /// The namespace.
        namespace: String,
        /// The tool.
        tool: String,
        /// Its error.
        error: ToolError,
    },
    /// A meta-tool name that is neither `get_dynamic_tools` nor `call_dynamic_tool`.
    #[error("Tool not found: \"{0}\". Tools: get_dynamic_tools, call_dynamic_tool")]
    UnknownMetaTool(String),
}

/// Tools grouped in namespaces, each resolvable by name, validated and dispatched.
///
/// ```
/// use serde_json::{json, Value};
/// use tool_calls::{Tool, ToolCatalog};
/// let mut catalog = ToolCatalog::new();
/// catalog.register("math", Tool::new("double", "Doubles n",
///     json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}))
///     .with_handler(|args: Value| Ok(json!(args["n"].as_i64().unwrap_or(0) * 2))));
/// assert_eq!(catalog.call("math", "double", &json!({"n": 21})).unwrap(), json!(42));
/// ```
#[derive(Debug, Clone, Default)]
pub struct ToolCatalog {
    namespaces: IndexMap<String, Namespace>,
    pub(crate) options: ValidateOptions,
}

impl ToolCatalog {
    /// An empty catalogue with default (strict) validation.
    ///
    /// ```
    /// assert_eq!(tool_calls::ToolCatalog::new().len(), 0);
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the validation options (e.g. [`ValidateOptions::lenient`]).
    ///
    /// ```
    /// let c = tool_calls::ToolCatalog::new().with_options(tool_calls::ValidateOptions::lenient());
    /// assert!(c.options().lenient_json_text);
    /// ```
    pub fn with_options(mut self, options: ValidateOptions) -> Self {
        self.options = options;
        self
    }

    /// The validation options.
    ///
    /// ```
    /// assert!(!tool_calls::ToolCatalog::new().options().lenient_json_text);
    /// ```
    pub fn options(&self) -> &ValidateOptions {
        &self.options
    }

    /// Registers a tool in a namespace (created on first use); returns the tool it replaced.
    ///
    /// ```
    /// let mut c = tool_calls::ToolCatalog::new();
    /// assert!(c.register("ns", tool_calls::Tool::new("t", "", serde_json::json!({}))).is_none());
    /// assert_eq!(c.len(), 1);
    /// ```
    pub fn register(&mut self, namespace: &str, tool: Tool) -> Option<Tool> {
        let ns = self.namespaces.entry(namespace.to_owned()).or_default();
        ns.tools.insert(tool.name.clone(), tool)
    }

    /// Registers a tool in [`DEFAULT_NAMESPACE`].
    ///
    /// ```
    /// let mut c = tool_calls::ToolCatalog::new();
    /// c.add(tool_calls::Tool::new("t", "", serde_json::json!({})));
    /// assert!(c.get("default", "t").is_ok());
    /// ```
    pub fn add(&mut self, tool: Tool) -> Option<Tool> {
        self.register(DEFAULT_NAMESPACE, tool)
    }

    /// Describes a namespace (shown when namespaces are listed); creates it if needed.
    ///
    /// ```
    /// let mut c = tool_calls::ToolCatalog::new();
    /// c.describe_namespace("mail", "Read and send email");
    /// assert_eq!(c.namespaces().next(), Some(("mail", "Read and send email", 0)));
    /// ```
    pub fn describe_namespace(&mut self, namespace: &str, description: impl Into<String>) {
        self.namespaces
            .entry(namespace.to_owned())
            .or_default()
            .description = description.into();
    }

    /// The namespaces: name, description, tool count; in registration order.
    ///
    /// ```
    /// assert_eq!(tool_calls::ToolCatalog::new().namespaces().count(), 0);
    /// ```
    pub fn namespaces(&self) -> impl Iterator<Item = (&str, &str, usize)> {
        self.namespaces
            .iter()
            .map(|(n, ns)| (n.as_str(), ns.description.as_str(), ns.tools.len()))
    }

    /// How many tools there are in all.
    ///
    /// ```
    /// assert!(tool_calls::ToolCatalog::new().is_empty());
    /// ```
    pub fn len(&self) -> usize {
        self.namespaces.values().map(|ns| ns.tools.len()).sum()
    }

    /// Whether there are no tools.
    ///
    /// ```
    /// assert!(tool_calls::ToolCatalog::new().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The tools of a namespace, in registration order.
    ///
    /// ```
    /// let c = tool_calls::ToolCatalog::new();
    /// assert!(c.tools("nope").is_err());
    /// ```
    pub fn tools(&self, namespace: &str) -> Result<impl Iterator<Item = &Tool>, LookupError> {
        Ok(self.namespace(namespace)?.tools.values())
    }

    fn namespace(&self, namespace: &str) -> Result<&Namespace, LookupError> {
        self.namespaces
            .get(namespace)
            .ok_or_else(|| LookupError::NamespaceNotFound {
                namespace: namespace.to_owned(),
                available: closest_first(namespace, self.namespaces.keys().map(String::as_str))
                    .into_iter()
                    .map(str::to_owned)
                    .collect(),
            })
    }

    /// Resolves a tool; an unknown name is answered with the names there are, closest first.
    ///
    /// ```
    /// let c = tool_calls::ToolCatalog::new();
    /// assert!(c.get("default", "t").unwrap_err().to_string().starts_with("Namespace not found"));
    /// ```
    pub fn get(&self, namespace: &str, name: &str) -> Result<&Tool, LookupError> {
        let ns = self.namespace(namespace)?;
        ns.tools.get(name).ok_or_else(|| LookupError::ToolNotFound {
            namespace: namespace.to_owned(),
            name: name.to_owned(),
            available: closest_first(name, ns.tools.keys().map(String::as_str))
                .into_iter()
                .map(str::to_owned)
                .collect(),
            elsewhere: self.namespaces_with(name),
        })
    }

    /// The namespaces holding a tool of this name.
    pub(crate) fn namespaces_with(&self, name: &str) -> Vec<String> {
        self.namespaces
            .iter()
            .filter(|(_, ns)| ns.tools.contains_key(name))
            .map(|(n, _)| n.clone())
            .collect()
    }

    /// Looks a tool up: description, schema, and the `call_dynamic_tool` envelope to call it.
    ///
    /// ```
    /// use serde_json::json;
    /// let mut c = tool_calls::ToolCatalog::new();
    /// c.add(tool_calls::Tool::new("t", "d", json!({"type": "object"})));
    /// assert_eq!(c.lookup("default", "t").unwrap().description, "d");
    /// ```
    pub fn lookup(&self, namespace: &str, name: &str) -> Result<ToolDescription, LookupError> {
        let tool = self.get(namespace, name)?;
        Ok(ToolDescription {
            namespace: namespace.to_owned(),
            name: tool.name.clone(),
            description: tool.description.clone(),
            input_schema: tool.input_schema.clone(),
            call_with: to_value(&envelope_node(
                namespace,
                &tool.name,
                &tool.input_schema,
                None,
            )),
        })
    }

    /// Validates arguments for a tool against its original schema.
    ///
    /// ```
    /// use serde_json::json;
    /// let mut c = tool_calls::ToolCatalog::new();
    /// c.add(tool_calls::Tool::new("t", "", json!({"type": "object"})));
    /// assert!(c.validate_call("default", "t", &json!([])).is_err());
    /// ```
    pub fn validate_call(
        &self,
        namespace: &str,
        name: &str,
        arguments: &Value,
    ) -> Result<Validated, DispatchError> {
        let tool = self.get(namespace, name)?;
        validate_with(&tool.input_schema, arguments, &self.options).map_err(|error| {
            DispatchError::InvalidArguments {
                namespace: namespace.to_owned(),
                tool: name.to_owned(),
                error,
            }
        })
    }

    /// Validates, then runs the tool's handler.
    ///
    /// ```
    /// use serde_json::{json, Value};
    /// let mut c = tool_calls::ToolCatalog::new();
    /// c.add(tool_calls::Tool::new("t", "", json!({})).with_handler(|v: Value| Ok(v)));
    /// assert_eq!(c.call("default", "t", &json!(1)).unwrap(), json!(1));
    /// ```
    pub fn call(
        &self,
        namespace: &str,
        name: &str,
        arguments: &Value,
    ) -> Result<Value, DispatchError> {
        let validated = self.validate_call(namespace, name, arguments)?;
        let tool = self.get(namespace, name)?;
        run(namespace, tool, validated.arguments)
    }
}

/// Runs a tool's handler, mapping its absence and its failure.
pub(crate) fn run(namespace: &str, tool: &Tool, arguments: Value) -> Result<Value, DispatchError> {
    match tool.run(arguments) {
        Some(Ok(v)) => Ok(v),
        Some(Err(error)) => Err(DispatchError::Tool {
            namespace: namespace.to_owned(),
            tool: tool.name.clone(),
            error,
        }),
        None => Err(DispatchError::NoHandler {
            namespace: namespace.to_owned(),
            tool: tool.name.clone(),
        }),
    }
}

/// The placeholder `call_dynamic_tool` envelope for a tool.
pub(crate) fn envelope_node(
    namespace: &str,
    name: &str,
    schema: &Value,
    sent: Option<&Value>,
) -> Node {
    let arguments = match sent {
        Some(sent) => placeholder_for(schema, sent),
        None => placeholder(schema),
    };
    Node::Object(vec![
        (
            "namespace".to_owned(),
            Node::Leaf(Value::String(namespace.to_owned())),
        ),
        (
            "toolName".to_owned(),
            Node::Leaf(Value::String(name.to_owned())),
        ),
        ("arguments".to_owned(), arguments),
    ])
}

/// The rendered envelope example for a tool, within `budget` characters.
pub(crate) fn envelope_example(
    namespace: &str,
    name: &str,
    schema: &Value,
    sent: Option<&Value>,
    budget: usize,
) -> String {
    render_bounded(&envelope_node(namespace, name, schema, sent), budget)
}
