//! `$ref` resolution and inlining.
//!
//! Local references only: `#`, JSON pointers (`#/$defs/X`, `#/definitions/X`, any pointer, with
//! `~0`/`~1` and percent escapes), `$anchor`/`$dynamicAnchor` names (`#name`) and the `$id`s
//! declared inside the document. Inlining replaces each `$ref` by its target merged with the
//! `$ref`'s siblings, detects cycles, unrolls recursion a bounded number of times and then puts
//! a typed placeholder, and stops expanding when a node budget is spent (the ref is then kept),
//! so a chain of definitions that each reference the previous one twice cannot explode.
//!
//! Complexity: resolution is linear in the pointer's length (plus a parse of the subtree when
//! the pointer leads into an unknown keyword); inlining is linear in the size of its output,
//! which the node budget bounds.

mod inline;

pub use inline::{InlineOptions, Inlined, RefIssue, RefIssueKind, merge_ref_siblings};

use crate::keyword::Keyword;
use crate::pointer;
use crate::schema::{Schema, SchemaObject, Value};
use crate::walk::Visit;
use std::borrow::Cow;
use std::collections::HashMap;

/// Why a reference could not be followed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RefError {
    /// The reference names another document (`http://...`, `other.json#...`).
    #[error("external reference {0:?} is not resolved (only references inside the document are)")]
    External(String),
    /// The pointer or anchor names nothing in the document.
    #[error("reference {0:?} points to nothing in the document")]
    NotFound(String),
    /// The reference is not a valid URI fragment or JSON pointer.
    #[error("reference {0:?} is not a valid JSON pointer")]
    Malformed(String),
}

/// The `$id`s and anchors of a document, for resolving references into it.
///
/// Every `$id` starts a resource (2020-12 §8.2.1) whose base URI is the `$id` resolved against
/// the base of the resource around it; a reference resolves against the base in force where it
/// stands, so a nested resource's `#/$defs/T` names that resource's definition, and `$anchor`
/// / `$dynamicAnchor` names belong to the resource that declares them. In draft-07 and older,
/// a `$ref` ignores its siblings, a sibling `$id` included.
#[derive(Clone, Debug, Default)]
pub struct RefIndex {
    /// `(resource base URI, anchor name)` → pointer.
    anchors: HashMap<(String, String), String>,
    /// Resources: `(base URI, pointer)`, in document order (the root's first).
    ids: Vec<(String, String)>,
    /// Whether a `$ref`'s sibling `$id` is ignored (draft-07 and older).
    ref_hides_id: bool,
}

