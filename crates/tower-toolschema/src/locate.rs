//! Slot location over raw bytes.
//!
//! The body is scanned once at the top level with serde_json's validating scanner; every value
//! that is not on a slot path (the conversation: `messages`, `contents`, `input`) is skipped
//! with `IgnoredAny` and never built into a tree. Values on a slot path are captured as borrowed
//! [`RawValue`]s, whose byte ranges in the body are known, and only those are descended into.
//! Cost: one scan of the body plus one scan of each value on a slot path per level (paths are
//! at most six levels deep), so linear in the body size. Nesting depth is never recursed on:
//! skipped values are scanned iteratively by serde_json.

use std::borrow::Cow;
use std::fmt;
use std::ops::Range;
use std::sync::OnceLock;

use serde::de::{DeserializeSeed, Deserializer as _, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

use crate::shapes::{Api, ApiShape, SHAPES, SlotSpec};

/// Why a body could not be searched for slots.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum LocateError {
    /// Not valid JSON (or truncated).
    Invalid(String),
    /// A key on a slot path appears twice in one object: which one the upstream uses is unknown.
    Duplicate(String),
}

impl fmt::Display for LocateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LocateError::Invalid(e) => write!(f, "the body is not valid JSON: {e}"),
            LocateError::Duplicate(p) => write!(
                f,
                "duplicate key at {p}: refusing to guess which one the upstream reads"
            ),
        }
    }
}

/// A slot found in a body.
#[derive(Debug)]
pub(crate) struct Found<'a> {
    pub(crate) api: Api,
    pub(crate) spec: &'static SlotSpec,
    /// The slot's value, borrowed from the body.
    pub(crate) raw: &'a RawValue,
    /// RFC 6901 pointer of the slot in the body.
    pub(crate) pointer: String,
    /// The closest enclosing `name` (the tool's or the response format's), if a string.
    pub(crate) name: Option<&'a RawValue>,
    /// The closest enclosing `strict` flag.
    pub(crate) strict: Option<&'a RawValue>,
}

/// What [`locate`] found.
#[derive(Debug, Default)]
pub(crate) struct Located<'a> {
    pub(crate) slots: Vec<Found<'a>>,
    /// The body's top-level `model`, if a string.
    pub(crate) model: Option<Cow<'a, str>>,
}

/// Byte range of a borrowed raw value inside `base`.
pub(crate) fn range_in(base: &[u8], raw: &RawValue) -> Option<Range<usize>> {
    let start = (raw.get().as_ptr() as usize).checked_sub(base.as_ptr() as usize)?;
    let end = start.checked_add(raw.get().len())?;
    (end <= base.len()).then_some(start..end)
}

