//! A Python value's shape kept beside it: to tell whether a dict given again is still what it
//! was (the result cache's check), and to make fresh copies of a result dict without
//! converting the engine's tree again. Containers are rebuilt; leaves (`str`, `int`, `float`,
//! `bool`, `None`, all immutable) are the very objects, as `copy.deepcopy` shares them.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString};

/// Container levels a snapshot takes; a deeper value is not snapshotted (and not cached).
const MAX_LEVELS: usize = 128;

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
    /// same order, the same types (`True` is not `1`, `-0.0` is not `0.0`), equal leaves.
    /// Runs no Python code (exact built-in types only).
    pub fn matches(&self, v: &Bound<'_, PyAny>) -> bool {
        match self {
            Node::Dict(items) => {
                let Ok(d) = v.cast_exact::<PyDict>() else {
                    return false;
                };
                if d.len() != items.len() {
                    return false;
                }
                let mut n = 0;
                for ((k, x), (key, node)) in d.iter().zip(items) {
                    n += 1;
                    let key = key.bind(v.py());
                    if !(k.is(key) || same_leaf(&k, key.as_any())) {
                        return false;
                    }
                    let same = match node {
                        Node::Leaf(leaf) => x.is(leaf) || same_leaf(&x, leaf.bind(v.py())),
                        _ => node.matches(&x),
                    };
                    if !same {
                        return false;
                    }
                }
                // A dict that changed size under the iteration is not the one snapshotted.
                n == items.len() && d.len() == n
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
            Node::Leaf(leaf) => same_leaf(v, leaf.bind(v.py())),
        }
    }
}

/// A result's template: a copy is a C-level copy of each container (`dict.copy()`, a list
/// slice) with the containers inside put in afresh; leaves are shared. For a result read again
/// and again (one the cache serves), several times cheaper than converting the engine's tree.
pub enum Template {
    /// A dict (its container-valued entries hold `None` here) and those entries' templates.
    Dict(Py<PyDict>, Vec<(Py<PyString>, Template)>),
    /// A list (its container items `None` here) and those items' templates, by index.
    List(Py<PyList>, Vec<(usize, Template)>),
    /// Anything else: the object itself.
    Leaf(Py<PyAny>),
}

impl Template {
    /// The template of `v` (a dict the engine's tree was converted to, not yet handed out);
    /// `None` past 128 container levels.
    ///
    /// ```text
    /// {"type": "object", "properties": {"a": {}}} -> Dict({"type": "object", "properties": None}, [("properties", Dict(..))])
    /// ```
    pub fn of(v: &Bound<'_, PyAny>) -> Option<Template> {
        Template::at(v, 0)
    }

    fn at(v: &Bound<'_, PyAny>, level: usize) -> Option<Template> {
        if level >= MAX_LEVELS {
            return None;
        }
        let py = v.py();
        if let Ok(d) = v.cast_exact::<PyDict>() {
            let master = d.copy().ok()?;
            let mut children = Vec::new();
            for (k, x) in d.iter() {
                if x.is_instance_of::<PyDict>() || x.is_instance_of::<PyList>() {
                    let key = k.cast_exact::<PyString>().ok()?.clone();
                    children.push((key.clone().unbind(), Template::at(&x, level + 1)?));
                    master.set_item(key, py.None()).ok()?;
                }
            }
            return Some(Template::Dict(master.unbind(), children));
        }
        if let Ok(l) = v.cast_exact::<PyList>() {
            let master = l.get_slice(0, l.len());
            let mut children = Vec::new();
            for (i, x) in l.iter().enumerate() {
                if x.is_instance_of::<PyDict>() || x.is_instance_of::<PyList>() {
                    children.push((i, Template::at(&x, level + 1)?));
                    master.set_item(i, py.None()).ok()?;
                }
            }
            return Some(Template::List(master.unbind(), children));
        }
        if v.is_instance_of::<PyDict>() || v.is_instance_of::<PyList>() {
            return None;
        }
        Some(Template::Leaf(v.clone().unbind()))
    }

    /// A fresh copy: new dicts and lists, the same leaf objects.
    pub fn make<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(match self {
            Template::Dict(master, children) => {
                let d = master.bind(py).copy()?;
                for (k, t) in children {
                    d.set_item(k.bind(py), t.make(py)?)?;
                }
                d.into_any()
            }
            Template::List(master, children) => {
                let m = master.bind(py);
                let l = m.get_slice(0, m.len());
                for (i, t) in children {
                    l.set_item(*i, t.make(py)?)?;
                }
                l.into_any()
            }
            Template::Leaf(leaf) => leaf.bind(py).clone(),
        })
    }
}

/// Whether `v` is `leaf` or an equal leaf of the same exact type (floats by their bits, so
/// `-0.0` differs from `0.0`).
fn same_leaf(v: &Bound<'_, PyAny>, leaf: &Bound<'_, PyAny>) -> bool {
    if v.is(leaf) {
        return true;
    }
    if !v.get_type().is(leaf.get_type()) {
        return false;
    }
    if let (Ok(a), Ok(b)) = (v.cast_exact::<PyFloat>(), leaf.cast_exact::<PyFloat>()) {
        return a.value().to_bits() == b.value().to_bits();
    }
    // Exact str or int (bool and None are singletons, so identity decided them).
    (v.is_exact_instance_of::<PyString>() || v.is_exact_instance_of::<PyInt>())
        && v.eq(leaf).unwrap_or(false)
}