impl RefIndex {
    /// Indexes a document: every `$anchor`, `$dynamicAnchor` and `$id`, with its pointer.
    pub fn new(root: &Schema) -> RefIndex {
        struct Collect<'a> {
            index: &'a mut RefIndex,
            /// `(pointer, base)` of the resources around the current node.
            stack: Vec<(String, String)>,
        }
        impl Visit for Collect<'_> {
            fn enter(&mut self, p: &str, s: &Schema) -> bool {
                let Some(o) = s.as_object() else { return true };
                let outer = self.stack.last().map_or("", |(_, b)| b.as_str()).to_owned();
                let mut base = outer.clone();
                if let Some(id) = own_id(o, self.index.ref_hides_id) {
                    let (id_base, frag) = split(id);
                    if !id_base.is_empty() {
                        base = resolve_uri(&outer, id_base);
                        self.index.ids.push((base.clone(), p.to_owned()));
                    }
                    if id_base.is_empty() && !frag.is_empty() && !frag.starts_with('/') {
                        // draft-06/07 style `"$id": "#foo"` is an anchor.
                        self.index
                            .anchors
                            .entry((base.clone(), frag.to_owned()))
                            .or_insert_with(|| p.to_owned());
                    }
                }
                for kw in [Keyword::Anchor, Keyword::DynamicAnchor] {
                    if let Some(a) = o.string(kw) {
                        self.index
                            .anchors
                            .entry((base.clone(), a.to_owned()))
                            .or_insert_with(|| p.to_owned());
                    }
                }
                self.stack.push((p.to_owned(), base));
                true
            }
            fn leave(&mut self, _: &str, s: &Schema) {
                if s.as_object().is_some() {
                    self.stack.pop();
                }
            }
        }
        let mut index = RefIndex {
            ref_hides_id: matches!(
                crate::Dialect::detect(root),
                crate::Dialect::Draft4 | crate::Dialect::Draft6 | crate::Dialect::Draft7
            ),
            ..RefIndex::default()
        };
        root.walk(&mut Collect {
            index: &mut index,
            stack: Vec::new(),
        });
        index
    }

    /// The JSON pointer (from the document root) a local reference names, the reference
    /// standing at the root: `$id` bases and anchors resolved, percent escapes decoded, `~`
    /// escapes kept.
    ///
    /// ```
    /// use schema_core::{RefIndex, Schema};
    /// let root = Schema::from_str(r#"{"$defs": {"a": {"$anchor": "x"}}}"#)?;
    /// let index = RefIndex::new(&root);
    /// assert_eq!(index.locate("#x").unwrap(), "/$defs/a");
    /// assert_eq!(index.locate("#/%24defs/a").unwrap(), "/$defs/a");
    /// # Ok::<(), schema_core::SchemaError>(())
    /// ```
    pub fn locate(&self, reference: &str) -> Result<String, RefError> {
        self.locate_in(self.root_base(), reference)
    }

    /// [`locate`](RefIndex::locate) for a reference standing in the resource whose base URI is
    /// `base` ([`base_at`](RefIndex::base_at)): a nested resource's `#/$defs/T` is that
    /// resource's.
    ///
    /// ```
    /// use schema_core::{RefIndex, Schema};
    /// let root = Schema::from_str(r##"{"$id": "http://x/root.json", "$defs": {"T": {"type": "string"}},
    ///     "properties": {"n": {"$id": "inner.json", "$defs": {"T": {"type": "integer"}},
    ///                          "$ref": "#/$defs/T"}}}"##)?;
    /// let index = RefIndex::new(&root);
    /// let base = index.base_at("/properties/n");
    /// assert_eq!(base, "http://x/inner.json");
    /// assert_eq!(index.locate_in(base, "#/$defs/T").unwrap(), "/properties/n/$defs/T");
    /// assert_eq!(index.locate("#/$defs/T").unwrap(), "/$defs/T");
    /// # Ok::<(), schema_core::SchemaError>(())
    /// ```
    pub fn locate_in(&self, base: &str, reference: &str) -> Result<String, RefError> {
        let (ref_base, _) = split(reference);
        let absolute = resolve_uri(base, reference);
        let (doc, frag) = split(&absolute);
        let base_ptr = match self.ids.iter().find(|(id, _)| id == doc) {
            Some((_, p)) => p.as_str(),
            None if doc.is_empty() => "",
            // A relative reference the document's own `$id`s end with (no base to resolve it
            // against, as for a root without `$id`).
            None => self
                .ids
                .iter()
                .find(|(id, _)| {
                    !ref_base.is_empty()
                        && id.ends_with(ref_base)
                        && id[..id.len() - ref_base.len()].ends_with('/')
                })
                .map(|(_, p)| p.as_str())
                .ok_or_else(|| RefError::External(reference.to_owned()))?,
        };
        let doc = self
            .ids
            .iter()
            .find(|(_, p)| p == base_ptr)
            .map_or("", |(id, _)| id.as_str());
        let frag = pointer::percent_decode(frag)
            .ok_or_else(|| RefError::Malformed(reference.to_owned()))?;
        if frag.is_empty() || frag.starts_with('/') {
            pointer::segments(&frag).ok_or_else(|| RefError::Malformed(reference.to_owned()))?;
            Ok(format!("{base_ptr}{frag}"))
        } else {
            self.anchors
                .get(&(doc.to_owned(), frag.clone()))
                .or_else(|| {
                    // An anchor of another resource, named without its base (lenient).
                    self.anchors
                        .iter()
                        .filter(|((_, a), _)| *a == frag)
                        .map(|(_, p)| p)
                        .min()
                })
                .cloned()
                .ok_or_else(|| RefError::NotFound(reference.to_owned()))
        }
    }

    /// The base URI in force at a pointer (from the document root): the `$id` of the nearest
    /// resource around it, the node's own included; `""` where there is none.
    pub fn base_at(&self, at: &str) -> &str {
        self.ids
            .iter()
            .filter(|(_, p)| is_within(at, p))
            .max_by_key(|(_, p)| p.len())
            .map_or("", |(id, _)| id.as_str())
    }

    /// The base URI in force around the node at `at` (its own `$id` left out): the base its
    /// `$id` is resolved against.
    pub fn base_around(&self, at: &str) -> &str {
        self.ids
            .iter()
            .filter(|(_, p)| p.len() < at.len() && is_within(at, p))
            .max_by_key(|(_, p)| p.len())
            .map_or("", |(id, _)| id.as_str())
    }

    /// Whether a `$ref` hides its siblings (draft-07 and older).
    pub(crate) fn ref_hides_siblings(&self) -> bool {
        self.ref_hides_id
    }

    /// The root's base URI (`""` when the root has no `$id`).
    fn root_base(&self) -> &str {
        self.base_at("")
    }

    /// The base a node's `$id` gives inside a resource whose base is `outer` (`outer` itself
    /// when the node has none, or when draft-07 rules make its `$ref` hide it).
    pub fn base_of(&self, outer: &str, node: &SchemaObject) -> String {
        match own_id(node, self.ref_hides_id).map(split) {
            Some((id_base, _)) if !id_base.is_empty() => resolve_uri(outer, id_base),
            _ => outer.to_owned(),
        }
    }
}

