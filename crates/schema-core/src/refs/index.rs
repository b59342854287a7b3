//! [`RefIndex`]: a document's `$id`s and anchors, and the base URI in force at each pointer.

use super::RefError;
use super::uri::{resolve_uri, split};
use crate::keyword::Keyword;
use crate::pointer;
use crate::schema::{Schema, SchemaObject};
use crate::walk::Visit;
use std::collections::HashMap;

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
