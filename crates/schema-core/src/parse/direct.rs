//! Keyword values read straight from the deserializer, with no raw capture first: strings
//! (`description`, `$ref`, `format`, ...), `type`, string lists (`required`) and instance
//! lists (`enum`, `examples`). Each string is scanned once (serde_json's own scan hands it over
//! borrowed), where capturing it as raw text and then reading it scanned it twice.
//!
//! A value of the wrong JSON type is kept verbatim as [`Value::Raw`] and reported, as the raw
//! capture did: scalars are written back exactly, containers are captured element by element,
//! and what serde_json re-spells (a float, a string or a key with escapes) is copied back from
//! the input.

use super::serde_parse::Ctx;
use super::verbatim::{capture_map_rest, capture_seq_rest};
use crate::instance::Instance;
use crate::keyword::{Keyword, Shape};
use crate::schema::{InstanceType, TypeSet, Value};
use crate::ser::push_json_string;
use serde::de::{MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::fmt;

/// Whether a shape is read by [`DirectVisitor`].
pub(super) fn reads_direct(shape: Shape) -> bool {
    matches!(
        shape,
        Shape::String | Shape::Type | Shape::StringArray | Shape::InstanceArray
    )
}

/// Reads one keyword value of a shape [`reads_direct`] accepts.
pub(super) struct DirectVisitor<'a, 'i> {
    pub(super) ctx: &'a mut Ctx<'i>,
    pub(super) keyword: Keyword,
}

impl DirectVisitor<'_, '_> {
    /// The value kept as data, reported. `respelled`: `text` is not the input's own spelling
    /// (copied back from the input instead, within the parse's bound on such copies).
    fn raw(self, text: String, respelled: bool) -> Value {
        let mark = self.ctx.path.len();
        self.ctx.path.push_keyword(self.keyword);
        let raw = Instance::from_trusted(self.ctx.verbatim(text, respelled));
        self.ctx
            .wrong_type(self.keyword.as_str(), self.keyword.shape(), &raw);
        self.ctx.path.truncate(mark);
        Value::Raw(raw)
    }

    /// A string value; `escaped`: it held escapes (serde_json decoded them).
    fn string(self, v: &str, escaped: bool) -> Value {
        match self.keyword.shape() {
            Shape::String => Value::String(v.to_owned()),
            Shape::Type => match InstanceType::from_name(v) {
                Some(t) => Value::Type(TypeSet::Single(t)),
                None => self.raw(json_string(v), escaped),
            },
            _ => self.raw(json_string(v), escaped),
        }
    }
}

fn json_string(v: &str) -> String {
    let mut t = String::with_capacity(v.len() + 2);
    push_json_string(&mut t, v);
    t
}

/// The content of a JSON string's text (`None` for any other JSON value).
fn string_of(text: &str) -> Option<Cow<'_, str>> {
    let inner = text.strip_prefix('"')?.strip_suffix('"')?;
    if !inner.contains('\\') {
        return Some(Cow::Borrowed(inner));
    }
    serde_json::from_str::<String>(text).ok().map(Cow::Owned)
}

/// An array that turned out not to fit: the strings read so far (written back as they were
/// spelled when none held an escape), the element that does not fit, then the rest verbatim.
fn resume_seq<'de, A: SeqAccess<'de>>(
    seq: &mut A,
    done: &[&str],
    current: Option<&RawValue>,
) -> Result<String, A::Error> {
    let mut text = String::from("[");
    for s in done {
        push_json_string(&mut text, s);
        text.push(',');
    }
    let comma = match current {
        Some(raw) => {
            crate::instance::minify_into(&mut text, raw.get());
            true
        }
        None => false,
    };
    capture_seq_rest(seq, &mut text, comma)?;
    Ok(text)
}

impl<'de> Visitor<'de> for DirectVisitor<'_, '_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(super::describe(self.keyword.shape()))
    }

    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Value, E> {
        Ok(self.string(v, false))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(self.string(v, true))
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(self.raw(v.to_string(), false))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(self.raw(v.to_string(), false))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(self.raw(v.to_string(), false))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        let text = serde_json::to_string(&v).unwrap_or_else(|_| "null".to_owned());
        Ok(self.raw(text, true))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(self.raw("null".to_owned(), false))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut text = String::from("{");
        let respelled = capture_map_rest(&mut map, &mut text, false)?;
        Ok(self.raw(text, respelled))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let shape = self.keyword.shape();
        if shape == Shape::InstanceArray {
            let mut items = Vec::new();
            while let Some(raw) = seq.next_element::<&RawValue>()? {
                items.push(Instance::from_borrowed(raw));
            }
            return Ok(Value::Instances(items));
        }
        if shape == Shape::String {
            let text = resume_seq(&mut seq, &[], None)?;
            return Ok(self.raw(text, false));
        }
        // `type` lists and string lists: every element a string (a type name).
        let mut types = Vec::new();
        let mut strings: Vec<String> = Vec::new();
        let mut escaped = false;
        while let Some(raw) = seq.next_element::<&RawValue>()? {
            let name = string_of(raw.get());
            escaped |= matches!(name, Some(Cow::Owned(_)));
            let fits = match (name, shape) {
                (Some(name), Shape::Type) => InstanceType::from_name(&name)
                    .map(|t| types.push(t))
                    .is_some(),
                (Some(s), _) => {
                    strings.push(s.into_owned());
                    true
                }
                (None, _) => false,
            };
            if !fits {
                let done: Vec<&str> = match shape {
                    Shape::Type => types.iter().map(|t| t.as_str()).collect(),
                    _ => strings.iter().map(String::as_str).collect(),
                };
                let text = resume_seq(&mut seq, &done, Some(raw))?;
                return Ok(self.raw(text, escaped));
            }
        }
        Ok(match shape {
            Shape::Type => Value::Type(TypeSet::List(types)),
            _ => Value::Strings(strings),
        })
    }
}
