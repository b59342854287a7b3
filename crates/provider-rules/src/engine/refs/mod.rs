//! `$ref` before the walk: inlined where the provider has none (Gemini: `Unknown name
//! "$ref"`), or where it refuses siblings (OpenAI strict, Gemini's JSON Schema path: `$ref
//! 'X' was set alongside unsupported fields`).
//!
//! [`run`] decides; what keeps references is [`keep`], what inlines them is [`inline`].

mod inline;
mod keep;

use super::{Check, Cx, Rule};
use crate::RuleId;
use crate::rules::Refs;
use inline::{inline_all, inline_with_siblings};
use keep::keep_local;
use schema_core::{Key, Keyword, KeywordMask, Schema, Transform};

/// Keywords that may stand beside a `$ref` under [`Refs::NoSiblings`].
pub(crate) const REF_SIBLINGS: &[Keyword] = Refs::SIBLINGS;

/// The reference keywords ([`Schema::has_any_refs`] looks for them).
const REFERENCES: KeywordMask =
    KeywordMask::of(&[Keyword::Ref, Keyword::DynamicRef, Keyword::RecursiveRef]);

/// How many `$ref`s with siblings one schema inlines at most.
const MAX_SIBLING_INLINES: usize = 1_000;

/// A `$ref` the provider refuses: fixed by [`run`], a tree pass before the walk (the
/// references are resolved against the whole schema).
pub(crate) static REFS: Rule = Rule::new(RuleId::Ref)
    .gate(|r, _| r.refs != Refs::Keep || r.draft_2020)
    .check(Check::Object(check::refs))
    .reports(&[RuleId::RefInline, RuleId::RefSiblings]);

/// The references' pass: draft-07 siblings dropped, then the profile's [`Refs`]: kept as
/// they are, inlined ([`inline`]), or kept where they can be ([`keep`]).
pub(crate) fn run(schema: &mut Schema, cx: &mut Cx<'_>) {
    // Every branch below leaves a schema without references as it is: where the last
    // tree-pass walk saw none (and nothing changed since), for every profile; else, where
    // references are rewritten, asked once here, in one walk (the branches ask again only for
    // a schema that has some).
    if !cx.tree_may_hold(REFERENCES) || (cx.rules.refs != Refs::Keep && !schema.has_any_refs()) {
        return;
    }
    if cx.rules.refs != Refs::Keep || cx.rules.draft_2020 {
        draft7_siblings(schema, cx);
    }
    match cx.rules.refs {
        Refs::Keep => {}
        Refs::Inline | Refs::NonCircular => inline_all(schema, cx),
        Refs::NoSiblings => inline_with_siblings(schema, cx),
        Refs::Local | Refs::LocalAcyclic => keep_local(schema, cx),
    }
}

/// Before 2019-09, `$ref` "overrides any sibling keywords": they are ignored. Inlining merges
/// siblings and 2020-12 applies them, which would reject what the schema accepted (a draft-07
/// `{"$ref": "#/definitions/list", "maxItems": 2}` takes any list), so a draft-07 or older
/// schema's `$ref` siblings that validate are removed first. Annotations stay.
fn draft7_siblings(schema: &mut Schema, cx: &mut Cx<'_>) {
    use schema_core::Dialect;
    if !schema.has_refs()
        || !matches!(
            Dialect::detect(schema),
            Dialect::Draft4 | Dialect::Draft6 | Dialect::Draft7
        )
    {
        return;
    }
    struct Strip(Vec<String>);
    impl Transform for Strip {
        fn pre(&mut self, p: &str, s: &mut Schema) {
            let Some(o) = s.as_object_mut() else { return };
            if siblings_ignored(o) {
                return;
            }
            let before = o.len();
            o.retain(|e| match e.key {
                Key::Known(k) => {
                    REF_SIBLINGS.contains(&k) || k == Keyword::Title || k == Keyword::Examples
                }
                Key::Other(_) => true,
            });
            if o.len() != before {
                self.0.push(p.to_owned());
            }
        }
    }
    let mut strip = Strip(Vec::new());
    schema.transform(&mut strip);
    for p in strip.0 {
        cx.change(
            &p,
            RuleId::RefSiblings,
            "siblings of a draft-07 $ref (which ignores them) removed",
        );
    }
}

/// Whether `o` holds no `$ref`, or beside it only the reference keywords, annotations
/// (`title`, `examples`) and unknown keys: nothing a draft-07 `$ref` ignores that 2020-12
/// would apply, so [`draft7_siblings`] removes nothing here and `draft::declare_2020` finds
/// no sibling to declare 2020-12 for.
pub(crate) fn siblings_ignored(o: &schema_core::SchemaObject) -> bool {
    o.reference().is_none()
        || o.entries().iter().all(|e| match e.key {
            Key::Known(k) => {
                REF_SIBLINGS.contains(&k) || k == Keyword::Title || k == Keyword::Examples
            }
            Key::Other(_) => true,
        })
}

