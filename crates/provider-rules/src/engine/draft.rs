//! Older drafts read as 2020-12, where the provider wants 2020-12 or does not accept the old
//! form (so the later steps see one canonical form).

use super::{Check, Cx, Rule};
use crate::RuleId;
use crate::rules::Tuples;
use schema_core::{Dependency, Keyword, Schema, Value};

/// Older drafts' spellings read as 2020-12 (the step tests each spelling against the
/// profile).
pub(crate) static DRAFT_2020: Rule = Rule::new(RuleId::Draft2020)
    .reads(&[
        Keyword::ExclusiveMinimum,
        Keyword::ExclusiveMaximum,
        Keyword::Id,
        Keyword::Items,
        Keyword::AdditionalItems,
        Keyword::Dependencies,
    ])
    .pre(to_2020)
    .check(Check::Object(check::draft_2020));

/// draft-04 boolean `exclusiveMinimum`/`exclusiveMaximum` → numbers; draft-07 tuple
/// `items: [...]` → `prefixItems` (and `additionalItems` → `items`); `dependencies` →
/// `dependentRequired` / `dependentSchemas`. Prevents Anthropic's `JSON schema is invalid.
/// It must match JSON Schema draft 2020-12` (kintone/mcp-server#553) and Mistral's
/// `{'exclusiveMinimum': True, ...} is not valid under any of the given schemas`.
pub(crate) fn to_2020(node: &mut Schema, p: &crate::engine::passes::At<'_>, cx: &mut Cx<'_>) {
    let rules = cx.rules;
    let Some(o) = node.as_object_mut() else {
        return;
    };

    for (ex, bound) in [
        (Keyword::ExclusiveMinimum, Keyword::Minimum),
        (Keyword::ExclusiveMaximum, Keyword::Maximum),
    ] {
        if let Some(Value::Bool(b)) = o.get(ex).cloned() {
            if !rules.draft_2020 && rules.keywords.contains(ex) {
                continue;
            }
            o.remove(ex);
            if b && let Some(v) = o.remove(bound) {
                o.insert(ex, v);
            }
            cx.change(
                p,
                RuleId::Draft2020,
                format!("draft-04 boolean {ex} became a number"),
            );
        }
    }

    // draft-07 names a location with `"$id": "#name"`; 2020-12 with `"$anchor": "name"`.
    if rules.draft_2020
        && let Some(Value::String(id)) = o.get(Keyword::Id)
        && let Some(name) = id.strip_prefix('#')
        && !name.is_empty()
        && !name.starts_with('/')
        && !o.contains(Keyword::Anchor)
    {
        let name = name.to_owned();
        o.remove(Keyword::Id);
        o.insert(Keyword::Anchor, Value::String(name));
        cx.change(
            p,
            RuleId::Draft2020,
            "a draft-07 \"$id\": \"#name\" became $anchor",
        );
    }

    let tuple_gate = rules.draft_2020 || rules.tuples != Tuples::Keep;
    if tuple_gate {
        if let Some(Value::Schemas(_)) = o.get(Keyword::Items) {
            let items = o.remove(Keyword::Items);
            let additional = o.remove(Keyword::AdditionalItems);
            if let Some(items) = items
                && !o.contains(Keyword::PrefixItems)
            {
                o.insert(Keyword::PrefixItems, items);
            }
            if let Some(a @ Value::Schema(_)) = additional {
                o.insert(Keyword::Items, a);
            }
            cx.change(p, RuleId::Draft2020, "a draft-07 tuple became prefixItems");
        } else if o.contains(Keyword::AdditionalItems) && rules.draft_2020 {
            // Without a tuple, additionalItems means nothing.
            o.remove(Keyword::AdditionalItems);
            cx.change(
                p,
                RuleId::Draft2020,
                "additionalItems without a tuple removed",
            );
        }
    }

    if (rules.draft_2020 || !rules.keywords.contains(Keyword::Dependencies))
        && matches!(o.get(Keyword::Dependencies), Some(Value::Dependencies(_)))
        && let Some(Value::Dependencies(deps)) = o.remove(Keyword::Dependencies)
    {
        let mut req = indexmap::IndexMap::new();
        let mut schemas = schema_core::SchemaMap::default();
        for (k, d) in deps {
            match d {
                Dependency::Required(names) => {
                    req.insert(k, names);
                }
                Dependency::Schema(s) => {
                    schemas.insert(k, s);
                }
            }
        }
        if !req.is_empty() && !o.contains(Keyword::DependentRequired) {
            o.insert(Keyword::DependentRequired, Value::StringsMap(req));
        }
        if !schemas.is_empty() && !o.contains(Keyword::DependentSchemas) {
            o.insert(Keyword::DependentSchemas, Value::SchemaMap(schemas));
        }
        cx.change(
            p,
            RuleId::Draft2020,
            "dependencies became dependentRequired/dependentSchemas",
        );
    }
}

