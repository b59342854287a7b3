//! A result's template: fresh copies of a result dict read again and again (one the result
//! cache serves) without converting the engine's tree, and the test that lets the last copy
//! handed out go out again once nobody holds any of it and it still reads as made.
//!
//! A copy is a C-level copy of each container (`dict.copy()`, a list slice) with the
//! containers inside put in afresh; leaves (`str`, `int`, `float`, `bool`, `None`, all
//! immutable) are the very objects, as `copy.deepcopy` shares them.

use crate::snapshot::{MAX_LEVELS, same_entries, same_items};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

/// A result's template.
pub enum Template {
    /// A dict: its copy with the container-valued entries `None`, and every entry (key and
    /// template) in order.
    Dict(Py<PyDict>, Vec<(Py<PyString>, Template)>),
    /// A list: its copy with the container items `None`, and every item's template.
    List(Py<PyList>, Vec<Template>),
    /// Anything else: the object itself.
    Leaf(Py<PyAny>),
}

impl Template {
    /// The template of `v` (a dict the engine's tree was converted to, not yet handed out);
    /// `None` past 128 container levels.
    ///
    /// ```text
    /// {"type": "object", "properties": {"a": {}}} -> Dict({"type": "object", "properties": None}, [("type", Leaf), ("properties", Dict(..))])
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
            let mut entries = Vec::with_capacity(d.len());
            for (k, x) in d.iter() {
                let key = k.cast_exact::<PyString>().ok()?.clone();
                let t = Template::at(&x, level + 1)?;
                if t.is_container() {
                    master.set_item(&key, py.None()).ok()?;
                }
                entries.push((key.unbind(), t));
            }
            return Some(Template::Dict(master.unbind(), entries));
        }
        if let Ok(l) = v.cast_exact::<PyList>() {
            let master = l.get_slice(0, l.len());
            let mut items = Vec::with_capacity(l.len());
            for (i, x) in l.iter().enumerate() {
                let t = Template::at(&x, level + 1)?;
                if t.is_container() {
                    master.set_item(i, py.None()).ok()?;
                }
                items.push(t);
            }
            return Some(Template::List(master.unbind(), items));
        }
        if v.is_instance_of::<PyDict>() || v.is_instance_of::<PyList>() {
            return None;
        }
        Some(Template::Leaf(v.clone().unbind()))
    }

    fn is_container(&self) -> bool {
        !matches!(self, Template::Leaf(_))
    }

    /// A fresh copy: new dicts and lists, the same leaf objects.
    pub fn make<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(match self {
            Template::Dict(master, entries) => {
                let d = master.bind(py).copy()?;
                for (k, t) in entries {
                    if t.is_container() {
                        d.set_item(k.bind(py), t.make(py)?)?;
                    }
                }
                d.into_any()
            }
            Template::List(master, items) => {
                let l = master.bind(py).get_slice(0, items.len());
                for (i, t) in items.iter().enumerate() {
                    if t.is_container() {
                        l.set_item(i, t.make(py)?)?;
                    }
                }
                l.into_any()
            }
            Template::Leaf(leaf) => leaf.bind(py).clone(),
        })
    }

    /// Whether `v`, a copy [`Template::make`] made, still reads as made and no container in
    /// it is held by anything but its parent: then nothing outside can see it but through `v`
    /// (whose own holders are the caller's to count), and handing `v` out again is handing
    /// out a fresh copy. Keys and leaves by identity (the template holds them); runs no
    /// Python code.
    pub fn untouched(&self, v: &Bound<'_, PyAny>) -> bool {
        match self {
            Template::Dict(_, entries) => same_entries(v, entries, Template::holds),
            Template::List(_, items) => same_items(v, items, Template::holds),
            Template::Leaf(leaf) => v.is(leaf),
        }
    }

    /// Whether `x`, an item just taken from its container, is this template's: the same
    /// leaf, or a container held only by its parent and by `x` (a `Bound` owns one
    /// reference), untouched.
    #[inline(always)]
    fn holds(&self, x: &Bound<'_, PyAny>) -> bool {
        match self {
            Template::Leaf(leaf) => x.is(leaf),
            _ => references(x) == 2 && self.untouched(x),
        }
    }
}

/// How many references to `v` exist. PyO3 deprecates its safe reader in favour of the
/// `unsafe` FFI macro, which this crate forbids; the safe one reads the same field.
#[allow(deprecated)]
pub fn references(v: &Bound<'_, PyAny>) -> isize {
    v.get_refcnt()
}