#[derive(Debug)]
enum Node {
    Object(Vec<(&'static str, Node)>),
    Array(Box<Node>),
    Leaf(Api, &'static SlotSpec),
}

impl Node {
    fn insert(&mut self, segs: &[Seg], api: Api, spec: &'static SlotSpec) {
        let Some((first, rest)) = segs.split_first() else {
            if !matches!(self, Node::Leaf(..)) {
                *self = Node::Leaf(api, spec);
            }
            return;
        };
        match first {
            Seg::Each => {
                if !matches!(self, Node::Array(_)) {
                    *self = Node::Array(Box::new(Node::Object(Vec::new())));
                }
                if let Node::Array(child) = self {
                    child.insert(rest, api, spec);
                }
            }
            Seg::Key(k) => {
                if !matches!(self, Node::Object(_)) {
                    *self = Node::Object(Vec::new());
                }
                if let Node::Object(children) = self {
                    let idx = match children.iter().position(|(name, _)| name == k) {
                        Some(i) => i,
                        None => {
                            let child = if rest.is_empty() {
                                Node::Leaf(api, spec)
                            } else {
                                Node::Object(Vec::new())
                            };
                            children.push((k, child));
                            children.len() - 1
                        }
                    };
                    children[idx].1.insert(rest, api, spec);
                }
            }
        }
    }
}

#[derive(Debug, Clone, Copy)]
enum Seg {
    Key(&'static str),
    Each,
}

fn parse_path(path: &'static str) -> Vec<Seg> {
    let mut segs = Vec::new();
    for part in path.split('.') {
        match part.strip_suffix("[]") {
            Some(key) => {
                segs.push(Seg::Key(key));
                segs.push(Seg::Each);
            }
            None => segs.push(Seg::Key(part)),
        }
    }
    segs
}

fn compile<'a>(shapes: impl IntoIterator<Item = &'a ApiShape>) -> Node {
    let mut root = Node::Object(Vec::new());
    for shape in shapes {
        for spec in shape.slots {
            root.insert(&parse_path(spec.path), shape.api, spec);
        }
    }
    root
}

struct Compiled {
    per_api: Vec<Node>,
    union: Node,
}

fn compiled() -> &'static Compiled {
    static COMPILED: OnceLock<Compiled> = OnceLock::new();
    COMPILED.get_or_init(|| Compiled {
        per_api: SHAPES.iter().map(|s| compile([s])).collect(),
        union: compile(SHAPES),
    })
}

/// Finds the slots of `shape` in `body` (or, with `None`, of every shape in the table: the body
/// is recognised by its shape).
pub(crate) fn locate<'a>(
    body: &'a [u8],
    shape: Option<&ApiShape>,
) -> Result<Located<'a>, LocateError> {
    let c = compiled();
    let root = match shape {
        Some(shape) => SHAPES
            .iter()
            .position(|s| s.api == shape.api)
            .and_then(|i| c.per_api.get(i))
            .unwrap_or(&c.union),
        None => &c.union,
    };
    let Node::Object(children) = root else {
        return Ok(Located::default());
    };
    let mut wanted: Vec<&str> = children.iter().map(|(k, _)| *k).collect();
    wanted.push("model");
    let mut de = serde_json::Deserializer::from_slice(body);
    let fields = match (&mut de).deserialize_any(ObjectSeed { wanted: &wanted }) {
        Ok(f) => f,
        Err(e) => return Err(classify(e, "")),
    };
    de.end().map_err(|e| LocateError::Invalid(e.to_string()))?;
    let Some(fields) = fields else {
        // Valid JSON, but not an object: no slots.
        return Ok(Located::default());
    };
    let mut out = Located::default();
    let ctx = Ctx {
        name: None,
        strict: None,
    };
    for (i, raw) in fields {
        if i == children.len() {
            out.model = serde_json::from_str::<Cow<'a, str>>(raw.get()).ok();
            continue;
        }
        let (key, node) = &children[i];
        let pointer = format!("/{}", escape(key));
        walk(raw, node, pointer, ctx, &mut out.slots)?;
    }
    Ok(out)
}

fn classify(e: serde_json::Error, pointer: &str) -> LocateError {
    if e.is_data() && e.to_string().starts_with(DUPLICATE) {
        LocateError::Duplicate(format!(
            "{pointer}/{}",
            e.to_string()
                .trim_start_matches(DUPLICATE)
                .split(" at line")
                .next()
                .unwrap_or("")
        ))
    } else {
        LocateError::Invalid(e.to_string())
    }
}

#[derive(Clone, Copy)]
struct Ctx<'a> {
    name: Option<&'a RawValue>,
    strict: Option<&'a RawValue>,
}

