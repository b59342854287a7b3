//! A Python value's shape kept beside it, to tell whether a dict given again is still what it
//! was (the result cache's check). Containers are walked; leaves (`str`, `int`, `float`,
//! `bool`, `None`, all immutable) are kept as the very objects and compared by identity.

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
    /// The shape of `v`; `None` when it holds anything but exact `dict` (with `str` keys),
    /// `list`, `str`, `int`, `float`, `bool` and `None` (a subclass could change what it
    /// reads as without changing identity), or nests deeper than 128 containers.
    ///
    /// ```text
    /// {"type": "object", "required": ["a"]} -> Dict[("type", Leaf), ("required", List[Leaf])]
    /// ```
    pub fn of(v: &Bound<'_, PyAny>) -> Option<Node> {
        Node::at(v, 0)
    }

    fn at(v: &Bound<'_, PyAny>, level: usize) -> Option<Node> {
        if let Ok(d) = v.cast_exact::<PyDict>() {
            if level >= MAX_LEVELS {
                return None;
            }
            let mut items = Vec::with_capacity(d.len());
            for (k, x) in d.iter() {
                let key = k.cast_exact::<PyString>().ok()?.clone().unbind();
                items.push((key, Node::at(&x, level + 1)?));
            }
            return Some(Node::Dict(items));
        }
        if let Ok(l) = v.cast_exact::<PyList>() {
            if level >= MAX_LEVELS {
                return None;
            }
            let mut items = Vec::with_capacity(l.len());
            for x in l.iter() {
                items.push(Node::at(&x, level + 1)?);
            }
            return Some(Node::List(items));
        }
        let leaf = v.is_exact_instance_of::<PyString>()
            || v.is_exact_instance_of::<PyInt>()
            || v.is_exact_instance_of::<PyFloat>()
            || v.is_exact_instance_of::<PyBool>()
            || v.is_none();
        leaf.then(|| Node::Leaf(v.clone().unbind()))
    }

    /// Whether `v` still reads as the JSON this shape was taken from: the same keys in the
    /// same order, the same leaves. Leaves are compared by identity: the snapshot holds them,
    /// so an object met at the same place is the one snapshotted, and an immutable one reads
    /// as it did; an equal object put there since (`True` for `1`, `-0.0` for `0.0`, an equal
    /// `str`) is sanitized again, never taken for what it replaced. Runs no Python code, and
    /// one pass over each container (the first difference ends it).
    pub fn matches(&self, v: &Bound<'_, PyAny>) -> bool {
        match self {
            Node::Dict(items) => {
                let Ok(d) = v.cast_exact::<PyDict>() else {
                    return false;
                };
                if d.len() != items.len() {
                    return false;
                }
                let mut want = items.iter();
                for (k, x) in d.iter() {
                    let Some((key, node)) = want.next() else {
                        return false;
                    };
                    if !k.is(key) || !node.matches(&x) {
                        return false;
                    }
                }
                want.next().is_none()
            }
            Node::List(items) => {
                let Ok(l) = v.cast_exact::<PyList>() else {
                    return false;
                };
                l.len() == items.len()
                    && items
                        .iter()
                        .enumerate()
                        .all(|(i, node)| l.get_item(i).is_ok_and(|x| node.matches(&x)))
            }
            Node::Leaf(leaf) => v.is(leaf),
        }
    }
}
