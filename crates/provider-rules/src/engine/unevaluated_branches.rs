//! `unevaluatedProperties: false` beside a `oneOf` or an `if`/`then`/`else`, for the Schema
//! proto (no `unevaluatedProperties`): what is evaluated depends on the branch that holds,
//! so the closing is written into each branch, where the evaluated names are known.
//!
//! - `oneOf`: a valid value matches one branch, which with the node's own `properties`
//!   evaluates all its members; each branch is closed to the node's names and its own
//!   (`properties` declared, `additionalProperties: false`), through nested `oneOf`s and
//!   local `$ref`s (copied in). Sound: the branch that held still holds; a value that matched
//!   two branches may now match one (a superset there).
//! - `if`/`then`/`else`: when `if` holds, the node's names, `if`'s and `then`'s are evaluated;
//!   when not, the node's and `else`'s. `then` and `else` (`true` where absent) are closed so.
//!   Exact (`if` must name its properties only).
//!
//! A branch that evaluates every member (`additionalProperties` or `unevaluatedProperties`
//! not `false`) or is closed already stays; one whose evaluated names are not a fixed list
//! (another applicator, a dynamic reference) leaves the node as it is. Then the engine says a
//! closed branch as the proto can (`maxProperties`, the names it forbids), and the `if` as a
//! union ([`conditional_union`](super::conditional_union)).

use super::Cx;
use crate::RuleId;
use schema_core::{
    Keyword as K, KeywordMask, RefIndex, Schema, SchemaMap, SchemaObject, Transform, Value, Visit,
    pointer,
};
use std::collections::{BTreeMap, BTreeSet};

/// Deeper than this (nested branches, references followed), the node is left as it is.
const MAX_DEPTH: usize = 8;

/// Whether `o` holds a keyword (but those in `except`) that makes what it evaluates depend on
/// more than its own `properties`: those beside which `unevaluatedProperties` is not alone,
/// and `unevaluatedProperties` itself.
fn applies(o: &SchemaObject, except: &[K]) -> bool {
    super::unevaluated_alone::MEMBERS
        .iter()
        .chain([&K::UnevaluatedProperties])
        .filter(|k| **k != K::Properties && !except.contains(k))
        .any(|k| o.contains(*k))
}

/// Keywords beside which a copied reference target would mean something else.
const SCOPED: &[&str] = &[
    "\"$id\"",
    "\"$anchor\"",
    "\"$dynamicAnchor\"",
    "\"$dynamicRef\"",
    "\"$recursiveRef\"",
    "\"$recursiveAnchor\"",
];

/// Rewrites the nodes (see the [module docs](self)).
pub(crate) fn run(schema: &mut Schema, cx: &mut Cx<'_>) {
    if cx.rules.keywords.contains(K::UnevaluatedProperties)
        || !cx.tree_may_hold(KeywordMask::of(&[K::UnevaluatedProperties]))
    {
        return;
    }
    let index = RefIndex::new(schema);
    struct Collect<'a> {
        root: &'a Schema,
        index: &'a RefIndex,
        mentioned: BTreeSet<String>,
        out: BTreeMap<String, Schema>,
    }
    impl Visit for Collect<'_> {
        fn enter(&mut self, p: &str, s: &Schema) -> bool {
            let Some(o) = s.as_object() else { return true };
            if !matches!(
                o.schema(K::UnevaluatedProperties),
                Some(Schema::Bool(false))
            ) {
                return true;
            }
            let r = Resolver {
                root: self.root,
                index: self.index,
                mentioned: &self.mentioned,
            };
            match split(o, p, &r) {
                Some(new) => {
                    self.out.insert(p.to_owned(), Schema::Object(new));
                    false
                }
                None => true,
            }
        }
    }
    let mut c = Collect {
        root: schema,
        index: &index,
        mentioned: mentioned(schema),
        out: BTreeMap::new(),
    };
    schema.walk(&mut c);
    let mut out = c.out;
    if out.is_empty() {
        return;
    }
    struct Rewrite<'a>(&'a mut BTreeMap<String, Schema>);
    impl Transform for Rewrite<'_> {
        fn pre(&mut self, p: &str, s: &mut Schema) {
            if let Some(new) = self.0.remove(p) {
                *s = new;
            }
        }
    }
    let at: Vec<String> = out.keys().cloned().collect();
    schema.transform(&mut Rewrite(&mut out));
    for p in &at {
        cx.change(
            p,
            RuleId::UnsupportedKeyword,
            "unevaluatedProperties: false closes each branch to the names it evaluates",
        );
    }
}

