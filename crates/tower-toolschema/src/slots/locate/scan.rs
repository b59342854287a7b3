//! The one pass over a body: serde_json's scanner, driven by the slot-path trie, descends
//! into the values on a slot path, captures each slot as a borrowed `RawValue` and skips
//! everything else with `IgnoredAny`.

use std::borrow::Cow;
use std::fmt;

use serde::de::{DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

use super::trie::Node;
use super::trie::Object;
use super::{Found, Located, RawText};
use crate::shapes::{Encoding, SlotRole};

/// One segment of the path being scanned (for the RFC 6901 pointer of a slot).
#[derive(Debug, Clone, Copy)]
pub(super) enum PathSeg {
    Key(&'static str),
    Index(usize),
}

/// The state of one scan: what was found, where the scanner is.
pub(super) struct Scan<'a> {
    pub(super) out: Located<'a>,
    pub(super) path: Vec<PathSeg>,
    /// Set (with its pointer) when the scan stopped at a duplicate key on a slot path.
    pub(super) duplicate: Option<String>,
    /// Collect the names of tools declared without a parameters slot.
    pub(super) tool_names: bool,
}

impl Scan<'_> {
    /// The RFC 6901 pointer of the current path, plus `last` if given.
    fn pointer(&self, last: Option<&str>) -> String {
        pointer_of(&self.path, last)
    }
}

/// The RFC 6901 pointer of `path`, plus `last` if given.
pub(super) fn pointer_of(path: &[PathSeg], last: Option<&str>) -> String {
    let mut p = String::with_capacity(8 * path.len() + 8);
    for seg in path {
        match seg {
            PathSeg::Key(k) => schema_core::pointer::push(&mut p, k),
            PathSeg::Index(i) => schema_core::pointer::push_index(&mut p, *i),
        }
    }
    if let Some(last) = last {
        schema_core::pointer::push(&mut p, last);
    }
    p
}

/// After an object of the trie at path depth `depth` was read: its `name` and `strict` go to
/// the slots found in it (from `first` on) that the table names and flags there; with
/// `tool_names`, the name of a tool it declares without a parameters slot is kept.
pub(super) fn name_and_flag<'a>(
    out: &mut Located<'a>,
    first: usize,
    depth: usize,
    obj: &Object,
    (name, strict): (Option<RawText<'a>>, Option<RawText<'a>>),
    tool_names: bool,
) {
    if name.is_none() && strict.is_none() && !obj.declares_tool {
        return;
    }
    let mut named_tool = false;
    for f in out.slots.get_mut(first..).unwrap_or_default() {
        if f.depths.0 == Some(depth) {
            f.name = name;
            named_tool |= f.spec.role == SlotRole::ToolParameters;
        }
        if f.depths.1 == Some(depth) {
            f.strict = strict;
        }
    }
    if tool_names
        && obj.declares_tool
        && !named_tool
        && let Some(n) = name
    {
        out.tools_without_schema.push(n);
    }
}

/// Reads one value at `node` of the path trie.
pub(super) struct NodeSeed<'s, 'a> {
    pub(super) node: &'s Node,
    pub(super) scan: &'s mut Scan<'a>,
    /// The top-level object: its `model` is read.
    pub(super) root: bool,
}

impl<'de> DeserializeSeed<'de> for NodeSeed<'_, 'de> {
    type Value = ();
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        match self.node {
            Node::Leaf(leaf) => {
                let raw = <&'de RawValue as serde::Deserialize>::deserialize(d)?;
                if leaf.spec.encoding == Encoding::JsonObject
                    && !raw.get().trim_start().starts_with('{')
                {
                    // Not a schema here (Ollama's `"format": "json"`).
                    return Ok(());
                }
                let pointer = self.scan.pointer(None);
                self.scan.out.slots.push(Found {
                    api: leaf.api,
                    spec: leaf.spec,
                    raw: RawText(raw.get()),
                    pointer,
                    name: None,
                    strict: None,
                    depths: (leaf.name_depth, leaf.strict_depth),
                });
                Ok(())
            }
            _ => d.deserialize_any(self),
        }
    }
}

fn duplicate<E: serde::de::Error>(scan: &mut Scan<'_>, key: &str) -> E {
    scan.duplicate = Some(scan.pointer(Some(key)));
    E::custom("duplicate key on a slot path")
}

impl<'de> Visitor<'de> for NodeSeed<'_, 'de> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let Node::Object(obj) = self.node else {
            // Not the shape the table expects here: skip it.
            while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
            return Ok(());
        };
        let children = &obj.children;
        let scan = self.scan;
        let first = scan.out.slots.len();
        // Which wanted keys were seen (children by index, then `name`, `strict`, `model`): a
        // trie node has far fewer than 61 children (checked in `compiled`).
        let mut seen: u64 = 0;
        let (name_i, strict_i, model_i) = (children.len(), children.len() + 1, children.len() + 2);
        let (mut name, mut strict) = (None, None);
        while let Some(key) = map.next_key_seed(KeySeed)? {
            let i = match children.iter().position(|(k, _)| *k == key) {
                Some(i) => i,
                None if obj.names && key == "name" => name_i,
                None if obj.strict && key == "strict" => strict_i,
                None if self.root && key == "model" => model_i,
                None => {
                    map.next_value::<IgnoredAny>()?;
                    continue;
                }
            };
            let bit = 1u64 << (i % 64);
            if seen & bit != 0 {
                return Err(duplicate(scan, &key));
            }
            seen |= bit;
            if i == name_i {
                name = Some(RawText(map.next_value::<&'de RawValue>()?.get()));
            } else if i == strict_i {
                strict = Some(RawText(map.next_value::<&'de RawValue>()?.get()));
            } else if i == model_i {
                let raw = map.next_value::<&'de RawValue>()?;
                scan.out.model = RawText(raw.get()).string();
            } else {
                let (k, child) = &children[i];
                scan.path.push(PathSeg::Key(k));
                map.next_value_seed(NodeSeed {
                    node: child,
                    scan: &mut *scan,
                    root: false,
                })?;
                scan.path.pop();
            }
        }
        let depth = scan.path.len();
        name_and_flag(
            &mut scan.out,
            first,
            depth,
            obj,
            (name, strict),
            scan.tool_names,
        );
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let Node::Array(child) = self.node else {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            return Ok(());
        };
        let scan = self.scan;
        let mut i = 0;
        loop {
            scan.path.push(PathSeg::Index(i));
            let more = seq.next_element_seed(NodeSeed {
                node: child,
                scan: &mut *scan,
                root: false,
            })?;
            scan.path.pop();
            if more.is_none() {
                return Ok(());
            }
            i += 1;
        }
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
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
