//! An independent re-implementation of "where are the schema slots in this body", used to check
//! the layer's central promise: the output differs from the input only inside schema slots
//! (and a `strict: true` flag on a slot path may become `false` when a schema cannot be made
//! strict). Shared by the fuzz target `body` (included with `#[path]`), the property tests and
//! the adversarial tests.
//!
//! It reads the slot paths from the public shape table and walks the raw bytes with
//! `serde_json::value::RawValue`, like the layer does, but with its own code: a bug in the
//! layer's locator is not repeated here.
#![allow(dead_code)]

use std::borrow::Cow;
use std::fmt;
use std::ops::Range;

use serde::de::{Deserializer as _, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use tower_toolschema::shapes::{ApiShape, SHAPES};

/// What a masked range holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A schema slot's value: may change in any way (the output must still be valid JSON).
    Slot,
    /// A `strict` flag on a slot path: may change only from `true` to `false`.
    Strict,
    /// A slot's name: read (a duplicate is refused), never changed.
    Name,
}

/// The ranges of `body` that the layer may change, sorted and disjoint; `Err` when the body is
/// not valid JSON or a key on a slot path is duplicated (the layer must then change nothing).
pub fn masks(body: &[u8], shapes: &[&ApiShape]) -> Result<Vec<(Range<usize>, Kind)>, String> {
    if !valid_json(body) {
        return Err("invalid JSON".into());
    }
    // serde_json's skipper does not decode skipped strings, so JSON with invalid UTF-8 inside
    // them is accepted (and carried verbatim by the layer). Locate on a copy where each invalid
    // byte is replaced by `?`: same length, same offsets.
    let text = utf8_with_placeholders(body);
    let text = text.as_str();
    let root: &RawValue = raw(text).ok_or("invalid JSON")?;
    // The slots, and the `name` / `strict` keys the table says name and flag them.
    let paths: Vec<(Vec<Seg>, Kind)> = shapes
        .iter()
        .flat_map(|s| s.slots.iter())
        .flat_map(|spec| {
            [
                Some((parse_path(spec.path), Kind::Slot)),
                spec.name.map(|p| (parse_path(p), Kind::Name)),
                spec.strict.map(|p| (parse_path(p), Kind::Strict)),
            ]
            .into_iter()
            .flatten()
        })
        .collect();
    let mut out = Vec::new();
    walk(text, root, &paths, 0, true, &mut out)?;
    out.sort_by_key(|(r, _)| (r.start, std::cmp::Reverse(r.end)));
    out.dedup();
    // Drop ranges nested in an earlier one.
    let mut disjoint: Vec<(Range<usize>, Kind)> = Vec::new();
    for (r, k) in out {
        if disjoint.last().is_some_and(|(l, _)| r.start < l.end) {
            continue;
        }
        disjoint.push((r, k));
    }
    Ok(disjoint)
}

fn utf8_with_placeholders(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    let mut rest = bytes;
    loop {
        match std::str::from_utf8(rest) {
            Ok(s) => {
                out.push_str(s);
                return out;
            }
            Err(e) => {
                let (good, bad) = rest.split_at(e.valid_up_to());
                out.push_str(std::str::from_utf8(good).unwrap_or_default());
                let n = e.error_len().unwrap_or(bad.len());
                out.extend(std::iter::repeat_n('?', n));
                rest = &bad[n..];
            }
        }
    }
}

/// The shapes a body is searched with: one API's, or every API's (`None`).
pub fn shapes_for(api: Option<tower_toolschema::shapes::Api>) -> Vec<&'static ApiShape> {
    match api {
        Some(a) => vec![a.shape()],
        None => SHAPES.to_vec(),
    }
}

/// Why an output breaks the promise.
#[derive(Debug)]
pub struct Breach(pub String);

