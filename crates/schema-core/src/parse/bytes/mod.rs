//! The byte reader: a schema read straight from its text, with no serde visitor between.
//!
//! Keys are matched to their [`Keyword`] from the bytes, strings without escapes copied in
//! one step, numbers and instances captured as slices of the text. It reads only what has no
//! diagnostic: at a value of the wrong JSON type, a subtree past the depth limit, a root that
//! is not a schema, invalid text, or anything its lexer is not sure of, it gives up (`None`)
//! and the serde_json parser reads the whole input instead, whose tree, diagnostics and
//! errors stand. When it does not give up, its tree is the one that parser builds (a test
//! compares the two over the corpus).
//!
//! Recursion: one call of [`Reader::object`] per schema level, bounded by the depth limit as
//! in the serde_json parser; instances are skipped without recursion.

mod cursor;

use super::shallow::interpret;
use super::{object_of, object_to_close, push_entry};
use crate::instance::Instance;
use crate::keyword::{Keyword, Shape};
use crate::keyword_mask::KeywordMask;
use crate::schema::{Dependency, Entry, Key, Schema, SchemaMap, SchemaObject, Value};
use crate::types::{InstanceType, TypeSet};
use cursor::Cursor;
use indexmap::IndexMap;

/// Reads `text` as a schema with no diagnostic, and the keywords its objects may hold (the
/// union of their presence masks), or gives up (`None`). `entries` and `members` are the
/// parser's kept stacks (left holding garbage when it gives up).
pub(super) fn read(
    text: &str,
    max_depth: usize,
    room_to_close: bool,
    entries: &mut Vec<Entry>,
    members: &mut Vec<(String, Schema)>,
) -> Option<(Schema, KeywordMask)> {
    // Two readers: the test of whether to keep room is made once, not per object.
    if room_to_close {
        read_with::<true>(text, max_depth, entries, members)
    } else {
        read_with::<false>(text, max_depth, entries, members)
    }
}

/// [`read`], keeping room to close objects where `CLOSE` says so.
fn read_with<const CLOSE: bool>(
    text: &str,
    max_depth: usize,
    entries: &mut Vec<Entry>,
    members: &mut Vec<(String, Schema)>,
) -> Option<(Schema, KeywordMask)> {
    let mut r = Reader::<CLOSE> {
        cur: Cursor::new(text),
        max_depth,
        entries,
        members,
        held: 0,
    };
    let schema = r.schema(0)?;
    r.cur.at_end().then_some((schema, KeywordMask(r.held)))
}

/// `CLOSE`: [`crate::ParseOptions::room_to_close`].
struct Reader<'i, 's, const CLOSE: bool> {
    cur: Cursor<'i>,
    max_depth: usize,
    /// The entries of the schema objects being read, innermost last.
    entries: &'s mut Vec<Entry>,
    /// The members of the maps of subschemas being read, innermost last.
    members: &'s mut Vec<(String, Schema)>,
    /// The union of the presence masks of the objects read so far.
    held: u64,
}

impl<const CLOSE: bool> Reader<'_, '_, CLOSE> {
    /// A schema at `depth`: an object or a boolean.
    fn schema(&mut self, depth: usize) -> Option<Schema> {
        match self.cur.peek()? {
            b'{' => self.object(depth).map(Schema::Object),
            _ => self.cur.boolean().map(Schema::Bool),
        }
    }

    /// A schema object at `depth` (the next byte is its `{`).
    fn object(&mut self, depth: usize) -> Option<SchemaObject> {
        if depth > self.max_depth {
            return None;
        }
        self.cur.eat(b'{')?;
        let start = self.entries.len();
        if start == 0 {
            // Room for the entries of most schemas' objects, nested ones included (once per
            // thread: the buffer is kept for the next parse).
            self.entries.reserve(16);
        }
        let mut maybe = 0u64;
        if !self.cur.eat_if(b'}') {
            loop {
                let name = self.cur.string()?;
                self.cur.eat(b':')?;
                let key = Key::from_name(&name);
                let value = match &key {
                    Key::Known(kw) => self.keyword(*kw, depth)?,
                    Key::Other(_) => Value::Raw(self.instance()?),
                };
                push_entry(self.entries, start, &mut maybe, key, value);
                match self.cur.next()? {
                    b',' => {}
                    b'}' => break,
                    _ => return None,
                }
            }
        }
        self.held |= maybe;
        Some(if CLOSE {
            object_to_close(self.entries, start, maybe)
        } else {
            object_of(self.entries, start, maybe)
        })
    }