/// The `$id` of a node that sets one (draft-04's `id` where it is a string).
fn own_id(o: &SchemaObject, ref_hides_id: bool) -> Option<&str> {
    if ref_hides_id && o.contains(Keyword::Ref) {
        return None;
    }
    o.string(Keyword::Id)
}

/// Whether pointer `at` is `outer` or inside it.
fn is_within(at: &str, outer: &str) -> bool {
    at.strip_prefix(outer)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

fn split(reference: &str) -> (&str, &str) {
    match reference.split_once('#') {
        Some((b, f)) => (b, f),
        None => (reference, ""),
    }
}

/// The scheme of an absolute URI (`http`, `urn`...), if `s` has one.
fn scheme(s: &str) -> Option<&str> {
    let (scheme, _) = s.split_once(':')?;
    let mut chars = scheme.chars();
    let first = chars.next()?;
    (first.is_ascii_alphabetic()
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')))
    .then_some(scheme)
}

/// Resolves `reference` against `base` (RFC 3986 §5.2, without query handling): an absolute
/// reference stands as it is, a fragment replaces the base's, a path is merged with the
/// base's directory and its dot segments removed.
///
/// ```
/// use schema_core::resolve_uri;
/// assert_eq!(resolve_uri("http://x/a/b.json", "c.json#/d"), "http://x/a/c.json#/d");
/// assert_eq!(resolve_uri("http://x/a/b.json", "../c.json"), "http://x/c.json");
/// assert_eq!(resolve_uri("http://x/a/b.json", "/c.json"), "http://x/c.json");
/// assert_eq!(resolve_uri("urn:uuid:1234", "#/$defs/a"), "urn:uuid:1234#/$defs/a");
/// assert_eq!(resolve_uri("", "#/$defs/a"), "#/$defs/a");
/// ```
pub fn resolve_uri(base: &str, reference: &str) -> String {
    let base_doc = split(base).0;
    if reference.is_empty() {
        return base_doc.to_owned();
    }
    if reference.starts_with('#') {
        return format!("{base_doc}{reference}");
    }
    if scheme(reference).is_some() {
        return remove_dots(reference);
    }
    let Some(sch) = scheme(base_doc) else {
        // No absolute base: a relative reference stays relative (merged with the base's
        // directory when there is one).
        return match base_doc.rfind('/') {
            Some(i) if !reference.starts_with('/') => {
                remove_dots(&format!("{}{reference}", &base_doc[..=i]))
            }
            _ => remove_dots(reference),
        };
    };
    let rest = &base_doc[sch.len() + 1..];
    if let Some(r) = reference.strip_prefix("//") {
        return remove_dots(&format!("{sch}://{r}"));
    }
    // Authority: `//host` up to the next `/`.
    let (authority, path) = match rest.strip_prefix("//") {
        Some(r) => match r.find('/') {
            Some(i) => (&rest[..i + 2], &r[i..]),
            None => (rest, ""),
        },
        None => ("", rest),
    };
    if reference.starts_with('/') {
        return remove_dots(&format!("{sch}:{authority}{reference}"));
    }
    let dir = match path.rfind('/') {
        Some(i) => &path[..=i],
        None if !authority.is_empty() => "/",
        None => "",
    };
    format!(
        "{sch}:{authority}{}",
        remove_dots(&format!("{dir}{reference}"))
    )
}

/// Removes `.` and `..` path segments (before the fragment).
fn remove_dots(uri: &str) -> String {
    let (doc, frag) = match uri.split_once('#') {
        Some((d, f)) => (d, Some(f)),
        None => (uri, None),
    };
    if !doc.contains("./") && !doc.ends_with("/.") && !doc.ends_with("/..") {
        return uri.to_owned();
    }
    let mut out: Vec<&str> = Vec::new();
    let segs: Vec<&str> = doc.split('/').collect();
    let last = segs.len().saturating_sub(1);
    for (i, seg) in segs.iter().enumerate() {
        match *seg {
            "." => {
                if i == last {
                    out.push("");
                }
            }
            ".." => {
                if out.len() > 1
                    || out
                        .first()
                        .is_some_and(|f| !f.is_empty() && !f.ends_with(':'))
                {
                    out.pop();
                }
                if i == last {
                    out.push("");
                }
            }
            s => out.push(s),
        }
    }
    let mut s = out.join("/");
    if let Some(f) = frag {
        s.push('#');
        s.push_str(f);
    }
    s
}

impl Schema {
    /// Resolves a local reference against this schema as the document root.
    ///
    /// ```
    /// use schema_core::Schema;
    /// let root = Schema::from_str(r#"{"$defs": {"a b": {"type": "string"}, "n": {"$anchor": "num", "type": "number"}}}"#)?;
    /// assert_eq!(root.resolve("#/$defs/a%20b").unwrap().to_json_string(), r#"{"type":"string"}"#);
    /// assert_eq!(root.resolve("#num").unwrap().to_json_string(), r#"{"$anchor":"num","type":"number"}"#);
    /// assert!(root.resolve("#/$defs/missing").is_err());
    /// # Ok::<(), schema_core::SchemaError>(())
    /// ```
    pub fn resolve(&self, reference: &str) -> Result<Cow<'_, Schema>, RefError> {
        self.resolve_with(&RefIndex::new(self), reference)
    }

    /// Resolves a local reference using a prebuilt [`RefIndex`] of this schema.
    pub fn resolve_with(
        &self,
        index: &RefIndex,
        reference: &str,
    ) -> Result<Cow<'_, Schema>, RefError> {
        self.resolve_in(index, index.locate(reference)?, reference)
    }

    /// The subschema at `full`, a pointer a [`RefIndex`] located for `reference`.
    pub(crate) fn resolve_in(
        &self,
        _index: &RefIndex,
        full: String,
        reference: &str,
    ) -> Result<Cow<'_, Schema>, RefError> {
        let segs =
            pointer::segments(&full).ok_or_else(|| RefError::Malformed(reference.to_owned()))?;
        self.pointer_get(&segs)
            .ok_or_else(|| RefError::NotFound(reference.to_owned()))
    }

    /// The subschema at a JSON pointer given as unescaped segments. A pointer that leads into
    /// an unknown keyword (`#/components/schemas/X`) parses that part on the way.
    pub fn pointer_get(&self, segments: &[String]) -> Option<Cow<'_, Schema>> {
        let mut cur: Cow<'_, Schema> = Cow::Borrowed(self);
        let mut i = 0;
        while i < segments.len() {
            let next = match cur {
                Cow::Borrowed(s) => step(s, segments, &mut i)?,
                Cow::Owned(ref s) => Cow::Owned(step(s, segments, &mut i)?.into_owned()),
            };
            cur = next;
        }
        Some(cur)
    }
}

