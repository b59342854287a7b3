//! Inlining: each `$ref` replaced by its target merged with its siblings, cycles detected,
//! recursion unrolled a bounded number of times, a node budget against blow-up.

use super::{RefError, RefIndex};
use crate::keyword::Keyword;
use crate::pointer;
use crate::schema::{Key, Schema, SchemaMap, SchemaObject, Value};
use crate::walk::Visit;

/// How to inline references.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InlineOptions {
    /// How many times one reference may be expanded inside its own expansion before a
    /// placeholder stops the recursion. Default 1.
    pub max_recursion: usize,
    /// How many nodes inlining may produce in all; past it, references are kept. Default 10,000.
    pub max_nodes: usize,
    /// The deepest level inlining may create. Default 64; at most [`InlineOptions::MAX_DEPTH`].
    /// What lies deeper in the input is copied as it is.
    pub max_depth: usize,
    /// Remove `$defs`/`definitions` when no reference into them is left. Default true.
    pub drop_unused_definitions: bool,
}

impl InlineOptions {
    /// The largest `max_depth` in force, whatever is asked (inlining recurses once per level).
    pub const MAX_DEPTH: usize = 256;
}

impl Default for InlineOptions {
    fn default() -> InlineOptions {
        InlineOptions {
            max_recursion: 1,
            max_nodes: 10_000,
            max_depth: 64,
            drop_unused_definitions: true,
        }
    }
}

/// What inlining could not do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefIssue {
    /// Where the reference stood: a JSON pointer into the result (for a reference met inside
    /// an inlined target, the path through that expansion).
    pub pointer: String,
    /// The reference.
    pub reference: String,
    /// What happened to it.
    pub kind: RefIssueKind,
}

/// The kinds of [`RefIssue`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RefIssueKind {
    /// It points nowhere in the document; it was kept as it was.
    Unresolved(RefError),
    /// It is recursive; after the allowed unrolling it was replaced by a placeholder.
    Recursive,
    /// The node budget was spent; it was kept as a reference.
    Budget,
    /// Expanding it would nest deeper than allowed; it was replaced by a placeholder.
    Depth,
}

/// The result of [`Schema::inline_refs`].
#[derive(Clone, Debug)]
pub struct Inlined {
    /// The schema with references replaced.
    pub schema: Schema,
    /// References that could not be (fully) inlined.
    pub issues: Vec<RefIssue>,
    /// How many `$ref`s the result still holds (kept definitions included).
    pub remaining_refs: usize,
}

impl Schema {
    /// Inlines local `$ref`s, merging each target with the reference's siblings (siblings win,
    /// a different constraint of the target's they replace staying as an `allOf` branch;
    /// `properties` maps are merged and `required` lists united).
    ///
    /// ```
    /// use schema_core::{InlineOptions, Schema};
    /// let s = Schema::from_str(r##"{"type":"object","properties":{"a":{"$ref":"#/$defs/A","description":"x"}},
    ///                              "$defs":{"A":{"type":"string","description":"A"}}}"##)?;
    /// let out = s.inline_refs(&InlineOptions::default());
    /// assert_eq!(out.schema.to_json_string(),
    ///            r#"{"type":"object","properties":{"a":{"type":"string","description":"x"}}}"#);
    /// assert!(out.issues.is_empty());
    /// # Ok::<(), schema_core::SchemaError>(())
    /// ```
    pub fn inline_refs(&self, options: &InlineOptions) -> Inlined {
        let index = RefIndex::new(self);
        let mut ctx = Inliner {
            root: self,
            index: &index,
            opts: options,
            nodes: 0,
            stack: Vec::new(),
            issues: Vec::new(),
            remaining: 0,
        };
        let mut p = String::new();
        let mut schema = ctx.expand(self, &mut p, 0, true, "");
        let issues = ctx.issues;
        if options.drop_unused_definitions
            && ctx.remaining == 0
            && let Some(o) = schema.as_object_mut()
        {
            o.remove(Keyword::Defs);
            o.remove(Keyword::Definitions);
            drop_nested_resources(&mut schema);
        }
        let remaining_refs = schema.count_refs();
        Inlined {
            schema,
            issues,
            remaining_refs,
        }
    }

