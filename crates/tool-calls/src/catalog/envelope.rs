//! The placeholder `call_dynamic_tool` envelope for a tool, as a node and rendered.

use crate::example::{Node, placeholder, placeholder_for, render_bounded};
use serde_json::Value;

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
