//! A Python value's shape kept beside it, to tell whether a dict given again is still what it
//! was (the result cache's check). Taken by a [`Recorder`] while the dict is written to JSON
//! text (one pass for both); containers are walked when checked; leaves (`str`, `int`,
//! `float`, `bool`, `None`, all immutable) are kept as the very objects and compared by
//! identity.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString};

/// Container levels a snapshot (or a result's template) takes; a deeper value is not
/// snapshotted (and not cached).
pub const MAX_LEVELS: usize = 128;

/// The shape of a JSON-like Python value of exact built-in types.
pub enum Node {
    /// A `dict` with `str` keys, entries in order.
    Dict(Vec<(Py<PyString>, Node)>),
    /// A `list`.
    List(Vec<Node>),
    /// An immutable leaf: `str`, `int`, `float`, `bool` or `None`.
    Leaf(Py<PyAny>),
}

impl Node {
    /// Whether `v` still reads as the JSON this shape was taken from: the same keys in the
    /// same order, the same leaves. Leaves are compared by identity: the snapshot holds them,
    /// so an object met at the same place is the one snapshotted, and an immutable one reads
    /// as it did; an equal object put there since (`True` for `1`, `-0.0` for `0.0`, an equal
    /// `str`) is sanitized again, never taken for what it replaced. Runs no Python code, and
    /// one pass over each container (the first difference ends it).
    pub fn matches(&self, v: &Bound<'_, PyAny>) -> bool {
        match self {
            Node::Dict(items) => same_entries(v, items, Node::holds),
            Node::List(items) => same_items(v, items, Node::holds),
            Node::Leaf(leaf) => v.is(leaf),
        }
    }

    /// [`Node::matches`] for an item: a leaf compared here (most items are leaves, and a call
    /// per leaf cost a third of the walk).
    #[inline(always)]
    fn holds(&self, x: &Bound<'_, PyAny>) -> bool {
        match self {
            Node::Leaf(leaf) => x.is(leaf),
            _ => self.matches(x),
        }
    }
}

/// Whether `v` is an exact dict of `want`'s entries in order: each key the very key given,
/// each value one `item` accepts (the first difference ends the pass). The one walk of the
/// snapshot's check and of a result template's (`template::Template::untouched`).
#[inline(always)]
pub fn same_entries<T>(
    v: &Bound<'_, PyAny>,
    want: &[(Py<PyString>, T)],
    item: impl Fn(&T, &Bound<'_, PyAny>) -> bool,
) -> bool {
    let Ok(d) = v.cast_exact::<PyDict>() else {
        return false;
    };
    if d.len() != want.len() {
        return false;
    }
    let mut want = want.iter();
    for (k, x) in d.iter() {
        let Some((key, t)) = want.next() else {
            return false;
        };
        if !k.is(key) || !item(t, &x) {
            return false;
        }
    }
    want.next().is_none()
}

/// Whether `v` is an exact list of `want.len()` items, each one `item` accepts.
#[inline(always)]
pub fn same_items<T>(
    v: &Bound<'_, PyAny>,
    want: &[T],
    item: impl Fn(&T, &Bound<'_, PyAny>) -> bool,
) -> bool {
    let Ok(l) = v.cast_exact::<PyList>() else {
        return false;
    };
    l.len() == want.len()
        && want
            .iter()
            .enumerate()
            .all(|(i, t)| l.get_item(i).is_ok_and(|x| item(t, &x)))
}

/// Whether `v` is a leaf a snapshot takes: an exact `str`, `int`, `float`, `bool` or `None`
/// (a subclass could change what it reads as without changing identity).
fn is_leaf(v: &Bound<'_, PyAny>) -> bool {
    v.is_exact_instance_of::<PyString>()
        || v.is_exact_instance_of::<PyInt>()
        || v.is_exact_instance_of::<PyFloat>()
        || v.is_exact_instance_of::<PyBool>()
        || v.is_none()
}

/// Takes a [`Node`] from the values a walk meets in document order (the JSON writer's, see
/// `to_json::write`), so a dict is snapshotted in the pass that writes it. Nothing is
/// taken (`finish` is `None`) when the value holds anything but exact `dict` (with `str`
/// keys), `list` and leaves ([`is_leaf`]), or nests deeper than 128 containers.
///
/// ```text
/// {"type": "object", "required": ["a"]} -> Dict[("type", Leaf), ("required", List[Leaf])]
/// ```
#[derive(Default)]
pub struct Recorder {
    /// The open containers, innermost last, each with the key it goes under in its parent.
    open: Vec<(Option<Py<PyString>>, Open)>,
    root: Option<Node>,
    /// Something was met that a snapshot cannot take: nothing more is recorded.
    failed: bool,
}

/// A container being recorded.
enum Open {
    Dict(Vec<(Py<PyString>, Node)>),
    List(Vec<Node>),
}

impl Recorder {
    /// `v`, met as the root or as the next item of the innermost open container (under `key`
    /// in a dict). An exact dict or list is opened, until [`Recorder::closed`].
    pub fn met(&mut self, key: Option<&Bound<'_, PyAny>>, v: &Bound<'_, PyAny>) {
        if self.failed {
            return;
        }
        let key = match key.map(|k| k.cast_exact::<PyString>()) {
            Some(Ok(k)) => Some(k.clone().unbind()),
            Some(Err(_)) => return self.fail(),
            None => None,
        };
        let open = if let Ok(d) = v.cast_exact::<PyDict>() {
            Open::Dict(Vec::with_capacity(d.len()))
        } else if v.is_exact_instance_of::<PyList>() {
            Open::List(Vec::new())
        } else if is_leaf(v) {
            return self.attach(key, Node::Leaf(v.clone().unbind()));
        } else {
            return self.fail();
        };
        if self.open.len() >= MAX_LEVELS {
            return self.fail();
        }
        self.open.push((key, open));
    }

    /// The innermost open container ended.
    pub fn closed(&mut self) {
        if self.failed {
            return;
        }
        let Some((key, open)) = self.open.pop() else {
            return self.fail();
        };
        let node = match open {
            Open::Dict(items) => Node::Dict(items),
            Open::List(items) => Node::List(items),
        };
        self.attach(key, node);
    }

    fn attach(&mut self, key: Option<Py<PyString>>, node: Node) {
        match (self.open.last_mut(), key) {
            (None, None) if self.root.is_none() => self.root = Some(node),
            (Some((_, Open::Dict(items))), Some(k)) => items.push((k, node)),
            (Some((_, Open::List(items))), None) => items.push(node),
            _ => self.fail(),
        }
    }

    fn fail(&mut self) {
        self.failed = true;
        self.open.clear();
        self.root = None;
    }

    /// The snapshot, when all that was met could be taken and every container closed.
    pub fn finish(self) -> Option<Node> {
        if self.failed || !self.open.is_empty() {
            return None;
        }
        self.root
    }
}
