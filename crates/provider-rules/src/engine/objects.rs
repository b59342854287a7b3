//! Objects: `required`, `additionalProperties`, and a property literally named `properties`.

use super::Cx;
use super::types::node_types;
use crate::Slot;
use crate::hints;
use crate::rules::AdditionalProperties as AP;
use schema_core::{InstanceType as T, Keyword, Schema, SchemaObject, Value};

/// Whether a node describes objects (typed so, or typeless with `properties`).
pub(crate) fn is_object(o: &SchemaObject) -> bool {
    let t = node_types(o);
    t.contains(&T::Object) || (t.is_empty() && o.properties().is_some())
}

/// xAI reads an object-shaped property named `properties` as the keyword, so its own
/// `additionalProperties` becomes a property with schema `false`:
/// `/properties/properties/additionalProperties: property schema 'false' is not supported`
/// (vercel/ai#14678). Such a property is collapsed to its description (@juno-ai/bind #7).
pub(crate) fn property_named_properties(node: &mut Schema, p: &str, cx: &mut Cx<'_>) {
    if cx.rules.property_named_properties {
        return;
    }
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
    super::types::infer_missing_type(inner, &format!("{p}/properties/properties"), cx);
    cx.lost(
        &format!("{p}/properties/properties"),
        "property-named-properties",
        "an object property named \"properties\" was collapsed to its description",
        None,
    );
}

/// `required`: a malformed value is removed (`None is not of type 'array'`, yomo#860),
/// duplicates are removed, and where the provider wants only defined names (Gemini:
/// `...required[0]: property is not defined`), the others go to the description.
pub(crate) fn required(node: &mut Schema, p: &str, cx: &mut Cx<'_>) {
    let Some(o) = node.as_object_mut() else {
        return;
    };
    match o.get(Keyword::Required) {
        None => return,
        Some(Value::Raw(_)) => {
            o.remove(Keyword::Required);
            cx.lost(
                p,
                "required-malformed",
                "required was not an array of strings",
                None,
            );
            return;
        }
        Some(_) => {}
    }
    let defined: Option<Vec<String>> = o.properties().map(|m| m.keys().cloned().collect());
    let Some(list) = o.strings_mut(Keyword::Required) else {
        return;
    };
    let before = list.len();
    let mut seen = Vec::with_capacity(list.len());
    list.retain(|n| {
        if seen.contains(n) {
            false
        } else {
            seen.push(n.clone());
            true
        }
    });
    if list.len() != before {
        cx.change(p, "required-duplicates", "duplicate required names removed");
    }
    if !cx.rules.required_defined {
        return;
    }
    let defined = defined.unwrap_or_default();
    let missing: Vec<String> = list
        .iter()
        .filter(|n| !defined.contains(n))
        .cloned()
        .collect();
    if missing.is_empty() {
        return;
    }
    list.retain(|n| defined.contains(n));
    if list.is_empty() {
        o.remove(Keyword::Required);
    }
    let names: Vec<String> = missing.iter().map(|n| format!("\"{n}\"")).collect();
    cx.lost(
        p,
        "required-undefined",
        format!(
            "required names without a property removed: {}",
            names.join(", ")
        ),
        Some(format!("Also required: {}.", names.join(", "))),
    );
}

/// `additionalProperties` per [`AdditionalProperties`](crate::AdditionalProperties):
/// dropped with a hint (Gemini: `Unknown name "additionalProperties"`), `false` dropped and
/// open objects made explicit (xAI), or every object closed (strict modes).
pub(crate) fn additional_properties(node: &mut Schema, p: &str, cx: &mut Cx<'_>) {
    let mode = cx.rules.additional_properties;
    let Some(o) = node.as_object_mut() else {
        return;
    };
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
                "additional-properties",
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
                    "additional-properties",
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
                    "additional-properties",
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
                    "additional-properties",
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
                None if free_form && !(p.is_empty() && cx.slot == Slot::Parameters) => {
                    // `{"type": "object"}` is a free-form map (except as a tool's empty
                    // parameter list): closed, it would only accept `{}`.
                    o.insert(
                        Keyword::AdditionalProperties,
                        Value::Schema(Box::new(Schema::Bool(false))),
                    );
                    cx.lost(
                        p,
                        "additional-properties",
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
                        "additional-properties",
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
                    cx.lost(p, "additional-properties", "an open map was closed", hint);
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
