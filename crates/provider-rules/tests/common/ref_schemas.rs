//! Schemas that hold references, shared by the tests of kept `$ref`s (issue 16).

use serde_json::{Value, json};

/// A tree: a `node` with a required `name`, an optional `label` and optional `children`.
pub fn tree() -> Value {
    json!({
        "type": "object",
        "properties": {"root": {"$ref": "#/$defs/node"}},
        "required": ["root"],
        "$defs": {"node": {
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "label": {"type": "string"},
                "children": {"type": "array", "items": {"$ref": "#/$defs/node"}}
            },
            "required": ["name"]
        }}
    })
}

/// 12 levels of `{a: $ref X, b: $ref X}`: inlined, it doubles at every level.
pub fn doubling(levels: usize) -> Value {
    let mut defs = serde_json::Map::new();
    defs.insert(
        "l0".into(),
        json!({"type": "object", "properties": {"v": {"type": "string", "description": "a leaf value"}}, "required": ["v"]}),
    );
    for i in 1..=levels {
        let r = format!("#/$defs/l{}", i - 1);
        defs.insert(
            format!("l{i}"),
            json!({"type": "object", "description": format!("level {i}"),
                "properties": {"a": {"$ref": r}, "b": {"$ref": r}}, "required": ["a", "b"]}),
        );
    }
    json!({"type": "object", "properties": {"top": {"$ref": format!("#/$defs/l{levels}")}},
        "required": ["top"], "$defs": defs})
}
