//! The serde_json parser's subschema positions: one subschema, an array of them, a map of
//! them, `dependencies`; a value that turns out not to fit is kept verbatim and reported.

use super::describe;
use super::schema_seed::{KeyName, SchemaSeed};
use super::serde_parse::{Ctx, Node};
use super::verbatim::{capture_map_rest, capture_seq_rest, dependency_json, resume_map};
use crate::instance::Instance;
use crate::keyword::{Keyword, Shape};
use crate::schema::{Dependency, Schema, SchemaMap, Value};
use crate::ser::push_json_string;
use indexmap::IndexMap;
use serde::de::{MapAccess, SeqAccess, Visitor};
use std::fmt;

pub(super) struct SubschemaVisitor<'a, 'i> {
    pub(super) ctx: &'a mut Ctx<'i>,
    pub(super) depth: usize,
    pub(super) keyword: Keyword,
}

impl<'i> SubschemaVisitor<'_, 'i> {
    fn raw(self, text: String) -> Value {
        // serde_json hands floats over as `f64` only (`1.5e3` → `1500.0`): when one is in the
        // value, copy the value's text back from the input, so it stays verbatim.
        let respelled = std::mem::take(&mut self.ctx.float_seen);
        let raw = Instance::from_trusted(self.ctx.verbatim(text, respelled));
        self.ctx
            .wrong_type(self.keyword.as_str(), self.keyword.shape(), &raw);
        Value::Raw(raw)
    }

    fn child(&mut self) -> SchemaSeed<'_, 'i> {
        SchemaSeed {
            ctx: self.ctx,
            depth: self.depth + 1,
        }
    }
}

impl<'de> Visitor<'de> for SubschemaVisitor<'_, '_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(describe(self.keyword.shape()))
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        match self.keyword.shape() {
            Shape::Schema | Shape::SchemaOrArray => Ok(Value::Schema(Box::new(Schema::Bool(v)))),
            _ => Ok(self.raw(v.to_string())),
        }
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(self.raw(v.to_string()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(self.raw(v.to_string()))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        self.ctx.float_seen = true;
        Ok(self.raw(serde_json::to_string(&v).unwrap_or_else(|_| "null".to_owned())))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        let mut t = String::new();
        push_json_string(&mut t, v);
        Ok(self.raw(t))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(self.raw("null".to_owned()))
    }

    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<Value, A::Error> {
        if !matches!(
            self.keyword.shape(),
            Shape::SchemaArray | Shape::SchemaOrArray
        ) {
            let mut text = String::from("[");
            capture_seq_rest(&mut seq, &mut text, false)?;
            return Ok(self.raw(text));
        }
        let mut items = Vec::new();
        loop {
            let mark = self.ctx.path.len();
            self.ctx.path.push_index(items.len());
            let next = seq.next_element_seed(self.child())?;
            self.ctx.path.truncate(mark);
            match next {
                None => return Ok(Value::Schemas(items)),
                Some(Node::Schema(s)) => items.push(s),
                Some(other) => {
                    // Not an array of schemas after all: keep the whole value as data.
                    let mut text = String::from("[");
                    for s in &items {
                        text.push_str(&s.to_json_string());
                        text.push(',');
                    }
                    text.push_str(&other.to_json());
                    capture_seq_rest(&mut seq, &mut text, true)?;
                    return Ok(self.raw(text));
                }
            }
        }
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<Value, A::Error> {
        match self.keyword.shape() {
            Shape::Schema | Shape::SchemaOrArray => {
                // The map itself is the subschema.
                let node = SchemaSeed {
                    ctx: self.ctx,
                    depth: self.depth + 1,
                }
                .visit_map(map)?;
                match node {
                    Node::Schema(s) => Ok(Value::Schema(Box::new(s))),
                    Node::Other(i) => Ok(Value::Raw(i)),
                }
            }
            Shape::SchemaMap => {
                let start = self.ctx.members.len();
                if start == 0 {
                    // Room for the members of most schemas' maps, nested ones included (once
                    // per thread: the buffer is kept for the next parse).
                    self.ctx.members.reserve(16);
                }
                // (An error ends the whole parse: what it leaves here is dropped with it.)
                while let Some(name) = map.next_key_seed(KeyName)? {
                    let mark = self.ctx.path.len();
                    let input = self.ctx.input;
                    self.ctx.path.push_name(&name, input);
                    let node = map.next_value_seed(self.child())?;
                    self.ctx.path.truncate(mark);
                    match node {
                        Node::Schema(s) => self.ctx.members.push((name.into_owned(), s)),
                        Node::Other(i) => {
                            // Duplicate names as the map reads them (the last value at the
                            // first place).
                            let out: SchemaMap = self.ctx.members.drain(start..).collect();
                            let text = resume_map(
                                &mut map,
                                out.iter().map(|(k, s)| (k.as_str(), s.to_json_string())),
                                &name,
                                i.as_json(),
                            )?;
                            return Ok(self.raw(text));
                        }
                    }
                }
                // Sized once for every member (duplicate names: the last value at the first
                // place, as inserting one by one does).
                let out: SchemaMap = self.ctx.members.drain(start..).collect();
                Ok(Value::SchemaMap(out))
            }
            Shape::Dependencies => {
                let mut out: IndexMap<String, Dependency> = IndexMap::new();
                while let Some(name) = map.next_key_seed(KeyName)? {
                    let mark = self.ctx.path.len();
                    let input = self.ctx.input;
                    self.ctx.path.push_name(&name, input);
                    let node = map.next_value_seed(self.child())?;
                    self.ctx.path.truncate(mark);
                    let dep = match node {
                        Node::Schema(s) => Ok(Dependency::Schema(s)),
                        Node::Other(i) => serde_json::from_str::<Vec<String>>(i.as_json())
                            .map(Dependency::Required)
                            .map_err(|_| i),
                    };
                    match dep {
                        Ok(d) => {
                            out.insert(name.into_owned(), d);
                        }
                        Err(i) => {
                            let done = out.iter().map(|(k, d)| (k.as_str(), dependency_json(d)));
                            let text = resume_map(&mut map, done, &name, i.as_json())?;
                            return Ok(self.raw(text));
                        }
                    }
                }
                Ok(Value::Dependencies(out))
            }
            _ => {
                let mut text = String::from("{");
                capture_map_rest(&mut map, &mut text, false)?;
                Ok(self.raw(text))
            }
        }
    }
}
