//! Following references: the decoders of kept `$defs` (a root's [`Decoder::defs`]), the
//! `$ref` sites that name them, and the trees built from the strict rewrite's places.

use super::{Branch, Decoder};
use crate::encode::Encoding;
use schema_core::{Keyword, Location, MAX_WALK_DEPTH, Schema, pointer};

/// Following [`Decoder::reference`]: the definitions of the tree being applied.
pub(super) mod defs {
    use super::Decoder;
    use std::cell::{Cell, RefCell};
    use std::collections::BTreeMap;
    use std::rc::Rc;

    /// How many references one value's decoding follows inside one another at most: a
    /// recursive schema decodes a value as deep as serde_json reads (128 levels), and a chain
    /// of definitions that name each other without a value between them stops here.
    const MAX_FOLLOWED: usize = 512;

    thread_local! {
        /// The definitions of the trees being applied, the innermost last.
        static DEFS: RefCell<Vec<Rc<BTreeMap<String, Decoder>>>> = const { RefCell::new(Vec::new()) };
        /// How many references are being followed.
        static FOLLOWED: Cell<usize> = const { Cell::new(0) };
    }

    /// The definitions of a tree's root, in force while this lives.
    pub(in crate::decode) struct Scope(bool);

    impl Scope {
        /// Puts `root`'s definitions in force (when it has any).
        pub(in crate::decode) fn enter(root: &Decoder) -> Scope {
            if root.defs.is_empty() {
                return Scope(false);
            }
            DEFS.with(|d| d.borrow_mut().push(Rc::new(root.defs.clone())));
            Scope(true)
        }
    }

    impl Drop for Scope {
        fn drop(&mut self) {
            if self.0 {
                DEFS.with(|d| d.borrow_mut().pop());
            }
        }
    }

    /// Applies `f` to the definition `node` refers to; `None` where it names nothing in force
    /// or too many references are being followed (the value is then kept as it is).
    pub(in crate::decode) fn follow<R>(node: &Decoder, f: impl FnOnce(&Decoder) -> R) -> Option<R> {
        let name = node.reference.as_deref()?;
        let defs = DEFS.with(|d| d.borrow().last().cloned())?;
        let target = defs.get(name)?;
        let n = FOLLOWED.with(Cell::get);
        if n >= MAX_FOLLOWED {
            return None;
        }
        FOLLOWED.with(|c| c.set(n + 1));
        let out = f(target);
        FOLLOWED.with(|c| c.set(n));
        Some(out)
    }
}

/// Builds a decoder tree from the places of the sanitized `schema` where the strict rewrite
/// made properties nullable (`(pointer of the object, property names)`), its kept references
/// followed. A place the tree cannot reach (under `not`...) is returned in the second list,
/// once per property. `refs`: whether `schema` may hold a `$ref` (`false` only where a walk of
/// the finished tree found none: then no reference is linked, and the search for them is
/// skipped).
pub(crate) fn build(
    schema: &Schema,
    nulls: Vec<(String, Vec<String>)>,
    refs: bool,
) -> (Decoder, Vec<String>) {
    let mut root = Decoder::default();
    let mut unreachable = Vec::new();
    for (at, names) in nulls {
        match node_at(&mut root, schema, &at) {
            // A node's first list is taken as it is (a map's names are distinct): only a
            // node reached twice compares names.
            Some(d) if d.drop_null.is_empty() => d.drop_null = names,
            Some(d) => {
                d.drop_null.reserve(names.len());
                for name in names {
                    if !d.drop_null.contains(&name) {
                        d.drop_null.push(name);
                    }
                }
            }
            None => unreachable.extend(std::iter::repeat_n(at, names.len())),
        }
    }
    if refs && (!root.is_identity() || !root.defs.is_empty()) {
        link_refs(&mut root, schema);
    }
    (root, unreachable)
}

/// Gives each kept `$ref` of `schema` its [`Decoder::reference`], then keeps only the
/// references (and definitions) that decode something.
pub(super) fn link_refs(root: &mut Decoder, schema: &Schema) {
    /// Walks `s` (at `path`) as [`Schema::walk`] does, pre-order, and makes the decoder node
    /// of each `$ref` naming a local definition a reference to it: no pointer text is built.
    fn sites<'s>(
        root: &mut Decoder,
        schema: &'s Schema,
        s: &'s Schema,
        path: &mut Vec<Location<'s>>,
        found: &mut bool,
    ) {
        if let Some((_, name)) = s
            .as_object()
            .and_then(|o| o.reference())
            .and_then(crate::Refs::local_name)
        {
            *found = true;
            if let Some(d) = node_along(root, schema, path.iter().copied().map(Some)) {
                *d = Decoder {
                    reference: Some(name),
                    ..Decoder::default()
                };
            }
        }
        if path.len() < MAX_WALK_DEPTH {
            s.for_each_child(|loc, child| {
                path.push(loc);
                sites(root, schema, child, path, found);
                path.pop();
            });
        }
    }
    let mut found = false;
    sites(root, schema, schema, &mut Vec::new(), &mut found);
    if found {
        link_root(root);
    }
}

