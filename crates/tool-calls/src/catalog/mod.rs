//! [`ToolCatalog`]: tools by namespace and name, with helpful answers for unknown names.

mod description;
mod envelope;
mod errors;
mod tool;

pub use description::ToolDescription;
pub(crate) use envelope::envelope_example;
use envelope::envelope_node;
pub use errors::{DispatchError, LookupError};
pub use tool::{Tool, ToolError, ToolHandler};

use crate::aliases::closest_first;
use crate::example::to_value;
use crate::{ValidateOptions, Validated, validate_with};
use indexmap::IndexMap;
use serde_json::Value;

/// The namespace [`ToolCatalog::add`] puts tools in.
pub const DEFAULT_NAMESPACE: &str = "default";

/// A namespace: a description and its tools, in registration order.
#[derive(Debug, Clone, Default)]
struct Namespace {
    description: String,
    tools: IndexMap<String, Tool>,
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
