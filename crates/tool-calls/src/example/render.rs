//! Rendering an example tree: as a JSON value, or as text within a length budget.

use super::{MAX_GEN_DEPTH, Node};
use crate::json_type::truncate;
use serde_json::{Map, Value};

/// Converts a tree to a JSON value (`{...}` becomes `{}`).
pub(crate) fn to_value(node: &Node) -> Value {
    match node {
        Node::Leaf(v) => v.clone(),
        Node::Open => Value::Object(Map::new()),
        Node::Array(items) => Value::Array(items.iter().map(to_value).collect()),
        Node::Object(fields) => Value::Object(
            fields
                .iter()
                .map(|(k, v)| (k.clone(), to_value(v)))
                .collect(),
        ),
    }
}

/// Renders a tree within `budget` characters: first by eliding deep levels as `{...}`/`[...]`,
/// then by cutting the text with `...`.
pub(crate) fn render_bounded(node: &Node, budget: usize) -> String {
    for max_depth in (1..=MAX_GEN_DEPTH).rev() {
        let mut out = String::new();
        render(node, 0, max_depth, &mut out);
        if out.chars().count() <= budget {
            return out;
        }
    }
    let mut out = String::new();
    render(node, 0, 1, &mut out);
    truncate(&out, budget)
}

fn render(node: &Node, depth: usize, max_depth: usize, out: &mut String) {
    match node {
        Node::Leaf(v) => out.push_str(&v.to_string()),
        Node::Open => out.push_str("{...}"),
        Node::Object(fields) if fields.is_empty() => out.push_str("{}"),
        Node::Object(_) if depth >= max_depth => out.push_str("{...}"),
        Node::Object(fields) => {
            out.push('{');
            for (i, (k, v)) in fields.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(k.clone()).to_string());
                out.push(':');
                render(v, depth + 1, max_depth, out);
            }
            out.push('}');
        }
        Node::Array(items) if items.is_empty() => out.push_str("[]"),
        Node::Array(_) if depth >= max_depth => out.push_str("[...]"),
        Node::Array(items) => {
            out.push('[');
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                render(v, depth + 1, max_depth, out);
            }
            out.push(']');
        }
    }
}
