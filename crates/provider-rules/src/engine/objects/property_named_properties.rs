//! `property-named-properties`: an object property named `properties` collapsed where the
//! provider misreads it.

use super::is_object;
use crate::RuleId;
use crate::engine::{Check, Cx, Rule};
use crate::hints;
use schema_core::{Keyword, Schema, SchemaObject, Value};

/// An object property named `properties` collapsed where the provider misreads it.
pub(crate) static PROPERTY_NAMED_PROPERTIES: Rule = Rule::new(RuleId::PropertyNamedProperties)
    .reads(&[Keyword::Properties])
    .gate(|r, _| !r.property_named_properties)
    .pre(property_named_properties)
    .post(property_named_properties)
    .reports(&[RuleId::TypeInferred, RuleId::AnyValue])
    .check(Check::Object(check::property_named_properties));

/// xAI reads an object-shaped property named `properties` as the keyword, so its own
/// `additionalProperties` becomes a property with schema `false`:
/// `/properties/properties/additionalProperties: property schema 'false' is not supported`
/// (vercel/ai#14678). Such a property is collapsed to its description (@juno-ai/bind #7).
pub(crate) fn property_named_properties(
    node: &mut Schema,
    p: &crate::engine::passes::At<'_>,
    cx: &mut Cx<'_>,
) {
    let Some(props) = node.as_object_mut().and_then(SchemaObject::properties_mut) else {
        return;
    };
    let Some(inner) = props.get_mut("properties") else {
        return;
    };
    let Some(io) = inner.as_object() else { return };
    if !(is_object(io) || io.contains(Keyword::AdditionalProperties)) {
        return;
    }
    let summary = hints::summarize(inner);
    let mut collapsed = SchemaObject::new();
    let text = match io.description() {
        Some(d) => format!("{d} (An object: {summary}.)"),
        None => format!("An object: {summary}."),
    };
    collapsed.insert(Keyword::Description, Value::String(text));
    *inner = Schema::Object(collapsed);
    // Run after the child's walk too: the collapsed node gets its type now.
    let at = crate::engine::passes::At::child(
        p,
        schema_core::Location::Name(Keyword::Properties, "properties"),
    );
    if (crate::engine::types::TYPE_INFERRED.gate)(cx.rules, cx.slot) {
        crate::engine::types::infer_missing_type(inner, &at, cx);
    }
    cx.lost(
        &at,
        RuleId::PropertyNamedProperties,
        "an object property named \"properties\" was collapsed to its description",
        None,
    );
}

/// What the provider would reject that this file's step fixes: the checker's part of the
/// rule (run on every object node, in the order of [`ORDER`](crate::engine::ORDER)).
pub(crate) mod check {
    use crate::RuleId;
    use crate::check::Checker;
    use schema_core::{InstanceType as T, Keyword, Schema, SchemaObject};

    /// An object property named `properties` ([`property_named_properties`](super::property_named_properties)).
    pub(crate) fn property_named_properties(c: &mut Checker<'_>, p: &str, o: &SchemaObject) {
        let r = c.rules;
        if !r.property_named_properties
            && let Some(inner) = o
                .properties()
                .and_then(|m| m.get("properties"))
                .and_then(Schema::as_object)
        {
            let t = inner.declared_types();
            if t.contains(&T::Object)
                || inner.properties().is_some()
                || inner.contains(Keyword::AdditionalProperties)
            {
                c.push(
                    p,
                    RuleId::PropertyNamedProperties,
                    "an object property named \"properties\" is misread".to_owned(),
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
    fn xai_misreads_a_property_named_properties_collapsed_to_its_description() {
        fixes(
            &PROPERTY_NAMED_PROPERTIES,
            r#"{"type":"object","properties":{"properties":{"type":"object","properties":{"a":{"type":"string"}}}}}"#,
            &Rules::XAI,
            RuleId::PropertyNamedProperties,
        );
    }
}
