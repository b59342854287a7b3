//! JSON bodies: a walker over raw bytes along the table's paths, and the restoring of the
//! tool calls of one JSON document (a response, or one stream event of Gemini).
//!
//! The document is read (and validated) once by serde_json; the values on a path are then
//! slices of it (objects along the path split into their members without a second validation,
//! [`super::split`]); everything else is kept byte for byte.
//! Recursion follows the path only (a handful of levels).

use std::borrow::Cow;

use super::RestorePlan;
use super::report::RestoredCall;
use crate::locate::{RawText as Raw, range_in};
use crate::shapes_response::{CallPath, Step, segments};
use crate::slots::splice::{Edit, splice};

/// The members of one JSON object, borrowed (a key is copied only when it has escapes), in
/// order.
pub(crate) type Members<'a> = Vec<(Cow<'a, str>, Raw<'a>)>;

pub(crate) use super::split::{elements, members};

/// A key borrowed from the text when it can be.
pub(crate) struct Key<'a>(pub(crate) Cow<'a, str>);

impl<'de> serde::Deserialize<'de> for Key<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a key")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v.to_owned())))
            }
        }
        d.deserialize_str(V)
    }
}

/// The member `key` (the last one when repeated, as most readers take).
pub(crate) fn member<'a>(m: &Members<'a>, key: &str) -> Option<Raw<'a>> {
    m.iter().rev().find(|(k, _)| k == key).map(|(_, v)| *v)
}

/// The string value of `raw`, if it is one.
pub(crate) fn string(raw: Raw<'_>) -> Option<String> {
    if !raw.get().starts_with('"') {
        return None;
    }
    serde_json::from_str(raw.get()).ok()
}

/// [`string`], borrowed from the text when it has no escapes.
pub(crate) fn string_ref(raw: Raw<'_>) -> Option<Cow<'_, str>> {
    let body = raw.get().strip_prefix('"')?.strip_suffix('"')?;
    if body.contains('\\') {
        string(raw).map(Cow::Owned)
    } else {
        Some(Cow::Borrowed(body))
    }
}

/// Whether `m` satisfies a table `when`.
pub(crate) fn holds(m: &Members<'_>, when: Option<(&str, &str)>) -> bool {
    match when {
        None => true,
        Some((k, v)) => member(m, k).and_then(string).is_some_and(|s| s == v),
    }
}

/// Every value at each of `paths` under `raw`, with the members of the object holding it
/// (`None` for the elements of a list the path ends in); each object and array on the way is
/// read once however many paths pass through it: `f` gets the index of the path in `paths`.
pub(crate) fn each_at_many<'a>(
    raw: Raw<'a>,
    paths: &[&str],
    f: &mut dyn FnMut(usize, Option<&Members<'a>>, Raw<'a>),
) {
    each_at_many_with(raw, paths, None, f);
}

/// How long a member's value (its key, the text from its first byte on) is, when it is known
/// without reading it (a JSON value's text is self-delimiting: bytes that start with a known
/// value's are that value).
pub(crate) type Jump<'j> = &'j dyn Fn(&str, &[u8]) -> Option<usize>;

/// [`each_at_many`], the objects on the way split with `jump` (see [`Jump`]).
pub(crate) fn each_at_many_with<'a>(
    raw: Raw<'a>,
    paths: &[&str],
    jump: Option<Jump<'_>>,
    f: &mut dyn FnMut(usize, Option<&Members<'a>>, Raw<'a>),
) {
    let split: Vec<Vec<&str>> = paths.iter().map(|p| segments(p).collect()).collect();
    let todo: Vec<PathLeft<'_>> = split
        .iter()
        .enumerate()
        .map(|(i, s)| (i, s.as_slice()))
        .collect();
    walk_many(raw, &todo, None, jump, f);
}

