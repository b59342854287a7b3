//! Whether a profile that keeps references ([`Refs::Local`], [`Refs::LocalAcyclic`]) can keep
//! this schema's: the keep-vs-inline decision, and the kept form (`#/$defs/NAME`, a `$ref`
//! with siblings inlined at that node only, unused definitions dropped).

use super::MAX_SIBLING_INLINES;
use super::inline::inline_all;
use crate::RuleId;
use crate::engine::Cx;
use crate::rules::Refs;
use schema_core::{InlineOptions, Key, Keyword, Schema, Transform, Value, Visit};

/// How many references one chain of `$ref`-to-`$ref` targets follows at most.
const MAX_CHAIN: usize = 64;

/// [`Refs::Local`], [`Refs::LocalAcyclic`]: local references stay (a 4 KB schema that doubles
/// through them stays 4 KB, recursion stays recursion), in the one form the strict dialects
/// document (`#`, `#/$defs/NAME`); a `$ref` with siblings is inlined at that node only; the
/// definitions nothing reaches go. A schema whose references the form cannot say (or, under
/// [`Refs::LocalAcyclic`], a recursive one, or one that inlined is no larger) is inlined as
/// under [`Refs::Inline`].
pub(super) fn keep_local(schema: &mut Schema, cx: &mut Cx<'_>) {
    if !schema.has_refs() {
        if schema.has_dynamic_refs() {
            inline_all(schema, cx);
        }
        return;
    }
    if let Err(why) = keepable(schema, cx.rules.refs) {
        cx.change("", RuleId::RefInline, format!("$refs inlined: {why}"));
        inline_all(schema, cx);
        return;
    }
    // Anthropic strict keeps references only where they make the schema smaller (each target
    // used more than once, or large): its strict grammar gains nothing from them otherwise.
    if cx.rules.refs == Refs::LocalAcyclic {
        let inlined = schema.inline_refs(&InlineOptions::default());
        if inlined.remaining_refs == 0
            && inlined.schema.to_json_string().len() <= schema.to_json_string().len()
        {
            inline_all(schema, cx);
            return;
        }
    }
    normalize_definitions(schema, cx);
    if let Err(why) = inline_at_siblings(schema, cx) {
        cx.change("", RuleId::RefInline, format!("$refs inlined: {why}"));
        inline_all(schema, cx);
        return;
    }
    drop_unused_definitions(schema, cx);
}

/// Why the schema's references cannot be kept as they are (`Ok`: they can).
fn keepable(schema: &Schema, refs: Refs) -> Result<(), String> {
    let Some(root) = schema.as_object() else {
        return Err("the root is not an object".to_owned());
    };
    if root.reference() == Some("#") {
        return Err("the root refers to itself".to_owned());
    }
    // `$ref: "#"` names the root as the engine shapes it (`type: object`...): only a root that
    // is an object already means the same after.
    let object_root = root
        .types()
        .is_some_and(|t| t.as_slice() == [schema_core::InstanceType::Object]);
    let defs = root.schema_map(Keyword::Defs);
    let definitions = root.schema_map(Keyword::Definitions);
    if let (Some(a), Some(b)) = (defs, definitions)
        && b.keys().any(|k| a.contains_key(k))
    {
        return Err("$defs and definitions share a name".to_owned());
    }
    struct Scan<'a> {
        defs: Option<&'a schema_core::SchemaMap>,
        definitions: Option<&'a schema_core::SchemaMap>,
        object_root: bool,
        why: Option<String>,
    }
    impl Visit for Scan<'_> {
        fn enter(&mut self, p: &str, s: &Schema) -> bool {
            let Some(o) = s.as_object() else { return true };
            if self.why.is_some() {
                return false;
            }
            let nested = [
                Keyword::Defs,
                Keyword::Definitions,
                Keyword::Id,
                Keyword::Anchor,
                Keyword::DynamicAnchor,
            ];
            if !p.is_empty()
                && let Some(k) = nested.iter().find(|k| o.contains(**k))
            {
                self.why = Some(format!("{} below the root at {p}", k.as_str()));
            } else if o.contains(Keyword::DynamicRef) || o.contains(Keyword::RecursiveRef) {
                self.why = Some(format!("a dynamic reference at {p}"));
            } else if let Some(r) = o.reference() {
                let found = match Refs::local_name(r) {
                    Some((_, n)) if n.is_empty() => self.object_root,
                    Some((Keyword::Defs, n)) => self.defs.is_some_and(|m| m.contains_key(&n)),
                    Some((_, n)) => self.definitions.is_some_and(|m| m.contains_key(&n)),
                    None => false,
                };
                if !found {
                    self.why = Some(format!(
                        "{r:?} at {p} is not a definition of the root (or the root is not an object)"
                    ));
                }
            }
            self.why.is_none()
        }
    }
    let mut scan = Scan {
        defs,
        definitions,
        object_root,
        why: None,
    };
    schema.walk(&mut scan);
    if let Some(why) = scan.why {
        return Err(why);
    }
    if refs == Refs::LocalAcyclic && !schema.circular_refs().is_empty() {
        return Err("the schema is recursive".to_owned());
    }
    Ok(())
}