/// Adds the root's own copy to its definitions (for `$ref: "#"`), then keeps only the
/// references (and definitions) that decode something.
pub(crate) fn link_root(root: &mut Decoder) {
    let mut copy = root.clone();
    copy.defs.clear();
    copy.then = None;
    root.defs.insert(String::new(), copy);
    prune_refs(root);
}

/// Keeps the references to definitions that decode something (through other definitions
/// included) and those definitions, and drops the rest.
pub(super) fn prune_refs(root: &mut Decoder) {
    let mut live: std::collections::BTreeSet<String> = root
        .defs
        .iter()
        .filter(|(_, d)| has_own(d))
        .map(|(n, _)| n.clone())
        .collect();
    loop {
        let more: Vec<String> = root
            .defs
            .iter()
            .filter(|(n, d)| !live.contains(*n) && refers_to(d, &live))
            .map(|(n, _)| n.clone())
            .collect();
        if more.is_empty() {
            break;
        }
        live.extend(more);
    }
    let mut defs = std::mem::take(&mut root.defs);
    defs.retain(|n, _| live.contains(n));
    for d in defs.values_mut() {
        strip(d, &live);
    }
    strip(root, &live);
    // The root's own copy is there for `$ref: "#"` only.
    if !refers_to(root, &[String::new()].into())
        && !defs.values().any(|d| refers_to(d, &[String::new()].into()))
    {
        defs.remove("");
    }
    root.defs = defs;
}

/// Removes from `later` (a second run's encodings) the any-value encodings `earlier` (the
/// first run's, applied after it) already has at the same place: a node the first run
/// encoded but the engine then left untyped is encoded again by the second run, and one
/// JSON-text decoding is what the value needs.
pub(crate) fn drop_repeated_json(later: &mut Decoder, earlier: &Decoder) {
    if later.encoding == Some(Encoding::Json) && earlier.encoding == Some(Encoding::Json) {
        later.encoding = None;
    }
    for (name, d) in &mut later.properties {
        if let Some(e) = earlier.properties.get(name) {
            drop_repeated_json(d, e);
        }
    }
    if let (Some(d), Some(e)) = (later.items.as_deref_mut(), earlier.items.as_deref()) {
        drop_repeated_json(d, e);
    }
    if let (Some(d), Some(e)) = (
        later.additional_properties.as_deref_mut(),
        earlier.additional_properties.as_deref(),
    ) {
        drop_repeated_json(d, e);
    }
    for (d, e) in later.prefix_items.iter_mut().zip(&earlier.prefix_items) {
        drop_repeated_json(d, e);
    }
    let live = later.defs.keys().cloned().collect();
    strip(later, &live);
}

/// The children of a decoder node (its encoding's included).
fn children(d: &Decoder) -> Vec<&Decoder> {
    let mut out: Vec<&Decoder> = d.properties.values().collect();
    out.extend(d.items.as_deref());
    out.extend(d.prefix_items.iter());
    out.extend(d.additional_properties.as_deref());
    out.extend(d.any_of.iter().map(|b| &b.decoder));
    match &d.encoding {
        Some(Encoding::Map { value }) => out.push(value),
        Some(Encoding::Tuple { items, rest, .. }) => {
            out.extend(items.iter());
            out.extend(rest.as_deref());
        }
        Some(Encoding::Contains { matched, items, .. }) => {
            out.push(matched);
            out.push(items);
        }
        _ => {}
    }
    out
}

/// Whether `d` decodes something without following references.
fn has_own(d: &Decoder) -> bool {
    !d.drop_null.is_empty() || d.encoding.is_some() || children(d).into_iter().any(has_own)
}

/// Whether `d` holds a reference to one of `names`.
fn refers_to(d: &Decoder, names: &std::collections::BTreeSet<String>) -> bool {
    d.reference.as_ref().is_some_and(|r| names.contains(r))
        || children(d).into_iter().any(|c| refers_to(c, names))
}

/// Removes the references to other than `live` definitions, and the children left identity.
fn strip(d: &mut Decoder, live: &std::collections::BTreeSet<String>) {
    if d.reference.as_ref().is_some_and(|r| !live.contains(r)) {
        d.reference = None;
    }
    for c in d.properties.values_mut() {
        strip(c, live);
    }
    d.properties.retain(|_, c| !c.is_identity());
    if let Some(c) = d.items.as_deref_mut() {
        strip(c, live);
    }
    if d.items.as_deref().is_some_and(Decoder::is_identity) {
        d.items = None;
    }
    if let Some(c) = d.additional_properties.as_deref_mut() {
        strip(c, live);
    }
    if d.additional_properties
        .as_deref()
        .is_some_and(Decoder::is_identity)
    {
        d.additional_properties = None;
    }
    for c in &mut d.prefix_items {
        strip(c, live);
    }
    if d.prefix_items.iter().all(Decoder::is_identity) {
        d.prefix_items.clear();
    }
    for b in &mut d.any_of {
        strip(&mut b.decoder, live);
    }
    if d.any_of.iter().all(|b| b.decoder.is_identity()) {
        d.any_of.clear();
    }
    match &mut d.encoding {
        Some(Encoding::Map { value }) => strip(value, live),
        Some(Encoding::Tuple { items, rest, .. }) => {
            for c in items.iter_mut() {
                strip(c, live);
            }
            if let Some(r) = rest.as_deref_mut() {
                strip(r, live);
            }
        }
        Some(Encoding::Contains { matched, items, .. }) => {
            strip(matched, live);
            strip(items, live);
        }
        _ => {}
    }
}

