//! `conditional`: `if`/`then`/`else` folded into optional properties where `if` is not
//! accepted.

use super::{add_optional_properties, branch_properties, consequence, described, sentences};
use crate::RuleId;
use crate::engine::rule::Hint;
use crate::engine::{Cx, Rule};
use crate::hints;
use schema_core::{Keyword, Schema, SchemaObject, Value};

/// `if`/`then`/`else` folded where `if` is not accepted.
pub(crate) static CONDITIONALS: Rule = Rule::new(RuleId::Conditional)
    .reads(&[Keyword::If, Keyword::Then, Keyword::Else])
    .gate(|r, _| !r.keywords.contains(Keyword::If))
    .pre(conditionals)
    .found_by(
        &crate::engine::filter::UNSUPPORTED_KEYWORD,
        "an if/then/else the profile refuses is a keyword it does not accept",
    )
    .hints(&[IF, OTHERWISE]);

/// What `then` leaves: the condition, what it says.
const IF: Hint = Hint::new(RuleId::Conditional, "If {}: {}.");
/// What `else` leaves: what it says.
const OTHERWISE: Hint = Hint::new(RuleId::Conditional, "Otherwise: {}.");

/// `if`/`then`/`else` (where not accepted): the properties of `then` and `else` become
/// optional properties of the node, and the condition goes to the description.
pub(crate) fn conditionals(node: &mut Schema, p: &crate::engine::passes::At<'_>, cx: &mut Cx<'_>) {
    let Some(o) = node.as_object_mut() else {
        return;
    };
    if !(o.contains(Keyword::If) || o.contains(Keyword::Then) || o.contains(Keyword::Else)) {
        return;
    }
    let cond = o.remove(Keyword::If);
    let then = o.remove(Keyword::Then);
    let els = o.remove(Keyword::Else);
    let mut parts = Vec::new();
    let cond_text = match &cond {
        Some(Value::Schema(s)) => condition(s),
        _ => "a condition holds".to_owned(),
    };
    // A property only one branch describes is free in the other: it is added untyped, with
    // its schema in words; one both describe accepts either schema.
    let then_props = branch_properties(&then);
    let else_props = branch_properties(&els);
    let mut added: Vec<(String, Schema)> = Vec::new();
    for (name, s) in then_props.iter() {
        let prop = match else_props.get(name) {
            Some(e) if e == s => s.clone(),
            Some(e) => {
                let mut u = SchemaObject::new();
                u.insert(Keyword::AnyOf, Value::Schemas(vec![s.clone(), e.clone()]));
                Schema::Object(u)
            }
            None => described(&IF.with(&[&cond_text, &hints::summarize(s)])),
        };
        added.push((name.clone(), prop));
    }
    for (name, s) in else_props.iter() {
        if !then_props.contains_key(name) {
            added.push((
                name.clone(),
                described(&OTHERWISE.with(&[&hints::summarize(s)])),
            ));
        }
    }
    add_optional_properties(o, added);
    for (label, v) in [("then", &then), ("else", &els)] {
        let Some(Value::Schema(s)) = v else { continue };
        let what = consequence(s);
        if !what.is_empty() {
            parts.push(if label == "then" {
                IF.with(&[&cond_text, &what])
            } else {
                OTHERWISE.with(&[&what])
            });
        }
    }
    let hint = sentences(parts);
    cx.lost(
        p,
        RuleId::Conditional,
        "if/then/else merged into optional properties",
        hint,
    );
}

/// `country is "US"` for `{"properties": {"country": {"const": "US"}}}`.
fn condition(s: &Schema) -> String {
    let Some(o) = s.as_object() else {
        return "a condition holds".to_owned();
    };
    let mut parts = Vec::new();
    if let Some(props) = o.properties() {
        for (k, v) in props {
            if let Some(vo) = v.as_object() {
                if let Some(c) = vo.instance(Keyword::Const) {
                    parts.push(format!("\"{k}\" is {}", hints::short(c)));
                } else if let Some(list) = vo.enum_values() {
                    parts.push(format!("\"{k}\" is one of {}", hints::values(list)));
                }
            }
        }
    }
    if let Some(r) = o.required() {
        for n in r {
            parts.push(format!("\"{n}\" is present"));
        }
    }
    if parts.is_empty() {
        format!("the value is {}", hints::summarize(s))
    } else {
        parts.join(" and ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::alone::fixes;
    use crate::rules::Rules;

    #[test]
    fn gemini_unknown_name_if_cannot_find_field_conditional_folded() {
        let (_, changes) = fixes(
            &CONDITIONALS,
            r#"{"type":"object","properties":{"a":{"type":"string"}},"if":{"required":["a"]},"then":{"required":["b"]}}"#,
            &Rules::GEMINI,
            RuleId::UnsupportedKeyword,
        );
        assert_eq!(changes[0].rule, RuleId::Conditional);
    }
}