    /// How many `$ref`s the schema holds (definitions included).
    ///
    /// ```
    /// let s = schema_core::Schema::from_str(r##"{"anyOf":[{"$ref":"#"},{"$ref":"#"}]}"##)?;
    /// assert_eq!(s.count_refs(), 2);
    /// # Ok::<(), schema_core::SchemaError>(())
    /// ```
    pub fn count_refs(&self) -> usize {
        struct Count(usize);
        impl Visit for Count {
            fn pointers(&self) -> bool {
                false
            }
            fn enter(&mut self, _: &str, s: &Schema) -> bool {
                if s.as_object().is_some_and(|o| o.contains(Keyword::Ref)) {
                    self.0 += 1;
                }
                true
            }
        }
        let mut c = Count(0);
        self.walk(&mut c);
        c.0
    }

    /// Whether a `$dynamicRef` or `$recursiveRef` is anywhere in the schema (they have no
    /// static target).
    ///
    /// ```
    /// let s = schema_core::Schema::from_str(r##"{"items": {"$dynamicRef": "#meta"}}"##)?;
    /// assert!(s.has_dynamic_refs());
    /// # Ok::<(), schema_core::SchemaError>(())
    /// ```
    pub fn has_dynamic_refs(&self) -> bool {
        struct Dynamic(bool);
        impl Visit for Dynamic {
            fn pointers(&self) -> bool {
                false
            }
            fn enter(&mut self, _: &str, s: &Schema) -> bool {
                if let Some(o) = s.as_object() {
                    self.0 |= o.contains(Keyword::DynamicRef) || o.contains(Keyword::RecursiveRef);
                }
                !self.0
            }
        }
        let mut d = Dynamic(false);
        self.walk(&mut d);
        d.0
    }

    /// Whether the schema holds a reference of any kind anywhere: a `$ref`, a `$dynamicRef` or
    /// a `$recursiveRef` ([`Schema::has_refs`] or [`Schema::has_dynamic_refs`], in one walk).
    ///
    /// ```
    /// let s = |t: &str| schema_core::Schema::from_str(t).unwrap();
    /// assert!(s(r##"{"items": {"$recursiveRef": "#"}}"##).has_any_refs());
    /// assert!(s(r##"{"anyOf": [{"$ref": "#/$defs/a"}]}"##).has_any_refs());
    /// assert!(!s(r#"{"properties": {"$ref": {"type": "string"}}}"#).has_any_refs());
    /// ```
    pub fn has_any_refs(&self) -> bool {
        struct Any(bool);
        impl Visit for Any {
            fn pointers(&self) -> bool {
                false
            }
            fn enter(&mut self, _: &str, s: &Schema) -> bool {
                if let Some(o) = s.as_object() {
                    self.0 |= o.contains(Keyword::Ref)
                        || o.contains(Keyword::DynamicRef)
                        || o.contains(Keyword::RecursiveRef);
                }
                !self.0
            }
        }
        let mut a = Any(false);
        self.walk(&mut a);
        a.0
    }

    /// Whether the schema holds a `$ref` anywhere (definitions included).
    pub fn has_refs(&self) -> bool {
        struct Any(bool);
        impl Visit for Any {
            fn pointers(&self) -> bool {
                false
            }
            fn enter(&mut self, _: &str, s: &Schema) -> bool {
                if s.as_object().is_some_and(|o| o.contains(Keyword::Ref)) {
                    self.0 = true;
                }
                !self.0
            }
        }
        let mut a = Any(false);
        self.walk(&mut a);
        a.0
    }
}

struct Inliner<'a> {
    root: &'a Schema,
    index: &'a RefIndex,
    opts: &'a InlineOptions,
    nodes: usize,
    stack: Vec<String>,
    issues: Vec<RefIssue>,
    remaining: usize,
}

