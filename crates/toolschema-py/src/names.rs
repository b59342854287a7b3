//! The `str` objects of every keyword and type name, made once per process: written as the
//! result dict's keys and type names (`from_tree`), and the table a dict's keys are found in
//! (`from_dict`) by the hash the `str` keeps, with no UTF-8 copy of a keyword key.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyString;
use schema_core::{InstanceType, Keyword};

/// Slots of the lookup table (a power of two, over twice the names it holds).
const SLOTS: usize = 256;

/// The names, and the table they are found in.
pub struct Names {
    /// The `str` of every keyword, by [`Keyword::index`].
    pub keywords: Vec<Py<PyString>>,
    /// The `str` of every type name, in [`InstanceType::ALL`]'s order.
    pub types: Vec<Py<PyString>>,
    /// Open addressing by the `str`'s hash (linear probing): the name's hash and what it
    /// names, `None` for an empty slot.
    slots: Vec<Option<(isize, Named)>>,
}

/// Slots of a [`Seen`].
const SEEN: usize = 64;

/// The objects looked up during one read of a value, by address, with what each names: a
/// dict from `json.loads` holds one `str` object per distinct key (its decoder shares them),
/// so most of a schema's keys are the objects met before. Only for one read, while the value
/// holds every object met and no Python code runs that could free one: an address is then
/// that object's. (What may run Python code, an `int` subclass's `__str__` in an instance
/// value, is followed by [`Seen::forget`].)
pub struct Seen {
    /// By address: the address, the generation it was met in, what it names.
    slots: [Option<(usize, u32, Option<Named>)>; SEEN],
    /// Entries of an older generation are forgotten.
    generation: u32,
}

impl Default for Seen {
    fn default() -> Seen {
        Seen {
            slots: [None; SEEN],
            generation: 0,
        }
    }
}

impl Seen {
    /// Forgets every object (after Python code may have run, freeing some): one step.
    pub fn forget(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // Wrapped: an entry of generation 0 may be that old.
            self.slots = [None; SEEN];
        }
    }
}

/// What a name in [`Names`] names.
#[derive(Clone, Copy)]
pub(crate) enum Named {
    Keyword(Keyword),
    Type(InstanceType),
}

static NAMES: PyOnceLock<Names> = PyOnceLock::new();

/// The process's names.
pub fn names(py: Python<'_>) -> &Names {
    NAMES.get_or_init(py, || {
        let keywords: Vec<Py<PyString>> = Keyword::ALL
            .iter()
            .map(|k| PyString::intern(py, k.as_str()).unbind())
            .collect();
        let types: Vec<Py<PyString>> = InstanceType::ALL
            .iter()
            .map(|t| PyString::intern(py, t.as_str()).unbind())
            .collect();
        let mut slots = vec![None; SLOTS];
        let named = Keyword::ALL
            .iter()
            .zip(&keywords)
            .map(|(k, s)| (Named::Keyword(*k), s))
            .chain(
                InstanceType::ALL
                    .iter()
                    .zip(&types)
                    .map(|(t, s)| (Named::Type(*t), s)),
            );
        for (what, s) in named {
            // A name whose hash cannot be had is not in the table (found through its text).
            let Ok(hash) = s.bind(py).hash() else {
                continue;
            };
            let mut i = slot(hash);
            while slots[i].is_some() {
                i = (i + 1) % SLOTS;
            }
            slots[i] = Some((hash, what));
        }
        Names {
            keywords,
            types,
            slots,
        }
    })
}

/// Where a hash's probe starts.
fn slot(hash: isize) -> usize {
    (hash as usize) % SLOTS
}

impl Names {
    /// The keyword `key` spells, found by its hash and compared whole: `None` when it names
    /// none (or is not an exact `str`, whose hash could run Python code). `seen` remembers
    /// the objects already looked up in one read of a value (see [`Seen`]).
    pub fn keyword(&self, key: &Bound<'_, PyAny>, seen: &mut Seen) -> Option<Keyword> {
        match self.find(key, seen)? {
            Named::Keyword(k) => Some(k),
            Named::Type(_) => None,
        }
    }

    /// The type name `v` spells (as [`Names::keyword`]).
    pub fn type_name(&self, v: &Bound<'_, PyAny>, seen: &mut Seen) -> Option<InstanceType> {
        match self.find(v, seen)? {
            Named::Type(t) => Some(t),
            Named::Keyword(_) => None,
        }
    }

    fn find(&self, s: &Bound<'_, PyAny>, seen: &mut Seen) -> Option<Named> {
        let at = s.as_ptr() as usize;
        let memo = (at >> 4) % SEEN;
        if let Some((p, generation, what)) = seen.slots[memo]
            && p == at
            && generation == seen.generation
        {
            return what;
        }
        let what = self.look_up(s);
        seen.slots[memo] = Some((at, seen.generation, what));
        what
    }

    fn look_up(&self, s: &Bound<'_, PyAny>) -> Option<Named> {
        if !s.is_exact_instance_of::<PyString>() {
            return None;
        }
        let hash = s.hash().ok()?;
        let mut i = slot(hash);
        // The table is never full: a probe ends at an empty slot.
        while let Some((h, what)) = self.slots[i] {
            if h == hash && self.same(s, what) {
                return Some(what);
            }
            i = (i + 1) % SLOTS;
        }
        None
    }

    /// Whether `s` is the name of `what` (the very interned object, or an equal `str`).
    fn same(&self, s: &Bound<'_, PyAny>, what: Named) -> bool {
        let name = match what {
            Named::Keyword(k) => self.keywords.get(usize::from(k.index())),
            Named::Type(t) => InstanceType::ALL
                .iter()
                .position(|x| *x == t)
                .and_then(|i| self.types.get(i)),
        };
        let Some(name) = name else {
            return false;
        };
        let name = name.bind(s.py());
        s.is(name) || s.eq(name).unwrap_or(false)
    }

    /// The `str` of `t`.
    pub fn type_str<'py>(&self, py: Python<'py>, t: InstanceType) -> Bound<'py, PyAny> {
        let i = InstanceType::ALL.iter().position(|x| *x == t).unwrap_or(0);
        match self.types.get(i) {
            Some(s) => s.bind(py).clone().into_any(),
            None => PyString::new(py, t.as_str()).into_any(),
        }
    }
}
