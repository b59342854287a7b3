//! The inliner: every `$ref` replaced by its target (under
//! [`Refs::Inline`](crate::rules::Refs::Inline) and
//! [`Refs::NonCircular`](crate::rules::Refs::NonCircular), and where references cannot be
//! kept), or only those with siblings
//! ([`Refs::NoSiblings`](crate::rules::Refs::NoSiblings)).

use super::{MAX_SIBLING_INLINES, REF_SIBLINGS};
use crate::RuleId;
use crate::engine::Cx;
use schema_core::{
    InlineOptions, Key, Keyword, RefIndex, RefIssueKind, Schema, Transform, TypeSet, Value,
};

pub(super) fn inline_all(schema: &mut Schema, cx: &mut Cx<'_>) {
    if !schema.has_any_refs() {
        return;
    }
    crate::engine::root_refs::run(schema, cx);
    let out = schema.inline_refs(&InlineOptions::default());
    cx.change("", RuleId::RefInline, "local $refs inlined");
    for issue in &out.issues {
        let what = match &issue.kind {
            RefIssueKind::Unresolved(e) => format!("{e}; removed"),
            RefIssueKind::Recursive => format!(
                "recursive {} unrolled once, then described",
                issue.reference
            ),
            RefIssueKind::Budget => format!(
                "{} not inlined: the schema would grow too large",
                issue.reference
            ),
            RefIssueKind::Depth => format!("{} not inlined: too deep", issue.reference),

            _ => format!("{} not inlined", issue.reference),
        };
        cx.lost(&issue.pointer, RuleId::RefInline, what, None);
        if cx.rules.strict && issue.kind == RefIssueKind::Recursive {
            cx.not_strict(
                &issue.pointer,
                "a recursive schema was unrolled; send it non-strict to keep the recursion",
            );
        }
    }
    let original = std::mem::replace(schema, out.schema);
    if out.remaining_refs > 0 || schema.has_dynamic_refs() {
        // What could not be inlined is described instead of referenced. Where the profile
        // says "any value" with one type only, the description keeps its target's type
        // (CLIProxyAPI's typed "See: Node" stub): a recursive object stays an object.
        let index = cx
            .any_value_lossy()
            .then(|| (RefIndex::new(&original), &original));
        struct Strip<'a>(usize, Option<(&'a RefIndex, &'a Schema)>);
        impl Transform for Strip<'_> {
            fn pre(&mut self, _: &str, s: &mut Schema) {
                let Some(o) = s.as_object_mut() else { return };
                // Dynamic references have no static target: described like the rest. Every
                // reference keyword of the node goes (fuzz: `$ref` beside `$dynamicRef` left
                // the second for a second pass); the first one names the target.
                let mut first = None;
                for kw in [Keyword::Ref, Keyword::DynamicRef, Keyword::RecursiveRef] {
                    if let Some(v) = o.remove(kw) {
                        first = first.or(Some(v));
                    }
                }
                if let Some(Value::String(r)) = first {
                    self.0 += 1;
                    let target = self.1.and_then(|(i, root)| root.resolve_with(i, &r).ok());
                    if let (Some(t), None) = (target, o.types()) {
                        let ts = crate::engine::types::spoken(&t);
                        if let Some(best) = ts
                            .into_iter()
                            .max_by_key(|t| crate::engine::types::rank(*t))
                        {
                            o.insert(Keyword::Type, Value::Type(TypeSet::Single(best)));
                        }
                    }
                    let name = r.rsplit('/').next().unwrap_or(&r).to_owned();
                    let text = match o.description() {
                        Some(d) => format!("{d} (See {name}.)"),
                        None => format!("See {name}."),
                    };
                    o.insert(Keyword::Description, Value::String(text));
                }
            }
        }
        let mut strip = Strip(0, index.as_ref().map(|(i, r)| (i, *r)));
        schema.transform(&mut strip);
        if strip.0 > 0 {
            cx.lost(
                "",
                RuleId::RefInline,
                format!(
                    "{} $refs that could not be inlined were replaced by their name",
                    strip.0
                ),
                None,
            );
        }
    }
    if let Some(o) = schema.as_object_mut() {
        o.remove(Keyword::Defs);
        o.remove(Keyword::Definitions);
    }
    // No reference is left to need them: identifiers of inlined copies would clash or, in
    // the draft-07 `"$id": "#name"` form, be invalid 2020-12.
    struct Ids(usize);
    impl Transform for Ids {
        fn pre(&mut self, p: &str, s: &mut Schema) {
            let Some(o) = s.as_object_mut() else { return };
            if p.is_empty() {
                return;
            }
            let before = o.len();
            o.retain(|e| {
                !matches!(
                    e.key,
                    Key::Known(Keyword::Id | Keyword::Anchor | Keyword::DynamicAnchor)
                )
            });
            self.0 += before - o.len();
        }
    }
    let mut ids = Ids(0);
    schema.transform(&mut ids);
    if ids.0 > 0 {
        cx.change(
            "",
            RuleId::RefInline,
            "identifiers of inlined schemas removed",
        );
    }
}

pub(super) fn inline_with_siblings(schema: &mut Schema, cx: &mut Cx<'_>) {
    if !schema.has_refs() {
        return;
    }
    let root = schema.clone();
    struct Sib<'a> {
        root: &'a Schema,
        done: Vec<String>,
        unresolved: Vec<String>,
    }
    impl Transform for Sib<'_> {
        fn pre(&mut self, p: &str, s: &mut Schema) {
            // A target may itself be a `$ref`: follow the chain (bounded).
            while self.done.len() < MAX_SIBLING_INLINES {
                let Some(o) = s.as_object_mut() else { return };
                let Some(r) = o.reference().map(str::to_owned) else {
                    return;
                };
                let extra = o.entries().iter().any(|e| match e.key {
                    Key::Known(k) => !REF_SIBLINGS.contains(&k),
                    Key::Other(_) => true,
                });
                // The root is shaped (type, properties) later: its `$ref` must go too.
                if !extra && !p.is_empty() {
                    return;
                }
                let Ok(target) = self.root.resolve(&r) else {
                    self.unresolved.push(p.to_owned());
                    return;
                };
                let mut merged = target.into_owned();
                o.remove(Keyword::Ref);
                let siblings = std::mem::take(o.entries_mut());
                let mo = merged.make_object();
                for e in siblings {
                    mo.insert_key(e.key, e.value);
                }
                *s = merged;
                self.done.push(p.to_owned());
            }
        }
    }
    let mut t = Sib {
        root: &root,
        done: Vec::new(),
        unresolved: Vec::new(),
    };
    schema.transform(&mut t);
    for p in t.done {
        cx.change(&p, RuleId::RefSiblings, "a $ref with siblings was inlined");
    }
    for p in t.unresolved {
        cx.not_strict(&p, "a $ref that does not resolve inside the document");
    }
}