/// Local references, read from the whole schema.
struct Resolver<'a> {
    root: &'a Schema,
    index: &'a RefIndex,
    /// The names the document's `properties` and `required` speak of.
    mentioned: &'a BTreeSet<String>,
}

/// More names than this in a document: none is forbidden by name.
const MAX_NAMES: usize = 16;

/// The names the document's `properties` and `required` speak of (none past [`MAX_NAMES`]).
fn mentioned(schema: &Schema) -> BTreeSet<String> {
    struct Names(BTreeSet<String>);
    impl Visit for Names {
        fn enter(&mut self, _: &str, s: &Schema) -> bool {
            if let Some(o) = s.as_object() {
                self.0
                    .extend(o.properties().into_iter().flat_map(|m| m.keys().cloned()));
                self.0.extend(o.required().into_iter().flatten().cloned());
            }
            self.0.len() <= MAX_NAMES
        }
    }
    let mut n = Names(BTreeSet::new());
    schema.walk(&mut n);
    if n.0.len() > MAX_NAMES {
        n.0.clear();
    }
    n.0
}

/// Whether `name` matches `pattern`, where that is known without a regex engine: a pattern of
/// letters, digits, `_`, `-` and spaces, maybe anchored (`^`, `$`); `None` for any other.
fn literal_match(pattern: &str, name: &str) -> Option<bool> {
    let (start, rest) = match pattern.strip_prefix('^') {
        Some(r) => (true, r),
        None => (false, pattern),
    };
    let (end, lit) = match rest.strip_suffix('$') {
        Some(r) => (true, r),
        None => (false, rest),
    };
    if !lit
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | ' '))
    {
        return None;
    }
    Some(match (start, end) {
        (true, true) => name == lit,
        (true, false) => name.starts_with(lit),
        (false, true) => name.ends_with(lit),
        (false, false) => name.contains(lit),
    })
}

impl Resolver<'_> {
    /// The target of `r` (at `base`) and its pointer, when it can be copied where it is used.
    fn target(&self, at: &str, r: &str) -> Option<(Schema, String)> {
        copyable_target(self.root, self.index, at, r)
    }
}

/// The target of the local reference `r` (used at `at` in `root`) and its pointer, when it
/// can be copied where it is used (no `$id`, anchors or dynamic references in it).
pub(super) fn copyable_target(
    root: &Schema,
    index: &RefIndex,
    at: &str,
    r: &str,
) -> Option<(Schema, String)> {
    let t = index.locate_in(index.base_at(at), r).ok()?;
    let segs = pointer::segments(&t)?;
    let s = root.pointer_get(&segs)?.into_owned();
    let text = s.to_json_string();
    (!SCOPED.iter().any(|k| text.contains(k))).then_some((s, t))
}

/// Names evaluated for sure, each with the schema that declares it (which holds too).
type Names = BTreeMap<String, Schema>;

/// The names `o` declares in `properties`, with `names` (the first declaration kept).
fn with_own(names: &Names, o: &SchemaObject) -> Names {
    let mut out = names.clone();
    for (n, s) in o.properties().into_iter().flatten() {
        out.entry(n.clone()).or_insert_with(|| s.clone());
    }
    out
}

