//! `const`: said as a one-value `enum` where `const` is not accepted.

use super::bound_numbers;
use crate::RuleId;
use crate::engine::rule::Hint;
use crate::engine::types::instance_type;
use crate::engine::{Cx, Rule};
use crate::hints;
use schema_core::{InstanceType as T, Keyword, Schema, TypeSet, Value};

/// `const` said as a one-value `enum` where `const` is not accepted.
pub(crate) static CONST: Rule = Rule::new(RuleId::Const)
    .reads(&[Keyword::Const])
    .gate(|r, _| !r.keywords.contains(Keyword::Const))
    .pre(const_to_enum)
    .found_by(
        &crate::engine::filter::UNSUPPORTED_KEYWORD,
        "a const the profile refuses is a keyword it does not accept",
    )
    .hints(&[MUST_BE]);

/// What a `const` that cannot be an enum member leaves: its value.
const MUST_BE: Hint = Hint::new(RuleId::Const, "Must be {}.");

/// `const` → a one-value `enum` where `const` is not accepted and the value can be an enum
/// member (Gemini: `Unknown name "const"`, zed#59938); otherwise dropped into the description
/// ("Must be 5."), keeping a `type`.
pub(crate) fn const_to_enum(node: &mut Schema, p: &crate::engine::passes::At<'_>, cx: &mut Cx<'_>) {
    let rules = cx.rules;
    let Some(o) = node.as_object_mut() else {
        return;
    };
    let Some(Value::Instance(v)) = o.get(Keyword::Const).cloned() else {
        return;
    };
    o.remove(Keyword::Const);
    let t = instance_type(v.json_type());
    let fits_type = match o.types() {
        None => true,
        Some(ts) => ts.allows(t),
    };
    if rules.keywords.contains(Keyword::Enum) && rules.enums.accepts(v.json_type()) && fits_type {
        o.insert(Keyword::Enum, Value::Instances(vec![v]));
        if !o.contains(Keyword::Type) && t != T::Null {
            o.insert(Keyword::Type, Value::Type(TypeSet::Single(t)));
        }
        cx.change(p, RuleId::Const, "const became a one-value enum");
    } else {
        // A null const gets the null type too: where there is none, the null step makes it a
        // nullable string, which still admits null.
        if !o.contains(Keyword::Type) {
            o.insert(Keyword::Type, Value::Type(TypeSet::Single(t)));
        }
        if t == T::Array
            && !o.contains(Keyword::Items)
            && let Some(items) = crate::engine::arrays::items_of(std::slice::from_ref(&v))
        {
            o.insert(Keyword::Items, Value::Schema(Box::new(items)));
        }
        bound_numbers(o, std::slice::from_ref(&v), rules);
        let hint = MUST_BE.with(&[&hints::short(&v)]);
        cx.lost(p, RuleId::Const, "const is not accepted", Some(hint));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::alone::fixes;
    use crate::rules::Rules;

    #[test]
    fn gemini_unknown_name_const_cannot_find_field_const_became_enum() {
        let (out, changes) = fixes(
            &CONST,
            r#"{"type":"string","const":"a"}"#,
            &Rules::GEMINI,
            RuleId::UnsupportedKeyword,
        );
        assert_eq!(changes[0].rule, RuleId::Const);
        assert_eq!(out.to_json_string(), r#"{"type":"string","enum":["a"]}"#);
    }
}