impl Inliner<'_> {
    fn issue(&mut self, p: &str, reference: &str, kind: RefIssueKind) {
        self.issues.push(RefIssue {
            pointer: p.to_owned(),
            reference: reference.to_owned(),
            kind,
        });
    }

    /// The deepest level inlining recurses to.
    fn max_depth(&self) -> usize {
        self.opts.max_depth.min(InlineOptions::MAX_DEPTH)
    }

    /// Expands `node` (at pointer `p`, nesting `depth`, inside a resource whose base URI is
    /// `outer`). `is_root` keeps definitions as they are.
    fn expand(
        &mut self,
        node: &Schema,
        p: &mut String,
        depth: usize,
        is_root: bool,
        outer: &str,
    ) -> Schema {
        self.nodes += 1;
        let Schema::Object(o) = node else {
            return node.clone();
        };
        let base = self.index.base_of(outer, o);
        if depth > self.max_depth() {
            // Deeper than inlining goes (a tree built by hand): copied as it is (`clone` does
            // not recurse without bound); the references in it stay and are reported.
            self.keep_subtree(node, p);
            return node.clone();
        }
        if let Some(reference) = o.reference() {
            return self.expand_ref(o, reference, p, depth, is_root, (outer, &base));
        }
        let mut out = SchemaObject::new();
        for e in o.entries() {
            let value = match (&e.key, &e.value) {
                // Definitions are copied, not expanded: they go away when no reference is left.
                (Key::Known(Keyword::Defs | Keyword::Definitions), v) if is_root => v.clone(),
                (Key::Known(kw), v) if kw.has_subschemas() => {
                    let mark = p.len();
                    pointer::push(p, kw.as_str());
                    let v = self.expand_value(v, p, depth, &base);
                    p.truncate(mark);
                    v
                }
                (_, v) => v.clone(),
            };
            out.entries_mut().push(crate::schema::Entry {
                key: e.key.clone(),
                value,
            });
        }
        Schema::Object(out)
    }

    /// Reports every reference in a subtree that is copied without expansion.
    fn keep_subtree(&mut self, node: &Schema, p: &str) {
        struct Refs<'a>(&'a str, Vec<(String, String)>);
        impl Visit for Refs<'_> {
            fn enter(&mut self, sub: &str, s: &Schema) -> bool {
                if let Some(r) = s.as_object().and_then(|o| o.reference()) {
                    self.1.push((format!("{}{sub}", self.0), r.to_owned()));
                }
                true
            }
        }
        let mut refs = Refs(p, Vec::new());
        node.walk(&mut refs);
        for (pointer, reference) in refs.1 {
            self.issue(&pointer, &reference, RefIssueKind::Depth);
            self.remaining += 1;
        }
    }

    fn expand_value(&mut self, v: &Value, p: &mut String, depth: usize, base: &str) -> Value {
        match v {
            Value::Schema(s) => Value::Schema(Box::new(self.expand(s, p, depth + 1, false, base))),
            Value::Schemas(list) => Value::Schemas(
                list.iter()
                    .enumerate()
                    .map(|(i, s)| {
                        let mark = p.len();
                        pointer::push_index(p, i);
                        let x = self.expand(s, p, depth + 1, false, base);
                        p.truncate(mark);
                        x
                    })
                    .collect(),
            ),
            Value::SchemaMap(m) => Value::SchemaMap(
                m.iter()
                    .map(|(k, s)| {
                        let mark = p.len();
                        pointer::push(p, k);
                        let x = self.expand(s, p, depth + 1, false, base);
                        p.truncate(mark);
                        (k.clone(), x)
                    })
                    .collect(),
            ),
            Value::Dependencies(m) => Value::Dependencies(
                m.iter()
                    .map(|(k, d)| {
                        let d = match d {
                            crate::schema::Dependency::Schema(s) => {
                                let mark = p.len();
                                pointer::push(p, k);
                                let x = self.expand(s, p, depth + 1, false, base);
                                p.truncate(mark);
                                crate::schema::Dependency::Schema(x)
                            }
                            other => other.clone(),
                        };
                        (k.clone(), d)
                    })
                    .collect(),
            ),
            other => other.clone(),
        }
    }

    fn expand_ref(
        &mut self,
        o: &SchemaObject,
        reference: &str,
        p: &mut String,
        depth: usize,
        is_root: bool,
        (outer, base): (&str, &str),
    ) -> Schema {
        let keep = |this: &mut Self, p: &str, kind: RefIssueKind| {
            this.issue(p, reference, kind);
            this.remaining += 1;
            Schema::Object(o.clone())
        };
        // The target's pointer is the key for cycle detection, whatever the spelling.
        let located = self.index.locate_in(base, reference).and_then(|key| {
            Ok((
                self.root.resolve_in(self.index, key.clone(), reference)?,
                key,
            ))
        });
        let (target, key) = match located {
            Ok(t) => t,
            Err(e) => return keep(self, p, RefIssueKind::Unresolved(e)),
        };
        if self.nodes > self.opts.max_nodes {
            return keep(self, p, RefIssueKind::Budget);
        }
        let seen = self.stack.iter().filter(|k| **k == key).count();
        // Draft-07 and older ignore a `$ref`'s siblings (annotations aside).
        let siblings = siblings_of(o, self.index.ref_hides_siblings());
        let target_outer = self.index.base_around(&key).to_owned();
        // References being expanded inside one another count as levels too: an alias chain
        // (`A` is `{"$ref": B}`, ...) nests no schema but recurses all the same.
        let too_deep = depth >= self.max_depth() || self.stack.len() >= self.max_depth();
        if seen > self.opts.max_recursion || too_deep {
            let kind = if too_deep {
                RefIssueKind::Depth
            } else {
                RefIssueKind::Recursive
            };
            self.issue(p, reference, kind);
            let placeholder = placeholder(&target, reference);
            let siblings = self.expand(&Schema::Object(siblings), p, depth, is_root, outer);
            return merge(placeholder, siblings);
        }
        self.stack.push(key);
        let expanded = self.expand(&target, p, depth, false, &target_outer);
        self.stack.pop();
        if siblings.is_empty() {
            return expanded;
        }
        let siblings = self.expand(&Schema::Object(siblings), p, depth, is_root, outer);
        merge_ref_siblings(expanded, siblings)
    }
}

