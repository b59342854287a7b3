//! Boolean subschemas (`true`/`false`) where the provider accepts none.

use super::rule::Hint;
use super::{Check, Cx, Rule};
use crate::RuleId;
use schema_core::{Keyword, Location, Schema, SchemaObject, Value};

/// Boolean subschemas where the provider accepts none.
pub(crate) static BOOLEAN_SCHEMA: Rule = Rule::new(RuleId::BooleanSchema)
    .reads_subschemas()
    .gate(|r, _| !r.boolean_schemas)
    .pre(children)
    .check(Check::Node(check::children))
    .hints(&[NEVER_SEND]);

/// What properties of schema `false` leave: their names.
pub(crate) const NEVER_SEND: Hint = Hint::new(RuleId::BooleanSchema, "Never send {}.");

/// Where boolean subschemas are refused (gated by `boolean_schemas`; xAI: `property schema
/// 'false' is not supported`, vercel/ai#14678; Gemini's proto has no boolean schema): a
/// property whose schema is `false` is removed (it can never be sent), `true` becomes `{}`,
/// `false` elsewhere `{"not": {}}`. `additionalProperties`, `additionalItems`,
/// `unevaluated*` and a tuple's closing `items: false` are left to their own steps.
pub(crate) fn children(node: &mut Schema, p: &crate::engine::passes::At<'_>, cx: &mut Cx<'_>) {
    let Some(o) = node.as_object_mut() else {
        return;
    };
    // Properties that can never be sent.
    let mut banned = Vec::new();
    if let Some(props) = o.properties_mut() {
        props.retain(|k, s| {
            if matches!(s, Schema::Bool(false)) {
                banned.push(k.clone());
                false
            } else {
                true
            }
        });
    }
    if !banned.is_empty() {
        if let Some(req) = o.strings_mut(Keyword::Required) {
            req.retain(|n| !banned.contains(n));
        }
        let names: Vec<String> = banned.iter().map(|n| format!("\"{n}\"")).collect();
        cx.lost(
            p,
            RuleId::BooleanSchema,
            format!("properties with schema false removed: {}", names.join(", ")),
            Some(NEVER_SEND.with(&[&names.join(", ")])),
        );
    }
    let has_prefix = o.contains(Keyword::PrefixItems);
    let mut changed = false;
    node.for_each_child_mut(|loc, child| {
        if own_step(&loc, has_prefix) {
            return;
        }
        if let Schema::Bool(b) = *child {
            let mut o = SchemaObject::new();
            if !b {
                o.insert(Keyword::Not, Value::Schema(Box::default()));
            }
            *child = Schema::Object(o);
            changed = true;
        }
    });
    if changed {
        cx.change(
            p,
            RuleId::BooleanSchema,
            "boolean subschemas became schema objects",
        );
    }
}

/// Whether a boolean subschema at `loc` is left to its own step by [`children`]
/// (`additionalProperties`, `additionalItems`, `unevaluated*`, a tuple's closing `items`;
/// `has_prefix`: the node has `prefixItems`).
fn own_step(loc: &Location<'_>, has_prefix: bool) -> bool {
    let kw = loc.keyword();
    matches!(
        kw,
        Keyword::AdditionalProperties
            | Keyword::AdditionalItems
            | Keyword::UnevaluatedItems
            | Keyword::UnevaluatedProperties
    ) || (kw == Keyword::Items && has_prefix && matches!(loc, Location::Keyword(_)))
}

/// Whether [`children`] leaves `o` as it is: no property of schema `false`, and no boolean
/// subschema but those left to their own steps.
pub(crate) fn leaves(o: &SchemaObject) -> bool {
    let has_prefix = o.contains(Keyword::PrefixItems);
    let mut none = true;
    o.for_each_child(|loc, c| {
        none &= !matches!(c, Schema::Bool(_)) || own_step(&loc, has_prefix);
    });
    none
}

/// What the provider would reject that this file's step fixes
/// ([`children`]).
pub(crate) mod check {
    use crate::RuleId;
    use crate::check::Checker;
    use schema_core::{Keyword, Schema};

    /// Boolean subschemas where the provider wants object schemas.
    pub(crate) fn children(c: &mut Checker<'_>, p: &str, s: &Schema) {
        if c.rules.boolean_schemas {
            return;
        }
        let has_prefix = s
            .as_object()
            .is_some_and(|o| o.contains(Keyword::PrefixItems));
        let mut found = Vec::new();
        s.for_each_child(|loc, child| {
            if !super::own_step(&loc, has_prefix) && matches!(child, Schema::Bool(_)) {
                let mut cp = p.to_owned();
                loc.push_to(&mut cp);
                found.push(cp);
            }
        });
        for cp in found {
            c.push(
                &cp,
                RuleId::BooleanSchema,
                "a boolean schema is not accepted here".to_owned(),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Checker;
    use crate::engine::alone::fix_rule as fix;
    use crate::{Rules, Slot};

    fn found(s: &Schema, rules: &Rules) -> Vec<crate::report::Violation> {
        let mut c = Checker::new(s, rules, Slot::Schema);
        s.walk(&mut FindAll(&mut c));
        c.into_found()
    }

    struct FindAll<'a, 'r>(&'a mut Checker<'r>);

    impl schema_core::Visit for FindAll<'_, '_> {
        fn enter(&mut self, p: &str, s: &Schema) -> bool {
            check::children(self.0, p, s);
            true
        }
    }

    #[test]
    fn xai_property_schema_false_is_not_supported() {
        let json = r#"{"type":"object","properties":{"a":{"type":"string"},"gone":false,"any":true},"required":["a","gone"]}"#;
        let before = Schema::from_str(json).unwrap();
        let at: Vec<String> = found(&before, &Rules::XAI)
            .into_iter()
            .map(|v| v.pointer)
            .collect();
        assert_eq!(at, ["/properties/gone", "/properties/any"]);
        let (after, changes) = fix(&BOOLEAN_SCHEMA, &before, &Rules::XAI, Slot::Schema);
        assert!(changes.iter().all(|c| c.rule == RuleId::BooleanSchema));
        assert!(found(&after, &Rules::XAI).is_empty());
        assert_eq!(
            after.to_json_string(),
            r#"{"type":"object","properties":{"a":{"type":"string"},"any":{}},"required":["a"]}"#
        );
    }
}
