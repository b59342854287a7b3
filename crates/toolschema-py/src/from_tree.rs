//! The engine's schema tree straight to Python values (no JSON text in between): the dict
//! `json.loads(schema.to_json_string())` would give, keys in the same order. Keyword keys and
//! type names are `str` objects made once per process (their hash is computed once); instance
//! values (`enum`, `default`, unknown keywords) are read from their kept JSON text.

use crate::from_json::to_python;
use crate::names::{Names, names};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyList, PyString};
use schema_core::{Dependency, InstanceType, Key, Schema, TypeSet, Value};

/// Schema levels converted by recursion; a deeper tree (the engine keeps 64 levels, so only a
/// tree built by hand) is converted through its JSON text, which [`to_python`] reads without
/// recursion.
const MAX_LEVELS: usize = 200;

/// Converts one tree; holds the shared names.
struct Builder<'a, 'py> {
    py: Python<'py>,
    names: &'a Names,
}

/// `schema` as Python values.
///
/// ```text
/// >>> toolschema.sanitize({"type": ["string", "null"]}).schema
/// {'type': 'string', 'nullable': True}
/// ```
pub fn to_python_tree<'py>(py: Python<'py>, schema: &Schema) -> PyResult<Bound<'py, PyAny>> {
    let b = Builder {
        py,
        names: names(py),
    };
    match b.schema(schema, 0)? {
        Some(v) => Ok(v),
        None => to_python(py, &schema.to_json_string()),
    }
}

impl<'py> Builder<'_, 'py> {
    /// `None`: deeper than [`MAX_LEVELS`] (the caller converts the text instead).
    fn schema(&self, s: &Schema, level: usize) -> PyResult<Option<Bound<'py, PyAny>>> {
        let o = match s {
            Schema::Bool(b) => return Ok(Some(PyBool::new(self.py, *b).to_owned().into_any())),
            Schema::Object(o) => o,
        };
        if level > MAX_LEVELS {
            return Ok(None);
        }
        let d = PyDict::new(self.py);
        for e in o.entries() {
            let Some(v) = self.value(&e.value, level)? else {
                return Ok(None);
            };
            match &e.key {
                Key::Known(k) => match self.names.keywords.get(usize::from(k.index())) {
                    Some(name) => d.set_item(name.bind(self.py), v)?,
                    None => d.set_item(k.as_str(), v)?,
                },
                Key::Other(name) => d.set_item(&**name, v)?,
            }
        }
        Ok(Some(d.into_any()))
    }

    fn value(&self, v: &Value, level: usize) -> PyResult<Option<Bound<'py, PyAny>>> {
        let py = self.py;
        Ok(Some(match v {
            Value::Schema(s) => return self.schema(s, level + 1),
            Value::Schemas(list) => {
                let mut items = Vec::with_capacity(list.len());
                for s in list {
                    let Some(x) = self.schema(s, level + 1)? else {
                        return Ok(None);
                    };
                    items.push(x);
                }
                PyList::new(py, items)?.into_any()
            }
            Value::SchemaMap(m) => {
                let d = PyDict::new(py);
                for (k, s) in m {
                    let Some(x) = self.schema(s, level + 1)? else {
                        return Ok(None);
                    };
                    d.set_item(k, x)?;
                }
                d.into_any()
            }
            Value::Dependencies(m) => {
                let d = PyDict::new(py);
                for (k, dep) in m {
                    let x = match dep {
                        Dependency::Schema(s) => match self.schema(s, level + 1)? {
                            Some(x) => x,
                            None => return Ok(None),
                        },
                        Dependency::Required(names) => PyList::new(py, names)?.into_any(),
                    };
                    d.set_item(k, x)?;
                }
                d.into_any()
            }
            Value::Type(TypeSet::Single(t)) => self.type_name(*t),
            Value::Type(TypeSet::List(list)) => {
                PyList::new(py, list.iter().map(|t| self.type_name(*t)))?.into_any()
            }
            Value::String(s) => PyString::new(py, s).into_any(),
            Value::Number(n) => {
                if let Some(i) = n.as_i64() {
                    i.into_pyobject(py)?.into_any()
                } else if let Some(u) = n.as_u64() {
                    u.into_pyobject(py)?.into_any()
                } else {
                    PyFloat::new(py, n.as_f64().unwrap_or(f64::NAN)).into_any()
                }
            }
            Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
            Value::Strings(list) => PyList::new(py, list)?.into_any(),
            Value::StringsMap(m) => {
                let d = PyDict::new(py);
                for (k, list) in m {
                    d.set_item(k, PyList::new(py, list)?)?;
                }
                d.into_any()
            }
            Value::Instance(x) | Value::Raw(x) => to_python(py, x.as_json())?,
            Value::Instances(list) => {
                let mut items = Vec::with_capacity(list.len());
                for x in list {
                    items.push(to_python(py, x.as_json())?);
                }
                PyList::new(py, items)?.into_any()
            }
        }))
    }

    fn type_name(&self, t: InstanceType) -> Bound<'py, PyAny> {
        self.names.type_str(self.py, t)
    }
}