fn walk<'a>(
    raw: &'a RawValue,
    node: &Node,
    pointer: String,
    ctx: Ctx<'a>,
    out: &mut Vec<Found<'a>>,
) -> Result<(), LocateError> {
    match node {
        Node::Leaf(api, spec) => {
            out.push(Found {
                api: *api,
                spec,
                raw,
                pointer,
                name: ctx.name,
                strict: ctx.strict,
            });
            Ok(())
        }
        Node::Array(child) => {
            let text = raw.get();
            if !text.starts_with('[') {
                return Ok(());
            }
            let mut de = serde_json::Deserializer::from_str(text);
            let Ok(items) = (&mut de).deserialize_seq(ArrayVisitor) else {
                return Ok(());
            };
            for (i, item) in items.into_iter().enumerate() {
                walk(item, child, format!("{pointer}/{i}"), ctx, out)?;
            }
            Ok(())
        }
        Node::Object(children) => {
            let text = raw.get();
            if !text.starts_with('{') {
                return Ok(());
            }
            let mut wanted: Vec<&str> = children.iter().map(|(k, _)| *k).collect();
            let name_idx = wanted.len();
            wanted.push("name");
            wanted.push("strict");
            let mut de = serde_json::Deserializer::from_str(text);
            let fields = match (&mut de).deserialize_any(ObjectSeed { wanted: &wanted }) {
                Ok(Some(f)) => f,
                Ok(None) => return Ok(()),
                Err(e) => {
                    return match classify(e, &pointer) {
                        d @ LocateError::Duplicate(_) => Err(d),
                        LocateError::Invalid(_) => Ok(()),
                    };
                }
            };
            let mut ctx = ctx;
            for (i, raw) in &fields {
                if *i == name_idx {
                    ctx.name = Some(raw);
                } else if *i == name_idx + 1 {
                    ctx.strict = Some(raw);
                }
            }
            for (i, raw) in fields {
                if let Some((key, child)) = children.get(i) {
                    walk(raw, child, format!("{pointer}/{}", escape(key)), ctx, out)?;
                }
            }
            Ok(())
        }
    }
}

/// RFC 6901 escaping of one reference token.
pub(crate) fn escape(key: &str) -> Cow<'_, str> {
    if key.contains(['~', '/']) {
        Cow::Owned(key.replace('~', "~0").replace('/', "~1"))
    } else {
        Cow::Borrowed(key)
    }
}

const DUPLICATE: &str = "toolschema-duplicate-key: ";

/// Scans one JSON value; if it is an object, returns the wanted keys' raw values (by index in
/// `wanted`), skipping everything else without building it.
struct ObjectSeed<'w> {
    wanted: &'w [&'w str],
}

impl<'de> DeserializeSeed<'de> for ObjectSeed<'_> {
    type Value = Option<Vec<(usize, &'de RawValue)>>;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ObjectSeed<'_> {
    type Value = Option<Vec<(usize, &'de RawValue)>>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut found: Vec<(usize, &'de RawValue)> = Vec::new();
        while let Some(key) = map.next_key_seed(KeySeed)? {
            match self.wanted.iter().position(|w| *w == key) {
                Some(i) => {
                    if found.iter().any(|(j, _)| *j == i) {
                        return Err(serde::de::Error::custom(format_args!(
                            "{DUPLICATE}{}",
                            escape(&key)
                        )));
                    }
                    let raw: &'de RawValue = map.next_value()?;
                    found.push((i, raw));
                }
                None => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(Some(found))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(None)
    }

    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
}

struct ArrayVisitor;

impl<'de> Visitor<'de> for ArrayVisitor {
    type Value = Vec<&'de RawValue>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<&'de RawValue>()? {
            items.push(item);
        }
        Ok(items)
    }
}

/// An object key, borrowed when it has no escapes.
struct KeySeed;

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Cow<'de, str>;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_str(KeySeed)
    }
}

