//! `foreign-keyword`: keywords on a type they do not apply to, removed where the provider
//! refuses them.

use super::keyword_fits;
use crate::RuleId;
use crate::engine::{Check, Cx, Rule};
use schema_core::{Key, Keyword, KeywordMask, Schema, TypeSet};

/// Keywords on a type they do not apply to, removed where the provider refuses them.
pub(crate) static FOREIGN_KEYWORD: Rule = Rule::new(RuleId::ForeignKeyword)
    .gate(|r, _| r.keywords_on_own_type_only)
    .post(drop_foreign_keywords)
    .reads_for(typed_keywords)
    .check(Check::Object(check::foreign_keywords));

/// The keywords that apply to some types only: a node without any has none to remove (read
/// once per plan).
fn typed_keywords(_: &crate::Rules, _: crate::Slot) -> KeywordMask {
    Keyword::ALL
        .iter()
        .filter(|k| super::applies_to(**k).is_some())
        .fold(KeywordMask::NONE, |m, k| m.union(KeywordMask::of(&[*k])))
}

/// Removes keywords that apply to another type than the node's (gated by
/// `keywords_on_own_type_only`). Lossless: JSON Schema ignores them on other types. Prevents
/// `...items: field predicate failed: $type == Type.ARRAY`.
pub(crate) fn drop_foreign_keywords(
    node: &mut Schema,
    p: &crate::engine::passes::At<'_>,
    cx: &mut Cx<'_>,
) {
    let Some(o) = node.as_object_mut() else {
        return;
    };
    let Some(TypeSet::Single(t)) = o.types().cloned() else {
        return;
    };
    let mut dropped = Vec::new();
    o.retain(|e| match e.key {
        Key::Known(kw) if !keyword_fits(kw, t) && !crate::rules::format_tolerated(kw, t) => {
            dropped.push(kw.as_str());
            false
        }
        _ => true,
    });
    if !dropped.is_empty() {
        cx.change(
            p,
            RuleId::ForeignKeyword,
            format!("{} do not apply to type {t}", dropped.join(", ")),
        );
    }
}

/// What the provider would reject that this file's step fixes: the checker's part of the
/// rule (run on every object node, in the order of [`ORDER`](crate::engine::ORDER)).
pub(crate) mod check {
    use crate::RuleId;
    use crate::check::Checker;
    use schema_core::{Key, SchemaObject};

    /// Keywords on a type they do not apply to ([`drop_foreign_keywords`](super::drop_foreign_keywords)).
    pub(crate) fn foreign_keywords(c: &mut Checker<'_>, p: &str, o: &SchemaObject) {
        let r = c.rules;
        let types = o.declared_types();
        if r.keywords_on_own_type_only
            && let [t] = types
        {
            for e in o.entries() {
                if let Key::Known(kw) = e.key
                    && !crate::rules::format_tolerated(kw, *t)
                    && kw.applies_to().is_some_and(|ts| !ts.contains(t))
                {
                    c.push(
                        p,
                        RuleId::ForeignKeyword,
                        format!("{kw} is not allowed on type {t}"),
                    );
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::alone::fixes;
    use crate::rules::Rules;

    #[test]
    fn gemini_items_field_predicate_failed_type_array_foreign_keyword_dropped() {
        fixes(
            &FOREIGN_KEYWORD,
            r#"{"type":"object","properties":{"s":{"type":"string","minItems":1}}}"#,
            &Rules::GEMINI,
            RuleId::ForeignKeyword,
        );
    }
}
