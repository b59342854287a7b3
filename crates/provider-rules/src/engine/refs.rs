//! `$ref` before the walk: inlined where the provider has none (Gemini: `Unknown name
//! "$ref"`), or where it refuses siblings (OpenAI strict, Gemini's JSON Schema path: `$ref
//! 'X' was set alongside unsupported fields`).

use super::Cx;
use crate::rules::Refs;
use schema_core::{InlineOptions, Key, Keyword, RefIssueKind, Schema, Transform, Value};

/// Keywords that may stand beside a `$ref` under [`Refs::NoSiblings`].
pub(crate) const REF_SIBLINGS: &[Keyword] = &[
    Keyword::Ref,
    Keyword::Description,
    Keyword::Default,
    Keyword::Defs,
    Keyword::Definitions,
    Keyword::Id,
    Keyword::SchemaUri,
    Keyword::Comment,
    Keyword::Anchor,
];

/// How many `$ref`s with siblings one schema inlines at most.
const MAX_SIBLING_INLINES: usize = 1_000;

pub(crate) fn run(schema: &mut Schema, cx: &mut Cx<'_>) {
    match cx.rules.refs {
        Refs::Keep => {}
        Refs::Inline => inline_all(schema, cx),
        Refs::NoSiblings => inline_with_siblings(schema, cx),
    }
}

fn inline_all(schema: &mut Schema, cx: &mut Cx<'_>) {
    if !schema.has_refs() {
        return;
    }
    let out = schema.inline_refs(&InlineOptions::default());
    cx.change("", "ref-inline", "local $refs inlined");
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
        cx.lost(&issue.pointer, "ref-inline", what, None);
        if cx.rules.strict && issue.kind == RefIssueKind::Recursive {
            cx.not_strict(
                &issue.pointer,
                "a recursive schema was unrolled; send it non-strict to keep the recursion",
            );
        }
    }
    *schema = out.schema;
    if out.remaining_refs > 0 {
        // What could not be inlined is described instead of referenced.
        struct Strip(usize);
        impl Transform for Strip {
            fn pre(&mut self, _: &str, s: &mut Schema) {
                let Some(o) = s.as_object_mut() else { return };
                if let Some(Value::String(r)) = o.remove(Keyword::Ref) {
                    self.0 += 1;
                    let name = r.rsplit('/').next().unwrap_or(&r).to_owned();
                    let text = match o.description() {
                        Some(d) => format!("{d} (See {name}.)"),
                        None => format!("See {name}."),
                    };
                    o.insert(Keyword::Description, Value::String(text));
                }
            }
        }
        let mut strip = Strip(0);
        schema.transform(&mut strip);
        if strip.0 > 0 {
            cx.lost(
                "",
                "ref-inline",
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
}

fn inline_with_siblings(schema: &mut Schema, cx: &mut Cx<'_>) {
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
        cx.change(&p, "ref-siblings", "a $ref with siblings was inlined");
    }
    for p in t.unresolved {
        cx.not_strict(&p, "a $ref that does not resolve inside the document");
    }
}
