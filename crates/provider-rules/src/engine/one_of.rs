//! `oneOf`: said as `anyOf` where it is not accepted, or where its branches lost constraints.

use super::{Cx, Rule};
use crate::RuleId;
use crate::hints;
use schema_core::{Key, Keyword, Schema, Value};

/// `oneOf` said as `anyOf` where `oneOf` is not accepted.
pub(crate) static ONE_OF: Rule = Rule::new(RuleId::OneOf)
    .reads(&[Keyword::OneOf])
    .gate(|r, _| !r.keywords.contains(Keyword::OneOf))
    .pre(one_of)
    .post(one_of)
    .found_by(
        &super::filter::UNSUPPORTED_KEYWORD,
        "a oneOf the profile refuses is a keyword it does not accept",
    );

/// `oneOf` → `anyOf` where `oneOf` is not accepted (Gemini's proto has no `oneOf`; OpenAI
/// strict: `'oneOf' is not permitted`). The exclusivity of `oneOf` is not kept.
pub(crate) fn one_of(node: &mut Schema, p: &crate::engine::passes::At<'_>, cx: &mut Cx<'_>) {
    let Some(o) = node.as_object_mut() else {
        return;
    };
    if !matches!(o.get(Keyword::OneOf), Some(Value::Schemas(_))) {
        return;
    }
    if o.contains(Keyword::AnyOf) {
        // Both must hold: keep anyOf, fold oneOf into an allOf member for the merge step.
        if let Some(v) = o.remove(Keyword::OneOf) {
            let mut inner = schema_core::SchemaObject::new();
            inner.insert(Keyword::AnyOf, v);
            let list = match o.remove(Keyword::AllOf) {
                Some(Value::Schemas(mut l)) => {
                    l.push(Schema::Object(inner));
                    l
                }
                _ => vec![Schema::Object(inner)],
            };
            o.insert(Keyword::AllOf, Value::Schemas(list));
        }
    } else {
        rename_to_any_of(o);
    }
    cx.lost(
        p,
        RuleId::OneOf,
        "oneOf became anyOf (exclusivity is not enforced)",
        None,
    );
}

/// Renames the node's `oneOf` to `anyOf` in its place: whether it had one.
fn rename_to_any_of(o: &mut schema_core::SchemaObject) -> bool {
    let Some(e) = o
        .entries_mut()
        .iter_mut()
        .find(|e| e.key == Key::Known(Keyword::OneOf))
    else {
        return false;
    };
    e.key = Key::Known(Keyword::AnyOf);
    true
}

/// A kept `oneOf` or `not` whose subschemas lost a constraint, loosened.
pub(crate) static LOOSENED: Rule = Rule::new(RuleId::Not)
    .reads(&[Keyword::OneOf, Keyword::Not])
    .post(loosened)
    .reports(&[RuleId::OneOf])
    .unchecked("repairs what other rules' losses made untrue, not what a provider refuses");

/// Where a branch of a kept `oneOf` lost a constraint, two branches may now match where one
/// did, and `oneOf` would reject what it accepted: it becomes `anyOf`. Likewise a `not` whose
/// schema lost a constraint rejects more than it did: it is dropped into the description.
pub(crate) fn loosened(node: &mut Schema, p: &crate::engine::passes::At<'_>, cx: &mut Cx<'_>) {
    let Some(o) = node.as_object() else { return };
    let one_of = o.contains(Keyword::OneOf)
        && !o.contains(Keyword::AnyOf)
        && cx.rules.keywords.contains(Keyword::AnyOf)
        && cx.lost_under(&format!("{p}/oneOf/"));
    let not = o.contains(Keyword::Not) && cx.lost_under(&format!("{p}/not"));
    let Some(o) = node.as_object_mut() else {
        return;
    };
    if one_of && rename_to_any_of(o) {
        cx.lost(
            p,
            RuleId::OneOf,
            "oneOf became anyOf: its branches lost constraints, so more than one may match",
            None,
        );
    }
    if not && let Some(v) = o.remove(Keyword::Not) {
        cx.lost(
            p,
            RuleId::Not,
            "not removed: its schema lost constraints, so it would reject valid values",
            hints::for_keyword(Keyword::Not, &v),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RuleId;
    use crate::engine::alone::fixes;
    use crate::rules::Rules;

    #[test]
    fn gemini_unknown_name_one_of_cannot_find_field_one_of_became_any_of() {
        let (out, changes) = fixes(
            &ONE_OF,
            r#"{"oneOf":[{"type":"string"},{"type":"integer"}]}"#,
            &Rules::GEMINI,
            RuleId::UnsupportedKeyword,
        );
        assert_eq!(changes[0].rule, RuleId::OneOf);
        assert_eq!(
            out.to_json_string(),
            r#"{"anyOf":[{"type":"string"},{"type":"integer"}]}"#
        );
    }
}
