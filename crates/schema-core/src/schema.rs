//! The typed model: [`Schema`], [`SchemaObject`] and the typed keyword values.

use crate::instance::Instance;
use crate::keyword::Keyword;
use crate::keyword_mask::{KeywordMask, maybe_bit};
use indexmap::IndexMap;
use serde_json::Number;

pub use crate::types::{InstanceType, TypeSet};

/// A map of names to subschemas (`properties`, `$defs`, ...), in document order.
///
/// Its names are hashed with [`NameHasher`] (build one with `SchemaMap::default()` or
/// [`schema_map_with_capacity`]):
///
/// ```
/// use schema_core::{Schema, SchemaMap};
/// let mut m = SchemaMap::default();
/// m.insert("b".to_owned(), Schema::Bool(true));
/// m.insert("a".to_owned(), Schema::Bool(false));
/// assert_eq!(m.keys().collect::<Vec<_>>(), ["b", "a"]);
/// ```
pub type SchemaMap = IndexMap<String, Schema, NameHasher>;

/// The hasher of a [`SchemaMap`]'s names: foldhash, seeded at random per map (names come from
/// third-party schemas: a fixed hash would let one craft names that all collide), several
/// times cheaper than the standard library's SipHash on short names. The order of a map is
/// its insertion order, never the hash's, so output stays deterministic.
pub type NameHasher = foldhash::fast::RandomState;

/// An empty [`SchemaMap`] with room for `n` members.
///
/// ```
/// let m = schema_core::schema_map_with_capacity(8);
/// assert!(m.is_empty() && m.capacity() >= 8);
/// ```
pub fn schema_map_with_capacity(n: usize) -> SchemaMap {
    SchemaMap::with_capacity_and_hasher(n, NameHasher::default())
}

/// A JSON Schema: a boolean schema or a schema object.
///
/// ```
/// use schema_core::Schema;
/// let s = Schema::from_str(r#"{"type": "object", "properties": {"q": {"type": "string"}}}"#)?;
/// assert!(s.as_object().unwrap().properties().unwrap().contains_key("q"));
/// assert_eq!(s.to_json_string(), r#"{"type":"object","properties":{"q":{"type":"string"}}}"#);
/// # Ok::<(), schema_core::SchemaError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Schema {
    /// `true` (accepts everything) or `false` (accepts nothing).
    Bool(bool),
    /// A schema object.
    Object(SchemaObject),
}

impl Default for Schema {
    fn default() -> Schema {
        Schema::Object(SchemaObject::default())
    }
}

impl Schema {
    /// The schema object, if this is not a boolean schema.
    #[inline]
    pub fn as_object(&self) -> Option<&SchemaObject> {
        match self {
            Schema::Object(o) => Some(o),
            Schema::Bool(_) => None,
        }
    }

    /// The schema object, mutably.
    #[inline]
    pub fn as_object_mut(&mut self) -> Option<&mut SchemaObject> {
        match self {
            Schema::Object(o) => Some(o),
            Schema::Bool(_) => None,
        }
    }

    /// Turns a boolean schema into its object equivalent (`true` → `{}`, `false` →
    /// `{"not": {}}`) and returns the object.
    #[inline]
    pub fn make_object(&mut self) -> &mut SchemaObject {
        if let Schema::Bool(b) = *self {
            *self = Schema::Object(bool_object(b));
        }
        match self {
            Schema::Object(o) => o,
            // Just made an object above.
            Schema::Bool(_) => unreachable!("make_object produced an object"),
        }
    }

    /// Whether the schema accepts every instance with no keyword at all (`true` or `{}`).
    pub fn is_empty_schema(&self) -> bool {
        match self {
            Schema::Bool(b) => *b,
            Schema::Object(o) => o.is_empty(),
        }
    }
}

/// The object a boolean schema says ([`Schema::make_object`], out of line: most nodes are
/// objects already).
#[cold]
fn bool_object(b: bool) -> SchemaObject {
    let mut o = SchemaObject::default();
    if !b {
        o.insert(Keyword::Not, Value::Schema(Box::default()));
    }
    o
}

impl From<SchemaObject> for Schema {
    fn from(o: SchemaObject) -> Schema {
        Schema::Object(o)
    }
}

/// The key of an entry of a schema object: a known keyword or any other name.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Key {
    /// A keyword with a typed home.
    Known(Keyword),
    /// Anything else (`x-*`, vendor keywords, draft-04 `id`, ...), kept verbatim.
    Other(Box<str>),
}

impl Key {
    /// The key as it is spelled in JSON.
    pub fn as_str(&self) -> &str {
        match self {
            Key::Known(k) => k.as_str(),
            Key::Other(s) => s,
        }
    }