/// The node `o` (with `unevaluatedProperties: false`) with its closing written into its
/// branches, or `None`.
fn split(o: &SchemaObject, p: &str, r: &Resolver<'_>) -> Option<SchemaObject> {
    let others = applies(
        o,
        &[
            K::OneOf,
            K::If,
            K::Then,
            K::Else,
            K::UnevaluatedProperties,
            K::AllOf,
            K::Ref,
        ],
    );
    if others || (o.contains(K::OneOf) && o.contains(K::If)) {
        return None;
    }
    // `allOf` members and a `$ref` beside that only declare properties evaluate those.
    let mut base = with_own(&Names::new(), o);
    // One `allOf` member that is a `oneOf` alone is split as the node's own would be.
    let mut member_one_of = None;
    for (i, m) in o.schemas(K::AllOf).into_iter().flatten().enumerate() {
        let at = format!("{p}/allOf/{i}");
        match flat_names(m, &base, &at, r, 0) {
            Some(names) => base = names,
            None if member_one_of.is_none()
                && !o.contains(K::OneOf)
                && !o.contains(K::If)
                && m.as_object().is_some_and(|mo| {
                    mo.contains(K::OneOf)
                        && mo
                            .entries()
                            .iter()
                            .all(|e| e.key == schema_core::Key::Known(K::OneOf))
                }) =>
            {
                member_one_of = Some(i);
            }
            None => return None,
        }
    }
    if o.contains(K::Ref) {
        let mut only_ref = SchemaObject::new();
        only_ref.insert(K::Ref, o.get(K::Ref)?.clone());
        base = flat_names(&Schema::Object(only_ref), &base, p, r, 0)?;
    }
    let mut new = o.clone();
    new.remove(K::UnevaluatedProperties);
    if let Some(list) = o.schemas(K::OneOf) {
        let branches = list
            .iter()
            .enumerate()
            .map(|(i, b)| close(b, &base, &format!("{p}/oneOf/{i}"), r, 0))
            .collect::<Option<Vec<_>>>()?;
        new.insert(K::OneOf, Value::Schemas(branches));
        return Some(new);
    }
    if let Some(i) = member_one_of {
        let list = o
            .schemas(K::AllOf)?
            .get(i)?
            .as_object()?
            .schemas(K::OneOf)?;
        let branches = list
            .iter()
            .enumerate()
            .map(|(j, b)| close(b, &base, &format!("{p}/allOf/{i}/oneOf/{j}"), r, 0))
            .collect::<Option<Vec<_>>>()?;
        let mut member = SchemaObject::new();
        member.insert(K::OneOf, Value::Schemas(branches));
        *new.schemas_mut(K::AllOf)?.get_mut(i)? = Schema::Object(member);
        return Some(new);
    }
    let Some(cond) = o.schema(K::If) else {
        // Only in-place members that declare properties: the node itself is closed.
        return (o.contains(K::AllOf) || o.contains(K::Ref)).then(|| closed_leaf(&new, &base, r));
    };
    let yes = match cond {
        Schema::Bool(_) => base.clone(),
        Schema::Object(c) if !applies(c, &[]) => with_own(&base, c),
        Schema::Object(_) => return None,
    };
    for (kw, names) in [(K::Then, &yes), (K::Else, &base)] {
        let branch = o.schema(kw).cloned().unwrap_or(Schema::Bool(true));
        let closed = close(&branch, names, &format!("{p}/{}", kw.as_str()), r, 0)?;
        new.insert(kw, Value::Schema(Box::new(closed)));
    }
    Some(new)
}

/// `names` with what `s` (at `p`) declares, where it declares properties only (or is a local
/// `$ref` alone to such a schema); `None` for any other.
fn flat_names(s: &Schema, names: &Names, p: &str, r: &Resolver<'_>, depth: usize) -> Option<Names> {
    let o = match s {
        Schema::Bool(_) => return Some(names.clone()),
        Schema::Object(o) => o,
    };
    if depth > MAX_DEPTH {
        return None;
    }
    if let Some(reference) = o.string(K::Ref) {
        if !alone(o) {
            return None;
        }
        let (target, at) = r.target(p, reference)?;
        return flat_names(&target, names, &at, r, depth + 1);
    }
    if applies(o, &[]) {
        return None;
    }
    Some(with_own(names, o))
}