impl<'de> Visitor<'de> for KeySeed {
    type Value = Cow<'de, str>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string key")
    }
    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(Cow::Borrowed(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Cow::Owned(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
        Ok(Cow::Owned(v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn find(body: &str, api: Api) -> Vec<(String, String)> {
        let located = locate(body.as_bytes(), Some(api.shape())).unwrap();
        located
            .slots
            .iter()
            .map(|f| {
                let r = range_in(body.as_bytes(), f.raw).unwrap();
                (f.pointer.clone(), body[r].to_owned())
            })
            .collect()
    }

    #[test]
    fn finds_openai_chat_slots_and_skips_history() {
        let body = r#"{"model":"gpt-4o","messages":[{"role":"user","content":"x","parameters":{"a":1}}],
            "tools":[{"type":"function","function":{"name":"f","strict":true,"parameters":{"type":"object"}}},
                     {"type":"function","function":{"name":"g","parameters": {"type":"string"} }}],
            "response_format":{"type":"json_schema","json_schema":{"name":"r","schema":{"type":"object"}}}}"#;
        let found = find(body, Api::OpenAiChat);
        assert_eq!(
            found,
            vec![
                (
                    "/tools/0/function/parameters".into(),
                    r#"{"type":"object"}"#.into()
                ),
                (
                    "/tools/1/function/parameters".into(),
                    r#"{"type":"string"}"#.into()
                ),
                (
                    "/response_format/json_schema/schema".into(),
                    r#"{"type":"object"}"#.into()
                ),
            ]
        );
        let located = locate(body.as_bytes(), Some(Api::OpenAiChat.shape())).unwrap();
        assert_eq!(located.model.as_deref(), Some("gpt-4o"));
        assert_eq!(located.slots[0].strict.map(|s| s.get()), Some("true"));
        assert_eq!(located.slots[1].strict.map(|s| s.get()), None);
        assert_eq!(located.slots[1].name.map(|s| s.get()), Some("\"g\""));
    }

    #[test]
    fn escaped_keys_are_matched_and_duplicates_refused() {
        let body = r#"{"tool\u0073":[{"input_schema":{}}]}"#;
        assert_eq!(find(body, Api::AnthropicMessages).len(), 1);
        let dup = r#"{"tools":[],"tools":[{"input_schema":{}}]}"#;
        assert!(matches!(
            locate(dup.as_bytes(), Some(Api::AnthropicMessages.shape())),
            Err(LocateError::Duplicate(_))
        ));
        let dup = r#"{"tools":[{"input_schema":{},"input_schema":{}}]}"#;
        assert!(
            matches!(locate(dup.as_bytes(), Some(Api::AnthropicMessages.shape())), Err(LocateError::Duplicate(p)) if p == "/tools/0/input_schema")
        );
    }

    #[test]
    fn invalid_and_odd_bodies() {
        for bad in ["", "{", r#"{"tools":[}"#, r#"{"a":1} x"#, "\u{0}"] {
            assert!(
                matches!(locate(bad.as_bytes(), None), Err(LocateError::Invalid(_))),
                "{bad:?}"
            );
        }
        for odd in [
            "[]",
            "1",
            "null",
            r#"{"tools":null}"#,
            r#"{"tools":{"a":1}}"#,
            r#"{"tools":[1,"x",null]}"#,
        ] {
            assert!(
                locate(odd.as_bytes(), None).unwrap().slots.is_empty(),
                "{odd}"
            );
        }
    }

    #[test]
    fn deep_nesting_does_not_recurse() {
        let depth = 1_000_000;
        let mut body = String::from(r#"{"messages":"#);
        body.push_str(&"[".repeat(depth));
        body.push_str(&"]".repeat(depth));
        body.push_str(r#","tools":[{"input_schema":{"type":"object"}}]}"#);
        let located = locate(body.as_bytes(), Some(Api::AnthropicMessages.shape()));
        // Either skipped as too deep or scanned iteratively: never a stack overflow.
        if let Ok(l) = located {
            assert_eq!(l.slots.len(), 1);
        }
        let mut deep_slot = String::from(r#"{"tools":"#);
        deep_slot.push_str(&"[".repeat(depth));
        deep_slot.push_str(&"]".repeat(depth));
        deep_slot.push('}');
        let _ = locate(deep_slot.as_bytes(), None);
    }
}
