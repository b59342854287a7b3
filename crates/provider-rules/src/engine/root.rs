//! The root of a tool's parameters: an object, with `properties`, without a root union where
//! the provider refuses one.

use super::merge::merge_all_of;
use super::objects::is_object;
use super::rule::Hint;
use super::types::{infer, node_types, unions_allowed};
use super::{Check, Cx, Rule};
use crate::RuleId;
use crate::Slot;
use crate::hints;
use schema_core::{
    DiagnosticKind, InstanceType as T, Keyword, Schema, SchemaObject, TypeSet, Value,
};

/// Shapes the root (gated by [`Root`](crate::Root); for [`Slot::Parameters`], and for every
/// slot in strict modes): merges root `allOf`; merges the object branches of a root
/// `anyOf`/`oneOf` into one object (`input_schema does not support oneOf, allOf, or anyOf at
/// the top level`, anthropics/claude-code#5319) with `required` the names every branch
/// requires; makes the root `type: "object"` (`input_schema.type: Input should be 'object'`)
/// with `properties` (`object schema missing properties`), which then stays even where the
/// profile refuses an empty `properties` elsewhere (see [`Rules::keeps_root_properties`](crate::Rules::keeps_root_properties)).
pub(crate) fn shape(node: &mut Schema, p: &crate::engine::passes::At<'_>, cx: &mut Cx<'_>) {
    // The root only (the step runs on every node: it acts on what is absent).
    if !p.is_root() {
        return;
    }
    let root = cx.rules.root;
    if !cx.rules.root_shaped(cx.slot) {
        // A strict standalone schema whose root may be anything (Anthropic structured
        // outputs) still has a root `allOf`, and a root union of objects only, merged: strict
        // mode closes every object, and closed branches would refuse each other's (or the
        // root's) properties. A union with other branches (string | number) is kept.
        let unions = unions_allowed(cx);
        if cx.rules.strict
            && let Some(o) = node.as_object_mut()
        {
            merge_all_of(o, p, cx);
            for kw in [Keyword::AnyOf, Keyword::OneOf] {
                if o.schemas(kw).is_some_and(|l| l.iter().all(only_objects))
                    && let Some(Value::Schemas(list)) = o.remove(kw)
                {
                    merge_object_branches(o, list, unions, p, cx);
                }
            }
        }
        return;
    }
    if !(root.object || root.properties || root.no_composition) {
        return;
    }
    if let Schema::Bool(b) = *node {
        let mut o = SchemaObject::new();
        o.insert(Keyword::Type, Value::Type(TypeSet::Single(T::Object)));
        *node = Schema::Object(o);
        if b {
            cx.change(p, RuleId::Root, "a boolean root became an object schema");
            if cx.slot == Slot::Schema && cx.rules.strict {
                cx.not_strict(
                    p,
                    "a strict schema's root must be an object; this one accepts any value",
                );
            }
        } else {
            cx.lost(
                p,
                RuleId::Root,
                "a false root (accepts nothing) became an object schema",
                Some(NO_INPUT.text()),
            );
        }
    }
    let unions = unions_allowed(cx);
    let Some(o) = node.as_object_mut() else {
        return;
    };
    // Where `anyOf` must stand alone (Vertex), a root union would take the root's `type`
    // into its branches: it is merged like where root unions are refused.
    if root.no_composition || (root.object && cx.rules.unions == crate::Unions::Alone) {
        merge_all_of(o, p, cx);
        for kw in [Keyword::AnyOf, Keyword::OneOf] {
            if let Some(Value::Schemas(list)) = o.remove(kw) {
                merge_object_branches(o, list, unions, p, cx);
            }
        }
    }
    // A root already of type object (the usual case) is passed without copying its types.
    if root.object && node_types(o) != [T::Object] {
        let declared: Vec<T> = node_types(o).to_vec();
        let t = if declared.is_empty() {
            infer(o)
        } else {
            declared.clone()
        };
        if declared != [T::Object] {
            if !t.is_empty() && !t.contains(&T::Object) {
                let summary = hints::summarize(&Schema::Object(o.clone()));
                o.retain(|e| {
                    matches!(
                        e.key,
                        schema_core::Key::Known(Keyword::Description | Keyword::Title)
                    )
                });
                cx.lost(
                    p,
                    RuleId::Root,
                    "a root that is not an object became an empty object",
                    Some(DESCRIBED_AS.with(&[&summary])),
                );
            } else if cx.slot == Slot::Schema && (t.is_empty() || t != [T::Object]) {
                // A tool's input is always an object, but a standalone schema that accepted
                // other values loses them: a strict response format cannot say it.
                cx.lost(
                    p,
                    RuleId::Root,
                    "a root accepting more than objects got type object",
                    None,
                );
            } else {
                cx.change(p, RuleId::Root, "the root got type object");
            }
            if cx.slot == Slot::Schema && cx.rules.strict && t != [T::Object] {
                cx.not_strict(
                    p,
                    "a strict schema's root must be an object; this one accepts other values",
                );
            }
            o.insert_at(0, Keyword::Type, Value::Type(TypeSet::Single(T::Object)));
        }
    }
    if root.properties && is_object(o) && o.properties().is_none() {
        o.insert(Keyword::Properties, Value::SchemaMap(Default::default()));
        cx.change(
            p,
            RuleId::Root,
            "the root object got an empty properties map",
        );
    }
}

