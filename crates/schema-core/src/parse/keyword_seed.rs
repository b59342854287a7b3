//! The serde_json parser's keyword values: each read by its keyword's shape.

use super::direct::{DirectVisitor, reads_direct};
use super::serde_parse::Ctx;
use super::shallow::interpret;
use super::subschema::SubschemaVisitor;
use crate::instance::Instance;
use crate::keyword::Keyword;
use crate::schema::Value;
use serde::de::{self, DeserializeSeed};
use serde_json::value::RawValue;

pub(super) struct KeywordSeed<'a, 'i> {
    pub(super) ctx: &'a mut Ctx<'i>,
    pub(super) depth: usize,
    pub(super) keyword: Keyword,
}

impl<'de> DeserializeSeed<'de> for KeywordSeed<'_, '_> {
    type Value = Value;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        let shape = self.keyword.shape();
        if self.keyword.has_subschemas() {
            return d.deserialize_any(SubschemaVisitor {
                ctx: self.ctx,
                depth: self.depth,
                keyword: self.keyword,
            });
        }
        if reads_direct(shape) {
            return d.deserialize_any(DirectVisitor {
                ctx: self.ctx,
                keyword: self.keyword,
            });
        }
        // Other shallow shapes (numbers, whose text serde_json would re-spell; booleans;
        // instances): borrow the raw text (captured iteratively), then interpret it.
        let raw = <&RawValue as serde::Deserialize>::deserialize(d)?;
        match interpret(shape, raw.get()) {
            Some(v) => Ok(v),
            None => {
                let raw = Instance::from_borrowed(raw);
                let mark = self.ctx.path.len();
                self.ctx.path.push_keyword(self.keyword);
                self.ctx.wrong_type(self.keyword.as_str(), shape, &raw);
                self.ctx.path.truncate(mark);
                Ok(Value::Raw(raw))
            }
        }
    }
}
