//! `dependent-schemas`: `dependentSchemas` folded into optional properties where it is not
//! accepted.

use super::{add_optional_properties, branch_properties, consequence, described, sentences};
use crate::RuleId;
use crate::engine::rule::Hint;
use crate::engine::{Cx, Rule};
use crate::hints;
use schema_core::{Keyword, Schema, Value};

/// `dependentSchemas` folded where it is not accepted.
pub(crate) static DEPENDENT_SCHEMAS: Rule = Rule::new(RuleId::DependentSchemas)
    .reads(&[Keyword::DependentSchemas])
    .gate(|r, _| !r.keywords.contains(Keyword::DependentSchemas))
    .pre(dependent_schemas)
    .found_by(
        &crate::engine::filter::UNSUPPORTED_KEYWORD,
        "a dependentSchemas the profile refuses is a keyword it does not accept",
    )
    .hints(&[WHEN_PRESENT]);

/// What a dependent schema leaves: the property it depends on, what it says.
const WHEN_PRESENT: Hint = Hint::new(RuleId::DependentSchemas, "When \"{}\" is present: {}.");

/// `dependentSchemas` (where not accepted): their properties become optional properties.
pub(crate) fn dependent_schemas(
    node: &mut Schema,
    p: &crate::engine::passes::At<'_>,
    cx: &mut Cx<'_>,
) {
    let Some(o) = node.as_object_mut() else {
        return;
    };
    let Some(Value::SchemaMap(m)) = o.remove(Keyword::DependentSchemas) else {
        return;
    };
    let mut parts = Vec::new();
    for (name, s) in &m {
        // Only when `name` is present: the properties are added untyped, their schema in words.
        let added = branch_properties(&Some(Value::Schema(Box::new(s.clone()))))
            .iter()
            .map(|(k, x)| {
                let text = WHEN_PRESENT.with(&[name, &hints::summarize(x)]);
                (k.clone(), described(&text))
            })
            .collect();
        add_optional_properties(o, added);
        let what = consequence(s);
        if !what.is_empty() {
            parts.push(WHEN_PRESENT.with(&[name, &what]));
        }
    }
    let hint = sentences(parts);
    cx.lost(
        p,
        RuleId::DependentSchemas,
        "dependentSchemas merged into optional properties",
        hint,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::alone::fixes;
    use crate::rules::Rules;

    #[test]
    fn gemini_unknown_name_dependent_schemas_cannot_find_field_folded() {
        let (_, changes) = fixes(
            &DEPENDENT_SCHEMAS,
            r#"{"type":"object","properties":{"a":{"type":"string"}},"dependentSchemas":{"a":{"required":["b"]}}}"#,
            &Rules::GEMINI,
            RuleId::UnsupportedKeyword,
        );
        assert_eq!(changes[0].rule, RuleId::DependentSchemas);
    }
}
