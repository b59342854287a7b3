//! `$ref` before the walk: inlined where the provider has none (Gemini: `Unknown name
//! "$ref"`), or where it refuses siblings (OpenAI strict, Gemini's JSON Schema path: `$ref
//! 'X' was set alongside unsupported fields`).

use super::{Check, Cx, Rule};
use crate::RuleId;
use crate::rules::Refs;
use schema_core::{
    InlineOptions, Key, Keyword, RefIndex, RefIssueKind, Schema, Transform, TypeSet, Value, Visit,
};

/// Keywords that may stand beside a `$ref` under [`Refs::NoSiblings`].
pub(crate) const REF_SIBLINGS: &[Keyword] = Refs::SIBLINGS;

/// How many `$ref`s with siblings one schema inlines at most.
const MAX_SIBLING_INLINES: usize = 1_000;

/// A `$ref` the provider refuses: fixed by [`run`], a tree pass before the walk (the
/// references are resolved against the whole schema).
pub(crate) static REFS: Rule = Rule::new(RuleId::Ref)
    .gate(|r, _| r.refs != Refs::Keep || r.draft_2020)
    .check(Check::Object(check::refs));

pub(crate) fn run(schema: &mut Schema, cx: &mut Cx<'_>) {
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

/// How many references one chain of `$ref`-to-`$ref` targets follows at most.
const MAX_CHAIN: usize = 64;

/// [`Refs::Local`], [`Refs::LocalAcyclic`]: local references stay (a 4 KB schema that doubles
/// through them stays 4 KB, recursion stays recursion), in the one form the strict dialects
/// document (`#`, `#/$defs/NAME`); a `$ref` with siblings is inlined at that node only; the
/// definitions nothing reaches go. A schema whose references the form cannot say (or, under
/// [`Refs::LocalAcyclic`], a recursive one, or one that inlined is no larger) is inlined as
/// under [`Refs::Inline`].
fn keep_local(schema: &mut Schema, cx: &mut Cx<'_>) {
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
    inline_at_siblings(schema, cx);
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
fn inline_at_siblings(schema: &mut Schema, cx: &mut Cx<'_>) {
    let root = schema.clone();
    struct Sib<'a> {
        root: &'a Schema,
        done: Vec<String>,
    }
    impl Transform for Sib<'_> {
        fn pre(&mut self, p: &str, s: &mut Schema) {
            let in_all_of = merged_into_parent(p);
            for _ in 0..MAX_CHAIN {
                if self.done.len() >= MAX_SIBLING_INLINES {
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
            }
        }
    }
    let mut t = Sib {
        root: &root,
        done: Vec::new(),
    };
    schema.transform(&mut t);
    for p in t.done {
        cx.change(
            &p,
            RuleId::RefSiblings,
            "a $ref with siblings was inlined here (its target's references are kept)",
        );
    }
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
            if o.reference().is_none() {
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

fn inline_all(schema: &mut Schema, cx: &mut Cx<'_>) {
    if !schema.has_refs() && !schema.has_dynamic_refs() {
        return;
    }
    super::root_refs::run(schema, cx);
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
                        let ts = super::types::spoken(&t);
                        if let Some(best) = ts.into_iter().max_by_key(|t| super::types::rank(*t)) {
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
        cx.change(&p, RuleId::RefSiblings, "a $ref with siblings was inlined");
    }
    for p in t.unresolved {
        cx.not_strict(&p, "a $ref that does not resolve inside the document");
    }
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
