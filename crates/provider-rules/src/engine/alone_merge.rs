//! A sibling of `anyOf` moved into a branch that has the same keyword, where `anyOf` must
//! stand alone (Vertex: `When using any_of, it must be the only field set.`, vercel/ai#19000;
//! providers.md §2.2). The node means "the siblings and one of the branches", so each branch
//! becomes the branch and the siblings:
//!
//! - `properties`: the siblings' names the branch does not declare are added to it (a closed
//!   branch, `additionalProperties: false`, forbids them already and gets none); where the
//!   siblings close the object, the names only the branch declares are forbidden (a property
//!   that accepts no value, [`not_types::nothing`](super::not_types));
//! - `required`: both lists (the siblings' names the branch declares, so every required name
//!   stays a property: `required[0]: property is not defined`, moltis-org/moltis#747).
//!
//! Where the branch and the siblings both speak of one property, the branch's schema stays
//! (wider than both together, never narrower), unless the siblings' accepts no value: then
//! neither does the pair. Before, the branch's `properties` and `required` won
//! whole, so a closed sibling could refuse what the branch takes.

use schema_core::{Entry, Key, Keyword, Schema, SchemaObject, Value};

/// The closedness of a node: `additionalProperties: false`.
fn closed(o: &[Entry]) -> bool {
    o.iter().any(|e| {
        e.key == Key::Known(Keyword::AdditionalProperties)
            && matches!(&e.value, Value::Schema(s) if matches!(**s, Schema::Bool(false)))
    })
}

/// What the siblings say of a branch's members, read once for every branch.
pub(super) struct Siblings<'a> {
    properties: Option<&'a schema_core::SchemaMap>,
    closed: bool,
}

impl<'a> Siblings<'a> {
    pub(super) fn of(siblings: &'a [Entry]) -> Self {
        let properties = siblings.iter().find_map(|e| match (&e.key, &e.value) {
            (Key::Known(Keyword::Properties), Value::SchemaMap(m)) => Some(m),
            _ => None,
        });
        let patterns = siblings
            .iter()
            .any(|e| e.key == Key::Known(Keyword::PatternProperties));
        Siblings {
            properties,
            closed: closed(siblings) && !patterns,
        }
    }
}

/// Whether the branch `bo` is closed before the siblings come in (read before the first is
/// copied: a sibling's own `additionalProperties: false` does not close the branch's names).
pub(super) fn branch_closed(bo: &SchemaObject) -> bool {
    closed(bo.entries())
}

/// Merges the sibling `e` into `bo`, which has `e`'s keyword already (`was_closed`: `bo`
/// was closed before any sibling came in).
pub(super) fn merge(bo: &mut SchemaObject, e: &Entry, sib: &Siblings<'_>, was_closed: bool) {
    match (&e.key, &e.value) {
        (Key::Known(Keyword::Properties), Value::SchemaMap(theirs)) => {
            let Some(own) = bo.properties_mut() else {
                return;
            };
            if sib.closed {
                for (name, s) in own.iter_mut() {
                    if !theirs.contains_key(name) {
                        super::not_types::nothing(s);
                    }
                }
            }
            for (name, s) in theirs {
                match own.get_mut(name) {
                    // A name the siblings forbid stays forbidden (nothing and the branch's
                    // schema is nothing).
                    Some(mine) if super::not_types::accepts_no_value(s) => *mine = s.clone(),
                    Some(_) => {}
                    None if !was_closed => {
                        own.insert(name.clone(), s.clone());
                    }
                    None => {}
                }
            }
        }
        (Key::Known(Keyword::Required), Value::Strings(theirs)) => {
            let declared: Vec<String> = theirs
                .iter()
                .filter(|n| {
                    bo.properties().is_some_and(|p| p.contains_key(*n))
                        || (!was_closed && sib.properties.is_some_and(|p| p.contains_key(*n)))
                })
                .cloned()
                .collect();
            if let Some(own) = bo.strings_mut(Keyword::Required) {
                for n in declared {
                    if !own.contains(&n) {
                        own.push(n);
                    }
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use crate::{Rules, Slot, sanitize};
    use schema_core::Schema;
    use serde_json::json;

    fn vertex_accepts(s: &serde_json::Value, v: &serde_json::Value) -> bool {
        let out = sanitize(&Schema::from_value(s), &Rules::VERTEX, Slot::Schema);
        let out = out.schema.to_value();
        assert!(
            crate::check(&out, &Rules::VERTEX, Slot::Schema).is_empty(),
            "{out}"
        );
        jsonschema::validator_for(&out).is_ok_and(|x| x.is_valid(v))
    }

    #[test]
    fn a_branch_with_properties_keeps_the_siblings_properties_and_required() {
        let s = json!({"type": "object",
            "properties": {"a": {"type": "integer"}, "b": {"type": "string"}},
            "required": ["a"],
            "anyOf": [{"type": "object", "properties": {"c": {"type": "string"}}, "required": ["c"]},
                      {"type": "object", "properties": {"d": {"type": "string"}}}]});
        assert!(vertex_accepts(&s, &json!({"a": 1, "c": "x"})));
        assert!(vertex_accepts(&s, &json!({"a": 1, "d": "x", "b": "y"})));
        assert!(!vertex_accepts(&s, &json!({"a": "x", "c": "x"})));
        assert!(!vertex_accepts(&s, &json!({"c": "x"})));
        assert!(!vertex_accepts(&s, &json!({"a": 1, "b": 2, "d": "x"})));
    }

    #[test]
    fn a_name_the_siblings_forbid_stays_forbidden_in_a_branch_that_declares_it() {
        // Without "a" (outer branch) and as "b"'s schema says, which requires "a" (inner
        // branch): no object.
        let s = json!({"dependencies": {"a": ["b"], "b": {"required": ["a"]}}});
        assert!(vertex_accepts(&s, &json!({})));
        assert!(vertex_accepts(&s, &json!({"a": 1, "b": 2})));
        assert!(!vertex_accepts(&s, &json!({"a": 1})));
        assert!(!vertex_accepts(&s, &json!({"b": 1})));
    }

    #[test]
    fn a_closed_sibling_does_not_refuse_what_it_declares() {
        let s = json!({"type": "object", "properties": {"a": {"type": "integer"}},
            "additionalProperties": false,
            "anyOf": [{"type": "object", "properties": {"b": {"type": "integer"}}}, {"type": "object"}]});
        assert!(vertex_accepts(&s, &json!({"a": 1})));
        assert!(vertex_accepts(&s, &json!({})));
        assert!(!vertex_accepts(&s, &json!({"a": "x"})));
    }
}