/// A path of [`each_at_many`] on the way: its index and the segments left.
type PathLeft<'p> = (usize, &'p [&'p str]);

fn walk_many<'a>(
    raw: Raw<'a>,
    todo: &[PathLeft<'_>],
    holder: Option<&Members<'a>>,
    jump: Option<Jump<'_>>,
    f: &mut dyn FnMut(usize, Option<&Members<'a>>, Raw<'a>),
) {
    let mut deeper = Vec::new();
    for (id, segs) in todo {
        match segs.split_first() {
            None => f(*id, holder, raw),
            Some((first, rest)) => deeper.push((*id, *first, rest)),
        }
    }
    if deeper.is_empty() {
        return;
    }
    let m = match jump {
        Some(j) => super::split::members_with(raw, j),
        None => members(raw),
    };
    let Some(m) = m else { return };
    // The paths that go on through the same segment, in first-seen order.
    let mut groups: Vec<(&str, Vec<PathLeft<'_>>)> = Vec::new();
    for (id, first, rest) in deeper {
        match groups.iter_mut().find(|(g, _)| *g == first) {
            Some((_, list)) => list.push((id, rest)),
            None => groups.push((first, vec![(id, rest)])),
        }
    }
    for (seg, list) in groups {
        let step = Step::parse(seg);
        for key in step.keys() {
            let Some(v) = member(&m, key) else { continue };
            if !step.every {
                walk_many(v, &list, Some(&m), jump, f);
                continue;
            }
            for item in elements(v).unwrap_or_default() {
                walk_many(item, &list, None, jump, f);
            }
        }
    }
}

/// The member at one path segment: `key`, or the first present of `a|b`.
fn member_of<'a>(m: &Members<'a>, seg: &str) -> Option<Raw<'a>> {
    Step::parse(seg).keys().find_map(|k| member(m, k))
}

/// The single value at a relative `path` under `raw` (no `[]`), with its holder's members.
pub(crate) fn at<'a>(raw: Raw<'a>, path: &str) -> Option<(Members<'a>, Raw<'a>)> {
    let mut m = members(raw)?;
    let mut segs = path.split('.').peekable();
    loop {
        let seg = segs.next()?;
        let v = member_of(&m, seg)?;
        if segs.peek().is_none() {
            return Some((m, v));
        }
        m = members(v)?;
    }
}

/// The edits that restore the tool calls at `calls` (each under `prefix`) in the document
/// `doc`, whose bytes are `base`; what was done goes to `out`.
pub(crate) fn call_edits(
    plan: &RestorePlan,
    base: &[u8],
    doc: Raw<'_>,
    prefix: &str,
    calls: &[CallPath],
    edits: &mut Vec<Edit>,
    out: &mut Vec<RestoredCall>,
) {
    each_call(doc, prefix, calls, &mut |name_raw, sent, args| {
        let mut done = RestoredCall::new(&sent);
        if let Some(original) = plan.original(&sent)
            && let (Some(range), Ok(bytes)) =
                (range_in(base, name_raw), serde_json::to_vec(original))
        {
            edits.push(Edit { range, bytes });
            done.tool = original.to_owned();
        }
        if let Some(decoder) = plan.decoder(&done.tool)
            && let Some(args) = args
            && let Some(range) = range_in(base, args)
        {
            match decode_args(decoder, args.get()) {
                Ok(Some(bytes)) => {
                    edits.push(Edit { range, bytes });
                    done.decoded = true;
                }
                Ok(None) => {}
                Err(e) => done.error = Some(e),
            }
        }
        if done.renamed() || done.decoded || done.error.is_some() {
            out.push(done);
        }
    });
}

/// Every tool call at `calls` (each under `prefix`) in `doc` whose name is a string: `f` gets
/// the name's raw value, the name, and the raw arguments (when the call has them). The one
/// walker of calls, for the way back and for the history's encoding: every path in one walk
/// (each object and array on the way split once), to the call itself when it is a member of
/// the call object.
pub(crate) fn each_call<'a>(
    doc: Raw<'a>,
    prefix: &str,
    calls: &[CallPath],
    f: &mut dyn FnMut(Raw<'a>, String, Option<Raw<'a>>),
) {
    let paths: Vec<String> = calls.iter().map(|c| call_walk_path(prefix, c)).collect();
    let refs: Vec<&str> = paths.iter().map(String::as_str).collect();
    each_at_many(doc, &refs, &mut |i, holder, raw| {
        if let Some(c) = calls.get(i)
            && let Some((name_raw, name, args)) = read_call(c, holder, raw)
        {
            f(name_raw, name, args);
        }
    });
}

