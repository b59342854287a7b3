//! What the Python functions accept as a schema or a body: a dict (or list, ...) written to
//! JSON text here, or JSON text as `str` / `bytes` taken as it is.

use crate::errors::ErrorAt;
use crate::snapshot::Recorder;
use crate::to_json;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyString};

/// How the value came.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A Python value (dict, list, ...), written to JSON here.
    Value,
    /// `str`.
    Str,
    /// `bytes` or `bytearray`.
    Bytes,
}

/// The JSON text of an argument, borrowed where Python already holds it.
pub struct Input<'a> {
    text: Text<'a>,
    /// What it came as.
    pub kind: Kind,
}

/// Where the text of an [`Input`] lives.
enum Text<'a> {
    /// In the argument itself (`bytes`, or the UTF-8 a `str` lends where the limited API
    /// allows it).
    Borrowed(&'a [u8]),
    /// The UTF-8 Python made of a `str` (under the 3.9 limited API a `str` cannot lend its
    /// own): read where it is, with no second copy.
    Encoded(Bound<'a, PyBytes>),
    /// Written here (a dict), or copied (a `bytearray`, which may change under us).
    Owned(Vec<u8>),
}

impl Input<'_> {
    /// The JSON text.
    pub fn text(&self) -> &[u8] {
        match &self.text {
            Text::Borrowed(b) => b,
            Text::Encoded(b) => b.as_bytes(),
            Text::Owned(v) => v,
        }
    }

    /// The JSON text, owned: moved when it was written here, copied otherwise.
    pub fn into_vec(self) -> Vec<u8> {
        match self.text {
            Text::Owned(v) => v,
            Text::Borrowed(b) => b.to_vec(),
            Text::Encoded(b) => b.as_bytes().to_vec(),
        }
    }

    /// The JSON text as a `String` (see [`Input::into_vec`]). The text is UTF-8 (read from a
    /// `str`, or written here); `bytes` that are not are shown with replacement characters
    /// (the engine refused them before this is called).
    pub fn into_string(self) -> String {
        String::from_utf8(self.into_vec())
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }
}

/// Reads `obj` as JSON text (see the module docs).
pub fn read<'a, 'py>(obj: &'a Bound<'py, PyAny>) -> Result<Input<'a>, ErrorAt> {
    read_shaped(obj, None)
}

/// [`read`], a value's snapshot taken by `shape` while it is written.
fn read_shaped<'a, 'py>(
    obj: &'a Bound<'py, PyAny>,
    shape: Option<&mut Recorder>,
) -> Result<Input<'a>, ErrorAt> {
    if let Ok(s) = obj.cast::<PyString>() {
        // (PyO3's `to_cow` would copy these bytes once more into a `String`.)
        let text = s.encode_utf8().map_err(|e| ErrorAt::root(e.to_string()))?;
        return Ok(Input {
            text: Text::Encoded(text),
            kind: Kind::Str,
        });
    }
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(Input {
            text: Text::Borrowed(b.as_bytes()),
            kind: Kind::Bytes,
        });
    }
    if let Ok(b) = obj.cast::<PyByteArray>() {
        return Ok(Input {
            text: Text::Owned(b.to_vec()),
            kind: Kind::Bytes,
        });
    }
    // Room for most tool schemas (the corpus median is 479 bytes): grown from less, the
    // buffer was reallocated and copied about once per call.
    let mut out = Vec::with_capacity(1024);
    to_json::write(obj, &mut out, shape)?;
    Ok(Input {
        text: Text::Owned(out),
        kind: Kind::Value,
    })
}

/// Reads `obj` as a schema: JSON text or a value whose root is an object or a boolean (a
/// list, a number, `None` is a caller's mistake, not a schema to replace by `{}`).
pub fn read_schema<'a, 'py>(obj: &'a Bound<'py, PyAny>) -> Result<Input<'a>, ErrorAt> {
    read_schema_shaped(obj, None)
}

/// [`read_schema`], and the snapshot of a dict (see [`Recorder`]) taken in the same pass when
/// `shape` is given (its result is left there).
pub fn read_schema_shaped<'a, 'py>(
    obj: &'a Bound<'py, PyAny>,
    shape: Option<&mut Recorder>,
) -> Result<Input<'a>, ErrorAt> {
    let input = read_shaped(obj, shape)?;
    let first = input
        .text()
        .iter()
        .find(|b| !matches!(b, b' ' | b'\n' | b'\r' | b'\t'));
    let found = match first {
        Some(b'{' | b't' | b'f') | None => return Ok(input),
        Some(b'[') => "an array",
        Some(b'"') => "a string",
        Some(b'n') => "null",
        Some(_) => "a number",
    };
    Err(ErrorAt::root(format!(
        "expected a schema (a JSON object or a boolean), found {found}"
    )))
}

/// The engine's "not JSON" error, as a [`ErrorAt`] at the root.
pub fn not_json(e: &schema_core::SchemaError) -> ErrorAt {
    ErrorAt::root(e.to_string())
}
