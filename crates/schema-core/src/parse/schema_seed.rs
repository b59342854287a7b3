//! The serde_json parser's schema positions: a schema object read key by key ([`SchemaSeed`]),
//! and object keys borrowed when they hold no escape ([`KeyName`]).

use super::keyword_seed::KeywordSeed;
use super::serde_parse::{Ctx, Node};
use super::verbatim::capture_seq_rest;
use super::{object_of, push_entry};
use crate::error::{Diagnostic, DiagnosticKind};
use crate::instance::Instance;
use crate::schema::{Key, Schema, Value};
use crate::ser::push_json_string;
use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::fmt;

pub(super) struct SchemaSeed<'a, 'i> {
    pub(super) ctx: &'a mut Ctx<'i>,
    pub(super) depth: usize,
}

impl<'de> DeserializeSeed<'de> for SchemaSeed<'_, '_> {
    type Value = Node;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Node, D::Error> {
        d.deserialize_any(self)
    }
}

fn scalar<E>(text: String) -> Result<Node, E> {
    Ok(Node::Other(Instance::from_trusted(text)))
}

impl<'de> Visitor<'de> for SchemaSeed<'_, '_> {
    type Value = Node;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON Schema")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Node, E> {
        Ok(Node::Schema(Schema::Bool(v)))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Node, E> {
        scalar(v.to_string())
    }
    fn visit_u64<E>(self, v: u64) -> Result<Node, E> {
        scalar(v.to_string())
    }
    fn visit_f64<E>(self, v: f64) -> Result<Node, E> {
        self.ctx.float_seen = true;
        scalar(serde_json::to_string(&v).unwrap_or_else(|_| "null".to_owned()))
    }
    fn visit_str<E>(self, v: &str) -> Result<Node, E> {
        let mut t = String::with_capacity(v.len() + 2);
        push_json_string(&mut t, v);
        scalar(t)
    }
    fn visit_unit<E>(self) -> Result<Node, E> {
        scalar("null".to_owned())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
        let mut text = String::from("[");
        capture_seq_rest(&mut seq, &mut text, false)?;
        Ok(Node::Other(Instance::from_trusted(text)))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
        if self.depth > self.ctx.max_depth {
            while map.next_key::<IgnoredAny>()?.is_some() {
                map.next_value::<IgnoredAny>()?;
            }
            self.ctx.diagnostics.push(Diagnostic {
                pointer: self.ctx.pointer(),
                kind: DiagnosticKind::DepthLimit {
                    limit: self.ctx.max_depth,
                },
            });
            return Ok(Node::Schema(Schema::default()));
        }
        let start = self.ctx.entries.len();
        if start == 0 {
            // Room for the entries of most schemas' objects, nested ones included (once per
            // thread: the buffer is kept for the next parse).
            self.ctx.entries.reserve(16);
        }
        // (An error ends the whole parse: what it leaves here is dropped with it.)
        let mut maybe = 0u64;
        while let Some(name) = map.next_key_seed(KeyName)? {
            let key = Key::from_name(&name);
            let value = match &key {
                // The pointer only says where in a diagnostic: it is extended here only for
                // keywords that hold subschemas; a keyword of another shape adds its name when
                // it reports (see `KeywordSeed`), and an unknown keyword never reports.
                Key::Known(kw) if kw.has_subschemas() => {
                    let mark = self.ctx.path.len();
                    self.ctx.path.push_keyword(*kw);
                    let value = map.next_value_seed(KeywordSeed {
                        ctx: self.ctx,
                        depth: self.depth,
                        keyword: *kw,
                    });
                    self.ctx.path.truncate(mark);
                    value?
                }
                Key::Known(kw) => map.next_value_seed(KeywordSeed {
                    ctx: self.ctx,
                    depth: self.depth,
                    keyword: *kw,
                })?,
                Key::Other(_) => {
                    Value::Raw(Instance::from_borrowed(map.next_value::<&RawValue>()?))
                }
            };
            push_entry(&mut self.ctx.entries, start, &mut maybe, key, value);
        }
        Ok(Node::Schema(Schema::Object(object_of(
            &mut self.ctx.entries,
            start,
            maybe,
        ))))
    }
}

/// Deserializes an object key, borrowing it from the input when it holds no escape.
pub(super) struct KeyName;

impl<'de> DeserializeSeed<'de> for KeyName {
    type Value = Cow<'de, str>;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Cow<'de, str>, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeyName {
    type Value = Cow<'de, str>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key")
    }
    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Borrowed(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(v))
    }
}