/// Whether a union branch accepts objects only (declared or inferred `type: "object"`).
fn only_objects(branch: &Schema) -> bool {
    branch.as_object().is_some_and(|o| {
        let t = node_types(o);
        if t.is_empty() {
            infer(o) == [T::Object]
        } else {
            t == [T::Object]
        }
    })
}

fn merge_object_branches(
    o: &mut SchemaObject,
    list: Vec<Schema>,
    unions: bool,
    p: &str,
    cx: &mut Cx<'_>,
) {
    let summary: Vec<String> = list.iter().map(hints::summarize).collect();
    let mut props = o.properties().cloned().unwrap_or_default();
    let mut required: Option<Vec<String>> = None;
    let mut dropped = 0;
    for b in list {
        let Schema::Object(mut bo) = b else { continue };
        let t = node_types(&bo).to_vec();
        let t = if t.is_empty() { infer(&bo) } else { t };
        if !(t.is_empty() || t.contains(&T::Object)) {
            dropped += 1;
            continue;
        }
        if let Some(Value::SchemaMap(m)) = bo.remove(Keyword::Properties) {
            for (k, s) in m {
                match props.get_mut(&k) {
                    Some(existing) if *existing != s && unions => {
                        let mut u = SchemaObject::new();
                        u.insert(Keyword::AnyOf, Value::Schemas(vec![existing.clone(), s]));
                        *existing = Schema::Object(u);
                    }
                    Some(_) => {}
                    None => {
                        props.insert(k, s);
                    }
                }
            }
        }
        let r: Vec<String> = bo.required().map(<[String]>::to_vec).unwrap_or_default();
        required = Some(match required {
            None => r,
            Some(prev) => prev.into_iter().filter(|n| r.contains(n)).collect(),
        });
    }
    o.insert(Keyword::Properties, Value::SchemaMap(props));
    let mut own: Vec<String> = o.required().map(<[String]>::to_vec).unwrap_or_default();
    for n in required.unwrap_or_default() {
        if !own.contains(&n) {
            own.push(n);
        }
    }
    if !own.is_empty() {
        o.insert(Keyword::Required, Value::Strings(own));
    }
    let one_of = if dropped > 0 { ONE_OF_OBJECTS } else { ONE_OF };
    let hint = one_of.with(&[&summary.join("; ")]);
    if dropped > 0 && cx.slot == Slot::Schema && cx.rules.strict {
        cx.not_strict(
            p,
            "a strict schema's root union has branches that are not objects",
        );
    }
    cx.lost(
        p,
        RuleId::RootUnion,
        "a root union was merged into one object",
        Some(hint),
    );
}

