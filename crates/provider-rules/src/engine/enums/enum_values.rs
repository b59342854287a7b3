//! `enum-values` (and `enum-empty`, `enum-empty-string`, `enum-null`, `enum-stringify`):
//! `enum` values in the forms the provider accepts.

use super::bound_numbers;
use crate::RuleId;
use crate::engine::rule::Hint;
use crate::engine::{Check, Cx, Rule};
use crate::hints;
use crate::rules::{Enums, NullStyle};
use schema_core::{Instance, InstanceType as T, JsonType, Keyword, Schema, TypeSet, Value};

/// `enum` values in the forms the provider accepts (the step tests each against the profile).
pub(crate) static ENUM_VALUES: Rule = Rule::new(RuleId::EnumValues)
    .post(enum_values)
    .reads(&[Keyword::Enum])
    .check(Check::Object(check::values))
    .reports(&[
        RuleId::EnumEmpty,
        RuleId::EnumEmptyString,
        RuleId::EnumNull,
        RuleId::EnumStringify,
    ])
    .hints(&[NO_VALUE, ALLOWED_VALUES, EMPTY_ALLOWED]);

/// What an empty `enum` (it accepts nothing) leaves.
const NO_VALUE: Hint = Hint::new(RuleId::EnumEmpty, "Accepts no value.");
/// What values the provider does not accept leave: the list.
const ALLOWED_VALUES: Hint = Hint::new(RuleId::EnumValues, "Allowed values: {}.");
/// What a removed `""` member leaves.
const EMPTY_ALLOWED: Hint = Hint::new(RuleId::EnumEmptyString, "Also allowed: \"\" (empty).");

/// `enum` values the provider accepts: strings only on `type: string` for Gemini (`Invalid
/// value at '...enum[0]' (TYPE_STRING), 0`, `function declaration enum only allowed for STRING
/// type`), no `""` member (`enum[3]: cannot be empty`), no empty enum. Where a value cannot
/// stay, the whole enum goes to the description ("Allowed values: 1, 2, 3."), so a valid
/// value never becomes invalid; stringifying is a profile option.
pub(crate) fn enum_values(node: &mut Schema, p: &crate::engine::passes::At<'_>, cx: &mut Cx<'_>) {
    let rules = cx.rules;
    let Some(o) = node.as_object_mut() else {
        return;
    };
    // The usual case, read without copying the values: an enum the provider takes as it is
    // (what the steps below would leave alone).
    if taken_as_is(o, rules) {
        return;
    }
    let nullable_ok = nullable_ok(rules);
    let Some(Value::Instances(list)) = o.get(Keyword::Enum).cloned() else {
        return;
    };
    if !rules.keywords.contains(Keyword::Enum) {
        return; // dropped with its hint by the keyword filter
    }
    if list.is_empty() {
        o.remove(Keyword::Enum);
        cx.lost(
            p,
            RuleId::EnumEmpty,
            "an empty enum (accepts nothing) was removed",
            Some(NO_VALUE.text()),
        );
        return;
    }
    let mut values = list.clone();
    // null members: `nullable` where the provider writes null that way.
    if rules.enums != Enums::Any
        && nullable_ok
        && values.iter().any(|v| v.json_type() == JsonType::Null)
    {
        values.retain(|v| v.json_type() != JsonType::Null);
        o.insert(Keyword::Nullable, Value::Bool(true));
        cx.change(p, RuleId::EnumNull, "null enum member became nullable");
    }
    if rules.enums == Enums::Strings && rules.stringify_enums {
        let before = values.clone();
        values = values
            .into_iter()
            .map(|v| match v.json_type() {
                JsonType::String => v,
                _ => Instance::string(v.as_json()),
            })
            .collect();
        if values != before {
            o.insert(Keyword::Type, Value::Type(TypeSet::Single(T::String)));
            cx.lost(p, RuleId::EnumStringify, "enum values became strings", None);
        }
    }
    let type_ok = match rules.enums {
        Enums::Strings => match o.types() {
            // No usable `type` (absent, or malformed like `"ctring"`): where one is required,
            // `infer_missing_type` adds it after this step; judge the enum by that type, or
            // `{"items": {...}, "enum": ["a"]}` ends up `type: array` with an enum (found by
            // fuzzing: check failed, and a second pass moved the enum).
            None if rules.type_required
                && ![Keyword::AnyOf, Keyword::OneOf, Keyword::AllOf]
                    .iter()
                    .any(|k| {
                        matches!(o.get(*k), Some(Value::Schemas(_))) && rules.keywords.contains(*k)
                    }) =>
            {
                crate::engine::types::infer(o)
                    .into_iter()
                    .max_by_key(|t| crate::engine::types::rank(*t))
                    .is_none_or(|t| t == T::String)
            }
            None => true,
            Some(ts) => ts.as_slice() == [T::String],
        },
        _ => true,
    };
    if !type_ok || !values.iter().all(|v| rules.enums.accepts(v.json_type())) || values.is_empty() {
        // Values of one type keep that type where a node needs one (`{"enum": [1, 2]}` →
        // `integer`, not any value), as long as a null member is said otherwise.
        let null_said = !list.iter().any(|v| v.json_type() == JsonType::Null)
            || matches!(o.get(Keyword::Nullable), Some(Value::Bool(true)));
        if rules.type_required && o.types().is_none() && null_said {
            let inferred = crate::engine::types::infer(o);
            if let [t] = inferred.as_slice() {
                o.insert(Keyword::Type, Value::Type(TypeSet::Single(*t)));
            }
        }
        bound_numbers(o, &list, rules);
        // Arrays that agree on their items' type keep it.
        if o.types().is_some_and(|t| t.as_slice() == [T::Array])
            && !o.contains(Keyword::Items)
            && let Some(items) = crate::engine::arrays::items_of(&list)
        {
            o.insert(Keyword::Items, Value::Schema(Box::new(items)));
        }
        o.remove(Keyword::Enum);
        let hint = ALLOWED_VALUES.with(&[&hints::values(&list)]);
        cx.lost(
            p,
            RuleId::EnumValues,
            "enum values the provider does not accept moved to the description",
            Some(hint),
        );
        return;
    }
    if !rules.empty_string_enum && values.iter().any(|v| v.as_json() == "\"\"") {
        values.retain(|v| v.as_json() != "\"\"");
        cx.lost(
            p,
            RuleId::EnumEmptyString,
            "an empty-string enum member was removed",
            Some(EMPTY_ALLOWED.text()),
        );
        if values.is_empty() {
            o.remove(Keyword::Enum);
            return;
        }
    }
    if values != list {
        o.insert(Keyword::Enum, Value::Instances(values));
    }
}