/// What a `$ref` with siblings means once its target is in place: `target` (the expanded
/// target) merged with `siblings` (the reference's other keywords, 2020-12: both apply).
/// Siblings win on annotations; a different constraint of the target's that a sibling
/// replaces stays as an `allOf` branch, and a target with `unevaluated*` stays whole as one.
///
/// ```
/// use schema_core::{Schema, merge_ref_siblings};
/// let target = Schema::from_str(r#"{"type":"object","properties":{"a":{"type":"string"}},"description":"T"}"#)?;
/// let siblings = Schema::from_str(r#"{"description":"mine","properties":{"b":{"type":"integer"}}}"#)?;
/// assert_eq!(
///     merge_ref_siblings(target, siblings).to_json_string(),
///     r#"{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}},"description":"mine"}"#
/// );
/// # Ok::<(), schema_core::SchemaError>(())
/// ```
pub fn merge_ref_siblings(expanded: Schema, siblings: Schema) -> Schema {
    if evaluates_unevaluated(&expanded) {
        // The target's `unevaluated*` sees only what the target itself evaluates (a
        // `$ref` is a new scope): merged with the siblings' `properties`, it would refuse
        // them. It stays whole, as an `allOf` branch.
        let mut merged = siblings;
        let o = merged.make_object();
        match o.schemas_mut(Keyword::AllOf) {
            Some(list) => list.push(expanded),
            None => {
                o.insert(Keyword::AllOf, Value::Schemas(vec![expanded]));
            }
        }
        return merged;
    }
    // 2020-12 applies a `$ref` and its siblings both: where a sibling replaces a different
    // constraint of the target's, the target's stays as an `allOf` branch.
    let replaced = overridden(&expanded, &siblings);
    let mut merged = merge(expanded, siblings);
    if !replaced.is_empty() {
        let o = merged.make_object();
        let branch = Schema::Object(replaced);
        match o.schemas_mut(Keyword::AllOf) {
            Some(list) => list.push(branch),
            None => {
                o.insert(Keyword::AllOf, Value::Schemas(vec![branch]));
            }
        }
    }
    merged
}

/// Keywords a `$ref`'s sibling may replace on its target without changing what is accepted.
const ANNOTATIONS: &[Keyword] = &[
    Keyword::Title,
    Keyword::Description,
    Keyword::Default,
    Keyword::Examples,
    Keyword::Example,
    Keyword::Comment,
    Keyword::Deprecated,
    Keyword::ReadOnly,
    Keyword::WriteOnly,
    Keyword::Id,
    Keyword::Anchor,
    Keyword::SchemaUri,
];