/// Whether `o` is a `$ref` with annotations only.
fn alone(o: &SchemaObject) -> bool {
    o.entries().iter().all(|e| {
        matches!(
            e.key,
            schema_core::Key::Known(K::Ref | K::Description | K::Title | K::Comment)
        )
    })
}

/// `s` (at `p`) closed to `names` and what it evaluates itself, or `None`.
fn close(s: &Schema, names: &Names, p: &str, r: &Resolver<'_>, depth: usize) -> Option<Schema> {
    if depth > MAX_DEPTH {
        return None;
    }
    let o = match s {
        Schema::Bool(false) => return Some(Schema::Bool(false)),
        Schema::Bool(true) => {
            return Some(Schema::Object(closed_leaf(&SchemaObject::new(), names, r)));
        }
        Schema::Object(o) => o,
    };
    // Every member evaluated, or closed already: the closing adds nothing.
    for k in [K::AdditionalProperties, K::UnevaluatedProperties] {
        if o.get(k).is_some() {
            return Some(s.clone());
        }
    }
    if let Some(reference) = o.string(K::Ref) {
        // Only a reference alone (with annotations) is followed: its target stands for it.
        if !alone(o) {
            return None;
        }
        let (target, at) = r.target(p, reference)?;
        return close(&target, names, &at, r, depth + 1);
    }
    if o.contains(K::OneOf) {
        if applies(o, &[K::OneOf]) {
            return None;
        }
        let inner = with_own(names, o);
        let list = o.schemas(K::OneOf)?;
        let branches = list
            .iter()
            .enumerate()
            .map(|(i, b)| close(b, &inner, &format!("{p}/oneOf/{i}"), r, depth + 1))
            .collect::<Option<Vec<_>>>()?;
        let mut new = o.clone();
        new.insert(K::OneOf, Value::Schemas(branches));
        return Some(Schema::Object(new));
    }
    if applies(o, &[K::PatternProperties]) {
        return None;
    }
    Some(Schema::Object(closed_leaf(o, names, r)))
}

/// The `mentioned` names neither declared in `props` nor matched by `patterns`; `None` when a
/// pattern cannot be read without a regex engine.
fn forbidden_names(
    mentioned: &BTreeSet<String>,
    props: &SchemaMap,
    patterns: &SchemaMap,
) -> Option<Vec<String>> {
    let mut out = Vec::new();
    for n in mentioned.iter().filter(|n| !props.contains_key(*n)) {
        let mut matched = false;
        for pat in patterns.keys() {
            matched |= literal_match(pat, n)?;
        }
        if !matched {
            out.push(n.clone());
        }
    }
    Some(out)
}

/// `o` (no applicator) declaring `names` too (as their declarations say: they hold) and
/// closed. The document's other names (that no `patternProperties` pattern matches) are
/// written as properties that accept none (`false`): the closing forbids them already, and
/// the proto cannot say it otherwise (a count does not tell names apart; beside patterns no
/// count bounds the members).
fn closed_leaf(o: &SchemaObject, names: &Names, r: &Resolver<'_>) -> SchemaObject {
    let mut new = o.clone();
    let mut props = o.properties().cloned().unwrap_or_default();
    for (n, s) in names {
        if !props.contains_key(n) {
            props.insert(n.clone(), s.clone());
        }
    }
    let none = SchemaMap::default();
    let patterns = o.schema_map(K::PatternProperties).unwrap_or(&none);
    for n in forbidden_names(r.mentioned, &props, patterns)
        .into_iter()
        .flatten()
    {
        props.insert(n, Schema::Bool(false));
    }
    new.insert(K::Properties, Value::SchemaMap(props));
    new.insert(
        K::AdditionalProperties,
        Value::Schema(Box::new(Schema::Bool(false))),
    );
    new
}

#[cfg(test)]
mod tests {
    use crate::engine::proto_walk::test_support::accepts_encoded as accepts;
    use serde_json::json;

