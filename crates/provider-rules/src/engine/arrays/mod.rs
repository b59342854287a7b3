//! Arrays: tuples folded where the provider has none, and `items` where it is required.

use super::types::{instance_type, node_types, unions_allowed};
use super::{Check, Cx, Rule};
use crate::RuleId;
use crate::hints;
use crate::rules::{MissingItems, Tuples};
use schema_core::{InstanceType as T, Keyword, Schema, SchemaObject, TypeSet, Value};

/// A tuple folded into one `items` where the provider has no tuple.
pub(crate) static TUPLE_FOLD: Rule = Rule::new(RuleId::TupleFold)
    .gate(|r, _| r.tuples == Tuples::Fold)
    .pre(fold_tuples)
    .check(Check::Object(check::tuples));

/// `prefixItems` folded into one `items` (gated by [`Tuples::Fold`]): the positions' schemas,
/// deduplicated, as an `anyOf` where unions are accepted (so no valid array becomes invalid),
/// else the first; a closed tuple keeps its length as `maxItems`; the order goes to the
/// description. Prevents Gemini's `...items.items: missing field` (pleaseai/shunt#454).
pub(crate) fn fold_tuples(node: &mut Schema, p: &str, cx: &mut Cx<'_>) {
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
        Some(format!(
            "Items in order: {}.",
            prefix
                .iter()
                .map(hints::summarize)
                .collect::<Vec<_>>()
                .join(", ")
        ))
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

/// `items` given to an array schema without one where the provider requires it.
pub(crate) static ITEMS_MISSING: Rule = Rule::new(RuleId::ItemsMissing)
    .gate(|r, _| r.missing_items != MissingItems::Keep)
    .post(missing_items)
    .check(Check::Object(check::missing_items));

/// An array without `items` gets one (gated by [`MissingItems`]): `{}` for OpenAI (`array
/// schema missing items`), a typed schema for Gemini (`...items: missing field`), derived from
/// the arrays in `enum`, else the profile's any-value.
pub(crate) fn missing_items(node: &mut Schema, p: &str, cx: &mut Cx<'_>) {
    let mode = cx.rules.missing_items;
    let Some(o) = node.as_object_mut() else {
        return;
    };
    if !node_types(o).contains(&T::Array) {
        return;
    }
    if matches!(o.get(Keyword::Items), Some(Value::Raw(_))) {
        o.remove(Keyword::Items);
        cx.lost(
            p,
            RuleId::ItemsMalformed,
            "items had the wrong JSON type",
            None,
        );
    }
    if o.contains(Keyword::Items) || o.contains(Keyword::PrefixItems) {
        return;
    }
    let derived = match mode {
        MissingItems::Empty => None,
        _ => derive_items(o, cx.any_value_lossy()),
    };
    // Where "any value" is one type, items of that type reject what the array accepted.
    let narrowed = mode != MissingItems::Empty && derived.is_none() && cx.any_value_lossy();
    let items = match mode {
        MissingItems::Empty => Schema::default(),
        _ => derived
            .or_else(|| cx.any_value().cloned())
            .unwrap_or_default(),
    };
    let untyped = items.is_empty_schema();
    o.insert(Keyword::Items, Value::Schema(Box::new(items)));
    if narrowed {
        cx.lost(
            p,
            RuleId::ItemsMissing,
            "an array of any values got items of one type",
            Some("Items may be any JSON value.".to_owned()),
        );
    } else {
        cx.change(p, RuleId::ItemsMissing, "an array without items got one");
    }
    // The new `items` is not walked: an untyped array cannot be strict (pydantic-ai
    // test_transformer_untyped_array_not_strict_compatible).
    if untyped && cx.rules.strict {
        cx.not_strict(p, "an array of any values cannot be strict");
    }
}

/// The item type every array in `enum` agrees on (not `default`/`examples`: they show one
/// array of many). Where the profile says "any value" with one type only, the type `contains`
/// speaks of is the better guess for the items (it says one item matches, not all).
fn derive_items(o: &SchemaObject, any_value_lossy: bool) -> Option<Schema> {
    let from_enum = o.enum_values().and_then(items_of);
    if from_enum.is_some() || !any_value_lossy {
        return from_enum;
    }
    let contains = match o.get(Keyword::Contains) {
        Some(Value::Schema(s)) => super::types::spoken(s),
        _ => Vec::new(),
    };
    let t = contains
        .into_iter()
        .filter(|t| !matches!(t, T::Null | T::Array))
        .max_by_key(|t| super::types::rank(*t))?;
    let mut s = SchemaObject::new();
    s.insert(Keyword::Type, Value::Type(TypeSet::Single(t)));
    Some(Schema::Object(s))
}

/// The item type every array among `values` agrees on (other values are ignored), as a
/// typed schema; `None` when they disagree or the type would need more (arrays of arrays).
pub(crate) fn items_of(values: &[schema_core::Instance]) -> Option<Schema> {
    let mut types: Vec<T> = Vec::new();
    for a in values {
        let Ok(elems) = serde_json::from_str::<Vec<Box<serde_json::value::RawValue>>>(a.as_json())
        else {
            continue;
        };
        for e in elems {
            if let Ok(i) = schema_core::Instance::from_json(e.get()) {
                let t = instance_type(i.json_type());
                if !types.contains(&t) {
                    types.push(t);
                }
            }
        }
    }
    if types.contains(&T::Number) {
        types.retain(|t| *t != T::Integer);
    }
    match types.as_slice() {
        [t] if *t != T::Null && *t != T::Array => {
            let mut s = SchemaObject::new();
            s.insert(Keyword::Type, Value::Type(TypeSet::Single(*t)));
            Some(Schema::Object(s))
        }
        _ => None,
    }
}

/// What the provider would reject that this file's steps fix: the checker's part of these
/// rules (run on every object node, in the order of [`ORDER`](crate::engine::ORDER)).
pub(crate) mod check {
    use crate::RuleId;
    use crate::check::Checker;
    use crate::rules::{MissingItems, Tuples};
    use schema_core::{InstanceType as T, Keyword, SchemaObject, Value};

    /// An array schema without `items` ([`missing_items`](super::missing_items)).
    pub(crate) fn missing_items(c: &mut Checker<'_>, p: &str, o: &SchemaObject) {
        let r = c.rules;
        let types = o.declared_types();
        if r.missing_items != MissingItems::Keep
            && types.contains(&T::Array)
            && !o.contains(Keyword::Items)
            && !o.contains(Keyword::PrefixItems)
        {
            c.push(
                p,
                RuleId::ItemsMissing,
                "an array schema must have items".to_owned(),
            );
        }
    }

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
    use crate::RuleId;
    use crate::engine::alone::fixes;
    use crate::rules::Rules;

    #[test]
    fn gemini_items_missing_field() {
        fixes(
            &ITEMS_MISSING,
            r#"{"type":"array"}"#,
            &Rules::GEMINI,
            RuleId::ItemsMissing,
        );
    }

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
