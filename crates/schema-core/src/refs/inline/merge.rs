//! Merging a `$ref`'s expanded target with the reference's siblings.

use crate::keyword::Keyword;
use crate::schema::{Key, Schema, SchemaMap, SchemaObject, Value};

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
pub(super) fn siblings_of(o: &SchemaObject, annotations_only: bool) -> SchemaObject {
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

/// Merges the siblings of a `$ref` over its expanded target.
pub(super) fn merge(target: Schema, siblings: Schema) -> Schema {
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
