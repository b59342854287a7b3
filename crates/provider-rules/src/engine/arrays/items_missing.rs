//! `items-missing`: `items` given to an array schema without one where the provider requires
//! it.

use super::items_of;
use crate::RuleId;
use crate::engine::rule::Hint;
use crate::engine::types::node_types;
use crate::engine::{Check, Cx, Rule};
use crate::rules::MissingItems;
use schema_core::{InstanceType as T, Keyword, Schema, SchemaObject, TypeSet, Value};

/// `items` given to an array schema without one where the provider requires it.
pub(crate) static ITEMS_MISSING: Rule = Rule::new(RuleId::ItemsMissing)
    .gate(|r, _| r.missing_items != MissingItems::Keep)
    .post(missing_items)
    .check(Check::Object(check::missing_items))
    .reports(&[RuleId::ItemsMalformed])
    .hints(&[ANY_ITEMS]);

/// What an array of any values leaves when its items get one type.
const ANY_ITEMS: Hint = Hint::new(RuleId::ItemsMissing, "Items may be any JSON value.");

/// An array without `items` gets one (gated by [`MissingItems`]): `{}` for OpenAI (`array
/// schema missing items`), a typed schema for Gemini (`...items: missing field`), derived from
/// the arrays in `enum`, else the profile's any-value.
pub(crate) fn missing_items(node: &mut Schema, p: &crate::engine::passes::At<'_>, cx: &mut Cx<'_>) {
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
            Some(ANY_ITEMS.text()),
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
        Some(Value::Schema(s)) => crate::engine::types::spoken(s),
        _ => Vec::new(),
    };
    let t = contains
        .into_iter()
        .filter(|t| !matches!(t, T::Null | T::Array))
        .max_by_key(|t| crate::engine::types::rank(*t))?;
    let mut s = SchemaObject::new();
    s.insert(Keyword::Type, Value::Type(TypeSet::Single(t)));
    Some(Schema::Object(s))
}

/// What the provider would reject that this file's step fixes: the checker's part of the
/// rule (run on every object node, in the order of [`ORDER`](crate::engine::ORDER)).
pub(crate) mod check {
    use crate::RuleId;
    use crate::check::Checker;
    use crate::rules::MissingItems;
    use schema_core::{InstanceType as T, Keyword, SchemaObject};

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
}

#[cfg(test)]
mod tests {
    use super::*;
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
}