/// The 2020-12 dialect URI.
const DRAFT_2020_URI: &str = "https://json-schema.org/draft/2020-12/schema";

/// Where the profile wants 2020-12 and the result holds a `$ref` with siblings that validate
/// (a merged `allOf` puts them there), the document says it is 2020-12: read as draft-07 (its
/// `$schema`, or `definitions`), those siblings would be ignored, and a second pass would
/// remove them. One `$schema` at the root; linear in the schema.
pub(crate) fn declare_2020(schema: &mut Schema, cx: &mut Cx<'_>) {
    use schema_core::{Dialect, Visit};
    if !cx.rules.draft_2020
        || !cx.rules.keywords.contains(Keyword::SchemaUri)
        // No `$ref` in the tree where the last tree-pass walk saw none and nothing changed
        // since (a schema that needs no change): nothing to search.
        || !cx.tree_may_hold(schema_core::KeywordMask::of(&[Keyword::Ref]))
    {
        return;
    }
    struct RefWithSiblings(bool);
    impl Visit for RefWithSiblings {
        // A search: no pointer is read (the walk builds none).
        fn pointers(&self) -> bool {
            false
        }
        fn enter(&mut self, _: &str, s: &Schema) -> bool {
            if let Some(o) = s.as_object()
                && !super::refs::siblings_ignored(o)
            {
                self.0 = true;
            }
            !self.0
        }
    }
    let mut found = RefWithSiblings(false);
    schema.walk(&mut found);
    if !found.0
        || !matches!(
            Dialect::detect(schema),
            Dialect::Draft4 | Dialect::Draft6 | Dialect::Draft7
        )
    {
        return;
    }
    if let Some(o) = schema.as_object_mut() {
        o.insert_at(
            0,
            Keyword::SchemaUri,
            Value::String(DRAFT_2020_URI.to_owned()),
        );
        cx.change(
            "",
            RuleId::Draft2020,
            "declared 2020-12: a $ref has siblings that apply (they would be ignored in draft-07)",
        );
    }
}

/// What the provider would reject that this file's steps fix: the checker's part of these
/// rules (run on every object node, in the order of [`ORDER`](crate::engine::ORDER)).
pub(crate) mod check {
    use crate::RuleId;
    use crate::check::Checker;
    use crate::rules::Tuples;
    use schema_core::{Keyword, SchemaObject, Value};

    /// Draft-07 spellings in a 2020-12 profile ([`to_2020`](super::to_2020)).
    pub(crate) fn draft_2020(c: &mut Checker<'_>, p: &str, o: &SchemaObject) {
        let r = c.rules;
        let tuple_items = matches!(o.get(Keyword::Items), Some(Value::Schemas(_)));
        if r.draft_2020 {
            for kw in [Keyword::ExclusiveMinimum, Keyword::ExclusiveMaximum] {
                if matches!(o.get(kw), Some(Value::Bool(_))) {
                    c.push(
                        p,
                        RuleId::Draft2020,
                        format!("{kw} must be a number in 2020-12"),
                    );
                }
            }
            if tuple_items && r.tuples == Tuples::Keep {
                c.push(
                    p,
                    RuleId::Draft2020,
                    "items must be a schema in 2020-12".to_owned(),
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
    fn anthropic_json_schema_is_invalid_it_must_match_draft_2020_12() {
        let (out, _) = fixes(
            &DRAFT_2020,
            r#"{"type":"number","minimum":0,"exclusiveMinimum":true}"#,
            &Rules::ANTHROPIC,
            RuleId::Draft2020,
        );
        assert_eq!(
            out.to_json_string(),
            r#"{"type":"number","exclusiveMinimum":0}"#
        );
    }
}