/// The path [`read_call`] is given the values of, for `c` under `prefix`: the call object, or
/// the call when it is a member of it (so the object is split once, by the walk).
pub(crate) fn call_walk_path(prefix: &str, c: &CallPath) -> String {
    match c.call {
        "" => format!("{prefix}{}", c.at),
        call => format!("{prefix}{}.{call}", c.at),
    }
}

/// One call reached at [`call_walk_path`] (`holder`: the members of the call object when the
/// path ends in a member): its name's raw value, its name (a string) and its raw arguments.
/// Where `call` has two spellings, only the first present is read (as [`at`] reads it).
pub(crate) fn read_call<'a>(
    c: &CallPath,
    holder: Option<&Members<'a>>,
    raw: Raw<'a>,
) -> Option<(Raw<'a>, String, Option<Raw<'a>>)> {
    let (m, name, args) = if c.call.is_empty() {
        let m = members(raw)?;
        if !holds(&m, c.when) {
            return None;
        }
        (m, c.name, c.args)
    } else {
        let object = holder?;
        let first = member_of(object, c.call)?;
        if !holds(object, c.when) || first.get().as_ptr() != raw.get().as_ptr() {
            return None;
        }
        let under = |p: &'static str| p.strip_prefix(c.call)?.strip_prefix('.');
        (members(raw)?, under(c.name)?, under(c.args)?)
    };
    let name_raw = at_in(&m, name)?;
    let name = string(name_raw)?;
    Some((name_raw, name, at_in(&m, args)))
}

/// The single value at a relative `path` (no `[]`) in the object whose members are `m`.
fn at_in<'a>(m: &Members<'a>, path: &str) -> Option<Raw<'a>> {
    let mut segs = path.split('.');
    let mut v = member_of(m, segs.next()?)?;
    for seg in segs {
        v = member_of(&members(v)?, seg)?;
    }
    Some(v)
}

/// Decodes a call's arguments as they sit in a body: JSON text in a string (OpenAI) or a
/// JSON value. `Ok(None)`: unchanged.
pub(crate) fn decode_args(
    decoder: &provider_rules::Decoder,
    raw: &str,
) -> Result<Option<Vec<u8>>, String> {
    if raw.starts_with('"') {
        let text: String = serde_json::from_str(raw).map_err(|e| e.to_string())?;
        if text.trim().is_empty() {
            return Ok(None);
        }
        match decoder.decode_json(&text).map_err(|e| e.to_string())? {
            Some(new) => serde_json::to_vec(&new)
                .map(Some)
                .map_err(|e| e.to_string()),
            None => Ok(None),
        }
    } else {
        decoder
            .decode_json(raw)
            .map(|o| o.map(String::into_bytes))
            .map_err(|e| e.to_string())
    }
}

/// Restores one JSON document (a response body, or a stream event's data): `None` when
/// nothing changed. A document that is an array (Gemini's `streamGenerateContent` without
/// `alt=sse`) has each element restored.
pub(crate) fn restore_document(
    plan: &RestorePlan,
    text: &[u8],
    out: &mut Vec<RestoredCall>,
) -> Result<Option<Vec<u8>>, String> {
    let s = std::str::from_utf8(text).map_err(|e| e.to_string())?;
    let doc: Raw<'_> = serde_json::from_str(s).map_err(|e| e.to_string())?;
    let shape = plan.shape();
    let mut edits = Vec::new();
    let docs = match elements(doc) {
        Some(list) => list,
        None => vec![doc],
    };
    for d in docs {
        call_edits(
            plan,
            text,
            d,
            shape.response_prefix,
            shape.calls,
            &mut edits,
            out,
        );
    }
    if edits.is_empty() {
        return Ok(None);
    }
    splice(text, edits)
        .map(|s| Some(s.into_vec(text)))
        .ok_or_else(|| "overlapping edits".to_owned())
}
