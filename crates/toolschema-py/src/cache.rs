//! The results of recent `sanitize` / `sanitize_json` calls, kept per process: agent
//! frameworks send the same tool schemas on every model request, and the engine's result is
//! determined by the schema, the profile, the slot and `encode` (sanitizing is
//! deterministic), so a schema met again is answered without the engine.
//!
//! - JSON text (`str`, `bytes`) is found by its hash (which Python keeps in the object) and
//!   compared whole.
//! - A `dict` is found by identity (the cache holds a reference, so the identity stays its
//!   own) and then compared with the [`Node`] snapshot taken when it was sanitized: a dict
//!   changed in place since is sanitized again.
//! - At most [`DEFAULT_CAPACITY`] entries (`toolschema.set_cache_capacity`; 0 turns the cache
//!   off) and [`MAX_BYTES`] of input text; the oldest entry goes first. Inputs over
//!   [`MAX_ENTRY_BYTES`] are not kept, nor values a snapshot cannot take (subclasses of the
//!   built-in types, tuples, more than 128 levels).
//!
//! The lock is never held across a call into Python (a finalizer that runs there could
//! sanitize too): entries are taken out and put in under it, compared and dropped outside it.

use crate::from_dict;
use crate::from_tree::to_python_tree;
use crate::input::{self, Kind};
use crate::providers::Chosen;
use crate::snapshot::{Node, Recorder};
use crate::template::Template;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyDict, PyString};
use std::collections::{HashMap, VecDeque};
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// Entries kept by default.
pub const DEFAULT_CAPACITY: usize = 1024;
/// The input text all entries may hold together.
pub const MAX_BYTES: usize = 32 << 20;
/// The largest input kept.
pub const MAX_ENTRY_BYTES: usize = 1 << 20;

/// The engine's answer for one input, shared by every `Sanitized` made from it.
pub struct Done {
    /// The engine's result.
    pub out: provider_rules::Sanitized,
    /// The output JSON text, once written (from the start when the input's text is it).
    pub json: OnceLock<String>,
    /// [`Done::json`] as a `str`, made once.
    json_py: PyOnceLock<Py<PyString>>,
    /// The output dict's shape, taken on its second conversion (copies are made from it).
    output: PyOnceLock<Template>,
    /// How many times the output dict was converted from the tree (up to 2).
    converted: AtomicU8,
    /// The last copy made from [`Done::output`], kept to go out again once its caller has let
    /// go of it (see [`Done::fresh_schema`]).
    last: Mutex<Option<Py<PyAny>>>,
}

impl Done {
    fn new(out: provider_rules::Sanitized) -> Done {
        Done {
            out,
            json: OnceLock::new(),
            json_py: PyOnceLock::new(),
            output: PyOnceLock::new(),
            converted: AtomicU8::new(0),
            last: Mutex::new(None),
        }
    }

    /// The output JSON text.
    pub fn json_text(&self) -> &str {
        self.json.get_or_init(|| self.out.schema.to_json_string())
    }

    /// The output JSON text as a `str` (the same object every time: `str` is immutable).
    pub fn json_str<'py>(&self, py: Python<'py>) -> Bound<'py, PyString> {
        self.json_py
            .get_or_init(py, || PyString::new(py, self.json_text()).unbind())
            .bind(py)
            .clone()
    }

    /// A new dict (or bool) of the output: from the engine's tree the first two times, then
    /// copied from the shape taken the second time (a result read again and again is one
    /// served from the cache).
    ///
    /// The last copy made is kept: when nothing but this holds it or any container in it any
    /// more (its caller let it go) and it still reads as made ([`Template::untouched`]), it
    /// goes out again instead of a new copy, which no one can tell from one, at the cost of
    /// a walk over it (a copy, and freeing the one let go, cost about three).
    pub fn fresh_schema<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        if let Some(shape) = self.output.get(py) {
            return self.copy(py, shape);
        }
        let v = to_python_tree(py, &self.out.schema)?;
        if self.converted.fetch_add(1, Ordering::Relaxed) >= 1
            && let Some(shape) = Template::of(&v)
        {
            let _ = self.output.set(py, shape);
        }
        Ok(v)
    }

    /// A copy of the output from `shape`: the last one made when it may go out again.
    fn copy<'py>(&self, py: Python<'py>, shape: &Template) -> PyResult<Bound<'py, PyAny>> {
        let last = lock(&self.last).take();
        if let Some(v) = last.map(|v| v.into_bound(py)) {
            // One reference: this one. The walk runs no Python code, so nothing can take
            // one between it and the handing out.
            if crate::template::references(&v) == 1 && shape.untouched(&v) {
                let _none = lock(&self.last).replace(v.clone().unbind());
                return Ok(v);
            }
        }
        let v = shape.make(py)?;
        // Whatever another thread put there meanwhile is let go of outside the lock.
        let previous = lock(&self.last).replace(v.clone().unbind());
        drop(previous);
        Ok(v)
    }
}

