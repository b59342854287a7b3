//! Objects: `required`, `additionalProperties`, and a property literally named `properties`.

use super::passes::At;
use super::types::node_types;
use super::{Check, Cx, Rule};
use crate::RuleId;
use crate::Slot;
use crate::hints;
use crate::rules::AdditionalProperties as AP;
use schema_core::{InstanceType as T, Keyword, Schema, SchemaObject, Value};

/// Whether a node describes objects (typed so, or typeless with `properties`).
pub(crate) fn is_object(o: &SchemaObject) -> bool {
    let t = node_types(o);
    t.contains(&T::Object) || (t.is_empty() && o.properties().is_some())
}

/// An object property named `properties` collapsed where the provider misreads it.
pub(crate) static PROPERTY_NAMED_PROPERTIES: Rule = Rule::new(RuleId::PropertyNamedProperties)
    .gate(|r, _| !r.property_named_properties)
    .pre(property_named_properties)
    .post(property_named_properties)
    .check(Check::Object(check::property_named_properties));

/// xAI reads an object-shaped property named `properties` as the keyword, so its own
/// `additionalProperties` becomes a property with schema `false`:
/// `/properties/properties/additionalProperties: property schema 'false' is not supported`
/// (vercel/ai#14678). Such a property is collapsed to its description (@juno-ai/bind #7).
pub(crate) fn property_named_properties(node: &mut Schema, p: &str, cx: &mut Cx<'_>) {
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
    if (super::types::TYPE_INFERRED.gate)(cx.rules, cx.slot) {
        super::types::infer_missing_type(inner, &format!("{p}/properties/properties"), cx);
    }
    cx.lost(
        &format!("{p}/properties/properties"),
        RuleId::PropertyNamedProperties,
        "an object property named \"properties\" was collapsed to its description",
        None,
    );
}

/// `required` made a list of the node's own property names, once each.
pub(crate) static REQUIRED: Rule = Rule::new(RuleId::RequiredUndefined)
    .post(required)
    .check(Check::Object(check::required));

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
                RuleId::RequiredMalformed,
                "required was not an array of strings",
                None,
            );
            return;
        }
        Some(_) => {}
    }
    // The usual case, read without copying a name: distinct names, each defined where the
    // profile wants that.
    if let Some(list) = o.required()
        && !(1..list.len()).any(|i| list[..i].contains(&list[i]))
        && (!cx.rules.required_defined
            || list
                .iter()
                .all(|n| o.properties().is_some_and(|m| m.contains_key(n))))
    {
        return;
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
        cx.change(
            p,
            RuleId::RequiredDuplicates,
            "duplicate required names removed",
        );
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
    let names: Vec<String> = missing.iter().map(|n| format!("\"{n}\"")).collect();
    // Where the profile says "any value" without loss (a union of every type), a required
    // name gets that property: the object still requires it (issue 16, Gemini precision).
    if let Some(any) = cx.any_value().filter(|_| !cx.any_value_lossy()).cloned() {
        if !o.contains(Keyword::Properties) {
            o.insert(Keyword::Properties, Value::SchemaMap(Default::default()));
        }
        if let Some(props) = o.properties_mut() {
            for n in &missing {
                props.insert(n.clone(), any.clone());
            }
            cx.change(
                p,
                RuleId::RequiredUndefined,
                format!(
                    "required names without a property defined as any value: {}",
                    names.join(", ")
                ),
            );
            return;
        }
    }
    let Some(list) = o.strings_mut(Keyword::Required) else {
        return;
    };
    list.retain(|n| defined.contains(n));
    if list.is_empty() {
        o.remove(Keyword::Required);
    }
    cx.lost(
        p,
        RuleId::RequiredUndefined,
        format!(
            "required names without a property removed: {}",
            names.join(", ")
        ),
        Some(format!("Also required: {}.", names.join(", "))),
    );
}

/// `additionalProperties` dropped, closed or repaired where the provider wants it so.
pub(crate) static ADDITIONAL_PROPERTIES: Rule = Rule::new(RuleId::AdditionalProperties)
    .post(additional_properties)
    .check(Check::Object(check::additional_properties));