/// Whether [`enum_values`] leaves `o` as it is without reading its values again: no `enum`
/// (or one of the wrong JSON type, or one the keyword filter drops), or one the provider
/// takes as it is (the step's usual case).
pub(crate) fn leaves(o: &schema_core::SchemaObject, rules: &crate::Rules) -> bool {
    !matches!(o.get(Keyword::Enum), Some(Value::Instances(_)))
        || !rules.keywords.contains(Keyword::Enum)
        || taken_as_is(o, rules)
}

/// An `enum` the provider takes as it is (what the steps of [`enum_values`] would leave alone).
fn taken_as_is(o: &schema_core::SchemaObject, rules: &crate::Rules) -> bool {
    let nullable_ok = nullable_ok(rules);
    if let Some(Value::Instances(list)) = o.get(Keyword::Enum)
        && !list.is_empty()
        && rules.keywords.contains(Keyword::Enum)
        && !(rules.enums != Enums::Any
            && nullable_ok
            && list.iter().any(|v| v.json_type() == JsonType::Null))
        && !(rules.enums == Enums::Strings
            && rules.stringify_enums
            && list.iter().any(|v| v.json_type() != JsonType::String))
        && list.iter().all(|v| rules.enums.accepts(v.json_type()))
        && (rules.empty_string_enum || !list.iter().any(|v| v.as_json() == "\"\""))
        && (rules.enums != Enums::Strings
            || o.types().is_some_and(|ts| ts.as_slice() == [T::String]))
    {
        return true;
    }
    false
}

/// Whether the profile writes "or null" as `nullable` (a null member becomes one).
fn nullable_ok(rules: &crate::Rules) -> bool {
    rules.keywords.contains(Keyword::Nullable) && rules.null_style == NullStyle::Nullable
}

/// What the provider would reject that this file's step fixes: the checker's part of the
/// rule (run on every object node, in the order of [`ORDER`](crate::engine::ORDER)).
pub(crate) mod check {
    use crate::RuleId;
    use crate::check::Checker;
    use crate::rules::Enums;
    use schema_core::{InstanceType as T, Keyword, SchemaObject};

    /// Empty enums, enum values of a refused JSON type, `""` in an enum ([`enum_values`](super::enum_values)).
    pub(crate) fn values(c: &mut Checker<'_>, p: &str, o: &SchemaObject) {
        let r = c.rules;
        let types = o.declared_types();
        if r.keywords.contains(Keyword::Enum)
            && let Some(list) = o.enum_values()
        {
            if list.is_empty() {
                c.push(p, RuleId::EnumEmpty, "enum has no value".to_owned());
            }
            if list.iter().any(|v| !r.enums.accepts(v.json_type())) {
                c.push(
                    p,
                    RuleId::EnumValues,
                    format!("enum values must be {:?}", r.enums).to_lowercase(),
                );
            }
            if r.enums == Enums::Strings && !(types.is_empty() || types == [T::String]) {
                c.push(
                    p,
                    RuleId::EnumValues,
                    "enum is only allowed on type string".to_owned(),
                );
            }
            if !r.empty_string_enum && list.iter().any(|v| v.as_json() == "\"\"") {
                c.push(
                    p,
                    RuleId::EnumEmptyString,
                    "enum has an empty string".to_owned(),
                );
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
    fn gemini_function_declaration_enum_only_allowed_for_string_type() {
        let (out, _) = fixes(
            &ENUM_VALUES,
            r#"{"type":"integer","enum":[1,2,3]}"#,
            &Rules::GEMINI,
            RuleId::EnumValues,
        );
        assert!(
            out.to_json_string().contains(r#""minimum":1"#),
            "{}",
            out.to_json_string()
        );
    }

    #[test]
    fn gemini_enum_cannot_be_empty_empty_string_value_dropped() {
        fixes(
            &ENUM_VALUES,
            r#"{"type":"string","enum":["a",""]}"#,
            &Rules::GEMINI,
            RuleId::EnumEmptyString,
        );
    }
}