/// A tool's parameters written as a bare property map (gated by
/// [`Rules::wrap_bare_properties`](crate::Rules::wrap_bare_properties); [`Slot::Parameters`]
/// only): `{"foo": {"type": "string", "required": true}}` becomes `{"type": "object",
/// "properties": {"foo": {"type": "string"}}, "required": ["foo"]}` (CLIProxyAPI
/// `BarePropertyMapNormalized`, peers.md §3 #37). Left alone, the members are unknown keywords:
/// Gemini refuses them (`Unknown name "foo" ... Cannot find field`), the keyword filter drops
/// them, and the tool loses its parameters. A tree-level pass before `$ref` handling, so a
/// `$ref` in a member is resolved against the wrapped schema. The members' own draft-03
/// `required: true` make the `required` list, whether or not the profile promotes them
/// elsewhere.
pub(crate) fn wrap_bare_properties(schema: &mut Schema, cx: &mut Cx<'_>) {
    if !cx.rules.wrap_bare_properties || cx.slot != Slot::Parameters {
        return;
    }
    let Some(o) = schema.as_object() else { return };
    // A root whose first member is a keyword is no bare map (the usual case: no search).
    if o.entries()
        .first()
        .is_some_and(|e| matches!(e.key, schema_core::Key::Known(_)))
    {
        return;
    }
    let Some(members) = o.bare_properties() else {
        return;
    };
    let count = members.len();
    let mut cut = false;
    let mut props = schema_core::SchemaMap::default();
    for (name, parsed) in members {
        cut |= parsed
            .diagnostics
            .iter()
            .any(|d| matches!(d.kind, DiagnosticKind::DepthLimit { .. }));
        props.insert(name, parsed.schema);
    }
    let mut wrapped = SchemaObject::new();
    wrapped.insert(Keyword::Type, Value::Type(TypeSet::Single(T::Object)));
    wrapped.insert(Keyword::Properties, Value::SchemaMap(props));
    let promoted = super::objects::promote_boolean_required(&mut wrapped);
    *schema = Schema::Object(wrapped);
    cx.change(
        "",
        RuleId::BareProperties,
        format!("a bare map of {count} property schemas was wrapped in an object schema"),
    );
    if let Some(promoted) = promoted {
        promoted.report("", cx);
    }
    if cut {
        cx.lost(
            "",
            RuleId::Depth,
            "property schemas nested deeper than the depth limit were cut",
            None,
        );
    }
}

/// The root's shape: an object with `properties` and no union where the profile wants one
/// (Anthropic: `input_schema: Input should be an object`, `input_schema does not support
/// oneOf, allOf, or anyOf at the top level`). The step tests the node's position (the root
/// only) and its slot.
pub(crate) static SHAPE: Rule = Rule::new(RuleId::Root)
    .pre(shape)
    .check(Check::Root(check::shape))
    .reports(&[RuleId::RootProperties, RuleId::RootUnion, RuleId::AllOf])
    .hints(&[NO_INPUT, DESCRIBED_AS, ONE_OF, ONE_OF_OBJECTS]);

/// What a `false` root (it accepts nothing) leaves.
const NO_INPUT: Hint = Hint::new(RuleId::Root, "Accepts no input.");
/// What a root that is not an object leaves: its summary.
const DESCRIBED_AS: Hint = Hint::new(RuleId::Root, "The tool's input was described as {}.");
/// What a root union merged into one object leaves: its branches.
const ONE_OF: Hint = Hint::new(RuleId::RootUnion, "Accepts one of: {}.");
/// [`ONE_OF`] where branches that are not objects were dropped.
const ONE_OF_OBJECTS: Hint = Hint::new(
    RuleId::RootUnion,
    "Accepts one of: {}. Only object inputs are possible here.",
);

/// A tool's parameters written as a bare property map, wrapped: fixed by
/// [`wrap_bare_properties`] before the walk.
pub(crate) static BARE_PROPERTIES: Rule = Rule::new(RuleId::BareProperties)
    .gate(|r, slot| r.wrap_bare_properties && slot == Slot::Parameters)
    .check(Check::Root(check::bare_properties))
    .reports(&[RuleId::BooleanRequired, RuleId::Depth]);

/// What the provider would reject that this file's steps fix: the root's shape
/// ([`shape`]) and a bare property map ([`wrap_bare_properties`]).
pub(crate) mod check {
    use crate::RuleId;
    use crate::check::Checker;
    use schema_core::{InstanceType as T, Keyword, Schema, TypeSet};

