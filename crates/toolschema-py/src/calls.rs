//! `toolschema.validate_call` / `explain_call`: a tool call's arguments against the tool's
//! original schema, with the tool-calls crate's messages a model can act on.

use crate::errors::ErrorAt;
use crate::from_json::to_python;
use crate::input;
use pyo3::prelude::*;
use pyo3::types::PyList;
use serde_json::Value;

/// One problem with a tool call: where in the arguments (`pointer`), what (`message`, for
/// the model), its `kind` (`"missing"`, `"wrong_type"`, ...), the value `sent` there, and the
/// worked `example` of the whole expected arguments.
#[pyclass(frozen, get_all, module = "toolschema")]
pub struct CallError {
    /// JSON pointer into the arguments (`""`: the arguments themselves).
    pub pointer: String,
    /// What is wrong and what is expected, as the model reads it.
    pub message: String,
    /// The kind of problem, snake_case.
    pub kind: String,
    /// The value sent there (`None` when nothing was sent).
    pub sent: Py<PyAny>,
    /// A worked example of the expected arguments (JSON text).
    pub example: String,
}

#[pymethods]
impl CallError {
    fn __repr__(&self) -> String {
        format!(
            "CallError(pointer={:?}, message={:?})",
            self.pointer, self.message
        )
    }

    fn __str__(&self) -> &str {
        &self.message
    }
}

/// Reads a schema or arguments argument as a JSON value (the library's bounds apply: a value
/// nested deeper than serde_json reads is an error, not a crash).
fn value_of(py: Python<'_>, obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Value> {
    let read = input::read(obj).map_err(|e| e.into_py_err(py))?;
    serde_json::from_slice(read.text()).map_err(|e| {
        ErrorAt::root(format!("the {what} are not readable JSON: {e}")).into_py_err(py)
    })
}

fn validated(
    py: Python<'_>,
    schema: &Bound<'_, PyAny>,
    arguments: &Bound<'_, PyAny>,
) -> PyResult<Result<(), tool_calls::CallError>> {
    let schema = value_of(py, schema, "schema's contents")?;
    let arguments = value_of(py, arguments, "arguments")?;
    Ok(tool_calls::validate(&schema, &arguments))
}

/// Every problem with `arguments` under `schema` (empty: the call is valid).
#[pyfunction]
pub fn validate_call<'py>(
    py: Python<'py>,
    schema: &Bound<'py, PyAny>,
    arguments: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyList>> {
    let Err(err) = validated(py, schema, arguments)? else {
        return PyList::new(py, Vec::<CallError>::new());
    };
    let mut out = Vec::with_capacity(err.problems().len());
    for p in err.problems() {
        let sent = match &p.sent {
            Some(v) => to_python(py, &v.to_string())?.unbind(),
            None => py.None(),
        };
        out.push(CallError {
            pointer: p.pointer.clone(),
            message: p.to_string(),
            kind: kind_name(&p.kind),
            sent,
            example: err.example().to_owned(),
        });
    }
    PyList::new(py, out)
}

/// The whole model-facing message for an invalid call (`None`: the call is valid).
#[pyfunction]
pub fn explain_call(
    py: Python<'_>,
    schema: &Bound<'_, PyAny>,
    arguments: &Bound<'_, PyAny>,
) -> PyResult<Option<String>> {
    Ok(validated(py, schema, arguments)?
        .err()
        .map(|e| e.to_string()))
}

/// `WrongType { .. }` → `"wrong_type"`.
fn kind_name(kind: &tool_calls::ProblemKind) -> String {
    let debug = format!("{kind:?}");
    let variant = debug
        .split(|c: char| !c.is_ascii_alphanumeric())
        .next()
        .unwrap_or_default();
    let mut out = String::with_capacity(variant.len() + 4);
    for (i, c) in variant.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}
