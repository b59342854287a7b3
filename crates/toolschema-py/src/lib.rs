//! The Python package `toolschema` (built by maturin): the Rust engine in-process. Every call
//! goes to provider-rules, tower-toolschema and tool-calls; nothing is reimplemented in Python.
//! The Python API is documented in `python/toolschema/__init__.pyi` and the package README.
#![forbid(unsafe_code)]

mod arguments;
mod body;
mod cache;
mod calls;
mod classes;
mod errors;
mod from_dict;
mod from_json;
mod from_tree;
mod input;
mod names;
mod profile;
mod providers;
mod restore;
mod snapshot;
mod template;
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
    let chosen = profile::chosen(provider, "gemini")?;
    let slot = profile::slot(slot)?;
    let (kind, done) = engine(py, schema, &chosen, slot, encode)?;
    // The input is the result when nothing changed: kept as it came (a dict, a str).
    let original =
        (done.out.report.is_empty() && kind != Kind::Bytes).then(|| schema.clone().unbind());
    Ok(Sanitized {
        done,
        original,
        chosen,
        schema: PyOnceLock::new(),
    })
}

/// The engine's answer for `schema` (through the result cache), and how the schema came.
fn engine(
    py: Python<'_>,
    schema: &Bound<'_, PyAny>,
    chosen: &providers::Chosen,
    slot: provider_rules::Slot,
    encode: bool,
) -> PyResult<(Kind, std::sync::Arc<cache::Done>)> {
    cache::sanitized(py, schema, chosen, slot, encode, |source| match source {
        cache::Source::Text(text) => run(py, text, |t| {
            provider_rules::sanitize_slice_with(t, chosen.rules(), slot, &options(encode))
        })
        .map_err(|e| input::not_json(&e).into_py_err(py)),
        cache::Source::Tree(built) => {
            let rules = chosen.rules();
            let go = move || {
                provider_rules::sanitize_parsed_with(built.parsed, rules, slot, &options(encode))
            };
            Ok(if built.size >= DETACH_FROM {
                py.detach(go)
            } else {
                go()
            })
        }
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
    let chosen = profile::chosen(provider, "gemini")?;
    let slot = profile::slot(slot)?;
    let is_text = text.is_instance_of::<PyString>()
        || text.is_instance_of::<pyo3::types::PyBytes>()
        || text.is_instance_of::<pyo3::types::PyByteArray>();
    if !is_text {
        // What `sanitize` would say of it first (not a schema at all), else the type's error.
        input::read_schema(text).map_err(|e| e.into_py_err(py))?;
        return Err(pyo3::exceptions::PyTypeError::new_err(
            "sanitize_json takes JSON text (str or bytes); pass a dict to sanitize()",
        ));
    }
    let (kind, done) = engine(py, text, &chosen, slot, encode)?;
    if done.out.report.is_empty() && kind == Kind::Str {
        return Ok(text.clone());
    }
    Ok(done.json_str(py).into_any())
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
    arguments::decode_arguments(py, &out.out.decoder, arguments)
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
    arguments::encode_value(py, &out.out.decoder, value)
}

/// `schema` sanitized for `provider` (with the encodings when `encode`), for its decoder:
/// through the result cache, so decoding every call of one tool sanitizes its schema once.
fn sanitized(
    py: Python<'_>,
    schema: &Bound<'_, PyAny>,
    provider: &Bound<'_, PyAny>,
    encode: bool,
) -> PyResult<std::sync::Arc<cache::Done>> {
    let chosen = profile::chosen(Some(provider), "gemini")?;
    let slot = provider_rules::Slot::Parameters;
    Ok(engine(py, schema, &chosen, slot, encode)?.1)
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
    m.add_function(wrap_pyfunction!(cache::cache_info, m)?)?;
    m.add_function(wrap_pyfunction!(cache::cache_clear, m)?)?;
    m.add_function(wrap_pyfunction!(cache::set_cache_capacity, m)?)?;
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