/// `definitions` become `$defs` (in place, or added to an existing `$defs`), and references
/// to them say so.
fn normalize_definitions(schema: &mut Schema, cx: &mut Cx<'_>) {
    let Some(root) = schema.as_object_mut() else {
        return;
    };
    if !root.contains(Keyword::Definitions) {
        return;
    }
    if root.contains(Keyword::Defs) {
        if let Some(Value::SchemaMap(moved)) = root.remove(Keyword::Definitions)
            && let Some(defs) = root.schema_map_mut(Keyword::Defs)
        {
            defs.extend(moved);
        }
    } else if let Some(e) = root
        .entries_mut()
        .iter_mut()
        .find(|e| e.key == Key::Known(Keyword::Definitions))
    {
        e.key = Key::Known(Keyword::Defs);
    }
    struct Rename;
    impl Transform for Rename {
        fn pre(&mut self, _: &str, s: &mut Schema) {
            let Some(o) = s.as_object_mut() else { return };
            if let Some(r) = o.reference()
                && let Some(rest) = r.strip_prefix("#/definitions/")
            {
                let to = format!("#/$defs/{rest}");
                o.insert(Keyword::Ref, Value::String(to));
            }
        }
    }
    schema.transform(&mut Rename);
    cx.change(
        "",
        RuleId::RefSiblings,
        "definitions moved to $defs, and their references with them",
    );
}

/// A `$ref` with siblings, the root's own, an `allOf` member (merged into its node where
/// `allOf` is not accepted, refused beside `$ref` by Anthropic strict) and a branch of the
/// root's union (merged into the root's object) is replaced by its target merged with the
/// siblings, at that node only: the target's own references stay references. A chain of
/// references is followed, bounded.
///
/// `Err` (the schema left as it was): a target holds, inside what was inlined, a `$ref` to
/// itself that would be inlined again (`{"properties": {"p": {"$ref": "#", "description":
/// "d"}}}`): inlining at that node only never ends there (each copy holds the next; fuzz:
/// 1,024 levels deep, then the later passes hung or overflowed the stack).
fn inline_at_siblings(schema: &mut Schema, cx: &mut Cx<'_>) -> Result<(), String> {
    let root = schema.clone();
    struct Sib<'a> {
        root: &'a Schema,
        done: Vec<String>,
        /// The references being inlined, with the node each was inlined at (outermost
        /// first): a node below one of those nodes is part of its target's copy.
        open: Vec<(String, String)>,
        cycle: Option<String>,
    }
    impl Transform for Sib<'_> {
        fn pre(&mut self, p: &str, s: &mut Schema) {
            let in_all_of = merged_into_parent(p);
            for _ in 0..MAX_CHAIN {
                if self.done.len() >= MAX_SIBLING_INLINES || self.cycle.is_some() {
                    return;
                }
                let Some(o) = s.as_object_mut() else { return };
                let Some(r) = o.reference().map(str::to_owned) else {
                    return;
                };
                if o.len() == 1 && !p.is_empty() && !in_all_of {
                    return;
                }
                let Some((_, name)) = Refs::local_name(&r) else {
                    return;
                };
                if self.open.iter().any(|(_, open)| *open == r) {
                    self.cycle = Some(format!(
                        "the $ref {r:?} with siblings at {p} is inside a copy of its own target"
                    ));
                    return;
                }
                let target = if name.is_empty() {
                    // The root, without its definitions (they stay where they are).
                    let mut t = self.root.clone();
                    if let Some(to) = t.as_object_mut() {
                        to.remove(Keyword::Defs);
                    }
                    t
                } else {
                    let Some(t) = self
                        .root
                        .as_object()
                        .and_then(|ro| ro.schema_map(Keyword::Defs))
                        .and_then(|m| m.get(&name))
                    else {
                        return;
                    };
                    t.clone()
                };
                o.remove(Keyword::Ref);
                let siblings = Schema::Object(std::mem::take(o));
                *s = schema_core::merge_ref_siblings(target, siblings);
                self.done.push(p.to_owned());
                self.open.push((p.to_owned(), r));
            }
        }
        fn post(&mut self, p: &str, _: &mut Schema) {
            while self.open.last().is_some_and(|(at, _)| at == p) {
                self.open.pop();
            }
        }
    }
    let mut t = Sib {
        root: &root,
        done: Vec::new(),
        open: Vec::new(),
        cycle: None,
    };
    schema.transform(&mut t);
    if let Some(why) = t.cycle {
        *schema = root;
        return Err(why);
    }
    for p in t.done {
        cx.change(
            &p,
            RuleId::RefSiblings,
            "a $ref with siblings was inlined here (its target's references are kept)",
        );
    }
    Ok(())
}

