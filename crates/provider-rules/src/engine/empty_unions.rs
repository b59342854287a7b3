//! A union without branches (`anyOf: []`), removed.

use super::rule::Hint;
use super::{Check, Cx, Rule};
use crate::RuleId;
use schema_core::{Keyword, Schema};

/// A union with no branch, removed.
pub(crate) static EMPTY: Rule = Rule::new(RuleId::EmptyUnion)
    .reads(&[Keyword::AnyOf, Keyword::OneOf, Keyword::AllOf])
    .pre(empty)
    .post(empty)
    .check(Check::Object(check::empty))
    .hints(&[NO_VALUE]);

/// What an empty union (it accepts nothing) leaves.
const NO_VALUE: Hint = Hint::new(RuleId::EmptyUnion, "Accepts no value.");

/// An `anyOf`/`oneOf`/`allOf` without branches: xAI rejects "anyOf with zero variants", and
/// no provider needs one. An empty `allOf` says nothing (removed); an empty `anyOf`/`oneOf`
/// accepts nothing (removed, "Accepts no value." in the description).
pub(crate) fn empty(node: &mut Schema, p: &crate::engine::passes::At<'_>, cx: &mut Cx<'_>) {
    let Some(o) = node.as_object_mut() else {
        return;
    };
    for kw in [Keyword::AnyOf, Keyword::OneOf, Keyword::AllOf] {
        if o.schemas(kw).is_some_and(<[Schema]>::is_empty) {
            o.remove(kw);
            if kw == Keyword::AllOf {
                cx.change(p, RuleId::EmptyUnion, "an empty allOf removed");
            } else {
                cx.lost(
                    p,
                    RuleId::EmptyUnion,
                    format!("an empty {kw} (accepts nothing) removed"),
                    Some(NO_VALUE.text()),
                );
            }
        }
    }
}

/// What the provider would reject that this file's step fixes: the checker's part of the
/// rule (run on every object node, in the order of [`ORDER`](crate::engine::ORDER)).
pub(crate) mod check {
    use crate::RuleId;
    use crate::check::Checker;
    use schema_core::{Keyword, Schema, SchemaObject};

    /// A union with no branch ([`empty`](super::empty)).
    pub(crate) fn empty(c: &mut Checker<'_>, p: &str, o: &SchemaObject) {
        for kw in [Keyword::AnyOf, Keyword::OneOf, Keyword::AllOf] {
            if o.schemas(kw).is_some_and(<[Schema]>::is_empty) {
                c.push(p, RuleId::EmptyUnion, format!("{kw} has no branch"));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RuleId;
    use crate::engine::alone::fixes;
    use crate::rules::Rules;

    #[test]
    fn any_of_with_zero_variants_is_rejected_empty_union_removed() {
        fixes(
            &EMPTY,
            r#"{"type":"object","properties":{"v":{"anyOf":[]}}}"#,
            &Rules::ANTHROPIC,
            RuleId::EmptyUnion,
        );
    }
}