    /// The key for a JSON name.
    pub fn from_name(name: &str) -> Key {
        match Keyword::from_name(name) {
            Some(k) => Key::Known(k),
            None => Key::Other(name.into()),
        }
    }
}

/// A `dependencies` member (draft-04 to draft-07): a subschema or a list of property names.
#[derive(Clone, Debug, PartialEq)]
pub enum Dependency {
    /// `"dependencies": {"a": {...}}`
    Schema(Schema),
    /// `"dependencies": {"a": ["b", "c"]}`
    Required(Vec<String>),
}

/// The typed value of one keyword.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// One subschema.
    Schema(Box<Schema>),
    /// An array of subschemas (also the draft-07 tuple form of `items`).
    Schemas(Vec<Schema>),
    /// A map of names to subschemas.
    SchemaMap(SchemaMap),
    /// The draft-07 `dependencies` map.
    Dependencies(IndexMap<String, Dependency>),
    /// The value of `type`.
    Type(TypeSet),
    /// A string.
    String(String),
    /// A number: exact when it fits `u64`/`i64`, else the nearest `f64` (correctly rounded),
    /// written back in serde_json's spelling (`1e2` → `100.0`; every other value is verbatim).
    Number(Number),
    /// A boolean.
    Bool(bool),
    /// An array of strings.
    Strings(Vec<String>),
    /// A map of names to arrays of strings.
    StringsMap(IndexMap<String, Vec<String>>),
    /// One instance value.
    Instance(Instance),
    /// An array of instance values.
    Instances(Vec<Instance>),
    /// An unknown keyword's value, or a known keyword's value of the wrong JSON type: kept
    /// verbatim, never interpreted.
    Raw(Instance),
}

/// One `key: value` entry of a schema object.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The key.
    pub key: Key,
    /// The value.
    pub value: Value,
}

/// A schema object: its entries in document order.
///
/// Every keyword has a typed [`Value`]; unknown keywords and keywords whose value has the wrong
/// JSON type are kept as [`Value::Raw`], in place. New keywords are appended; removed ones keep
/// the order of the rest.
///
/// ```
/// use schema_core::{Keyword, Schema, Value};
/// let mut s = Schema::from_str(r#"{"x-a": 1, "type": "string", "format": "uri"}"#)?;
/// let o = s.as_object_mut().unwrap();
/// o.remove(Keyword::Format);
/// o.insert(Keyword::Description, Value::String("A link.".into()));
/// assert_eq!(s.to_json_string(), r#"{"x-a":1,"type":"string","description":"A link."}"#);
/// # Ok::<(), schema_core::SchemaError>(())
/// ```
///
/// `Clone`, `PartialEq`, `Debug` and `Drop` never recurse without bound: a tree built by hand
/// 100,000 levels deep is cloned, compared and dropped on a small stack (past
/// [`SchemaObject::RECURSION_LIMIT`] levels they switch to an explicit stack; `Debug` prints
/// `..` there).
#[derive(Default)]
pub struct SchemaObject {
    pub(crate) entries: Vec<Entry>,
    /// Which known keywords may be among the entries: a clear bit (see [`maybe_bit`]) means
    /// the keyword is absent, so the lookup of an absent keyword (most of the engine's lookups)
    /// needs no scan. Bits are never cleared while the object lives: a set bit may be stale and
    /// only means "scan"; [`SchemaObject::entries_mut`], which hands the keys out, sets them all.
    pub(crate) maybe: u64,
}

impl SchemaObject {
    /// An empty schema object (`{}`).
    pub fn new() -> SchemaObject {
        SchemaObject::default()
    }

    /// The entries, in order.
    #[inline]
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The entries, mutably (keys can be changed: keep them unique).
    pub fn entries_mut(&mut self) -> &mut Vec<Entry> {
        // Any key may change: every keyword may now be present.
        self.maybe = u64::MAX;
        &mut self.entries
    }