/// One step of pointer navigation from `s`: consumes one or two segments.
fn step<'a>(s: &'a Schema, segs: &[String], i: &mut usize) -> Option<Cow<'a, Schema>> {
    let o = s.as_object()?;
    let name = &segs[*i];
    *i += 1;
    let value = o.get_by_name(name)?;
    match value {
        Value::Schema(x) => Some(Cow::Borrowed(x)),
        Value::Schemas(list) => {
            let idx: usize = segs.get(*i)?.parse().ok()?;
            *i += 1;
            list.get(idx).map(Cow::Borrowed)
        }
        Value::SchemaMap(m) => {
            let x = m.get(segs.get(*i)?)?;
            *i += 1;
            Some(Cow::Borrowed(x))
        }
        Value::Dependencies(m) => {
            let d = m.get(segs.get(*i)?)?;
            *i += 1;
            match d {
                crate::schema::Dependency::Schema(x) => Some(Cow::Borrowed(x)),
                crate::schema::Dependency::Required(_) => None,
            }
        }
        Value::Raw(raw) | Value::Instance(raw) => {
            // Unknown container (`components`, `x-defs`...): read it as a schema-shaped object
            // and go on; its keys are then unknown keys again, or the target itself. An array
            // takes the next segment as its index.
            let text = raw.as_json();
            if text.starts_with('[') {
                let items: Vec<&serde_json::value::RawValue> = serde_json::from_str(text).ok()?;
                let idx: usize = segs.get(*i)?.parse().ok()?;
                *i += 1;
                return Schema::from_str(items.get(idx)?.get()).ok().map(Cow::Owned);
            }
            Schema::from_str(text).ok().map(Cow::Owned)
        }
        Value::Instances(list) => {
            let idx: usize = segs.get(*i)?.parse().ok()?;
            *i += 1;
            Schema::from_str(list.get(idx)?.as_json())
                .ok()
                .map(Cow::Owned)
        }
        _ => None,
    }
}

