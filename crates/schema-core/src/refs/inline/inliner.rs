//! The inliner: expands a schema's `$ref`s in place, with a recursion bound, a node budget and
//! a depth bound.

use super::merge::{merge, siblings_of};
use super::merge_ref_siblings;
use super::{InlineOptions, RefIssue, RefIssueKind};
use crate::keyword::Keyword;
use crate::pointer;
use crate::refs::RefIndex;
use crate::schema::{Key, Schema, SchemaObject, Value};
use crate::walk::Visit;

pub(super) struct Inliner<'a> {
    pub(super) root: &'a Schema,
    pub(super) index: &'a RefIndex,
    pub(super) opts: &'a InlineOptions,
    pub(super) nodes: usize,
    pub(super) stack: Vec<String>,
    pub(super) issues: Vec<RefIssue>,
    pub(super) remaining: usize,
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
    pub(super) fn expand(
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
