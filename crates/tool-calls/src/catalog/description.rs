//! [`ToolDescription`]: what a lookup tells the model about a tool.

use serde_json::{Value, json};

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
