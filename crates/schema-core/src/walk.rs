//! The keyword-aware walk: it enters only subschema positions.
//!
//! A property named `properties`, `required`, `items`, `$ref` or `enum` is a name in a map of
//! subschemas, never a keyword; `enum`, `const`, `default` and `examples` values are instances
//! and never entered. Each callback receives the node's JSON pointer.
//!
//! The walk recurses once per schema level. Parsed trees are bounded by
//! [`ParseOptions::max_depth`](crate::ParseOptions); the walk stops descending at
//! [`MAX_WALK_DEPTH`] for trees built by hand.

use crate::keyword::Keyword;
use crate::pointer;
use crate::schema::{Dependency, Key, Schema, SchemaObject, Value};

/// The walk does not descend below this many schema levels.
pub const MAX_WALK_DEPTH: usize = 1024;

/// The room a walk's pointer buffer starts with: grown a segment at a time from empty, it was
/// reallocated about twenty times per walk of a typical tool schema (callgrind).
const POINTER_CAPACITY: usize = 256;

/// Where a subschema sits in its parent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Location<'a> {
    /// The value of a single-subschema keyword (`not`, `additionalProperties`, `items`...).
    Keyword(Keyword),
    /// An element of an array keyword (`anyOf`, `prefixItems`, tuple `items`...).
    Index(Keyword, usize),
    /// A value of a map keyword (`properties`, `$defs`, `dependencies`...).
    Name(Keyword, &'a str),
}

impl Location<'_> {
    /// The keyword the subschema sits under.
    pub fn keyword(&self) -> Keyword {
        match *self {
            Location::Keyword(k) | Location::Index(k, _) | Location::Name(k, _) => k,
        }
    }

    /// Appends this location's pointer segments.
    pub fn push_to(&self, p: &mut String) {
        // A keyword's name holds no `~` or `/`: it needs no escaping scan.
        let keyword = |p: &mut String, k: Keyword| {
            p.push('/');
            p.push_str(k.as_str());
        };
        match *self {
            Location::Keyword(k) => keyword(p, k),
            Location::Index(k, i) => {
                keyword(p, k);
                pointer::push_index(p, i);
            }
            Location::Name(k, n) => {
                keyword(p, k);
                pointer::push(p, n);
            }
        }
    }
}

impl SchemaObject {
    /// Calls `f` on each direct subschema, in document order (see [`Schema::for_each_child`]).
    pub fn for_each_child<'a>(&'a self, mut f: impl FnMut(Location<'a>, &'a Schema)) {
        for e in self.entries() {
            let Key::Known(kw) = e.key else { continue };
            match &e.value {
                Value::Schema(s) => f(Location::Keyword(kw), s),
                Value::Schemas(list) => {
                    for (i, s) in list.iter().enumerate() {
                        f(Location::Index(kw, i), s)
                    }
                }
                Value::SchemaMap(m) => {
                    for (k, s) in m {
                        f(Location::Name(kw, k), s)
                    }
                }
                Value::Dependencies(m) => {
                    for (k, d) in m {
                        if let Dependency::Schema(s) = d {
                            f(Location::Name(kw, k), s)
                        }
                    }
                }
                _ => {}
            }
        }
    }

    /// Calls `f` on each direct subschema, mutably, in document order.
    pub fn for_each_child_mut(&mut self, mut f: impl FnMut(Location<'_>, &mut Schema)) {
        // The keys stay as they are: the presence mask stays exact.
        for e in self.entries.iter_mut() {
            let Key::Known(kw) = e.key else { continue };
            match &mut e.value {
                Value::Schema(s) => f(Location::Keyword(kw), s),
                Value::Schemas(list) => {
                    for (i, s) in list.iter_mut().enumerate() {
                        f(Location::Index(kw, i), s)
                    }
                }
                Value::SchemaMap(m) => {
                    for (k, s) in m.iter_mut() {
                        f(Location::Name(kw, k), s)
                    }
                }
                Value::Dependencies(m) => {
                    for (k, d) in m.iter_mut() {
                        if let Dependency::Schema(s) = d {
                            f(Location::Name(kw, k), s)
                        }
                    }
                }
                _ => {}
            }
        }
    }
}