/// What the provider would reject that this file's steps fix: the checker's part of these
/// rules (run on every object node, in the order of [`ORDER`](crate::engine::ORDER)).
pub(crate) mod check {
    use crate::RuleId;
    use crate::check::Checker;
    use crate::rules::Refs;
    use schema_core::{Key, SchemaObject};

    /// A `$ref` the provider refuses, circular, dangling or with siblings ([`run`](super::run)).
    pub(crate) fn refs(c: &mut Checker<'_>, p: &str, o: &SchemaObject) {
        let r = c.rules;
        if let Some(_r) = o.reference() {
            match r.refs {
                Refs::Inline => c.push(p, RuleId::Ref, "$ref is not accepted".to_owned()),
                Refs::NonCircular => {
                    if c.circular.contains(p) {
                        c.push(p, RuleId::Ref, "a circular $ref is not accepted".to_owned());
                    } else if c.unresolved(p, o) {
                        c.push(
                            p,
                            RuleId::Ref,
                            "$ref points to nothing in the schema".to_owned(),
                        );
                    }
                }
                Refs::NoSiblings => {
                    let extra = o.entries().iter().any(|e| match e.key {
                        Key::Known(k) => !Refs::SIBLINGS.contains(&k),
                        Key::Other(_) => true,
                    });
                    if extra {
                        c.push(
                            p,
                            RuleId::RefSiblings,
                            "$ref must stand without siblings".to_owned(),
                        );
                    }
                }
                Refs::Local | Refs::LocalAcyclic => kept(c, p, o),
                Refs::Keep => {}
            }
        }
        if r.refs == Refs::LocalAcyclic
            && let Some(list) = o.schemas(schema_core::Keyword::AllOf)
            && list
                .iter()
                .any(|b| b.as_object().is_some_and(|b| b.reference().is_some()))
        {
            c.push(
                p,
                RuleId::Ref,
                "allOf with a $ref member is not accepted".to_owned(),
            );
        }
    }

    /// A kept reference the strict dialect refuses: with siblings (openai-agents inlines
    /// those), into another document or nowhere, circular where recursion is not accepted.
    fn kept(c: &mut Checker<'_>, p: &str, o: &SchemaObject) {
        let Some(r) = o.reference() else { return };
        if o.len() > 1 {
            c.push(
                p,
                RuleId::RefSiblings,
                "$ref must stand without siblings".to_owned(),
            );
        }
        if r != "#" && !r.starts_with("#/") {
            c.push(
                p,
                RuleId::Ref,
                format!("{r:?}: references to other documents are not accepted"),
            );
        } else if c.unresolved(p, o) {
            c.push(
                p,
                RuleId::Ref,
                "$ref points to nothing in the schema".to_owned(),
            );
        } else if c.rules.refs == Refs::LocalAcyclic && c.circular.contains(p) {
            c.push(
                p,
                RuleId::Ref,
                "recursive schemas are not accepted".to_owned(),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::alone;
    use crate::{Rules, Slot};

    /// `run` alone on `json`: the schema it leaves, the rules of its changes.
    fn fixed(json: &str, rules: &Rules) -> (Schema, Vec<RuleId>) {
        let mut s = Schema::from_str(json).unwrap();
        let mut cx = Cx::new(rules, Slot::Schema);
        run(&mut s, &mut cx);
        let changes = cx
            .into_report()
            .changes
            .into_iter()
            .map(|c| c.rule)
            .collect();
        (s, changes)
    }

    #[test]
    fn gemini_unknown_name_ref_cannot_find_field_ref_inlined() {
        let json = r##"{"type":"object","properties":{"a":{"$ref":"#/$defs/s"}},"$defs":{"s":{"type":"string"}}}"##;
        let before = Schema::from_str(json).unwrap();
        let found = alone::check_rule(&REFS, &before, &Rules::GEMINI, Slot::Schema);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(
            (found[0].rule, found[0].pointer.as_str()),
            (RuleId::Ref, "/properties/a")
        );
        let (after, changes) = fixed(json, &Rules::GEMINI);
        assert!(changes.contains(&RuleId::RefInline), "{changes:?}");
        assert!(alone::check_rule(&REFS, &after, &Rules::GEMINI, Slot::Schema).is_empty());
        assert!(
            after.to_json_string().contains(r#""a":{"type":"string"}"#),
            "{}",
            after.to_json_string()
        );
    }

    #[test]
    fn xai_circular_ref_is_not_accepted_and_a_dangling_one_points_to_nothing() {
        let json =
            r##"{"type":"object","properties":{"n":{"$ref":"#"},"d":{"$ref":"#/$defs/none"}}}"##;
        let before = Schema::from_str(json).unwrap();
        let found = alone::check_rule(&REFS, &before, &Rules::XAI, Slot::Schema);
        let at: Vec<&str> = found.iter().map(|v| v.pointer.as_str()).collect();
        assert_eq!(at, ["/properties/n", "/properties/d"], "{found:?}");
        let (after, _) = fixed(json, &Rules::XAI);
        assert!(
            alone::check_rule(&REFS, &after, &Rules::XAI, Slot::Schema).is_empty(),
            "{}",
            after.to_json_string()
        );
    }
}
