//! A Python dict straight to the engine's schema tree, with no JSON text in between: the tree
//! schema-core's parser would make of the JSON text the dict is written as (`to_json`), built
//! from the dict's own objects (keys matched to keywords, each string copied once).
//!
//! Only what the parser reads without a decision of its own is built here: every known
//! keyword's value of the JSON type its [`Shape`] asks for, at most 64 schema levels deep.
//! Anything else (a keyword's value of the wrong type, which the parser keeps verbatim and
//! reports; a subtree the parser would cut at its depth limit; a tuple or an `int` beyond 64
//! bits in a schema's own place; a value `to_json` refuses) ends the build with `None`, and the
//! caller takes the JSON path instead, whose parser makes those decisions. So the tree built
//! here is the parser's, and the engine's result the same to the byte (`test_from_dict.py`
//! compares both paths over every corpus schema and profile).
//!
//! Instance values (`enum`, `const`, `default`, unknown keywords) are written as the JSON text
//! `to_json` writes, which the parser would have kept as they are.

use crate::names::{Names, Seen, names};
use crate::snapshot::Recorder;
use crate::to_json;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString};
use schema_core::{
    Dependency, Instance, InstanceType, Key, Keyword, Parsed, Schema, SchemaObject, Shape, TypeSet,
    Value, schema_map_with_capacity,
};
use serde_json::Number;

/// The deepest schema level the parser keeps (its default `max_depth`): a dict below it is
/// left to the JSON path, whose parser cuts it and reports the cut.
const MAX_DEPTH: usize = 64;

/// A dict read into the engine's tree.
pub struct Built {
    /// The tree, as the parser would hand it over (it reported nothing).
    pub parsed: Parsed,
    /// About how many bytes of JSON text the dict is (for the result cache's budget, and
    /// whether to run the engine without the GIL).
    pub size: usize,
}

/// `d` as the engine's tree, its snapshot (when `shape` is given) taken in the same pass;
/// `None` when the dict holds something only the parser decides (see the module docs). After
/// `None`, `shape` holds a partial walk: the caller starts a new one.
pub fn build(d: &Bound<'_, PyDict>, shape: Option<&mut Recorder>) -> Option<Built> {
    let mut b = Builder {
        names: names(d.py()),
        seen: Seen::default(),
        shape,
        size: 0,
        buf: Vec::new(),
    };
    b.met(None, d.as_any());
    let schema = b.object(d, 0)?;
    b.closed();
    Some(Built {
        parsed: Parsed {
            schema,
            diagnostics: Vec::new(),
            // Not gathered here: the engine's searches of the tree run.
            keywords: schema_core::KeywordMask::ALL,
        },
        size: b.size,
    })
}

/// One build: the snapshot being taken, the size so far, a buffer for instance text.
struct Builder<'s> {
    names: &'s Names,
    /// The keys and type names looked up in this read (the dict holds them all).
    seen: Seen,
    shape: Option<&'s mut Recorder>,
    size: usize,
    buf: Vec<u8>,
}

/// A `str`'s UTF-8, in the `bytes` Python makes of it (under the 3.9 limited API a `str`
/// cannot lend its own).
fn utf8<'py>(s: &Bound<'py, PyAny>) -> Option<Bound<'py, PyBytes>> {
    s.cast::<PyString>().ok()?.encode_utf8().ok()
}

/// The text of [`utf8`]'s bytes.
fn text_of<'a>(b: &'a Bound<'_, PyBytes>) -> Option<&'a str> {
    std::str::from_utf8(b.as_bytes()).ok()
}

