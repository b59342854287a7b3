//! `type-inferred`: a missing `type` inferred where the provider requires one (`any-value`
//! where the keywords speak of no type).

use super::{infer, rank};
use crate::RuleId;
use crate::engine::rule::Hint;
use crate::engine::{Check, Cx, Rule};
use schema_core::{InstanceType as T, Keyword, Schema, TypeSet, Value};

/// A missing `type` inferred where the provider requires one.
pub(crate) static TYPE_INFERRED: Rule = Rule::new(RuleId::TypeInferred)
    .gate(|r, _| r.type_required)
    .post(infer_missing_type)
    .check(Check::Object(check::type_missing))
    .reports(&[RuleId::TypeMissing, RuleId::AnyValue])
    .hints(&[ANY_JSON_VALUE]);

/// What a schema accepting any value leaves when it gets one type.
const ANY_JSON_VALUE: Hint = Hint::new(RuleId::AnyValue, "Any JSON value.");

/// Infers a missing `type` from the keywords present (gated by `type_required`). A node that
/// says nothing about types becomes the profile's any-value schema. Prevents
/// `...type: must be specified when not using one_of, any_of or all_of fields`.
pub(crate) fn infer_missing_type(
    node: &mut Schema,
    p: &crate::engine::passes::At<'_>,
    cx: &mut Cx<'_>,
) {
    let o = node.make_object();
    if matches!(o.get(Keyword::Type), Some(Value::Type(_))) {
        return;
    }
    // A malformed `anyOf` (`"anyOf": 1`) is dropped later by the keyword filter: it does not
    // stand for a type (fuzz: `{"anyOf": 1}` came out `{}` for Gemini, `type` missing).
    let accepted =
        |k: Keyword| matches!(o.get(k), Some(Value::Schemas(_))) && cx.rules.keywords.contains(k);
    if accepted(Keyword::AnyOf) || accepted(Keyword::OneOf) || accepted(Keyword::AllOf) {
        return;
    }
    let inferred = infer(o);
    match inferred.len() {
        0 => to_any_value(node, p, cx),
        1 => {
            o.insert(Keyword::Type, Value::Type(TypeSet::Single(inferred[0])));
            cx.change(
                p,
                RuleId::TypeInferred,
                format!("type {} inferred from keywords", inferred[0]),
            );
        }
        _ => {
            let best = inferred
                .iter()
                .copied()
                .max_by_key(|t| rank(*t))
                .unwrap_or(T::String);
            o.insert(Keyword::Type, Value::Type(TypeSet::Single(best)));
            cx.change(
                p,
                RuleId::TypeInferred,
                format!("type {best} inferred from keywords"),
            );
        }
    }
}

/// Replaces a node that accepts any value by the profile's any-value schema, keeping its
/// annotations. Where that schema is one type only, a node whose keywords spoke of a type
/// ([`Cx::guess`]) gets that type instead: `{"enum": [1, 2]}` on a profile that takes string
/// enums only keeps `integer`, not `string`.
fn to_any_value(node: &mut Schema, p: &str, cx: &mut Cx<'_>) {
    let guess = cx
        .guess()
        .iter()
        .copied()
        .filter(|t| *t != T::Null)
        .max_by_key(|t| rank(*t));
    if let Some(t) = guess {
        node.make_object()
            .insert(Keyword::Type, Value::Type(TypeSet::Single(t)));
        // No "Any JSON value." beside a type: the keywords said what the value is meant to be.
        cx.lost(
            p,
            RuleId::AnyValue,
            format!("a schema accepting any value got type {t}, the type its keywords spoke of"),
            None,
        );
        return;
    }
    let Some(any) = cx.any_value().cloned() else {
        return;
    };
    let Schema::Object(mut any) = any else { return };
    let lossy = !any.contains(Keyword::AnyOf);
    if let Some(o) = node.as_object() {
        for e in o.entries() {
            if !any.entries().iter().any(|x| x.key == e.key) {
                any.insert_key(e.key.clone(), e.value.clone());
            }
        }
    }
    *node = Schema::Object(any);
    if lossy {
        cx.lost(
            p,
            RuleId::AnyValue,
            "a schema accepting any value got a type",
            Some(ANY_JSON_VALUE.text()),
        );
    } else {
        cx.change(
            p,
            RuleId::AnyValue,
            "a schema accepting any value got typed alternatives",
        );
    }
}

/// What the provider would reject that this file's step fixes: the checker's part of the
/// rule (run on every object node, in the order of [`ORDER`](crate::engine::ORDER)).
pub(crate) mod check {
    use crate::RuleId;
    use crate::check::Checker;
    use schema_core::{Keyword, SchemaObject, Value};

    /// A node without `type` where the provider requires one ([`infer_missing_type`](super::infer_missing_type)).
    pub(crate) fn type_missing(c: &mut Checker<'_>, p: &str, o: &SchemaObject) {
        let r = c.rules;
        let composed =
            o.contains(Keyword::AnyOf) || o.contains(Keyword::OneOf) || o.contains(Keyword::AllOf);
        if r.type_required && !matches!(o.get(Keyword::Type), Some(Value::Type(_))) && !composed {
            c.push(p, RuleId::TypeMissing, "type must be specified".to_owned());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::alone::fixes;
    use crate::rules::Rules;

    #[test]
    fn gemini_type_must_be_specified_when_not_using_any_of_type_inferred() {
        let (out, changes) = fixes(
            &TYPE_INFERRED,
            r#"{"type":"object","properties":{"n":{"minimum":1}}}"#,
            &Rules::GEMINI,
            RuleId::TypeMissing,
        );
        assert_eq!(changes[0].rule, RuleId::TypeInferred);
        assert!(
            out.to_json_string()
                .contains(r#""n":{"minimum":1,"type":"number"}"#)
                || out.to_json_string().contains(r#""type":"number""#),
            "{}",
            out.to_json_string()
        );
    }
}