impl Schema {
    /// Calls `f` on each direct subschema, in document order.
    ///
    /// ```
    /// use schema_core::{Location, Keyword, Schema};
    /// let s = Schema::from_str(r#"{"properties": {"enum": {"const": {"type": "x"}}}, "not": true}"#)?;
    /// let mut seen = Vec::new();
    /// s.for_each_child(|loc, _| seen.push(format!("{loc:?}")));
    /// assert_eq!(seen, [r#"Name(Properties, "enum")"#, "Keyword(Not)"]);
    /// # Ok::<(), schema_core::SchemaError>(())
    /// ```
    pub fn for_each_child<'a>(&'a self, f: impl FnMut(Location<'a>, &'a Schema)) {
        if let Schema::Object(o) = self {
            o.for_each_child(f);
        }
    }

    /// Calls `f` on each direct subschema, mutably, in document order.
    pub fn for_each_child_mut(&mut self, f: impl FnMut(Location<'_>, &mut Schema)) {
        if let Schema::Object(o) = self {
            o.for_each_child_mut(f);
        }
    }

    /// Walks every subschema read-only, pre-order (`enter`) and post-order (`leave`).
    ///
    /// ```
    /// use schema_core::{Schema, Visit};
    /// struct Pointers(Vec<String>);
    /// impl Visit for Pointers {
    ///     fn enter(&mut self, pointer: &str, _: &Schema) -> bool {
    ///         self.0.push(pointer.to_owned());
    ///         true
    ///     }
    /// }
    /// let s = Schema::from_str(r#"{"properties": {"a/b": {"items": {}}}, "default": {"properties": 1}}"#)?;
    /// let mut v = Pointers(Vec::new());
    /// s.walk(&mut v);
    /// assert_eq!(v.0, ["", "/properties/a~1b", "/properties/a~1b/items"]);
    /// # Ok::<(), schema_core::SchemaError>(())
    /// ```
    pub fn walk<V: Visit + ?Sized>(&self, visitor: &mut V) {
        let pointers = visitor.pointers();
        let mut p = String::with_capacity(if pointers { POINTER_CAPACITY } else { 0 });
        walk_inner(self, visitor, &mut p, pointers, 0);
    }

    /// Walks every subschema mutably: `pre` before the children, `post` after them.
    ///
    /// ```
    /// use schema_core::{Keyword, Schema, Transform};
    /// struct DropTitles;
    /// impl Transform for DropTitles {
    ///     fn post(&mut self, _pointer: &str, s: &mut Schema) {
    ///         if let Some(o) = s.as_object_mut() { o.remove(Keyword::Title); }
    ///     }
    /// }
    /// let mut s = Schema::from_str(r#"{"title":"T","properties":{"title":{"title":"x"}}}"#)?;
    /// s.transform(&mut DropTitles);
    /// assert_eq!(s.to_json_string(), r#"{"properties":{"title":{}}}"#);
    /// # Ok::<(), schema_core::SchemaError>(())
    /// ```
    pub fn transform<T: Transform + ?Sized>(&mut self, t: &mut T) {
        let pointers = t.pointers();
        let mut p = String::with_capacity(if pointers { POINTER_CAPACITY } else { 0 });
        transform_inner(self, t, &mut p, pointers, 0);
    }
}

/// A read-only visitor for [`Schema::walk`].
pub trait Visit {
    /// Whether the callbacks read their `pointer`: a visitor that does not (a search, a count)
    /// says `false`, and the walk builds no pointer (the callbacks get `""`).
    ///
    /// ```
    /// use schema_core::{Schema, Visit};
    /// struct Count(usize);
    /// impl Visit for Count {
    ///     fn pointers(&self) -> bool {
    ///         false
    ///     }
    ///     fn enter(&mut self, pointer: &str, _: &Schema) -> bool {
    ///         assert_eq!(pointer, "");
    ///         self.0 += 1;
    ///         true
    ///     }
    /// }
    /// let s = Schema::from_str(r#"{"properties": {"a": {"items": {}}}}"#)?;
    /// let mut c = Count(0);
    /// s.walk(&mut c);
    /// assert_eq!(c.0, 3);
    /// # Ok::<(), schema_core::SchemaError>(())
    /// ```
    fn pointers(&self) -> bool {
        true
    }
    /// Called before the node's children; return `false` to skip them.
    fn enter(&mut self, pointer: &str, schema: &Schema) -> bool {
        let _ = (pointer, schema);
        true
    }
    /// Called after the node's children.
    fn leave(&mut self, pointer: &str, schema: &Schema) {
        let _ = (pointer, schema);
    }
}

/// A mutating visitor for [`Schema::transform`].
pub trait Transform {
    /// Whether the callbacks read their `pointer` (see [`Visit::pointers`]).
    fn pointers(&self) -> bool {
        true
    }
    /// Called before the node's children (changes made here are then walked).
    fn pre(&mut self, pointer: &str, schema: &mut Schema) {
        let _ = (pointer, schema);
    }
    /// Called after the node's children.
    fn post(&mut self, pointer: &str, schema: &mut Schema) {
        let _ = (pointer, schema);
    }
}

fn walk_inner<V: Visit + ?Sized>(
    s: &Schema,
    v: &mut V,
    p: &mut String,
    pointers: bool,
    depth: usize,
) {
    if !v.enter(p, s) {
        return;
    }
    if depth < MAX_WALK_DEPTH {
        s.for_each_child(|loc, child| {
            let mark = p.len();
            if pointers {
                loc.push_to(p);
            }
            walk_inner(child, v, p, pointers, depth + 1);
            p.truncate(mark);
        });
    }
    v.leave(p, s);
}

fn transform_inner<T: Transform + ?Sized>(
    s: &mut Schema,
    t: &mut T,
    p: &mut String,
    pointers: bool,
    depth: usize,
) {
    t.pre(p, s);
    if depth < MAX_WALK_DEPTH {
        s.for_each_child_mut(|loc, child| {
            let mark = p.len();
            if pointers {
                loc.push_to(p);
            }
            transform_inner(child, t, p, pointers, depth + 1);
            p.truncate(mark);
        });
    }
    t.post(p, s);
}