/// The entries of `target` that merging `siblings` over it ([`merge`]) replaces with a
/// different constraint: keywords, and (as a map of just those) properties both describe.
/// Annotations, a narrower `type` (`integer` over `number`: the conjunction already) and
/// `required` (united by the merge) lose nothing.
fn overridden(target: &Schema, siblings: &Schema) -> SchemaObject {
    let mut out = SchemaObject::new();
    let (Some(t), Some(sib)) = (target.as_object(), siblings.as_object()) else {
        return out;
    };
    for e in sib.entries() {
        let Some(mine) = t.entries().iter().find(|x| x.key == e.key) else {
            continue;
        };
        match (&e.key, &e.value, &mine.value) {
            (Key::Known(kw), _, _) if ANNOTATIONS.contains(kw) => {}
            (Key::Known(Keyword::Required), Value::Strings(_), Value::Strings(_)) => {}
            (Key::Other(_), _, _) => {}
            (Key::Known(Keyword::Type), Value::Type(a), Value::Type(b))
                if a.as_slice().iter().all(|t| b.allows(*t)) => {}
            (Key::Known(kw), Value::SchemaMap(a), Value::SchemaMap(b)) => {
                let kept: SchemaMap = a
                    .iter()
                    .filter_map(|(k, s)| {
                        let x = b.get(k)?;
                        (x != s && !overridden(x, s).is_empty()).then(|| (k.clone(), x.clone()))
                    })
                    .collect();
                if !kept.is_empty() {
                    out.insert(*kw, Value::SchemaMap(kept));
                }
            }
            _ if e.value != mine.value => {
                out.insert_key(mine.key.clone(), mine.value.clone());
            }
            _ => {}
        }
    }
    out
}

/// The siblings of a `$ref` that apply beside it: all of them from 2019-09 on; only the
/// annotations in draft-07 and older, where `$ref` "overrides any sibling keywords".
fn siblings_of(o: &SchemaObject, annotations_only: bool) -> SchemaObject {
    let mut s = o.clone();
    s.remove(Keyword::Ref);
    if annotations_only {
        s.retain(|e| match e.key {
            Key::Known(k) => {
                ANNOTATIONS.contains(&k) || matches!(k, Keyword::Defs | Keyword::Definitions)
            }
            Key::Other(_) => true,
        });
    }
    s
}

/// Whether the top of a schema holds `unevaluatedProperties`/`unevaluatedItems`.
fn evaluates_unevaluated(s: &Schema) -> bool {
    s.as_object().is_some_and(|o| {
        o.contains(Keyword::UnevaluatedProperties) || o.contains(Keyword::UnevaluatedItems)
    })
}

/// Once no reference is left: removes the definitions, `$id`s and anchors below the root,
/// which nothing names any more (a nested resource's `$defs` would otherwise stay in place,
/// and an inlined target's `$id` would appear once per use). Kept where a `$dynamicRef` or
/// `$recursiveRef` is left, which looks anchors up at validation time.
fn drop_nested_resources(schema: &mut Schema) {
    if schema.has_dynamic_refs() {
        return;
    }
    struct Strip;
    impl crate::walk::Transform for Strip {
        fn pre(&mut self, p: &str, s: &mut Schema) {
            if p.is_empty() {
                return;
            }
            if let Some(o) = s.as_object_mut() {
                for kw in [
                    Keyword::Defs,
                    Keyword::Definitions,
                    Keyword::Id,
                    Keyword::Anchor,
                    Keyword::DynamicAnchor,
                ] {
                    o.remove(kw);
                }
            }
        }
    }
    schema.transform(&mut Strip);
}

/// What stands where recursion stops: the target's `type`, and a description saying so.
fn placeholder(target: &Schema, reference: &str) -> Schema {
    let mut out = SchemaObject::new();
    if let Some(t @ Value::Type(_)) = target.as_object().and_then(|o| o.get(Keyword::Type)) {
        out.insert(Keyword::Type, t.clone());
    }
    let name = reference.rsplit('/').next().unwrap_or(reference);
    out.insert(
        Keyword::Description,
        Value::String(format!("Recursive {name} (not expanded further).")),
    );
    Schema::Object(out)
}

/// Merges the siblings of a `$ref` over its expanded target.
fn merge(target: Schema, siblings: Schema) -> Schema {
    let Schema::Object(sib) = siblings else {
        return target;
    };
    if sib.is_empty() {
        return target;
    }
    let mut target = target;
    let t = target.make_object();
    for e in sib.entries() {
        match (&e.key, &e.value) {
            (Key::Known(kw), Value::SchemaMap(m)) => {
                if let Some(tm) = t.schema_map_mut(*kw) {
                    for (k, s) in m {
                        tm.insert(k.clone(), s.clone());
                    }
                    continue;
                }
            }
            (Key::Known(kw @ Keyword::Required), Value::Strings(names)) => {
                if let Some(tn) = t.strings_mut(*kw) {
                    for n in names {
                        if !tn.contains(n) {
                            tn.push(n.clone());
                        }
                    }
                    continue;
                }
            }
            _ => {}
        }
        t.insert_key(e.key.clone(), e.value.clone());
    }
    target
}
