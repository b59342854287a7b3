//! `required-undefined` (and `required-malformed`, `required-duplicates`): `required` made a
//! list of the node's own property names, once each.

use crate::RuleId;
use crate::engine::{Check, Cx, Rule};
use schema_core::{Keyword, Schema, Value};

/// `required` made a list of the node's own property names, once each.
pub(crate) static REQUIRED: Rule = Rule::new(RuleId::RequiredUndefined)
    .reads(&[Keyword::Required])
    .post(required)
    .check(Check::Object(check::required))
    .reports(&[RuleId::RequiredMalformed, RuleId::RequiredDuplicates]);

/// `required`: a malformed value is removed (`None is not of type 'array'`, yomo#860),
/// duplicates are removed, and where the provider wants only defined names (Gemini:
/// `...required[0]: property is not defined`), the others go to the description.
pub(crate) fn required(node: &mut Schema, p: &crate::engine::passes::At<'_>, cx: &mut Cx<'_>) {
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
    if settled(o, cx.rules) {
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

/// Whether [`required`] leaves `o` as it is: no `required`, or distinct names, each defined
/// where the profile wants that (the usual case, read without copying a name).
pub(crate) fn settled(o: &schema_core::SchemaObject, rules: &crate::Rules) -> bool {
    match o.get(Keyword::Required) {
        None => true,
        Some(Value::Raw(_)) => false,
        Some(_) => o.required().is_some_and(|list| {
            !(1..list.len()).any(|i| list[..i].contains(&list[i]))
                && (!rules.required_defined
                    || list
                        .iter()
                        .all(|n| o.properties().is_some_and(|m| m.contains_key(n))))
        }),
    }
}

/// What the provider would reject that this file's step fixes: the checker's part of the
/// rule (run on every object node, in the order of [`ORDER`](crate::engine::ORDER)).
pub(crate) mod check {
    use crate::RuleId;
    use crate::check::Checker;
    use schema_core::SchemaObject;

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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::alone::fixes;
    use crate::rules::Rules;
    use schema_core::Keyword;

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
}