/// Whether the node at `p` is merged into another: an `allOf` member, or a branch of a union
/// of the root (the root's own `allOf` members' included), which the root's shaping merges.
fn merged_into_parent(p: &str) -> bool {
    let segs: Vec<&str> = p.split('/').skip(1).collect();
    if segs.len() >= 2 && segs[segs.len() - 2] == "allOf" {
        return true;
    }
    let mut rest = segs.as_slice();
    while let ["allOf", _, more @ ..] = rest {
        rest = more;
    }
    matches!(rest, ["anyOf" | "oneOf", _])
}

/// Removes the root's definitions no reference outside them reaches (through other
/// definitions included).
fn drop_unused_definitions(schema: &mut Schema, cx: &mut Cx<'_>) {
    let Some(defs) = schema.as_object().and_then(|o| o.schema_map(Keyword::Defs)) else {
        return;
    };
    /// The definitions named by the references in a subtree (`$defs` of the root left out).
    fn named(s: &Schema, skip_defs: bool, out: &mut Vec<String>) {
        struct Names<'a>(&'a mut Vec<String>, bool);
        impl Visit for Names<'_> {
            fn enter(&mut self, p: &str, s: &Schema) -> bool {
                if self.1 && p.starts_with("/$defs") {
                    return false;
                }
                if let Some((_, n)) = s
                    .as_object()
                    .and_then(|o| o.reference())
                    .and_then(Refs::local_name)
                    && !n.is_empty()
                {
                    self.0.push(n);
                }
                true
            }
        }
        s.walk(&mut Names(out, skip_defs));
    }
    let mut todo = Vec::new();
    named(schema, true, &mut todo);
    let mut used = std::collections::HashSet::new();
    while let Some(n) = todo.pop() {
        if used.insert(n.clone())
            && let Some(d) = defs.get(&n)
        {
            named(d, false, &mut todo);
        }
    }
    let unused: Vec<String> = defs
        .keys()
        .filter(|k| !used.contains(*k))
        .cloned()
        .collect();
    if unused.is_empty() {
        return;
    }
    let Some(o) = schema.as_object_mut() else {
        return;
    };
    if let Some(m) = o.schema_map_mut(Keyword::Defs) {
        m.retain(|k, _| used.contains(k));
        if m.is_empty() {
            o.remove(Keyword::Defs);
        }
    }
    cx.change(
        "/$defs",
        RuleId::RefInline,
        format!(
            "definitions no reference reaches removed: {}",
            unused.join(", ")
        ),
    );
}
