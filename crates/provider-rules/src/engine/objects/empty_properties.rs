//! `properties-empty`: an empty `properties` map removed where the provider wants none.

use crate::RuleId;
use crate::engine::{Check, Cx, Rule};
use schema_core::{Keyword, Schema};

/// An empty `properties` map removed where the provider wants none (but at a root that
/// must have one).
pub(crate) static EMPTY_PROPERTIES: Rule = Rule::new(RuleId::PropertiesEmpty)
    .reads(&[Keyword::Properties])
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
pub(crate) fn empty_properties(
    node: &mut Schema,
    p: &crate::engine::passes::At<'_>,
    cx: &mut Cx<'_>,
) {
    if p.is_root() && cx.rules.keeps_root_properties(cx.slot) {
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

/// What the provider would reject that this file's step fixes: the checker's part of the
/// rule (run on every object node, in the order of [`ORDER`](crate::engine::ORDER)).
pub(crate) mod check {
    use crate::RuleId;
    use crate::check::Checker;
    use schema_core::{Keyword, SchemaObject};

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
}

#[cfg(test)]
mod tests {
    use super::*;
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
}
