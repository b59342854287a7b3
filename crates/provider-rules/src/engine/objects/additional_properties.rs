//! `additional-properties`: `additionalProperties` dropped, closed or repaired where the
//! provider wants it so.

use super::is_object;
use crate::RuleId;
use crate::Slot;
use crate::engine::{Check, Cx, Rule};
use crate::hints;
use crate::rules::AdditionalProperties as AP;
use schema_core::{Keyword, Schema, Value};

/// `additionalProperties` dropped, closed or repaired where the provider wants it so.
pub(crate) static ADDITIONAL_PROPERTIES: Rule = Rule::new(RuleId::AdditionalProperties)
    .post(additional_properties)
    .check(Check::Object(check::additional_properties));

/// `additionalProperties` per [`AdditionalProperties`](crate::AdditionalProperties):
/// dropped with a hint (Gemini: `Unknown name "additionalProperties"`), `false` dropped and
/// open objects made explicit (xAI), or every object closed (strict modes).
pub(crate) fn additional_properties(
    node: &mut Schema,
    p: &crate::engine::passes::At<'_>,
    cx: &mut Cx<'_>,
) {
    let mode = cx.rules.additional_properties;
    let Some(o) = node.as_object_mut() else {
        return;
    };
    crate::engine::closed::closed_bound(o, p, cx);
    // Properties matched by a `patternProperties` the provider refuses would become
    // "additional": a closing `additionalProperties` would reject them.
    if !cx.rules.keywords.contains(Keyword::PatternProperties)
        && o.schema_map(Keyword::PatternProperties)
            .is_some_and(|m| !m.is_empty())
    {
        if mode == AP::ForceFalse {
            cx.not_strict(
                p,
                "properties matched by patternProperties cannot be strict",
            );
        } else if o
            .schema(Keyword::AdditionalProperties)
            .is_some_and(|s| !matches!(s, Schema::Bool(true)))
            && let Some(v) = o.remove(Keyword::AdditionalProperties)
        {
            cx.lost(
                p,
                RuleId::AdditionalProperties,
                "additionalProperties removed with the patternProperties it complements",
                hints::for_keyword(Keyword::AdditionalProperties, &v),
            );
        }
    }
    match mode {
        AP::Keep => {}
        AP::Drop => {
            // Dropped, with its hint, by the keyword filter when not an accepted keyword.
            if cx.rules.keywords.contains(Keyword::AdditionalProperties)
                && let Some(v) = o.remove(Keyword::AdditionalProperties)
            {
                cx.lost(
                    p,
                    RuleId::AdditionalProperties,
                    "additionalProperties removed",
                    hints::for_keyword(Keyword::AdditionalProperties, &v),
                );
            }
        }
        AP::DropFalse => {
            if matches!(
                o.schema(Keyword::AdditionalProperties),
                Some(Schema::Bool(false))
            ) {
                o.remove(Keyword::AdditionalProperties);
                cx.change(
                    p,
                    RuleId::AdditionalProperties,
                    "additionalProperties: false removed (objects are closed by default)",
                );
            }
        }
        AP::ClosedByDefault => {
            if o.get(Keyword::AdditionalProperties).is_none() && is_object(o) {
                o.insert(
                    Keyword::AdditionalProperties,
                    Value::Schema(Box::new(Schema::Bool(true))),
                );
                cx.change(
                    p,
                    RuleId::AdditionalProperties,
                    "open object made explicit with additionalProperties: true",
                );
            }
        }
        AP::ForceFalse => {
            if !is_object(o) {
                return;
            }
            let free_form = o.properties().is_none_or(|m| m.is_empty());
            match o.schema(Keyword::AdditionalProperties) {
                Some(Schema::Bool(false)) => {}
                None if free_form && !(p.is_root() && cx.slot == Slot::Parameters) => {
                    // `{"type": "object"}` is a free-form map (except as a tool's empty
                    // parameter list): closed, it would only accept `{}`.
                    o.insert(
                        Keyword::AdditionalProperties,
                        Value::Schema(Box::new(Schema::Bool(false))),
                    );
                    cx.lost(
                        p,
                        RuleId::AdditionalProperties,
                        "an object without properties was closed",
                        None,
                    );
                    cx.not_strict(p, "an object without properties is a free-form map");
                }
                None => {
                    o.insert(
                        Keyword::AdditionalProperties,
                        Value::Schema(Box::new(Schema::Bool(false))),
                    );
                    cx.change(
                        p,
                        RuleId::AdditionalProperties,
                        "object closed with additionalProperties: false",
                    );
                }
                Some(s) => {
                    let open = s.is_empty_schema();
                    let hint = hints::for_keyword(
                        Keyword::AdditionalProperties,
                        &Value::Schema(Box::new(s.clone())),
                    );
                    o.insert(
                        Keyword::AdditionalProperties,
                        Value::Schema(Box::new(Schema::Bool(false))),
                    );
                    cx.lost(
                        p,
                        RuleId::AdditionalProperties,
                        "an open map was closed",
                        hint,
                    );
                    cx.not_strict(
                        p,
                        if open {
                            "an object open to any property cannot be strict"
                        } else {
                            "a map with typed values cannot be strict"
                        },
                    );
                }
            }
        }
    }
}

/// What the provider would reject that this file's step fixes: the checker's part of the
/// rule (run on every object node, in the order of [`ORDER`](crate::engine::ORDER)).
pub(crate) mod check {
    use crate::RuleId;
    use crate::check::Checker;
    use crate::rules::AdditionalProperties;
    use schema_core::{InstanceType as T, Keyword, Schema, SchemaObject};

    /// `additionalProperties` as the provider refuses or demands it ([`additional_properties`](super::additional_properties)).
    pub(crate) fn additional_properties(c: &mut Checker<'_>, p: &str, o: &SchemaObject) {
        let r = c.rules;
        let types = o.declared_types();
        let is_object =
            types.contains(&T::Object) || (types.is_empty() && o.properties().is_some());
        match r.additional_properties {
            AdditionalProperties::DropFalse => {
                if matches!(
                    o.schema(Keyword::AdditionalProperties),
                    Some(Schema::Bool(false))
                ) {
                    c.push(
                        p,
                        RuleId::AdditionalProperties,
                        "additionalProperties: false is refused".to_owned(),
                    );
                }
            }
            AdditionalProperties::ForceFalse
                if is_object
                    && !matches!(
                        o.schema(Keyword::AdditionalProperties),
                        Some(Schema::Bool(false))
                    ) =>
            {
                c.push(
                    p,
                    RuleId::AdditionalProperties,
                    "every object must set additionalProperties: false".to_owned(),
                );
            }
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
    fn anthropic_strict_additional_properties_must_be_explicitly_set_to_false() {
        fixes(
            &ADDITIONAL_PROPERTIES,
            r#"{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}"#,
            &Rules::ANTHROPIC_STRICT,
            RuleId::AdditionalProperties,
        );
    }
}