impl Builder<'_> {
    /// `v` met under `key` (the snapshot's step; a dict or list stays open until
    /// [`Builder::closed`]).
    fn met(&mut self, key: Option<&Bound<'_, PyAny>>, v: &Bound<'_, PyAny>) {
        if let Some(r) = self.shape.as_deref_mut() {
            r.met(key, v);
        }
    }

    /// The innermost dict or list met has ended.
    fn closed(&mut self) {
        if let Some(r) = self.shape.as_deref_mut() {
            r.closed();
        }
    }

    /// A schema object at `depth` (its entries; the dict itself was met by the caller).
    fn object(&mut self, d: &Bound<'_, PyDict>, depth: usize) -> Option<Schema> {
        if depth > MAX_DEPTH {
            return None;
        }
        let mut o = SchemaObject::new();
        for (k, v) in d.iter() {
            // A keyword key is found by its hash, with no copy of its text.
            let (key, value) = match self.names.keyword(&k, &mut self.seen) {
                Some(kw) => {
                    self.size += kw.as_str().len() + 4;
                    (Key::Known(kw), self.keyword(kw, &k, &v, depth)?)
                }
                None => {
                    let bytes = utf8(&k)?;
                    let name = text_of(&bytes)?;
                    self.size += name.len() + 4;
                    let key = Key::from_name(name);
                    let value = match &key {
                        Key::Known(kw) => self.keyword(*kw, &k, &v, depth)?,
                        Key::Other(_) => Value::Raw(self.instance(Some(&k), &v)?),
                    };
                    (key, value)
                }
            };
            o.insert_key(key, value);
        }
        Some(Schema::Object(o))
    }

    /// A subschema's place: a dict (a schema object one level down) or a bool.
    fn subschema(
        &mut self,
        key: Option<&Bound<'_, PyAny>>,
        v: &Bound<'_, PyAny>,
        depth: usize,
    ) -> Option<Schema> {
        if let Ok(b) = v.cast::<PyBool>() {
            self.met(key, v);
            self.size += 5;
            return Some(Schema::Bool(b.is_true()));
        }
        let d = v.cast::<PyDict>().ok()?;
        self.met(key, v);
        let s = self.object(d, depth + 1)?;
        self.closed();
        Some(s)
    }

    /// A list's items, each read by `item` (the list met under `key` and closed around them).
    fn list<T>(
        &mut self,
        key: Option<&Bound<'_, PyAny>>,
        v: &Bound<'_, PyAny>,
        mut item: impl FnMut(&mut Self, &Bound<'_, PyAny>) -> Option<T>,
    ) -> Option<Vec<T>> {
        let l = v.cast::<PyList>().ok()?;
        self.met(key, v);
        let mut out = Vec::with_capacity(l.len());
        for x in l.iter() {
            out.push(item(self, &x)?);
        }
        self.closed();
        Some(out)
    }

    /// A string's copy (met under `key`).
    fn string(&mut self, key: Option<&Bound<'_, PyAny>>, v: &Bound<'_, PyAny>) -> Option<String> {
        let bytes = utf8(v)?;
        let s = text_of(&bytes)?;
        self.met(key, v);
        self.size += s.len() + 3;
        Some(s.to_owned())
    }

    /// A type name.
    fn type_name(
        &mut self,
        key: Option<&Bound<'_, PyAny>>,
        v: &Bound<'_, PyAny>,
    ) -> Option<InstanceType> {
        let t = match self.names.type_name(v, &mut self.seen) {
            Some(t) => t,
            None => InstanceType::from_name(text_of(&utf8(v)?)?)?,
        };
        self.met(key, v);
        self.size += 9;
        Some(t)
    }

    /// A number as the parser reads the text `to_json` writes of it: an `int` exactly, a
    /// finite `float` as itself (its shortest spelling reads back as the same double).
    fn number(&mut self, key: &Bound<'_, PyAny>, v: &Bound<'_, PyAny>) -> Option<Number> {
        let n = if v.is_instance_of::<PyBool>() {
            return None;
        } else if let Ok(i) = v.cast::<PyInt>() {
            Number::from(i.extract::<i64>().ok()?)
        } else {
            let x = v.cast::<PyFloat>().ok()?.value();
            Number::from_f64(x).filter(|_| x.is_finite())?
        };
        self.met(Some(key), v);
        self.size += 8;
        Some(n)
    }

    /// A bool.
    fn boolean(&mut self, key: &Bound<'_, PyAny>, v: &Bound<'_, PyAny>) -> Option<bool> {
        let b = v.cast::<PyBool>().ok()?.is_true();
        self.met(Some(key), v);
        self.size += 5;
        Some(b)
    }

    /// An instance value: the JSON text `to_json` writes of it, as the parser keeps it.
    fn instance(
        &mut self,
        key: Option<&Bound<'_, PyAny>>,
        v: &Bound<'_, PyAny>,
    ) -> Option<Instance> {
        self.buf.clear();
        let written = to_json::write_under(v, key, &mut self.buf, self.shape.as_deref_mut());
        // Writing an `int` beyond 64 bits calls its `__str__` (a subclass's runs Python).
        self.seen.forget();
        written.ok()?;
        self.size += self.buf.len() + 1;
        Instance::from_json(std::str::from_utf8(&self.buf).ok()?).ok()
    }

    /// A dict of names to what `item` reads (met under `key` and closed around them).
    fn map<T>(
        &mut self,
        key: &Bound<'_, PyAny>,
        v: &Bound<'_, PyAny>,
        mut item: impl FnMut(&mut Self, &Bound<'_, PyAny>, &Bound<'_, PyAny>) -> Option<T>,
        mut put: impl FnMut(String, T),
    ) -> Option<()> {
        let d = v.cast::<PyDict>().ok()?;
        self.met(Some(key), v);
        for (k, x) in d.iter() {
            let bytes = utf8(&k)?;
            let name = text_of(&bytes)?.to_owned();
            self.size += name.len() + 4;
            let t = item(self, &k, &x)?;
            put(name, t);
        }
        self.closed();
        Some(())
    }

    /// A known keyword's value, of the type its shape asks for (`None` for any other).
    fn keyword(
        &mut self,
        kw: Keyword,
        key: &Bound<'_, PyAny>,
        v: &Bound<'_, PyAny>,
        depth: usize,
    ) -> Option<Value> {
        let key = Some(key);
        Some(match kw.shape() {
            Shape::Schema => Value::Schema(Box::new(self.subschema(key, v, depth)?)),
            Shape::SchemaOrArray if !v.is_instance_of::<PyList>() => {
                Value::Schema(Box::new(self.subschema(key, v, depth)?))
            }
            Shape::SchemaArray | Shape::SchemaOrArray => {
                Value::Schemas(self.list(key, v, |b, x| b.subschema(None, x, depth))?)
            }
            Shape::SchemaMap => {
                let n = v.cast::<PyDict>().ok()?.len();
                let mut m = schema_map_with_capacity(n);
                self.map(
                    key?,
                    v,
                    |b, k, x| b.subschema(Some(k), x, depth),
                    |name, s| {
                        m.insert(name, s);
                    },
                )?;
                Value::SchemaMap(m)
            }
            Shape::Dependencies => {
                let mut m = indexmap::IndexMap::new();
                self.map(
                    key?,
                    v,
                    |b, k, x| {
                        if x.is_instance_of::<PyList>() {
                            let names = b.list(Some(k), x, |b, s| b.string(None, s))?;
                            Some(Dependency::Required(names))
                        } else {
                            b.subschema(Some(k), x, depth).map(Dependency::Schema)
                        }
                    },
                    |name, d| {
                        m.insert(name, d);
                    },
                )?;
                Value::Dependencies(m)
            }
            Shape::Type if v.is_instance_of::<PyList>() => {
                Value::Type(TypeSet::List(
                    self.list(key, v, |b, x| b.type_name(None, x))?,
                ))
            }
            Shape::Type => Value::Type(TypeSet::Single(self.type_name(key, v)?)),
            Shape::String => Value::String(self.string(key, v)?),
            Shape::Number => Value::Number(self.number(key?, v)?),
            Shape::NumberOrBool if v.is_instance_of::<PyBool>() => {
                Value::Bool(self.boolean(key?, v)?)
            }
            Shape::NumberOrBool => Value::Number(self.number(key?, v)?),
            Shape::Bool => Value::Bool(self.boolean(key?, v)?),
            Shape::StringArray => Value::Strings(self.list(key, v, |b, x| b.string(None, x))?),
            Shape::StringArrayMap => {
                let n = v.cast::<PyDict>().ok()?.len();
                let mut m = indexmap::IndexMap::with_capacity(n);
                self.map(
                    key?,
                    v,
                    |b, k, x| b.list(Some(k), x, |b, s| b.string(None, s)),
                    |name, names| {
                        m.insert(name, names);
                    },
                )?;
                Value::StringsMap(m)
            }
            Shape::Instance => Value::Instance(self.instance(key, v)?),
            Shape::InstanceArray => {
                Value::Instances(self.list(key, v, |b, x| b.instance(None, x))?)
            }
        })
    }
}
