//! The Python package `toolschema` (built by maturin): the Rust engine in-process. Every call
//! goes to provider-rules, tower-toolschema and tool-calls; nothing is reimplemented in Python.
//! The Python API is documented in `python/toolschema/__init__.pyi` and the package README.
#![forbid(unsafe_code)]

mod arguments;
mod body;
mod calls;
mod classes;
mod errors;
mod from_json;
mod from_tree;
mod input;
mod profile;
mod providers;
mod restore;
mod to_json;

use classes::{Change, Sanitized, Violation};
use errors::SchemaError;
use input::Kind;
use profile::{Profile, ProfileError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyList, PyString};

/// Inputs from this size on are handled with the GIL released (other threads run meanwhile);
/// below it, releasing and taking it back costs more than the work.
const DETACH_FROM: usize = 64 * 1024;

/// Runs `f` on `text`, without the GIL for large inputs.
fn run<T: Send>(py: Python<'_>, text: &[u8], f: impl Fn(&[u8]) -> T + Send + Sync) -> T {
    if text.len() >= DETACH_FROM {
        py.detach(|| f(text))
    } else {
        f(text)
    }
}

/// Reads the arguments every schema function takes: the schema, the profile and the slot.
fn args<'a, 'py>(
    py: Python<'py>,
    schema: &'a Bound<'py, PyAny>,
    provider: Option<&Bound<'_, PyAny>>,
    slot: &str,
) -> PyResult<(providers::Chosen, provider_rules::Slot, input::Input<'a>)> {
    let chosen = profile::chosen(provider, "gemini")?;
    let slot = profile::slot(slot)?;
    let input = input::read_schema(schema).map_err(|e| e.into_py_err(py))?;
    Ok((chosen, slot, input))
}

/// The options of `encode=`: the profile's lossless encodings on or off.
fn options(encode: bool) -> provider_rules::SanitizeOptions {
    provider_rules::SanitizeOptions { encode }
}

/// Rewrites a schema (a dict, or JSON text) for a provider; see the package docs.
#[pyfunction]
#[pyo3(signature = (schema, provider = None, slot = "parameters", *, encode = false))]
fn sanitize(
    py: Python<'_>,
    schema: &Bound<'_, PyAny>,
    provider: Option<&Bound<'_, PyAny>>,
    slot: &str,
    encode: bool,
) -> PyResult<Sanitized> {
    let (chosen, slot, input) = args(py, schema, provider, slot)?;
    let out = run(py, input.text(), |t| {
        provider_rules::sanitize_slice_with(t, chosen.rules(), slot, &options(encode))
    })
    .map_err(|e| input::not_json(&e).into_py_err(py))?;
    let json = std::sync::OnceLock::new();
    let mut original = None;
    if out.report.is_empty() {
        // The input is the result: kept as it came (a dict, a str) or as its text.
        match input.kind {
            Kind::Value | Kind::Str => original = Some(schema.clone().unbind()),
            Kind::Bytes => {}
        }
        if input.kind != Kind::Str {
            let _ = json.set(input.into_string());
        }
    }
    Ok(Sanitized {
        tree: out.schema,
        json,
        original,
        report: out.report,
        chosen,
        schema: PyOnceLock::new(),
        decoder: out.decoder,
    })
}

/// JSON text in, JSON text out: the input object itself when nothing changes.
#[pyfunction]
#[pyo3(signature = (text, provider = None, slot = "parameters", *, encode = false))]
fn sanitize_json<'py>(
    py: Python<'py>,
    text: &Bound<'py, PyAny>,
    provider: Option<&Bound<'py, PyAny>>,
    slot: &str,
    encode: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let (chosen, slot, input) = args(py, text, provider, slot)?;
    if input.kind == Kind::Value {
        return Err(pyo3::exceptions::PyTypeError::new_err(
            "sanitize_json takes JSON text (str or bytes); pass a dict to sanitize()",
        ));
    }
    let out = run(py, input.text(), |t| {
        provider_rules::sanitize_slice_with(t, chosen.rules(), slot, &options(encode))
    })
    .map_err(|e| input::not_json(&e).into_py_err(py))?;
    if out.report.is_empty() {
        return Ok(match input.kind {
            Kind::Str => text.clone(),
            _ => PyString::new(py, &String::from_utf8_lossy(input.text())).into_any(),
        });
    }
    Ok(PyString::new(py, &out.schema.to_json_string()).into_any())
}

