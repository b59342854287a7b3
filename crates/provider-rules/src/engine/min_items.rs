//! `minItems` above what the provider accepts goes to the description.

use super::{Check, Cx, Rule};
use crate::RuleId;
use crate::hints;
use schema_core::{Keyword, Schema};

/// `minItems` above the provider's limit, lowered.
pub(crate) static MIN_ITEMS: Rule = Rule::new(RuleId::MinItems)
    .reads(&[Keyword::MinItems])
    .gate(|r, _| r.limits.max_min_items.is_some())
    .post(min_items)
    .check(Check::Object(check::min_items));

/// `minItems` above what the provider accepts (Anthropic strict: 0 or 1) goes to the
/// description.
pub(crate) fn min_items(node: &mut Schema, p: &crate::engine::passes::At<'_>, cx: &mut Cx<'_>) {
    let Some(max) = cx.rules.limits.max_min_items else {
        return;
    };
    let Some(o) = node.as_object_mut() else {
        return;
    };
    let Some(n) = o
        .number(Keyword::MinItems)
        .and_then(serde_json::Number::as_f64)
    else {
        return;
    };
    if n <= f64::from(max) {
        return;
    }
    if let Some(v) = o.remove(Keyword::MinItems) {
        cx.lost(
            p,
            RuleId::MinItems,
            "minItems above the provider's limit moved to the description",
            hints::for_keyword(Keyword::MinItems, &v),
        );
    }
}

/// What the provider would reject that this file's step fixes: the checker's part of the
/// rule (run on every object node, in the order of [`ORDER`](crate::engine::ORDER)).
pub(crate) mod check {
    use crate::RuleId;
    use crate::check::Checker;
    use schema_core::{Keyword, SchemaObject};

    /// `minItems` above the provider's limit ([`min_items`](super::min_items)).
    pub(crate) fn min_items(c: &mut Checker<'_>, p: &str, o: &SchemaObject) {
        let r = c.rules;
        if let (Some(max), Some(n)) = (
            r.limits.max_min_items,
            o.number(Keyword::MinItems)
                .and_then(serde_json::Number::as_f64),
        ) && n > f64::from(max)
        {
            c.push(p, RuleId::MinItems, format!("minItems above {max}"));
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
    fn anthropic_strict_min_items_above_the_limit() {
        fixes(
            &MIN_ITEMS,
            r#"{"type":"array","items":{"type":"string"},"minItems":3}"#,
            &Rules::ANTHROPIC_STRICT,
            RuleId::MinItems,
        );
    }
}