    #[test]
    fn one_of_branches_are_closed_to_their_names() {
        let s = json!({"properties": {"foo": {"type": "string"}}, "oneOf": [
            {"properties": {"bar": {"const": "bar"}}, "required": ["bar"]},
            {"properties": {"baz": {"const": "baz"}}, "required": ["baz"]}],
            "unevaluatedProperties": false});
        assert!(accepts(&s, json!({"foo": "foo", "bar": "bar"})));
        assert!(!accepts(
            &s,
            json!({"foo": "foo", "bar": "bar", "quux": "quux"})
        ));
    }

    #[test]
    fn nested_one_of_through_references() {
        let s = json!({"$defs": {"two": {"oneOf": [
                {"required": ["c"], "properties": {"c": true}},
                {"required": ["d"], "properties": {"d": true}}]}},
            "oneOf": [{"$ref": "#/$defs/two"}, {"required": ["a"], "properties": {"a": true}}],
            "unevaluatedProperties": false});
        for ok in [json!({"a": 1}), json!({"c": 1}), json!({"d": 1})] {
            assert!(accepts(&s, ok));
        }
        for bad in [json!({"a": 1, "c": 1}), json!({"c": 1, "d": 1})] {
            assert!(!accepts(&s, bad));
        }
    }

    #[test]
    fn a_pattern_branch_forbids_the_other_names() {
        let s = json!({"oneOf": [{"required": ["a"], "properties": {"a": true}},
            {"required": ["xx"], "patternProperties": {"x": true}}],
            "unevaluatedProperties": false});
        assert!(accepts(&s, json!({"xx": 1, "foox": 1})) && accepts(&s, json!({"a": 1})));
        assert!(!accepts(&s, json!({"xx": 1, "a": 1})));
        assert_eq!(super::literal_match("^fo", "foo"), Some(true));
        assert_eq!(super::literal_match("o$", "fox"), Some(false));
        assert_eq!(super::literal_match("f.*o", "foo"), None);
    }

    #[test]
    fn a_reference_beside_declares_its_names() {
        let s = json!({"$ref": "#/$defs/bar", "properties": {"foo": {"type": "string"}},
            "unevaluatedProperties": false,
            "$defs": {"bar": {"properties": {"bar": {"type": "string"}}}}});
        assert!(accepts(&s, json!({"foo": "foo", "bar": "bar"})));
        assert!(!accepts(
            &s,
            json!({"foo": "foo", "bar": "bar", "baz": "baz"})
        ));
    }

    #[test]
    fn a_one_of_member_is_split_too() {
        let s = json!({"$defs": {"one": {"properties": {"a": true}},
                "two": {"required": ["x"], "properties": {"x": true}}},
            "allOf": [{"$ref": "#/$defs/one"}, {"properties": {"b": true}},
                {"oneOf": [{"$ref": "#/$defs/two"}, {"required": ["y"], "properties": {"y": true}}]}],
            "unevaluatedProperties": false});
        for ok in [json!({"a": 1, "x": 1}), json!({"a": 1, "b": 1, "y": 1})] {
            assert!(accepts(&s, ok));
        }
        for bad in [
            json!({"x": 1, "y": 1}),
            json!({"a": 1, "b": 1, "x": 1, "y": 1}),
        ] {
            assert!(!accepts(&s, bad));
        }
    }

    #[test]
    fn conditional_branches_are_closed_to_what_holds() {
        let s = json!({"if": {"properties": {"foo": {"const": "then"}}, "required": ["foo"]},
            "then": {"properties": {"bar": {"type": "string"}}, "required": ["bar"]},
            "unevaluatedProperties": false});
        assert!(accepts(&s, json!({"foo": "then", "bar": "bar"})));
        assert!(!accepts(
            &s,
            json!({"foo": "then", "bar": "bar", "baz": "baz"})
        ));
        assert!(!accepts(&s, json!({"baz": "baz"})));
        // Another applicator beside: left as it is (still a valid value accepted).
        let s = json!({"if": {"required": ["a"]}, "anyOf": [{"properties": {"a": true}}],
            "unevaluatedProperties": false});
        assert!(accepts(&s, json!({"a": 1})));
    }
}
