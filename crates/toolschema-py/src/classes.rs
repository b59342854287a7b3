//! The result types the Python functions return.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

/// One change the engine made: `pointer` (JSON pointer into the output), `rule`, `message`,
/// `lossy` (the schema now accepts something the original rejected, or says less).
/// Unpacks like a tuple: `pointer, rule, message, lossy = change`.
#[pyclass(frozen, get_all, eq, module = "toolschema")]
#[derive(Clone, PartialEq)]
pub struct Change {
    /// Where, in the output schema.
    pub pointer: String,
    /// The rule that made the change.
    pub rule: String,
    /// What was done.
    pub message: String,
    /// Whether meaning was lost.
    pub lossy: bool,
}

impl From<&provider_rules::Change> for Change {
    fn from(c: &provider_rules::Change) -> Change {
        Change {
            pointer: c.pointer.clone(),
            rule: c.rule.as_str().to_owned(),
            message: c.message.clone(),
            lossy: c.lossy,
        }
    }
}

#[pymethods]
impl Change {
    fn __repr__(&self) -> String {
        format!(
            "Change(pointer={:?}, rule={:?}, message={:?}, lossy={})",
            self.pointer,
            self.rule,
            self.message,
            if self.lossy { "True" } else { "False" }
        )
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let t = PyTuple::new(
            py,
            [
                self.pointer.clone().into_pyobject(py)?.into_any(),
                self.rule.clone().into_pyobject(py)?.into_any(),
                self.message.clone().into_pyobject(py)?.into_any(),
                pyo3::types::PyBool::new(py, self.lossy)
                    .to_owned()
                    .into_any(),
            ],
        )?;
        Ok(t.as_any().try_iter()?.into_any())
    }
}

/// Something the provider would reject: `pointer`, `rule`, `message`, and the provider's own
/// error text where known (`provider_error`).
#[pyclass(frozen, get_all, eq, module = "toolschema")]
#[derive(Clone, PartialEq)]
pub struct Violation {
    /// Where, in the checked schema.
    pub pointer: String,
    /// The rule broken.
    pub rule: String,
    /// What is wrong.
    pub message: String,
    /// The provider's error text for it, where known.
    pub provider_error: Option<String>,
    display: String,
}

impl From<&provider_rules::Violation> for Violation {
    fn from(v: &provider_rules::Violation) -> Violation {
        Violation {
            pointer: v.pointer.clone(),
            rule: v.rule.as_str().to_owned(),
            message: v.message.clone(),
            provider_error: v.provider_error.map(str::to_owned),
            display: v.to_string(),
        }
    }
}

#[pymethods]
impl Violation {
    fn __repr__(&self) -> String {
        format!(
            "Violation(pointer={:?}, rule={:?}, message={:?})",
            self.pointer, self.rule, self.message
        )
    }

    fn __str__(&self) -> &str {
        &self.display
    }
}

/// An optional string as Python shows it (`None`, or the quoted text).
pub fn py_repr(s: Option<&str>) -> String {
    s.map_or_else(|| "None".to_owned(), |s| format!("{s:?}"))
}

/// Changes as a Python list.
pub fn change_list<'py>(py: Python<'py>, changes: &[Change]) -> PyResult<Bound<'py, PyList>> {
    PyList::new(py, changes.iter().cloned())
}

/// What `sanitize` returns: the rewritten `schema` (a dict, built when first read, straight
/// from the engine's tree), its `json` text (written when first read), the `changes`, and
/// whether any `lossy` change was made or the result is `strict_compatible`. The engine's
/// report is kept as it came: the Python `Change` and `Violation` objects are made only when
/// `changes` / `unfixable` is read.
#[pyclass(frozen, module = "toolschema")]
pub struct Sanitized {
    /// The engine's answer (shared with the result cache and every `Sanitized` of the same
    /// input).
    pub(crate) done: std::sync::Arc<crate::cache::Done>,
    /// The input object when nothing changed and it was a dict (returned as `schema`) or a
    /// `str` (returned as `json`).
    pub(crate) original: Option<Py<PyAny>>,
    /// The profile applied.
    pub(crate) chosen: crate::providers::Chosen,
    pub(crate) schema: PyOnceLock<Py<PyAny>>,
}

impl Sanitized {
    fn report(&self) -> &provider_rules::Report {
        &self.done.out.report
    }

    /// The input object, when nothing changed and it was of type `T`.
    fn original_as<'py, T: pyo3::PyTypeCheck>(&self, py: Python<'py>) -> Option<&Bound<'py, T>> {
        if !self.report().changes.is_empty() {
            return None;
        }
        self.original.as_ref()?.bind(py).cast::<T>().ok()
    }
}

#[pymethods]
impl Sanitized {
    /// The rewritten schema as Python values (the very input object when nothing changed).
    #[getter]
    fn schema(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        if let Some(o) = self.original_as::<PyDict>(py) {
            return Ok(o.clone().into_any().unbind());
        }
        self.schema
            .get_or_try_init(py, || self.done.fresh_schema(py).map(Bound::unbind))
            .map(|s| s.clone_ref(py))
    }

    /// The rewritten schema as compact JSON text (the very input `str` when nothing changed).
    #[getter]
    fn json<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        if let Some(s) = self.original_as::<PyString>(py) {
            return s.clone().into_any();
        }
        self.done.json_str(py).into_any()
    }

    /// Every change made, in order (empty: the schema was already acceptable).
    #[getter]
    fn changes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, self.report().changes.iter().map(Change::from))
    }

    /// Whether anything changed.
    #[getter]
    fn changed(&self) -> bool {
        !self.report().changes.is_empty()
    }

    /// Whether a change lost meaning (the lost constraints are also in `description`).
    #[getter]
    fn lossy(&self) -> bool {
        self.report().changes.iter().any(|c| c.lossy)
    }

    /// For strict profiles: whether the result can go in strict mode without changing what it
    /// accepts (send it non-strict otherwise).
    #[getter]
    fn strict_compatible(&self) -> bool {
        self.report().strict_compatible
    }

    /// What the provider will still reject that sanitizing cannot fix (property keys that
    /// need renaming).
    #[getter]
    fn unfixable<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, self.report().unfixable.iter().map(Violation::from))
    }

    /// A tool call's arguments (a dict, or JSON text) as the original schema allows them:
    /// the strict nulls the rewrite made the model send removed; the very object given when
    /// nothing needs undoing.
    fn decode<'py>(
        &self,
        py: Python<'py>,
        arguments: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        crate::arguments::decode_arguments(py, &self.done.out.decoder, arguments)
    }

    /// A value in the tool's own terms as the rewritten schema expects it (see
    /// `toolschema.encode`): with `sanitize(..., encode=True)`, maps as entries, any values
    /// as JSON text, ...; strict nulls for the members left out.
    fn encode<'py>(
        &self,
        py: Python<'py>,
        value: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        crate::arguments::encode_value(py, &self.done.out.decoder, value)
    }

    /// Whether `decode` can change anything (the rewrite made the model send strict nulls).
    #[getter]
    fn decodes(&self) -> bool {
        !self.done.out.decoder.is_identity()
    }

    /// The profile applied.
    #[getter]
    fn profile(&self) -> &str {
        self.chosen.rules().name()
    }

    fn __repr__(&self) -> String {
        format!(
            "Sanitized(profile={:?}, changes={}, lossy={}, strict_compatible={})",
            self.chosen.rules().name(),
            self.report().changes.len(),
            if self.lossy() { "True" } else { "False" },
            if self.report().strict_compatible {
                "True"
            } else {
                "False"
            }
        )
    }
}
