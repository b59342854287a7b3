//! The one decoder the proxy needs today: a strict profile lists every property as required
//! (optional ones nullable), so a model sends `null` for what it means to leave out; those nulls
//! are removed before the arguments are checked against the original schema.
//!
//! Isolated here so it can give way to provider-rules' decoders when they land.

use serde_json::{Map, Value};

/// How deep the arguments are followed.
const MAX_DEPTH: usize = 64;

/// `args` without the `null` values of properties the original `schema` does not require
/// (`None` when there are none). Follows `properties`, `items` and local `$ref`s.
pub fn strip_optional_nulls(args: &Value, schema: &Value) -> Option<Value> {
    let mut out = args.clone();
    strip(&mut out, schema, schema, 0).then_some(out)
}

fn resolve<'a>(schema: &'a Value, root: &'a Value) -> &'a Value {
    let mut s = schema;
    for _ in 0..MAX_DEPTH {
        match s.get("$ref").and_then(Value::as_str) {
            Some(r) if r.starts_with('#') => match root.pointer(&r[1..]) {
                Some(t) => s = t,
                None => break,
            },
            _ => break,
        }
    }
    s
}

fn strip(value: &mut Value, schema: &Value, root: &Value, depth: usize) -> bool {
    if depth >= MAX_DEPTH {
        return false;
    }
    let schema = resolve(schema, root);
    match value {
        Value::Object(map) => strip_object(map, schema, root, depth),
        Value::Array(items) => match schema.get("items") {
            Some(item) if item.is_object() => {
                let mut changed = false;
                for v in items {
                    changed |= strip(v, item, root, depth + 1);
                }
                changed
            }
            _ => false,
        },
        _ => false,
    }
}

fn strip_object(map: &mut Map<String, Value>, schema: &Value, root: &Value, depth: usize) -> bool {
    let Some(props) = schema.get("properties").and_then(Value::as_object) else {
        return false;
    };
    let required = |k: &str| {
        schema
            .get("required")
            .and_then(Value::as_array)
            .is_some_and(|r| r.iter().any(|n| n.as_str() == Some(k)))
    };
    let before = map.len();
    map.retain(|k, v| !(v.is_null() && props.contains_key(k) && !required(k)));
    let mut changed = map.len() != before;
    for (k, v) in map.iter_mut() {
        if let Some(p) = props.get(k) {
            changed |= strip(v, p, root, depth + 1);
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn nulls_of_optional_properties_go_required_ones_stay() {
        let schema = json!({
            "type": "object",
            "properties": {
                "q": {"type": "string"},
                "limit": {"type": "integer"},
                "filter": {"$ref": "#/$defs/F"},
                "tags": {"type": "array", "items": {"$ref": "#/$defs/F"}}
            },
            "required": ["q"],
            "$defs": {"F": {"type": "object", "properties": {"state": {"type": "string"}}}}
        });
        let args =
            json!({"q": null, "limit": null, "filter": {"state": null}, "tags": [{"state": null}]});
        assert_eq!(
            strip_optional_nulls(&args, &schema),
            Some(json!({"q": null, "filter": {}, "tags": [{}]}))
        );
        assert_eq!(strip_optional_nulls(&json!({"q": "x"}), &schema), None);
    }
}