impl fmt::Display for Breach {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Checks that `output` differs from `input` only inside the masked ranges, that every
/// rewritten slot is valid JSON, and that the whole output is valid JSON when the input was.
pub fn check_only_slots_changed(
    input: &[u8],
    output: &[u8],
    shapes: &[&ApiShape],
) -> Result<(), Breach> {
    if input == output {
        return Ok(());
    }
    let in_masks = masks(input, shapes)
        .map_err(|e| Breach(format!("input {e}, yet the output differs from it")))?;
    if !valid_json(output) {
        return Err(Breach("the input is valid JSON, the output is not".into()));
    }
    let out_masks = masks(output, shapes).map_err(|e| Breach(format!("output: {e}")))?;
    if in_masks.len() != out_masks.len() {
        return Err(Breach(format!(
            "{} slot ranges in the input, {} in the output",
            in_masks.len(),
            out_masks.len()
        )));
    }
    let (mut a, mut b) = (0usize, 0usize);
    for ((ri, ki), (ro, ko)) in in_masks.iter().zip(&out_masks) {
        if ki != ko {
            return Err(Breach(format!("range kinds differ at {ri:?} / {ro:?}")));
        }
        if input[a..ri.start] != output[b..ro.start] {
            return Err(Breach(format!(
                "bytes outside the slots changed: input {a}..{} vs output {b}..{}",
                ri.start, ro.start
            )));
        }
        let (vi, vo) = (&input[ri.clone()], &output[ro.clone()]);
        match ki {
            Kind::Strict => {
                if vi != vo && !(vi == b"true" && vo == b"false") {
                    return Err(Breach(format!(
                        "strict flag changed from {} to {}",
                        String::from_utf8_lossy(vi),
                        String::from_utf8_lossy(vo)
                    )));
                }
            }
            Kind::Slot => {
                if !valid_json(vo) {
                    return Err(Breach(format!("slot at {ro:?} is not valid JSON")));
                }
            }
            Kind::Name => {
                if vi != vo {
                    return Err(Breach(format!("a name changed at {ri:?}")));
                }
            }
        }
        a = ri.end;
        b = ro.end;
    }
    if input[a..] != output[b..] {
        return Err(Breach(format!(
            "bytes after the last slot changed (input {a}.., output {b}..)"
        )));
    }
    Ok(())
}

/// Whether `bytes` are one valid JSON text (no depth limit, no tree built).
pub fn valid_json(bytes: &[u8]) -> bool {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    de.disable_recursion_limit();
    serde::Deserialize::deserialize(&mut de)
        .map(|_: IgnoredAny| ())
        .and_then(|()| de.end())
        .is_ok()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Seg {
    Key(&'static str),
    Each,
}

fn parse_path(path: &'static str) -> Vec<Seg> {
    let mut segs = Vec::new();
    for part in path.split('.') {
        match part.strip_suffix("[]") {
            Some(k) => {
                segs.push(Seg::Key(k));
                segs.push(Seg::Each);
            }
            None => segs.push(Seg::Key(part)),
        }
    }
    segs
}

fn raw(text: &str) -> Option<&RawValue> {
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    let v: &RawValue = serde::Deserialize::deserialize(&mut de).ok()?;
    de.end().ok()?;
    Some(v)
}

fn offset(base: &str, part: &str) -> Range<usize> {
    let start = part.as_ptr() as usize - base.as_ptr() as usize;
    start..start + part.len()
}

/// Every path in `paths` whose segment `depth` exists, walked in `value`.
fn walk(
    base: &str,
    value: &RawValue,
    paths: &[(Vec<Seg>, Kind)],
    depth: usize,
    root: bool,
    out: &mut Vec<(Range<usize>, Kind)>,
) -> Result<(), String> {
    let ends_here = |kind: Kind| paths.iter().any(|(p, k)| p.len() == depth && *k == kind);
    for kind in [Kind::Slot, Kind::Strict] {
        if ends_here(kind) {
            out.push((offset(base, value.get()), kind));
            return Ok(());
        }
    }
    let live: Vec<&(Vec<Seg>, Kind)> = paths.iter().filter(|(p, _)| p.len() > depth).collect();
    if live.is_empty() {
        return Ok(());
    }
    let text = value.get();
    if live.iter().any(|(p, _)| p[depth] == Seg::Each) {
        if !text.starts_with('[') {
            return Ok(());
        }
        let items = array(text).ok_or("bad array")?;
        let next: Vec<(Vec<Seg>, Kind)> = live
            .iter()
            .filter(|(p, _)| p[depth] == Seg::Each)
            .map(|p| (*p).clone())
            .collect();
        for item in items {
            walk(base, item, &next, depth + 1, false, out)?;
        }
        return Ok(());
    }
    if !text.starts_with('{') {
        return Ok(());
    }
    let entries = object(text).ok_or("bad object")?;
    // The layer refuses a body with a duplicate of a key it reads on a slot path (and of the
    // root's `model`).
    let mut reads = keys_at(&live, depth);
    if root {
        reads.push("model");
    }
    for k in &reads {
        if entries.iter().filter(|(n, _)| n == k).count() > 1 {
            return Err(format!("duplicate key {k:?}"));
        }
    }
    for (name, v) in &entries {
        let next: Vec<(Vec<Seg>, Kind)> = live
            .iter()
            .filter(|(p, _)| matches!(p[depth], Seg::Key(k) if k == name))
            .map(|p| (*p).clone())
            .collect();
        if next.is_empty() {
            continue;
        }
        walk(base, v, &next, depth + 1, false, out)?;
    }
    Ok(())
}

fn keys_at(paths: &[&(Vec<Seg>, Kind)], depth: usize) -> Vec<&'static str> {
    let mut keys: Vec<&'static str> = paths
        .iter()
        .filter_map(|(p, _)| match p.get(depth) {
            Some(Seg::Key(k)) => Some(*k),
            _ => None,
        })
        .collect();
    keys.sort_unstable();
    keys.dedup();
    keys
}
fn object(text: &str) -> Option<Vec<(Cow<'_, str>, &RawValue)>> {
    struct V;
    impl<'de> Visitor<'de> for V {
        type Value = Vec<(Cow<'de, str>, &'de RawValue)>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("an object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut out = Vec::new();
            while let Some(k) = map.next_key::<Cow<'de, str>>()? {
                // `Cow<str>` deserializes owned; borrow when there is no escape.
                let v: &'de RawValue = map.next_value()?;
                out.push((k, v));
            }
            Ok(out)
        }
    }
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    de.deserialize_map(V).ok()
}

fn array(text: &str) -> Option<Vec<&RawValue>> {
    struct V;
    impl<'de> Visitor<'de> for V {
        type Value = Vec<&'de RawValue>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("an array")
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            let mut out = Vec::new();
            while let Some(v) = seq.next_element::<&'de RawValue>()? {
                out.push(v);
            }
            Ok(out)
        }
    }
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    de.deserialize_seq(V).ok()
}
