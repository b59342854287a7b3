//! `tuple-fold` (checked as `tuple`): a tuple folded into one `items` where the provider has
//! no tuple.

use crate::RuleId;
use crate::engine::rule::Hint;
use crate::engine::types::unions_allowed;
use crate::engine::{Check, Cx, Rule};
use crate::hints;
use crate::rules::Tuples;
use schema_core::{InstanceType as T, Keyword, Schema, SchemaObject, TypeSet, Value};

/// A tuple folded into one `items` where the provider has no tuple.
pub(crate) static TUPLE_FOLD: Rule = Rule::new(RuleId::TupleFold)
    .reads(&[Keyword::PrefixItems])
    .gate(|r, _| r.tuples == Tuples::Fold)
    .pre(fold_tuples)
    .check(Check::Object(check::tuples))
    .reports(&[RuleId::Tuple])
    .hints(&[IN_ORDER]);

/// What a folded tuple leaves: its positions.
const IN_ORDER: Hint = Hint::new(RuleId::TupleFold, "Items in order: {}.");

/// `prefixItems` folded into one `items` (gated by [`Tuples::Fold`]): the positions' schemas,
/// deduplicated, as an `anyOf` where unions are accepted (so no valid array becomes invalid),
/// else the first; a closed tuple keeps its length as `maxItems`; the order goes to the
/// description. Prevents Gemini's `...items.items: missing field` (pleaseai/shunt#454).
pub(crate) fn fold_tuples(node: &mut Schema, p: &crate::engine::passes::At<'_>, cx: &mut Cx<'_>) {
    let unions = unions_allowed(cx);
    let Some(o) = node.as_object_mut() else {
        return;
    };
    let Some(Value::Schemas(prefix)) = o.get(Keyword::PrefixItems).cloned() else {
        return;
    };
    o.remove(Keyword::PrefixItems);
    let rest = o.remove(Keyword::Items);
    // A tuple is closed by `items: false` or by a `maxItems` no larger than its length
    // (pydantic's `Tuple[float, float]` writes `minItems`/`maxItems` 2).
    let closed = matches!(&rest, Some(Value::Schema(s)) if matches!(**s, Schema::Bool(false)))
        || o.number(Keyword::MaxItems)
            .and_then(serde_json::Number::as_f64)
            .is_some_and(|m| m <= prefix.len() as f64);
    // An open tuple without `items` accepts anything after its positions: the folded items
    // must too, or valid arrays become invalid. Peers fold `[number, number]` to `number`
    // (pleaseai/shunt, LiteLLM); the positions stay in the description.
    let open_rest = rest.is_none() && !closed;
    let mut parts: Vec<Schema> = Vec::new();
    let mut push = |s: &Schema| {
        if !parts.contains(s) {
            parts.push(s.clone())
        }
    };
    for s in &prefix {
        push(s);
    }
    if let Some(Value::Schema(s)) = &rest
        && !closed
    {
        push(s);
    }
    // Where "any value" is one type only, the positions' schemas are a better guess for the
    // items than that type.
    let items = match parts.len() {
        _ if open_rest && !cx.any_value_lossy() => Schema::default(),
        0 => Schema::default(),
        1 => parts.remove(0),
        _ if unions => {
            let mut u = SchemaObject::new();
            u.insert(Keyword::AnyOf, Value::Schemas(parts));
            Schema::Object(u)
        }
        _ => parts.remove(0),
    };
    o.insert(Keyword::Items, Value::Schema(Box::new(items)));
    if closed && cx.rules.keywords.contains(Keyword::MaxItems) && !o.contains(Keyword::MaxItems) {
        o.insert(Keyword::MaxItems, Value::Number(prefix.len().into()));
    }
    if !o.contains(Keyword::Type) {
        o.insert(Keyword::Type, Value::Type(TypeSet::Single(T::Array)));
    }
    let hint = if prefix.len() > 1 {
        Some(
            IN_ORDER.with(&[&prefix
                .iter()
                .map(hints::summarize)
                .collect::<Vec<_>>()
                .join(", ")]),
        )
    } else {
        None
    };
    cx.lost(
        p,
        RuleId::TupleFold,
        "a tuple was folded into one items schema",
        hint,
    );
}

/// What the provider would reject that this file's step fixes: the checker's part of the
/// rule (run on every object node, in the order of [`ORDER`](crate::engine::ORDER)).
pub(crate) mod check {
    use crate::RuleId;
    use crate::check::Checker;
    use crate::rules::Tuples;
    use schema_core::{Keyword, SchemaObject, Value};

    /// A tuple the provider refuses ([`fold_tuples`](super::fold_tuples)).
    pub(crate) fn tuples(c: &mut Checker<'_>, p: &str, o: &SchemaObject) {
        let r = c.rules;
        let tuple_items = matches!(o.get(Keyword::Items), Some(Value::Schemas(_)));
        match r.tuples {
            Tuples::Fold if o.contains(Keyword::PrefixItems) || tuple_items => {
                c.push(p, RuleId::Tuple, "tuples are not accepted".to_owned())
            }
            Tuples::PrefixItems if tuple_items => c.push(
                p,
                RuleId::Tuple,
                "items must be a schema, not an array (use prefixItems)".to_owned(),
            ),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::alone::fixes;
    use crate::rules::Rules;

    #[test]
    fn gemini_proto_has_no_tuples_tuple_folded() {
        fixes(
            &TUPLE_FOLD,
            r#"{"type":"array","prefixItems":[{"type":"string"},{"type":"string"}]}"#,
            &Rules::GEMINI,
            RuleId::Tuple,
        );
    }
}
