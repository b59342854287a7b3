//! Local `$ref` resolution: `#`, `#/$defs/X`, `#/definitions/X`, any JSON pointer (with
//! `~0`/`~1` and percent escapes), and `#name` plain-name anchors (`$anchor`, draft-07 `$id: "#name"`).
//!
//! References to other documents (a URL, a relative file) are not resolved: the validator
//! treats them as accepting anything, so a remote reference never rejects a call.

use serde_json::Value;

/// How deep the anchor search walks into a schema.
const ANCHOR_SEARCH_DEPTH: usize = 32;

/// Resolves a local reference against the root schema; `None` when it is not local or dangles.
pub(crate) fn resolve<'a>(root: &'a Value, reference: &str) -> Option<&'a Value> {
    let fragment = reference.strip_prefix('#')?;
    if fragment.is_empty() {
        return Some(root);
    }
    if fragment.starts_with('/') {
        let decoded = schema_core::pointer::percent_decode(fragment)?;
        return root.pointer(&decoded);
    }
    find_anchor(root, fragment, 0)
}

/// Finds the subschema declaring the plain-name anchor `name`.
fn find_anchor<'a>(schema: &'a Value, name: &str, depth: usize) -> Option<&'a Value> {
    if depth > ANCHOR_SEARCH_DEPTH {
        return None;
    }
    match schema {
        Value::Object(map) => {
            let anchor = map.get("$anchor").and_then(Value::as_str);
            let id_anchor = map
                .get("$id")
                .and_then(Value::as_str)
                .and_then(|id| id.strip_prefix('#'));
            if anchor == Some(name) || id_anchor == Some(name) {
                return Some(schema);
            }
            map.iter()
                .filter(|(k, _)| {
                    !matches!(
                        k.as_str(),
                        "enum" | "const" | "default" | "examples" | "example"
                    )
                })
                .find_map(|(_, v)| find_anchor(v, name, depth + 1))
        }
        Value::Array(items) => items.iter().find_map(|v| find_anchor(v, name, depth + 1)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn resolves_pointers_defs_and_anchors() {
        let root = json!({
            "$defs": {"a b": {"type": "string"}, "n": {"$anchor": "num", "type": "number"}},
            "definitions": {"x/y": {"type": "integer"}}
        });
        assert_eq!(resolve(&root, "#"), Some(&root));
        assert_eq!(
            resolve(&root, "#/$defs/a%20b"),
            Some(&json!({"type": "string"}))
        );
        assert_eq!(
            resolve(&root, "#/definitions/x~1y"),
            Some(&json!({"type": "integer"}))
        );
        assert_eq!(
            resolve(&root, "#num").and_then(|s| s.get("type")),
            Some(&json!("number"))
        );
        assert_eq!(resolve(&root, "other.json#/x"), None);
        assert_eq!(resolve(&root, "#/$defs/missing"), None);
        assert_eq!(resolve(&root, "#/%zz"), None);
    }
}