    /// A known keyword's value, in its object at `depth`.
    fn keyword(&mut self, keyword: Keyword, depth: usize) -> Option<Value> {
        let shape = keyword.shape();
        let next = self.cur.peek()?;
        Some(match (shape, next) {
            (Shape::Schema | Shape::SchemaOrArray, b'{' | b't' | b'f') => {
                Value::Schema(Box::new(self.schema(depth + 1)?))
            }
            (Shape::SchemaArray | Shape::SchemaOrArray, b'[') => {
                let mut items = Vec::new();
                self.array(|r| {
                    items.push(r.schema(depth + 1)?);
                    Some(())
                })?;
                Value::Schemas(items)
            }
            (Shape::SchemaMap, b'{') => Value::SchemaMap(self.schema_map(depth)?),
            (Shape::Dependencies, b'{') => Value::Dependencies(self.dependencies(depth)?),
            (Shape::String, b'"') => Value::String(self.cur.string()?.into_owned()),
            (Shape::Type, b'"') => Value::Type(TypeSet::Single(InstanceType::from_name(
                &self.cur.string()?,
            )?)),
            (Shape::Type, b'[') => {
                let mut types = Vec::new();
                self.array(|r| {
                    types.push(InstanceType::from_name(&r.cur.string()?)?);
                    Some(())
                })?;
                Value::Type(TypeSet::List(types))
            }
            (Shape::StringArray, b'[') => Value::Strings(self.strings()?),
            (Shape::InstanceArray, b'[') => {
                let mut items = Vec::new();
                self.array(|r| {
                    items.push(r.instance()?);
                    Some(())
                })?;
                Value::Instances(items)
            }
            (
                Shape::Number
                | Shape::NumberOrBool
                | Shape::Bool
                | Shape::StringArrayMap
                | Shape::Instance,
                _,
            ) => interpret(shape, self.cur.skip_value()?)?,
            _ => return None,
        })
    }

    /// The members of a map of subschemas (`properties`, `$defs`, ...) in an object at
    /// `depth`: duplicate names as serde_json's map reads them (the last value at the first
    /// place).
    fn schema_map(&mut self, depth: usize) -> Option<SchemaMap> {
        let start = self.members.len();
        if start == 0 {
            // As for the entries: room for most schemas' maps, once per thread.
            self.members.reserve(16);
        }
        self.members_of(|r, name| {
            let s = r.schema(depth + 1)?;
            r.members.push((name, s));
            Some(())
        })?;
        Some(self.members.drain(start..).collect())
    }

    /// A draft-07 `dependencies` map in an object at `depth`.
    fn dependencies(&mut self, depth: usize) -> Option<IndexMap<String, Dependency>> {
        let mut out = IndexMap::new();
        self.members_of(|r, name| {
            let dep = match r.cur.peek()? {
                b'[' => Dependency::Required(r.strings()?),
                _ => Dependency::Schema(r.schema(depth + 1)?),
            };
            out.insert(name, dep);
            Some(())
        })?;
        Some(out)
    }

    /// An array of strings.
    fn strings(&mut self) -> Option<Vec<String>> {
        let mut out = Vec::new();
        self.array(|r| {
            out.push(r.cur.string()?.into_owned());
            Some(())
        })?;
        Some(out)
    }

    /// Any value, kept as it is spelled (minified).
    fn instance(&mut self) -> Option<Instance> {
        self.cur.skip_value().map(Instance::from_valid)
    }

    /// An array (the next byte is its `[`): `each` reads one element.
    fn array(&mut self, mut each: impl FnMut(&mut Self) -> Option<()>) -> Option<()> {
        self.cur.eat(b'[')?;
        if self.cur.eat_if(b']') {
            return Some(());
        }
        loop {
            each(self)?;
            match self.cur.next()? {
                b',' => {}
                b']' => return Some(()),
                _ => return None,
            }
        }
    }

    /// An object (the next byte is its `{`) of members `each` reads, given the name.
    fn members_of(&mut self, mut each: impl FnMut(&mut Self, String) -> Option<()>) -> Option<()> {
        self.cur.eat(b'{')?;
        if self.cur.eat_if(b'}') {
            return Some(());
        }
        loop {
            let name = self.cur.string()?.into_owned();
            self.cur.eat(b':')?;
            each(self, name)?;
            match self.cur.next()? {
                b',' => {}
                b'}' => return Some(()),
                _ => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests;