/// Locks `m` (a poisoned lock's value is still good: it is replaced whole).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// What an entry is found by.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    /// The profile's rules, by address (the entry holds the profile, so the address stays
    /// its own).
    rules: usize,
    slot: provider_rules::Slot,
    encode: bool,
    by: By,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum By {
    /// A `dict`, by identity.
    Object(usize),
    /// A `str`, by hash.
    Str(isize),
    /// A `bytes`, by hash.
    Bytes(isize),
}

struct Entry {
    /// The input object (kept alive, so its identity is not reused).
    input: Py<PyAny>,
    /// For a dict: its shape when it was sanitized.
    shape: Option<Node>,
    /// Keeps a custom profile alive (see [`Key::rules`]).
    _chosen: Chosen,
    done: Arc<Done>,
    bytes: usize,
}

/// The keys' hasher: a key is a few words already spread (an address, or Python's own SipHash
/// of the text), so one multiply per word mixes them enough; the standard SipHash cost more
/// than the rest of a lookup.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.write_u64(u64::from(*b));
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }

    fn write_isize(&mut self, n: isize) {
        self.write_u64(n as u64);
    }

    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n));
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

static HITS: AtomicU64 = AtomicU64::new(0);
static MISSES: AtomicU64 = AtomicU64::new(0);

struct Cache {
    map: HashMap<Key, Arc<Entry>, BuildHasherDefault<KeyHasher>>,
    /// Keys, oldest first.
    order: VecDeque<Key>,
    capacity: usize,
    bytes: usize,
}

static CACHE: Mutex<Option<Cache>> = Mutex::new(None);

/// Runs `f` on the cache under its lock (never calling into Python inside).
fn with<T>(f: impl FnOnce(&mut Cache) -> T) -> T {
    let mut guard = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    let cache = guard.get_or_insert_with(|| Cache {
        map: HashMap::default(),
        order: VecDeque::new(),
        capacity: DEFAULT_CAPACITY,
        bytes: 0,
    });
    f(cache)
}

impl Cache {
    /// Puts `e` in under `key`; returns what it pushed out (to be dropped outside the lock).
    fn insert(&mut self, key: Key, e: Arc<Entry>) -> Vec<Arc<Entry>> {
        let mut out = Vec::new();
        if self.capacity == 0 {
            out.push(e);
            return out;
        }
        self.bytes += e.bytes;
        match self.map.insert(key, e) {
            Some(old) => {
                self.bytes -= old.bytes;
                out.push(old);
            }
            None => self.order.push_back(key),
        }
        while self.map.len() > self.capacity || self.bytes > MAX_BYTES {
            let Some(k) = self.order.pop_front() else {
                break;
            };
            if let Some(old) = self.map.remove(&k) {
                self.bytes -= old.bytes;
                out.push(old);
            }
        }
        out
    }

    fn clear(&mut self) -> Vec<Arc<Entry>> {
        self.order.clear();
        self.bytes = 0;
        self.map.drain().map(|(_, e)| e).collect()
    }
}

/// What the engine is run on: JSON text, or a dict already read into its tree.
pub enum Source<'t> {
    /// JSON text (as it came, or written from a value).
    Text(&'t [u8]),
    /// A dict read straight into the tree ([`crate::from_dict`]).
    Tree(from_dict::Built),
}

