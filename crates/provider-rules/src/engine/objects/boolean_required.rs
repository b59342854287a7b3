//! `boolean-required`: a draft-03 boolean `required` on a property moved to its object's
//! list (a tree pass before the walk).

use crate::RuleId;
use crate::engine::Cx;
use crate::engine::passes::At;
use schema_core::{Keyword, Schema, SchemaObject, Value};

/// A draft-03 boolean `required` on a property schema (gated by
/// [`Rules::promote_boolean_required`](crate::Rules::promote_boolean_required)):
/// `{"properties": {"foo": {"type": "string", "required": true}}}` becomes `{"properties":
/// {"foo": {"type": "string"}}, "required": ["foo"]}`; `required: false` is removed (CLIProxyAPI
/// `BooleanRequiredPromoted`, peers.md §3 #37). Left alone, the malformed value is dropped
/// and the property is no longer required. A tree-level pass before the walk and `$ref`
/// inlining: each flag goes to the object it was written in, before a merge (root union,
/// `allOf`, `if`/`then`) moves the property into another one, where it would mean something
/// else (a property required in one branch of a union is not required by the union).
/// Its step on one node ([`crate::engine::passes`] walks the tree).
pub(crate) fn boolean_required(s: &mut Schema, p: &At<'_>, cx: &mut Cx<'_>) {
    if let Some(o) = s.as_object_mut()
        && let Some(promoted) = promote_boolean_required(o)
    {
        promoted.report(p, cx);
    }
}

/// What [`promote_boolean_required`] did on one node.
pub(crate) struct Promoted {
    /// The properties whose `required: true` made them required.
    names: Vec<String>,
    /// The properties whose boolean `required` was removed.
    removed: Vec<String>,
    /// Whether the node's own `required` was malformed (not a boolean) and was replaced.
    replaced_malformed: bool,
}

impl Promoted {
    /// Writes the change (and a replaced malformed `required`) into the report.
    pub(crate) fn report(&self, p: &str, cx: &mut Cx<'_>) {
        let quote = |l: &[String]| {
            l.iter()
                .map(|n| format!("\"{n}\""))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let message = if self.names.is_empty() {
            format!(
                "draft-03 boolean required removed from {}",
                quote(&self.removed)
            )
        } else {
            format!(
                "draft-03 boolean required moved into the required list: {}",
                quote(&self.names)
            )
        };
        cx.change(p, RuleId::BooleanRequired, message);
        if self.replaced_malformed {
            cx.lost(
                p,
                RuleId::RequiredMalformed,
                "required was not an array of strings",
                None,
            );
        }
    }
}

/// Moves the boolean `required` of `o`'s property schemas into `o`'s `required` list (see
/// [`boolean_required`]). `None` when no property has one.
pub(crate) fn promote_boolean_required(o: &mut SchemaObject) -> Option<Promoted> {
    let props = o.properties_mut()?;
    let mut names = Vec::new();
    let mut removed = Vec::new();
    for (name, s) in props.iter_mut() {
        let Some(so) = s.as_object_mut() else {
            continue;
        };
        let Some(Value::Raw(raw)) = so.get(Keyword::Required) else {
            continue;
        };
        let Some(b) = as_bool(raw) else {
            continue;
        };
        so.remove(Keyword::Required);
        removed.push(name.clone());
        if b {
            names.push(name.clone());
        }
    }
    if removed.is_empty() {
        return None;
    }
    let mut replaced_malformed = false;
    if !names.is_empty() {
        if let Some(list) = o.strings_mut(Keyword::Required) {
            for n in &names {
                if !list.contains(n) {
                    list.push(n.clone());
                }
            }
        } else {
            // None, or a malformed value: a boolean one is the node's own draft-03 flag where
            // it says nothing (its parent would have taken it as a property's), anything
            // else is lost as the required step would lose it.
            let old = o.insert(Keyword::Required, Value::Strings(names.clone()));
            replaced_malformed = matches!(
                old,
                Some(Value::Raw(raw)) if as_bool(&raw).is_none()
            );
        }
    }
    Some(Promoted {
        names,
        removed,
        replaced_malformed,
    })
}

/// A raw value that is a JSON boolean.
fn as_bool(raw: &schema_core::Instance) -> Option<bool> {
    match raw.as_json().trim() {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Rules, Slot};

    /// A draft-03 `required: true` is not an array (what OpenAI's validator says of a
    /// `required` that is not one: `... is not of type 'array'`): the flag goes to its
    /// object's list, and `required: false` is removed.
    #[test]
    fn openai_is_not_of_type_array_boolean_required_promoted() {
        let mut s = Schema::from_str(
            r#"{"type":"object","properties":{"a":{"type":"string","required":true},"b":{"type":"string","required":false}}}"#,
        )
        .unwrap();
        let mut cx = Cx::new(&Rules::OPENAI, Slot::Parameters);
        crate::engine::passes::run(&mut s, &mut cx, &[(true, boolean_required)]);
        assert_eq!(
            s.to_json_string(),
            r#"{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"required":["a"]}"#
        );
        let changes = cx.into_report().changes;
        assert!(changes.iter().all(|c| c.rule == RuleId::BooleanRequired));
        assert!(!changes.is_empty());
    }
}