/// The decoder node for the schema at `at`, made on the way (a root definition's nodes in
/// [`Decoder::defs`]).
fn node_at<'d>(root: &'d mut Decoder, schema: &Schema, at: &str) -> Option<&'d mut Decoder> {
    // Most segments hold no escape: they are read where they are (no copy of each).
    let segments: Vec<std::borrow::Cow<'_, str>> = match at.strip_prefix('/') {
        None if at.is_empty() => Vec::new(),
        None => return None,
        Some(rest) => rest
            .split('/')
            .map(|seg| match seg.contains('~') {
                false => Some(std::borrow::Cow::Borrowed(seg)),
                true => pointer::segments(&format!("/{seg}"))
                    .and_then(|mut v| v.pop())
                    .map(std::borrow::Cow::Owned),
            })
            .collect::<Option<_>>()?,
    };
    let mut it = segments.iter().map(|s| &**s);
    // Each step's location read from its segments (`None`: they name none the tree follows).
    let steps = std::iter::from_fn(|| {
        let seg = it.next()?;
        let kw = Keyword::from_name(seg);
        Some(match kw {
            Some(k @ (Keyword::Properties | Keyword::Defs)) => {
                it.next().map(|n| Location::Name(k, n))
            }
            Some(k @ (Keyword::Items | Keyword::AdditionalProperties)) => {
                Some(Location::Keyword(k))
            }
            Some(k @ (Keyword::PrefixItems | Keyword::AnyOf)) => it
                .next()
                .and_then(|i| i.parse().ok())
                .map(|i| Location::Index(k, i)),
            _ => None,
        })
    });
    node_along(root, schema, steps)
}

/// The decoder node for the schema reached by `steps` from the root (`None` in `steps`: a
/// step the tree does not follow), made on the way; a first step into `$defs` goes to the
/// definition's nodes in [`Decoder::defs`].
fn node_along<'d, 'a>(
    root: &'d mut Decoder,
    schema: &Schema,
    steps: impl Iterator<Item = Option<Location<'a>>>,
) -> Option<&'d mut Decoder> {
    let mut d = root;
    let mut s = schema;
    for (i, step) in steps.enumerate() {
        let o = s.as_object()?;
        match step? {
            Location::Name(Keyword::Defs, name) if i == 0 => {
                s = o.schema_map(Keyword::Defs)?.get(name)?;
                d = d.defs.entry(name.to_owned()).or_default();
            }
            Location::Name(Keyword::Properties, name) => {
                s = o.properties()?.get(name)?;
                d = d.properties.entry(name.to_owned()).or_default();
            }
            Location::Keyword(Keyword::Items) => {
                s = o.schema(Keyword::Items)?;
                d = d.items.get_or_insert_with(Box::default);
            }
            Location::Keyword(Keyword::AdditionalProperties) => {
                s = o.schema(Keyword::AdditionalProperties)?;
                d = d.additional_properties.get_or_insert_with(Box::default);
            }
            Location::Index(Keyword::PrefixItems, i) => {
                s = o.schemas(Keyword::PrefixItems)?.get(i)?;
                if d.prefix_items.len() <= i {
                    d.prefix_items.resize_with(i + 1, Decoder::default);
                }
                d = &mut d.prefix_items[i];
            }
            Location::Index(Keyword::AnyOf, i) => {
                let branches = o.schemas(Keyword::AnyOf)?;
                if d.any_of.len() < branches.len() {
                    d.any_of = branches
                        .iter()
                        .map(|b| Branch {
                            types: types_of(resolved(schema, b)),
                            ..Branch::default()
                        })
                        .collect();
                }
                s = branches.get(i)?;
                d = &mut d.any_of.get_mut(i)?.decoder;
            }
            _ => return None,
        }
    }
    Some(d)
}

/// `s`, or where it is a kept `$ref`, the root's definition it names (a chain followed,
/// bounded).
pub(super) fn resolved<'s>(root: &'s Schema, mut s: &'s Schema) -> &'s Schema {
    for _ in 0..16 {
        let Some((_, name)) = s
            .as_object()
            .and_then(|o| o.reference())
            .and_then(crate::Refs::local_name)
        else {
            break;
        };
        let next = if name.is_empty() {
            Some(root)
        } else {
            root.as_object()
                .and_then(|o| o.schema_map(Keyword::Defs))
                .and_then(|m| m.get(&name))
        };
        match next {
            Some(n) if !std::ptr::eq(n, s) => s = n,
            _ => break,
        }
    }
    s
}

fn types_of(s: &Schema) -> Vec<String> {
    s.as_object()
        .and_then(|o| o.types())
        .map(|t| t.as_slice().iter().map(|t| t.as_str().to_owned()).collect())
        .unwrap_or_default()
}