/// The result for `schema` (how it came, and the engine's answer): from the cache when it
/// was sanitized before with the same profile, slot and options, else from the engine (and
/// kept). `run` is the engine call on the input: a dict is read straight into the engine's
/// tree where [`from_dict`] can, else written to JSON text.
pub fn sanitized(
    py: Python<'_>,
    schema: &Bound<'_, PyAny>,
    chosen: &Chosen,
    slot: provider_rules::Slot,
    encode: bool,
    run: impl FnOnce(Source<'_>) -> PyResult<provider_rules::Sanitized>,
) -> PyResult<(Kind, Arc<Done>)> {
    let mut key = key_of(schema, chosen, slot, encode);
    let found = match key {
        Some(k) => with(|c| {
            if c.capacity == 0 {
                key = None;
            }
            c.map.get(&k).cloned()
        }),
        None => None,
    };
    if let (Some(key), Some(e)) = (key, found)
        && same_input(&e, schema)
    {
        HITS.fetch_add(1, Ordering::Relaxed);
        let kind = match key.by {
            By::Object(_) => Kind::Value,
            By::Str(_) => Kind::Str,
            By::Bytes(_) => Kind::Bytes,
        };
        return Ok((kind, e.done.clone()));
    }
    // A dict's shape is taken while it is read (into the tree, or to JSON text), before the
    // engine runs (which may let other threads run).
    let snapshot = matches!(key.map(|k| k.by), Some(By::Object(_)));
    let mut recorder = snapshot.then(Recorder::default);
    let tree = match schema.cast::<PyDict>() {
        Ok(d) => from_dict::build(d, recorder.as_mut()),
        Err(_) => None,
    };
    let (out, kind, bytes, recorder) = match tree {
        Some(built) => {
            let bytes = built.size;
            (run(Source::Tree(built))?, Kind::Value, bytes, recorder)
        }
        None => {
            // Read again from the start, the snapshot too.
            let mut recorder = snapshot.then(Recorder::default);
            let input = input::read_schema_shaped(schema, recorder.as_mut())
                .map_err(|e| e.into_py_err(py))?;
            let out = run(Source::Text(input.text()))?;
            let (kind, bytes) = (input.kind, input.text().len());
            if out.report.is_empty() && kind != Kind::Str {
                // The output's text is the input's (the `str` is kept as it came).
                let done = Done::new(out);
                let _ = done.json.set(input.into_string());
                return Ok((kind, keep(schema, chosen, key, recorder, bytes, done)));
            }
            (out, kind, bytes, recorder)
        }
    };
    Ok((
        kind,
        keep(schema, chosen, key, recorder, bytes, Done::new(out)),
    ))
}

/// Puts `done` into the cache under `key` (when it can be kept) and hands it back.
fn keep(
    schema: &Bound<'_, PyAny>,
    chosen: &Chosen,
    key: Option<Key>,
    recorder: Option<Recorder>,
    bytes: usize,
    done: Done,
) -> Arc<Done> {
    let shape = recorder
        .and_then(Recorder::finish)
        .filter(|_| bytes <= MAX_ENTRY_BYTES);
    let done = Arc::new(done);
    let keep = match key {
        Some(k) if matches!(k.by, By::Object(_)) => shape.is_some().then_some(k),
        Some(k) if bytes <= MAX_ENTRY_BYTES => Some(k),
        _ => None,
    };
    if let Some(key) = keep {
        let e = Arc::new(Entry {
            input: schema.clone().unbind(),
            shape,
            _chosen: chosen.clone(),
            done: done.clone(),
            bytes,
        });
        let dropped = with(|c| c.insert(key, e));
        drop(dropped);
    }
    MISSES.fetch_add(1, Ordering::Relaxed);
    done
}

/// The key `schema` is cached under, if it can be (an exact `dict`, `str` or `bytes`).
fn key_of(
    schema: &Bound<'_, PyAny>,
    chosen: &Chosen,
    slot: provider_rules::Slot,
    encode: bool,
) -> Option<Key> {
    let by = if schema.is_exact_instance_of::<PyDict>() {
        By::Object(schema.as_ptr() as usize)
    } else if schema.is_exact_instance_of::<PyString>() {
        By::Str(schema.hash().ok()?)
    } else if schema.is_exact_instance_of::<PyBytes>() {
        By::Bytes(schema.hash().ok()?)
    } else {
        return None;
    };
    Some(Key {
        rules: std::ptr::from_ref(chosen.rules()) as usize,
        slot,
        encode,
        by,
    })
}

/// Whether the entry's input is `schema` still (a dict: unchanged since; text: equal).
fn same_input(e: &Entry, schema: &Bound<'_, PyAny>) -> bool {
    let kept = e.input.bind(schema.py());
    match &e.shape {
        Some(shape) => kept.is(schema) && shape.matches(schema),
        None => {
            kept.is(schema)
                || (kept.get_type().is(schema.get_type()) && kept.eq(schema).unwrap_or(false))
        }
    }
}

/// The cache's figures: `entries`, `capacity`, `bytes` (input text held), `hits`, `misses`.
///
/// ```text
/// >>> toolschema.cache_info()["capacity"]
/// 1024
/// ```
#[pyfunction]
pub fn cache_info(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let (entries, capacity, bytes) = with(|c| (c.map.len(), c.capacity, c.bytes));
    let hits = HITS.load(Ordering::Relaxed);
    let misses = MISSES.load(Ordering::Relaxed);
    let d = PyDict::new(py);
    d.set_item("entries", entries)?;
    d.set_item("capacity", capacity)?;
    d.set_item("bytes", bytes)?;
    d.set_item("hits", hits)?;
    d.set_item("misses", misses)?;
    Ok(d)
}

/// Empties the cache (and zeroes its counters).
#[pyfunction]
pub fn cache_clear() {
    HITS.store(0, Ordering::Relaxed);
    MISSES.store(0, Ordering::Relaxed);
    let dropped = with(Cache::clear);
    drop(dropped);
}

/// Sets how many results the cache keeps (0: none, the cache is off); returns the previous
/// capacity.
#[pyfunction]
pub fn set_cache_capacity(entries: usize) -> usize {
    let (previous, dropped) = with(|c| {
        let previous = c.capacity;
        c.capacity = entries;
        let mut dropped = Vec::new();
        while c.map.len() > entries {
            let Some(k) = c.order.pop_front() else {
                break;
            };
            if let Some(old) = c.map.remove(&k) {
                c.bytes -= old.bytes;
                dropped.push(old);
            }
        }
        (previous, dropped)
    });
    drop(dropped);
    previous
}
