//! [`LookupError`] and [`DispatchError`]: why a name was not found or a call not dispatched.

use super::ToolError;
use crate::CallError;
use crate::aliases::bounded_list;

/// At most this many names are listed in a "not found" answer.
const MAX_NAMES: usize = 40;

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