    /// The root where the profile wants an object with `properties` and no union.
    pub(crate) fn shape(c: &mut Checker<'_>, schema: &Schema) {
        if !c.rules.root_shaped(c.slot) {
            return;
        }
        let root = c.rules.root;
        let Some(o) = schema.as_object() else {
            if root.object || root.properties || root.no_composition {
                c.push(
                    "",
                    RuleId::Root,
                    "the root is a boolean schema, not an object".to_owned(),
                );
            }
            return;
        };
        if root.object && o.types() != Some(&TypeSet::Single(T::Object)) {
            c.push(
                "",
                RuleId::Root,
                "the root must be type \"object\"".to_owned(),
            );
        }
        if root.properties && o.properties().is_none() {
            c.push(
                "",
                RuleId::RootProperties,
                "the root object must have properties".to_owned(),
            );
        }
        if root.no_composition {
            for kw in [Keyword::AnyOf, Keyword::OneOf, Keyword::AllOf] {
                if o.contains(kw) {
                    c.push("", RuleId::RootUnion, format!("{kw} at the root"));
                }
            }
        }
    }

    /// A tool's parameters written as a bare property map lose their properties (Gemini:
    /// `Unknown name "foo" at '...parameters': Cannot find field.`).
    pub(crate) fn bare_properties(c: &mut Checker<'_>, schema: &Schema) {
        if c.rules.wrap_bare_properties
            && c.slot == crate::Slot::Parameters
            && let Some(o) = schema.as_object()
            && o.bare_properties().is_some()
        {
            c.push(
                "",
                RuleId::BareProperties,
                "the parameters are a bare map of property schemas, without type \"object\" and properties"
                    .to_owned(),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Checker;
    use crate::engine::alone::fix_rule as fix;
    use crate::rules::Rules;

    fn s(json: &str) -> Schema {
        Schema::from_str(json).unwrap()
    }

    fn found(json: &str, rules: &Rules) -> Vec<RuleId> {
        let s = Schema::from_str(json).unwrap();
        let mut c = Checker::new(&s, rules, Slot::Parameters);
        check::shape(&mut c, &s);
        check::bare_properties(&mut c, &s);
        c.into_found().into_iter().map(|v| v.rule).collect()
    }

    #[test]
    fn anthropic_input_schema_does_not_support_one_of_all_of_or_any_of_at_the_top_level() {
        let json = r#"{"anyOf":[{"type":"object","properties":{"a":{"type":"string"}}},{"type":"object","properties":{"b":{"type":"integer"}}}]}"#;
        assert!(found(json, &Rules::ANTHROPIC).contains(&RuleId::RootUnion));
        let (out, changes) = fix(&SHAPE, &s(json), &Rules::ANTHROPIC, Slot::Parameters);
        assert!(!changes.is_empty());
        assert!(found(&out.to_json_string(), &Rules::ANTHROPIC).is_empty());
    }

    #[test]
    fn anthropic_input_schema_type_input_should_be_object() {
        let json = r#"{"type":"string"}"#;
        assert!(found(json, &Rules::ANTHROPIC).contains(&RuleId::Root));
        let (out, _) = fix(&SHAPE, &s(json), &Rules::ANTHROPIC, Slot::Parameters);
        assert!(found(&out.to_json_string(), &Rules::ANTHROPIC).is_empty());
    }

    #[test]
    fn gemini_unknown_name_at_parameters_cannot_find_field_bare_properties_wrapped() {
        let json = r#"{"q":{"type":"string"},"n":{"type":"integer"}}"#;
        assert!(found(json, &Rules::GEMINI).contains(&RuleId::BareProperties));
        let mut s = Schema::from_str(json).unwrap();
        let mut cx = Cx::new(&Rules::GEMINI, Slot::Parameters);
        wrap_bare_properties(&mut s, &mut cx);
        assert!(!cx.into_report().changes.is_empty());
        assert!(found(&s.to_json_string(), &Rules::GEMINI).is_empty());
        assert_eq!(
            s.to_json_string(),
            r#"{"type":"object","properties":{"q":{"type":"string"},"n":{"type":"integer"}}}"#
        );
    }
}
