//! [`Tool`]: a tool's name, description, original input schema and optional handler.

use serde_json::{Value, json};
use std::fmt;
use std::sync::Arc;

/// Runs a tool. Synchronous by design: the catalogue validates and routes, and an async
/// application dispatches itself from [`ToolCatalog::prepare_dynamic_call`](crate::ToolCatalog::prepare_dynamic_call) (which returns the
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
    pub(super) name: String,
    pub(super) description: String,
    pub(super) input_schema: Value,
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