impl Schema {
    /// The pointers of the `$ref`s that take part in a cycle (a reference whose expansion
    /// leads back to itself: recursion), in document order. References that do not resolve
    /// are not followed.
    ///
    /// ```
    /// use schema_core::Schema;
    /// let s = Schema::from_str(r##"{"$defs": {"Node": {"properties": {"next": {"$ref": "#/$defs/Node"}}},
    ///     "Leaf": {"type": "string"}},
    ///     "properties": {"head": {"$ref": "#/$defs/Node"}, "leaf": {"$ref": "#/$defs/Leaf"}}}"##)?;
    /// assert_eq!(s.circular_refs(), ["/$defs/Node/properties/next"]);
    /// # Ok::<(), schema_core::SchemaError>(())
    /// ```
    pub fn circular_refs(&self) -> Vec<String> {
        let index = RefIndex::new(self);
        // Every `$ref`: where it stands and the pointer of its target.
        struct Refs<'a> {
            index: &'a RefIndex,
            bases: Vec<String>,
            out: Vec<(String, Option<String>)>,
        }
        impl Visit for Refs<'_> {
            fn enter(&mut self, p: &str, s: &Schema) -> bool {
                let Some(o) = s.as_object() else { return true };
                let outer = self.bases.last().map_or("", String::as_str);
                let base = self.index.base_of(outer, o);
                if let Some(r) = o.reference() {
                    self.out
                        .push((p.to_owned(), self.index.locate_in(&base, r).ok()));
                }
                self.bases.push(base);
                true
            }
            fn leave(&mut self, _: &str, s: &Schema) {
                if s.as_object().is_some() {
                    self.bases.pop();
                }
            }
        }
        let mut refs = Refs {
            index: &index,
            bases: Vec::new(),
            out: Vec::new(),
        };
        self.walk(&mut refs);
        let refs = refs.out;
        // Edge i → j: expanding i's target meets reference j (j stands at the target or
        // below it: a contiguous range of the pointers in sorted order).
        let mut sorted: Vec<(&str, usize)> = refs
            .iter()
            .enumerate()
            .map(|(j, (p, _))| (p.as_str(), j))
            .collect();
        sorted.sort_unstable();
        let edges: Vec<Vec<usize>> = refs
            .iter()
            .map(|(_, target)| {
                let Some(t) = target else { return Vec::new() };
                let below = format!("{t}/");
                let at = sorted.partition_point(|(p, _)| *p < t.as_str());
                let inside = sorted.partition_point(|(p, _)| *p < below.as_str());
                let exact = sorted[at..].iter().take_while(|(p, _)| *p == t);
                let deeper = sorted[inside..]
                    .iter()
                    .take_while(|(p, _)| p.starts_with(&below));
                exact.chain(deeper).map(|&(_, j)| j).collect()
            })
            .collect();
        let on_cycle = cyclic_nodes(&edges);
        refs.into_iter()
            .zip(on_cycle)
            .filter_map(|((p, _), c)| c.then_some(p))
            .collect()
    }
}

/// Which nodes of a directed graph lie on a cycle (Tarjan's strongly connected components,
/// iterative: no recursion on input).
fn cyclic_nodes(edges: &[Vec<usize>]) -> Vec<bool> {
    let n = edges.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut out = vec![false; n];
    let mut next = 0;
    for start in 0..n {
        if index[start] != usize::MAX {
            continue;
        }
        // (node, next edge to look at)
        let mut work = vec![(start, 0)];
        index[start] = next;
        low[start] = next;
        next += 1;
        stack.push(start);
        on_stack[start] = true;
        while let Some(&mut (v, ref mut e)) = work.last_mut() {
            if let Some(&w) = edges[v].get(*e) {
                *e += 1;
                if index[w] == usize::MAX {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(u, _)) = work.last() {
                low[u] = low[u].min(low[v]);
            }
            if low[v] == index[v] {
                let mut members = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    members.push(w);
                    if w == v {
                        break;
                    }
                }
                let cyclic = members.len() > 1 || edges[v].contains(&v);
                for w in members {
                    out[w] = cyclic;
                }
            }
        }
    }
    out
}
