//! `toolschema.SchemaError`: a `ValueError` that says where (a JSON pointer) and what.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

pyo3::create_exception!(
    toolschema,
    SchemaError,
    PyValueError,
    "The input is not a schema the engine can read: `.pointer` says where (a JSON pointer, \"\" is the root), `.reason` what."
);

/// A problem at a place in the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ErrorAt {
    /// JSON pointer (`""`: the root).
    pub pointer: String,
    /// What is wrong.
    pub reason: String,
}

impl ErrorAt {
    /// At the root.
    pub fn root(reason: impl Into<String>) -> ErrorAt {
        ErrorAt {
            pointer: String::new(),
            reason: reason.into(),
        }
    }

    /// The Python exception: `SchemaError("<pointer>: <reason>")` with both as attributes.
    pub fn into_py_err(self, py: Python<'_>) -> PyErr {
        let shown = if self.pointer.is_empty() {
            "(root)"
        } else {
            &self.pointer
        };
        let err = SchemaError::new_err(format!("{shown}: {}", self.reason));
        let value = err.value(py);
        // Setting attributes on a fresh exception instance does not fail; if it ever did, the
        // message still carries both.
        let _ = value.setattr("pointer", &self.pointer);
        let _ = value.setattr("reason", &self.reason);
        err
    }
}

/// A JSON pointer from its unescaped segments.
pub fn pointer_of(segments: impl Iterator<Item = String>) -> String {
    let mut out = String::new();
    for s in segments {
        out.push('/');
        out.push_str(&s.replace('~', "~0").replace('/', "~1"));
    }
    out
}
