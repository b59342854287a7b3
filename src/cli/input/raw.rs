//! A JSON document read as borrowed [`RawValue`]s: an object's entries, an array's elements,
//! and where each stands in the text.

use serde::de::{Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use std::fmt;
use std::ops::Range;

/// The byte range of `raw` (borrowed from `text`) inside `text`.
pub fn span(text: &str, raw: &RawValue) -> Range<usize> {
    let start = (raw.get().as_ptr() as usize).saturating_sub(text.as_ptr() as usize);
    let start = start.min(text.len());
    start..(start + raw.get().len()).min(text.len())
}

/// The entries of a JSON object, in order, values raw; `None` if `raw` is not an object.
pub fn object(raw: &RawValue) -> Option<Vec<(String, &RawValue)>> {
    if !raw.get().starts_with('{') {
        return None;
    }
    let mut de = serde_json::Deserializer::from_str(raw.get());
    de.deserialize_map(ObjectVisitor).ok()
}

/// The elements of a JSON array, raw; `None` if `raw` is not an array.
pub fn array(raw: &RawValue) -> Option<Vec<&RawValue>> {
    if !raw.get().starts_with('[') {
        return None;
    }
    let mut de = serde_json::Deserializer::from_str(raw.get());
    de.deserialize_seq(ArrayVisitor).ok()
}

pub(super) struct ObjectVisitor;

impl<'de> Visitor<'de> for ObjectVisitor {
    type Value = Vec<(String, &'de RawValue)>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::new();
        while let Some((k, v)) = map.next_entry::<String, &'de RawValue>()? {
            out.push((k, v));
        }
        Ok(out)
    }
}

struct ArrayVisitor;

impl<'de> Visitor<'de> for ArrayVisitor {
    type Value = Vec<&'de RawValue>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON array")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::new();
        while let Some(v) = seq.next_element::<&'de RawValue>()? {
            out.push(v);
        }
        Ok(out)
    }
}
