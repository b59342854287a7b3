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

pub use inline::{InlineOptions, Inlined, RefIssue, RefIssueKind};

use crate::keyword::Keyword;
use crate::pointer;
use crate::schema::{Schema, Value};
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
#[derive(Clone, Debug, Default)]
pub struct RefIndex {
    anchors: HashMap<String, String>,
    ids: Vec<(String, String)>,
}

impl RefIndex {
    /// Indexes a document: every `$anchor`, `$dynamicAnchor` and `$id`, with its pointer.
    pub fn new(root: &Schema) -> RefIndex {
        struct Collect<'a>(&'a mut RefIndex);
        impl Visit for Collect<'_> {
            fn enter(&mut self, p: &str, s: &Schema) -> bool {
                if let Some(o) = s.as_object() {
                    for kw in [Keyword::Anchor, Keyword::DynamicAnchor] {
                        if let Some(a) = o.string(kw) {
                            self.0
                                .anchors
                                .entry(a.to_owned())
                                .or_insert_with(|| p.to_owned());
                        }
                    }
                    if let Some(id) = o.string(Keyword::Id) {
                        let (base, frag) = split(id);
                        if frag.is_empty() && !base.is_empty() {
                            self.0.ids.push((base.to_owned(), p.to_owned()));
                        } else if base.is_empty() && !frag.is_empty() && !frag.starts_with('/') {
                            // draft-06/07 style `"$id": "#foo"` is an anchor.
                            self.0
                                .anchors
                                .entry(frag.to_owned())
                                .or_insert_with(|| p.to_owned());
                        }
                    }
                }
                true
            }
        }
        let mut index = RefIndex::default();
        root.walk(&mut Collect(&mut index));
        index
    }

    /// The JSON pointer (from the document root) a local reference names: `$id` bases and
    /// anchors resolved, percent escapes decoded, `~` escapes kept.
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
        let (base, frag) = split(reference);
        let mut base_ptr = "";
        if !base.is_empty() {
            base_ptr = self
                .base_pointer(base)
                .ok_or_else(|| RefError::External(reference.to_owned()))?;
        }
        let frag = pointer::percent_decode(frag)
            .ok_or_else(|| RefError::Malformed(reference.to_owned()))?;
        if frag.is_empty() || frag.starts_with('/') {
            pointer::segments(&frag).ok_or_else(|| RefError::Malformed(reference.to_owned()))?;
            Ok(format!("{base_ptr}{frag}"))
        } else {
            self.anchors
                .get(&frag)
                .cloned()
                .ok_or_else(|| RefError::NotFound(reference.to_owned()))
        }
    }

    fn base_pointer(&self, base: &str) -> Option<&str> {
        self.ids
            .iter()
            .find(|(id, _)| id == base)
            .or_else(|| {
                self.ids.iter().find(|(id, _)| {
                    id.ends_with(base) && id[..id.len() - base.len()].ends_with('/')
                })
            })
            .map(|(_, p)| p.as_str())
    }
}

fn split(reference: &str) -> (&str, &str) {
    match reference.split_once('#') {
        Some((b, f)) => (b, f),
        None => (reference, ""),
    }
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
        let full = index.locate(reference)?;
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
