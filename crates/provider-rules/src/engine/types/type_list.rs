//! `type-list`: a `type` list split into one type per node where the provider wants one.

use super::{applies_to, keyword_fits, rank, unions_allowed};
use crate::RuleId;
use crate::engine::rule::Hint;
use crate::engine::{Check, Cx, Rule};
use crate::rules::{NullStyle, TypeLists};
use schema_core::{InstanceType as T, Key, Keyword, Schema, SchemaObject, TypeSet, Value};

/// A `type` list split into one type per node where the provider wants one.
pub(crate) static TYPE_LIST: Rule = Rule::new(RuleId::TypeList)
    .reads(&[Keyword::Type])
    .gate(|r, _| r.type_lists == TypeLists::Split)
    .pre(split_type_list)
    .post(split_type_list)
    .check(Check::Object(check::type_list))
    .hints(&[ALSO_ACCEPTS]);

/// What a type list collapsed to one type leaves: the other types.
const ALSO_ACCEPTS: Hint = Hint::new(RuleId::TypeList, "Also accepts {}.");

/// `"type": ["string", "number", "null"]` → one type per node (gated by
/// [`TypeLists::Split`]). Several types become an `anyOf` of typed branches, each taking the
/// keywords that apply to it; `null` becomes the profile's null style (done by the null step).
/// Prevents `Proto field is not repeating, cannot start list`.
pub(crate) fn split_type_list(
    node: &mut Schema,
    p: &crate::engine::passes::At<'_>,
    cx: &mut Cx<'_>,
) {
    let Some(o) = node.as_object_mut() else {
        return;
    };
    // A single type (most nodes) is not copied.
    let Some(TypeSet::List(list)) = o.types() else {
        return;
    };
    let list = list.clone();
    let mut types: Vec<T> = Vec::new();
    for t in &list {
        if !types.contains(t) {
            types.push(*t);
        }
    }
    let has_null = types.contains(&T::Null);
    let others: Vec<T> = types.iter().copied().filter(|t| *t != T::Null).collect();
    match others.len() {
        0 => {
            o.insert(Keyword::Type, Value::Type(TypeSet::Single(T::Null)));
            cx.change(
                p,
                RuleId::TypeList,
                "a type list of null only became type null",
            );
        }
        1 => {
            o.insert(Keyword::Type, Value::Type(TypeSet::Single(others[0])));
            if has_null {
                o.insert(Keyword::Nullable, Value::Bool(true));
            }
            cx.change(
                p,
                RuleId::TypeList,
                format!("type list became {} (nullable)", others[0]),
            );
        }
        _ if unions_allowed(cx) && !o.contains(Keyword::AnyOf) => {
            let mut branches = Vec::new();
            for (i, t) in others.iter().enumerate() {
                let mut b = SchemaObject::new();
                b.insert(Keyword::Type, Value::Type(TypeSet::Single(*t)));
                for e in o.entries() {
                    if let Key::Known(kw) = e.key
                        && applies_to(kw).is_some()
                        && keyword_fits(kw, *t)
                    {
                        b.insert(kw, e.value.clone());
                    }
                }
                if has_null && i == 0 {
                    b.insert(Keyword::Nullable, Value::Bool(true));
                }
                branches.push(Schema::Object(b));
            }
            o.retain(|e| match e.key {
                Key::Known(kw) => kw != Keyword::Type && applies_to(kw).is_none(),
                Key::Other(_) => true,
            });
            o.insert(Keyword::AnyOf, Value::Schemas(branches));
            cx.change(
                p,
                RuleId::TypeList,
                format!("type list became anyOf of {}", type_words(&others)),
            );
        }
        _ => {
            let best = others
                .iter()
                .copied()
                .max_by_key(|t| rank(*t))
                .unwrap_or(T::String);
            o.insert(Keyword::Type, Value::Type(TypeSet::Single(best)));
            if has_null {
                o.insert(Keyword::Nullable, Value::Bool(true));
            }
            let rest: Vec<T> = others.iter().copied().filter(|t| *t != best).collect();
            cx.lost(
                p,
                RuleId::TypeList,
                format!("type list collapsed to {best}"),
                Some(ALSO_ACCEPTS.with(&[&type_words(&rest)])),
            );
        }
    }
    if has_null && others.len() > 1 && cx.rules.null_style == NullStyle::AnyOf {
        // The null step adds the null branch.
        if let Some(o) = node.as_object_mut() {
            o.insert(Keyword::Nullable, Value::Bool(true));
        }
    }
}

/// Types in words: `string`, `string or integer`, `string, integer or boolean`.
fn type_words(types: &[T]) -> String {
    let names: Vec<&str> = types.iter().map(|t| t.as_str()).collect();
    match names.len() {
        0 => String::new(),
        1 => names[0].to_owned(),
        n => format!("{} or {}", names[..n - 1].join(", "), names[n - 1]),
    }
}

/// What the provider would reject that this file's step fixes: the checker's part of the
/// rule (run on every object node, in the order of [`ORDER`](crate::engine::ORDER)).
pub(crate) mod check {
    use crate::RuleId;
    use crate::check::Checker;
    use crate::rules::TypeLists;
    use schema_core::{SchemaObject, TypeSet};

    /// A list of types where the provider wants one ([`split_type_list`](super::split_type_list)).
    pub(crate) fn type_list(c: &mut Checker<'_>, p: &str, o: &SchemaObject) {
        let r = c.rules;
        if r.type_lists == TypeLists::Split && matches!(o.types(), Some(TypeSet::List(_))) {
            c.push(
                p,
                RuleId::TypeList,
                "type must be a single type, not a list".to_owned(),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::alone::fixes;
    use crate::rules::Rules;

    #[test]
    fn gemini_proto_field_is_not_repeating_cannot_start_list_type_list_split() {
        let (out, _) = fixes(
            &TYPE_LIST,
            r#"{"type":"object","properties":{"v":{"type":["string","integer"]}}}"#,
            &Rules::GEMINI,
            RuleId::TypeList,
        );
        assert!(
            out.to_json_string().contains("anyOf"),
            "{}",
            out.to_json_string()
        );
    }
}