    /// Whether there is no entry at all.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// How many entries there are.
    #[inline]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    fn position(&self, key: &Key) -> Option<usize> {
        match key {
            Key::Known(kw) => self.position_kw(*kw),
            Key::Other(_) => self.entries.iter().position(|e| &e.key == key),
        }
    }

    #[inline]
    fn position_kw(&self, kw: Keyword) -> Option<usize> {
        if self.maybe & maybe_bit(kw) == 0 {
            return None;
        }
        self.entries
            .iter()
            .position(|e| matches!(e.key, Key::Known(k) if k == kw))
    }

    /// The value of a keyword, whatever its shape (including [`Value::Raw`]).
    #[inline]
    pub fn get(&self, kw: Keyword) -> Option<&Value> {
        self.position_kw(kw).map(|i| &self.entries[i].value)
    }

    /// The value of a keyword, mutably.
    #[inline]
    pub fn get_mut(&mut self, kw: Keyword) -> Option<&mut Value> {
        let i = self.position_kw(kw)?;
        Some(&mut self.entries[i].value)
    }

    /// The keywords the object may hold (its presence mask): a keyword outside it is absent.
    ///
    /// ```
    /// use schema_core::{Keyword, KeywordMask, Schema};
    /// let s = Schema::from_str(r#"{"type": "string", "title": "T"}"#)?;
    /// let held = s.as_object().unwrap().keyword_mask();
    /// assert!(held.intersects(KeywordMask::of(&[Keyword::Title])));
    /// assert!(!held.intersects(KeywordMask::of(&[Keyword::Ref])));
    /// # Ok::<(), schema_core::SchemaError>(())
    /// ```
    #[inline]
    pub fn keyword_mask(&self) -> KeywordMask {
        KeywordMask(self.maybe)
    }

    /// Whether the object may hold one of the keywords of `mask`: `false` means none is here
    /// (one test, no scan); `true` only that one may be (see [`KeywordMask`]).
    ///
    /// ```
    /// use schema_core::{Keyword, KeywordMask, Schema};
    /// let s = Schema::from_str(r#"{"const": 1}"#)?;
    /// let o = s.as_object().unwrap();
    /// assert!(o.may_contain_any(KeywordMask::of(&[Keyword::Const, Keyword::Enum])));
    /// assert!(!o.may_contain_any(KeywordMask::of(&[Keyword::Enum])));
    /// # Ok::<(), schema_core::SchemaError>(())
    /// ```
    #[inline]
    pub fn may_contain_any(&self, mask: KeywordMask) -> bool {
        self.maybe & mask.0 != 0
    }

    /// Whether the keyword is present (with any value).
    #[inline]
    pub fn contains(&self, kw: Keyword) -> bool {
        self.position_kw(kw).is_some()
    }

    /// Sets a keyword: in place when present, appended otherwise. Returns the old value.
    pub fn insert(&mut self, kw: Keyword, value: Value) -> Option<Value> {
        self.insert_key(Key::Known(kw), value)
    }

    /// Sets any key (a keyword or another name). Returns the old value.
    pub fn insert_key(&mut self, key: Key, value: Value) -> Option<Value> {
        match self.position(&key) {
            Some(i) => Some(std::mem::replace(&mut self.entries[i].value, value)),
            None => {
                if let Key::Known(kw) = key {
                    self.maybe |= maybe_bit(kw);
                }
                self.entries.push(Entry { key, value });
                None
            }
        }
    }

    /// Sets a keyword at a position (clamped to the end); replaces it in place when present.
    pub fn insert_at(&mut self, index: usize, kw: Keyword, value: Value) -> Option<Value> {
        match self.position_kw(kw) {
            Some(i) => Some(std::mem::replace(&mut self.entries[i].value, value)),
            None => {
                let index = index.min(self.entries.len());
                self.maybe |= maybe_bit(kw);
                self.entries.insert(
                    index,
                    Entry {
                        key: Key::Known(kw),
                        value,
                    },
                );
                None
            }
        }
    }

    /// Removes a keyword, keeping the order of the others.
    pub fn remove(&mut self, kw: Keyword) -> Option<Value> {
        let i = self.position_kw(kw)?;
        Some(self.entries.remove(i).value)
    }

    /// Removes any key, keeping the order of the others.
    pub fn remove_key(&mut self, key: &Key) -> Option<Value> {
        let i = self.position(key)?;
        Some(self.entries.remove(i).value)
    }

    /// Keeps only the entries for which `keep` returns true.
    pub fn retain(&mut self, keep: impl FnMut(&Entry) -> bool) {
        self.entries.retain(keep)
    }

    /// The value of any key by its JSON name.
    pub fn get_by_name(&self, name: &str) -> Option<&Value> {
        self.entries
            .iter()
            .find(|e| e.key.as_str() == name)
            .map(|e| &e.value)
    }

    /// The entries whose key is a known keyword with a value of the wrong JSON type.
    pub fn malformed(&self) -> impl Iterator<Item = &Entry> {
        self.entries
            .iter()
            .filter(|e| matches!((&e.key, &e.value), (Key::Known(_), Value::Raw(_))))
    }

    /// The entries whose key is not a known keyword.
    pub fn unknown(&self) -> impl Iterator<Item = &Entry> {
        self.entries
            .iter()
            .filter(|e| matches!(e.key, Key::Other(_)))
    }

    // ---- typed accessors -------------------------------------------------------------------

    /// A single-subschema keyword (`not`, `additionalProperties`, `items` when not a tuple...).
    #[inline]
    pub fn schema(&self, kw: Keyword) -> Option<&Schema> {
        match self.get(kw)? {
            Value::Schema(s) => Some(s),
            _ => None,
        }
    }

    /// A single-subschema keyword, mutably.
    #[inline]
    pub fn schema_mut(&mut self, kw: Keyword) -> Option<&mut Schema> {
        match self.get_mut(kw)? {
            Value::Schema(s) => Some(s),
            _ => None,
        }
    }

    /// An array-of-subschemas keyword (`anyOf`, `prefixItems`, tuple `items`...).
    #[inline]
    pub fn schemas(&self, kw: Keyword) -> Option<&[Schema]> {
        match self.get(kw)? {
            Value::Schemas(s) => Some(s),
            _ => None,
        }
    }

    /// An array-of-subschemas keyword, mutably.
    #[inline]
    pub fn schemas_mut(&mut self, kw: Keyword) -> Option<&mut Vec<Schema>> {
        match self.get_mut(kw)? {
            Value::Schemas(s) => Some(s),
            _ => None,
        }
    }

    /// A map-of-subschemas keyword (`properties`, `$defs`...).
    #[inline]
    pub fn schema_map(&self, kw: Keyword) -> Option<&SchemaMap> {
        match self.get(kw)? {
            Value::SchemaMap(m) => Some(m),
            _ => None,
        }
    }

    /// A map-of-subschemas keyword, mutably.
    #[inline]
    pub fn schema_map_mut(&mut self, kw: Keyword) -> Option<&mut SchemaMap> {
        match self.get_mut(kw)? {
            Value::SchemaMap(m) => Some(m),
            _ => None,
        }
    }

    /// A string keyword (`description`, `$ref`, `format`...).
    #[inline]
    pub fn string(&self, kw: Keyword) -> Option<&str> {
        match self.get(kw)? {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// A number keyword (`minimum`, `maxLength`...).
    #[inline]
    pub fn number(&self, kw: Keyword) -> Option<&Number> {
        match self.get(kw)? {
            Value::Number(n) => Some(n),
            _ => None,
        }
    }

    /// A boolean keyword (`uniqueItems`, `nullable`...).
    #[inline]
    pub fn bool(&self, kw: Keyword) -> Option<bool> {
        match self.get(kw)? {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// A string-array keyword (`required`, `propertyOrdering`).
    #[inline]
    pub fn strings(&self, kw: Keyword) -> Option<&[String]> {
        match self.get(kw)? {
            Value::Strings(s) => Some(s),
            _ => None,
        }
    }

    /// A string-array keyword, mutably.
    #[inline]
    pub fn strings_mut(&mut self, kw: Keyword) -> Option<&mut Vec<String>> {
        match self.get_mut(kw)? {
            Value::Strings(s) => Some(s),
            _ => None,
        }
    }

    /// An instance keyword (`const`, `default`, `example`...).
    #[inline]
    pub fn instance(&self, kw: Keyword) -> Option<&Instance> {
        match self.get(kw)? {
            Value::Instance(i) => Some(i),
            _ => None,
        }
    }

    /// An instance-array keyword (`enum`, `examples`).
    #[inline]
    pub fn instances(&self, kw: Keyword) -> Option<&[Instance]> {
        match self.get(kw)? {
            Value::Instances(i) => Some(i),
            _ => None,
        }
    }

    /// An instance-array keyword, mutably.
    #[inline]
    pub fn instances_mut(&mut self, kw: Keyword) -> Option<&mut Vec<Instance>> {
        match self.get_mut(kw)? {
            Value::Instances(i) => Some(i),
            _ => None,
        }
    }

    // ---- named shortcuts -------------------------------------------------------------------

    /// `type`
    #[inline]
    pub fn types(&self) -> Option<&TypeSet> {
        match self.get(Keyword::Type)? {
            Value::Type(t) => Some(t),
            _ => None,
        }
    }

    /// `properties`
    #[inline]
    pub fn properties(&self) -> Option<&SchemaMap> {
        self.schema_map(Keyword::Properties)
    }

    /// `properties`, mutably
    #[inline]
    pub fn properties_mut(&mut self) -> Option<&mut SchemaMap> {
        self.schema_map_mut(Keyword::Properties)
    }

    /// `required`
    #[inline]
    pub fn required(&self) -> Option<&[String]> {
        self.strings(Keyword::Required)
    }

    /// `description`
    #[inline]
    pub fn description(&self) -> Option<&str> {
        self.string(Keyword::Description)
    }

    /// `$ref`
    #[inline]
    pub fn reference(&self) -> Option<&str> {
        self.string(Keyword::Ref)
    }

    /// `enum`
    #[inline]
    pub fn enum_values(&self) -> Option<&[Instance]> {
        self.instances(Keyword::Enum)
    }
}
