//! `toolschema.decode` and `Sanitized.decode`: a tool call's arguments as the tool's own schema
//! allows them, through the `Decoder` provider-rules' `sanitize` returns (strict nulls: a
//! property the strict rewrite made required and nullable loses the `null` the model filled
//! in; with encodings, entries back to maps, JSON text back to values, ...). Arguments that
//! need nothing undone come back as the very object given. `toolschema.encode` and
//! `Sanitized.encode`: the other way.

use crate::errors::ErrorAt;
use crate::from_json::to_python;
use crate::input::{self, Kind};
use provider_rules::Decoder;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

/// `arguments` (a dict, or JSON text as `str` / `bytes`) decoded by `decoder`, of the type
/// given; the same object when nothing changes (an identity decoder reads nothing).
pub fn decode_arguments<'py>(
    py: Python<'py>,
    decoder: &Decoder,
    arguments: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    if decoder.is_identity() {
        return Ok(arguments.clone());
    }
    let read = input::read(arguments).map_err(|e| e.into_py_err(py))?;
    let text = std::str::from_utf8(read.text())
        .map_err(|e| ErrorAt::root(format!("the arguments are not UTF-8: {e}")).into_py_err(py))?;
    let decoded = decoder
        .decode_json(text)
        .map_err(|e| ErrorAt::root(e.to_string()).into_py_err(py))?;
    let Some(out) = decoded else {
        return Ok(arguments.clone());
    };
    match read.kind {
        Kind::Value => to_python(py, &out),
        Kind::Str => Ok(PyString::new(py, &out).into_any()),
        Kind::Bytes => Ok(PyBytes::new(py, out.as_bytes()).into_any()),
    }
}

/// The deepest value [`encode_value`] reads (serde_json's own default limit).
const MAX_DEPTH: usize = 128;

/// `value` (a Python value, or JSON text as `str` / `bytes`) in the tool's terms, encoded by
/// `decoder` into what the sanitized schema expects, of the type given; the same object when
/// the encoding changes nothing.
pub fn encode_value<'py>(
    py: Python<'py>,
    decoder: &Decoder,
    value: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    if decoder.is_identity() {
        return Ok(value.clone());
    }
    let read = input::read(value).map_err(|e| e.into_py_err(py))?;
    let text = std::str::from_utf8(read.text())
        .map_err(|e| ErrorAt::root(format!("the value is not UTF-8: {e}")).into_py_err(py))?;
    if tower_toolschema::encoding::nesting(text) > MAX_DEPTH {
        return Err(
            ErrorAt::root(format!("the value nests deeper than {MAX_DEPTH} levels"))
                .into_py_err(py),
        );
    }
    let parsed: serde_json::Value = serde_json::from_str(text)
        .map_err(|e| ErrorAt::root(format!("the value is not JSON: {e}")).into_py_err(py))?;
    let encoded = decoder.encode_value(&parsed);
    if encoded == parsed {
        return Ok(value.clone());
    }
    let out = encoded.to_string();
    match read.kind {
        Kind::Value => to_python(py, &out),
        Kind::Str => Ok(PyString::new(py, &out).into_any()),
        Kind::Bytes => Ok(PyBytes::new(py, out.as_bytes()).into_any()),
    }
}