/// `additionalProperties` per [`AdditionalProperties`](crate::AdditionalProperties):
/// dropped with a hint (Gemini: `Unknown name "additionalProperties"`), `false` dropped and
/// open objects made explicit (xAI), or every object closed (strict modes).
pub(crate) fn additional_properties(node: &mut Schema, p: &str, cx: &mut Cx<'_>) {
    let mode = cx.rules.additional_properties;
    let Some(o) = node.as_object_mut() else {
        return;
    };
    super::closed::closed_bound(o, p, cx);
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
                None if free_form && !(p.is_empty() && cx.slot == Slot::Parameters) => {
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

/// An empty `properties` map removed where the provider wants none (but at a root that
/// must have one).
pub(crate) static EMPTY_PROPERTIES: Rule = Rule::new(RuleId::PropertiesEmpty)
    .gate(|r, _| !r.empty_properties)
    .post(empty_properties)
    .check(Check::Object(check::empty_properties));

/// An empty `properties` map where the provider refuses one (gated by
/// [`Rules::empty_properties`](crate::Rules::empty_properties)) is removed: `{"type":
/// "object", "properties": {}}` becomes `{"type": "object"}`. Lossless: an empty map asserts
/// nothing. Prevents Gemini's `GenerateContentRequest.tools[0].function_declarations[1].
/// parameters.properties: should be non-empty for OBJECT type` (langchain-ai/langchain-google#416,
/// pipecat-ai/pipecat-flows#110; peers.md §3 #36). Runs after the type is inferred, so a
/// typeless `{"properties": {}}` still says it is an object. A root that must have
/// `properties` keeps its map ([`Rules::keeps_root_properties`](crate::Rules::keeps_root_properties)).
pub(crate) fn empty_properties(node: &mut Schema, p: &str, cx: &mut Cx<'_>) {
    if p.is_empty() && cx.rules.keeps_root_properties(cx.slot) {
        return;
    }
    let Some(o) = node.as_object_mut() else {
        return;
    };
    if !o
        .schema_map(Keyword::Properties)
        .is_some_and(schema_core::SchemaMap::is_empty)
    {
        return;
    }
    o.remove(Keyword::Properties);
    cx.change(
        p,
        RuleId::PropertiesEmpty,
        "an empty properties map removed (it asserts nothing)",
    );
}

/// A draft-03 boolean `required` on a property schema (gated by
/// [`Rules::promote_boolean_required`](crate::Rules::promote_boolean_required)):
/// `{"properties": {"foo": {"type": "string", "required": true}}}` becomes `{"properties":
/// {"foo": {"type": "string"}}, "required": ["foo"]}`; `required: false` is removed (CLIProxyAPI
/// `BooleanRequiredPromoted`, peers.md §3 #37). Left alone, the malformed value is dropped
/// and the property is no longer required. A tree-level pass before the walk and `$ref`
/// inlining: each flag goes to the object it was written in, before a merge (root union,
/// `allOf`, `if`/`then`) moves the property into another one, where it would mean something
/// else (a property required in one branch of a union is not required by the union).
/// Its step on one node ([`super::passes`] walks the tree).
pub(crate) fn boolean_required(s: &mut Schema, p: &At<'_>, cx: &mut Cx<'_>) {
    if let Some(o) = s.as_object_mut()
        && let Some(promoted) = promote_boolean_required(o)
    {
        promoted.report(p, cx);
    }
}

/// What [`promote_boolean_required`] did on one node.
pub(crate) struct Promoted {
    /// The properties whose `required: true` made them required.
    names: Vec<String>,
    /// The properties whose boolean `required` was removed.
    removed: Vec<String>,
    /// Whether the node's own `required` was malformed (not a boolean) and was replaced.
    replaced_malformed: bool,
}

impl Promoted {
    /// Writes the change (and a replaced malformed `required`) into the report.
    pub(crate) fn report(&self, p: &str, cx: &mut Cx<'_>) {
        let quote = |l: &[String]| {
            l.iter()
                .map(|n| format!("\"{n}\""))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let message = if self.names.is_empty() {
            format!(
                "draft-03 boolean required removed from {}",
                quote(&self.removed)
            )
        } else {
            format!(
                "draft-03 boolean required moved into the required list: {}",
                quote(&self.names)
            )
        };
        cx.change(p, RuleId::BooleanRequired, message);
        if self.replaced_malformed {
            cx.lost(
                p,
                RuleId::RequiredMalformed,
                "required was not an array of strings",
                None,
            );
        }
    }
}

/// Moves the boolean `required` of `o`'s property schemas into `o`'s `required` list (see
/// [`boolean_required`]). `None` when no property has one.
pub(crate) fn promote_boolean_required(o: &mut SchemaObject) -> Option<Promoted> {
    let props = o.properties_mut()?;
    let mut names = Vec::new();
    let mut removed = Vec::new();
    for (name, s) in props.iter_mut() {
        let Some(so) = s.as_object_mut() else {
            continue;
        };
        let Some(Value::Raw(raw)) = so.get(Keyword::Required) else {
            continue;
        };
        let Some(b) = as_bool(raw) else {
            continue;
        };
        so.remove(Keyword::Required);
        removed.push(name.clone());
        if b {
            names.push(name.clone());
        }
    }
    if removed.is_empty() {
        return None;
    }
    let mut replaced_malformed = false;
    if !names.is_empty() {
        if let Some(list) = o.strings_mut(Keyword::Required) {
            for n in &names {
                if !list.contains(n) {
                    list.push(n.clone());
                }
            }
        } else {
            // None, or a malformed value: a boolean one is the node's own draft-03 flag where
            // it says nothing (its parent would have taken it as a property's), anything
            // else is lost as the required step would lose it.
            let old = o.insert(Keyword::Required, Value::Strings(names.clone()));
            replaced_malformed = matches!(
                old,
                Some(Value::Raw(raw)) if as_bool(&raw).is_none()
            );
        }
    }
    Some(Promoted {
        names,
        removed,
        replaced_malformed,
    })
}

/// A raw value that is a JSON boolean.
fn as_bool(raw: &schema_core::Instance) -> Option<bool> {
    match raw.as_json().trim() {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    }
}

/// What the provider would reject that this file's steps fix: the checker's part of these
/// rules (run on every object node, in the order of [`ORDER`](crate::engine::ORDER)).
pub(crate) mod check {
    use crate::RuleId;
    use crate::check::Checker;
    use crate::rules::AdditionalProperties;
    use schema_core::{InstanceType as T, Keyword, Schema, SchemaObject};

    /// An empty `properties` map ([`empty_properties`](super::empty_properties)).
    pub(crate) fn empty_properties(c: &mut Checker<'_>, p: &str, o: &SchemaObject) {
        let r = c.rules;
        // A root that must have `properties` keeps even an empty map.
        let empty_accepted = r.empty_properties || (p.is_empty() && c.root_properties);
        if !empty_accepted
            && o.schema_map(Keyword::Properties)
                .is_some_and(schema_core::SchemaMap::is_empty)
        {
            c.push(
                p,
                RuleId::PropertiesEmpty,
                "properties must not be empty (leave it out)".to_owned(),
            );
        }
    }

    /// `required` names with no property ([`required`](super::required)).
    pub(crate) fn required(c: &mut Checker<'_>, p: &str, o: &SchemaObject) {
        let r = c.rules;
        if r.required_defined
            && let Some(req) = o.required()
        {
            let props = o.properties();
            for n in req {
                if !props.is_some_and(|m| m.contains_key(n)) {
                    c.push(
                        p,
                        RuleId::RequiredUndefined,
                        format!("required property \"{n}\" is not defined"),
                    );
                }
            }
        }
    }

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
    use crate::RuleId;
    use crate::engine::alone::fixes;
    use crate::rules::Rules;

    #[test]
    fn gemini_properties_should_be_non_empty_for_object_type() {
        fixes(
            &EMPTY_PROPERTIES,
            r#"{"type":"object","properties":{"a":{"type":"object","properties":{}}}}"#,
            &Rules::GEMINI,
            RuleId::PropertiesEmpty,
        );
    }

    #[test]
    fn gemini_required_property_is_not_defined() {
        let fixed = |rules| {
            fixes(
                &REQUIRED,
                r#"{"type":"object","properties":{"a":{"type":"string"}},"required":["a","b"]}"#,
                rules,
                RuleId::RequiredUndefined,
            )
            .0
        };
        let out = fixed(&Rules::GEMINI);
        // Gemini says "any value" with a union: `b` stays required, as any value.
        let o = out.as_object().unwrap();
        assert_eq!(o.required().unwrap(), ["a", "b"]);
        let b = o.properties().unwrap().get("b").unwrap();
        assert!(b.as_object().unwrap().contains(Keyword::AnyOf), "{b:?}");
        // Code Assist has no union: the name goes to the description.
        let out = fixed(&Rules::GEMINI_CODE_ASSIST);
        assert!(
            out.to_json_string().contains(r#""required":["a"]"#),
            "{}",
            out.to_json_string()
        );
    }

    #[test]
    fn anthropic_strict_additional_properties_must_be_explicitly_set_to_false() {
        fixes(
            &ADDITIONAL_PROPERTIES,
            r#"{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}"#,
            &Rules::ANTHROPIC_STRICT,
            RuleId::AdditionalProperties,
        );
    }
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
