//! Inlining: each `$ref` replaced by its target merged with its siblings, cycles detected,
//! recursion unrolled a bounded number of times, a node budget against blow-up.

mod inliner;
mod merge;

use inliner::Inliner;
pub use merge::merge_ref_siblings;

use super::{RefError, RefIndex};
use crate::keyword::Keyword;
use crate::schema::Schema;
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

    /// Whether the schema holds a reference of any kind anywhere (`$ref`, `$dynamicRef`,
    /// `$recursiveRef`; definitions included): [`Schema::has_refs`] or
    /// [`Schema::has_dynamic_refs`], in one walk.
    ///
    /// ```
    /// use schema_core::Schema;
    /// assert!(Schema::from_str(r##"{"items": {"$recursiveRef": "#"}}"##)?.has_any_refs());
    /// assert!(Schema::from_str(r##"{"$defs": {"a": {"$ref": "#"}}}"##)?.has_any_refs());
    /// assert!(!Schema::from_str(r#"{"properties": {"$ref": {}}}"#)?.has_any_refs());
    /// # Ok::<(), schema_core::SchemaError>(())
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
