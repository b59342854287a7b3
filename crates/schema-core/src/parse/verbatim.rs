//! Values kept verbatim: the rest of an array or object copied as text once it turned out not
//! to fit its keyword, and a value's text copied back from the input where serde_json handed it
//! over re-spelled.

use super::schema_seed::KeyName;
use crate::pointer;
use crate::schema::Dependency;
use crate::ser::push_json_string;
use serde::de::{self, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::fmt;

/// Appends the remaining elements of a sequence, verbatim, and the closing bracket.
pub(super) fn capture_seq_rest<'de, A: SeqAccess<'de>>(
    seq: &mut A,
    text: &mut String,
    mut comma: bool,
) -> Result<(), A::Error> {
    while let Some(raw) = seq.next_element::<&RawValue>()? {
        if comma {
            text.push(',');
        }
        crate::instance::minify_into(text, raw.get());
        comma = true;
    }
    text.push(']');
    Ok(())
}

/// Appends the remaining entries of a map, verbatim, and the closing brace. Returns whether a
/// key held an escape (it is written back in serde_json's spelling, not the input's).
pub(super) fn capture_map_rest<'de, A: MapAccess<'de>>(
    map: &mut A,
    text: &mut String,
    mut comma: bool,
) -> Result<bool, A::Error> {
    let mut respelled = false;
    while let Some(key) = map.next_key_seed(KeyName)? {
        respelled |= matches!(key, Cow::Owned(_));
        let raw = map.next_value::<&RawValue>()?;
        if comma {
            text.push(',');
        }
        push_json_string(text, &key);
        text.push(':');
        crate::instance::minify_into(text, raw.get());
        comma = true;
    }
    text.push('}');
    Ok(respelled)
}

pub(super) fn dependency_json(d: &Dependency) -> String {
    match d {
        Dependency::Schema(s) => s.to_json_string(),
        Dependency::Required(names) => {
            serde_json::to_string(names).unwrap_or_else(|_| "[]".to_owned())
        }
    }
}

/// How many values one parse copies back from its input (see [`raw_at`]).
pub(super) const MAX_RECOVERED: usize = 64;

/// The text of the value at a JSON pointer into `input` (a scan per segment).
pub(super) fn raw_at<'i>(input: &'i [u8], at: &str) -> Option<&'i str> {
    let mut text = std::str::from_utf8(input).ok()?.trim();
    for seg in pointer::segments(at)? {
        let mut de = serde_json::Deserializer::from_str(text);
        de.disable_recursion_limit();
        text = match text.as_bytes().first()? {
            b'{' => {
                let entries = de::Deserializer::deserialize_map(&mut de, EntriesCow).ok()?;
                entries.into_iter().rev().find(|(k, _)| *k == seg)?.1.get()
            }
            b'[' => {
                let items: Vec<&RawValue> = serde::Deserialize::deserialize(&mut de).ok()?;
                items.get(seg.parse::<usize>().ok()?)?.get()
            }
            _ => return None,
        };
    }
    Some(text)
}

/// The entries of a JSON object, keys borrowed where possible, in document order.
struct EntriesCow;
impl<'de> Visitor<'de> for EntriesCow {
    type Value = Vec<(Cow<'de, str>, &'de RawValue)>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::new();
        while let Some(k) = map.next_key_seed(KeyName)? {
            out.push((k, map.next_value::<&RawValue>()?));
        }
        Ok(out)
    }
}

/// Rebuilds a map that turned out not to be a map of schemas: what was parsed so far, the
/// offending entry, then the rest verbatim.
pub(super) fn resume_map<'de, 'k, A: MapAccess<'de>>(
    map: &mut A,
    done: impl Iterator<Item = (&'k str, String)>,
    name: &str,
    value: &str,
) -> Result<String, A::Error> {
    let mut text = String::from("{");
    for (k, v) in done {
        push_json_string(&mut text, k);
        text.push(':');
        text.push_str(&v);
        text.push(',');
    }
    push_json_string(&mut text, name);
    text.push(':');
    text.push_str(value);
    capture_map_rest(map, &mut text, true)?;
    Ok(text)
}