/// What the provider would reject in a schema (empty: it would accept it).
#[pyfunction]
#[pyo3(signature = (schema, provider = None, slot = "parameters"))]
fn check<'py>(
    py: Python<'py>,
    schema: &Bound<'py, PyAny>,
    provider: Option<&Bound<'py, PyAny>>,
    slot: &str,
) -> PyResult<Bound<'py, PyList>> {
    let (chosen, slot, input) = args(py, schema, provider, slot)?;
    let found = run(py, input.text(), |t| {
        provider_rules::check_slice(t, chosen.rules(), slot)
    })
    .map_err(|e| input::not_json(&e).into_py_err(py))?;
    PyList::new(py, found.iter().map(Violation::from))
}

/// A tool call's arguments as the tool's own `schema` allows them, after `schema` was sent
/// sanitized for `provider` (strict nulls removed; with `encode=True`, the encodings undone:
/// `toolschema decode`); the very object given when nothing changes.
#[pyfunction]
#[pyo3(signature = (schema, arguments, provider, *, encode = false))]
fn decode<'py>(
    py: Python<'py>,
    schema: &Bound<'py, PyAny>,
    arguments: &Bound<'py, PyAny>,
    provider: &Bound<'py, PyAny>,
    encode: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let out = sanitized(py, schema, provider, encode)?;
    arguments::decode_arguments(py, &out.decoder, arguments)
}

/// A value in the tool's own terms as the schema sanitized for `provider` with its encodings
/// expects it (what `toolschema encode` prints): an earlier call's arguments for a
/// conversation's history, or a test value.
#[pyfunction]
#[pyo3(signature = (schema, value, provider))]
fn encode<'py>(
    py: Python<'py>,
    schema: &Bound<'py, PyAny>,
    value: &Bound<'py, PyAny>,
    provider: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let out = sanitized(py, schema, provider, true)?;
    arguments::encode_value(py, &out.decoder, value)
}

/// `schema` sanitized for `provider` (with the encodings when `encode`), for its decoder.
fn sanitized(
    py: Python<'_>,
    schema: &Bound<'_, PyAny>,
    provider: &Bound<'_, PyAny>,
    encode: bool,
) -> PyResult<provider_rules::Sanitized> {
    let (chosen, slot, input) = args(py, schema, Some(provider), "parameters")?;
    run(py, input.text(), |t| {
        provider_rules::sanitize_slice_with(t, chosen.rules(), slot, &options(encode))
    })
    .map_err(|e| input::not_json(&e).into_py_err(py))
}

/// The names of the built-in profiles.
#[pyfunction]
#[pyo3(name = "providers")]
fn provider_names() -> Vec<&'static str> {
    providers::names()
}

/// A profile's rules: a dict (`format="dict"`), or TOML / JSON text.
#[pyfunction]
#[pyo3(signature = (name, format = "dict"))]
fn rules<'py>(
    py: Python<'py>,
    name: &Bound<'py, PyAny>,
    format: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let chosen = profile::chosen(Some(name), "gemini")?;
    let r = chosen.rules();
    match format {
        "dict" => from_json::to_python(py, &profile::written(r.to_json())?),
        "toml" => Ok(PyString::new(py, &profile::written(r.to_toml())?).into_any()),
        "json" => Ok(PyString::new(py, &profile::written(r.to_json())?).into_any()),
        other => Err(pyo3::exceptions::PyValueError::new_err(format!(
            "unknown format {other:?}: \"dict\", \"toml\" or \"json\""
        ))),
    }
}

/// The native module; `toolschema/__init__.py` re-exports it.
#[pymodule]
fn _toolschema(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_function(wrap_pyfunction!(sanitize, m)?)?;
    m.add_function(wrap_pyfunction!(sanitize_json, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(provider_names, m)?)?;
    m.add_function(wrap_pyfunction!(rules, m)?)?;
    m.add_function(wrap_pyfunction!(decode, m)?)?;
    m.add_function(wrap_pyfunction!(encode, m)?)?;
    m.add_function(wrap_pyfunction!(body::sanitize_body, m)?)?;
    m.add_function(wrap_pyfunction!(restore::restore, m)?)?;
    m.add_function(wrap_pyfunction!(calls::validate_call, m)?)?;
    m.add_function(wrap_pyfunction!(calls::explain_call, m)?)?;
    m.add_class::<Sanitized>()?;
    m.add_class::<Change>()?;
    m.add_class::<Violation>()?;
    m.add_class::<Profile>()?;
    m.add_class::<body::SanitizedBody>()?;
    m.add_class::<body::BodySlot>()?;
    m.add_class::<calls::CallError>()?;
    m.add_class::<restore::RestoreReport>()?;
    m.add_class::<restore::RestoredCall>()?;
    m.add("SchemaError", py.get_type::<SchemaError>())?;
    m.add("ProfileError", py.get_type::<ProfileError>())?;
    m.add("MAX_NESTING", to_json::MAX_NESTING)?;
    Ok(())
}
