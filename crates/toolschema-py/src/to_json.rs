//! Python values to JSON text, without recursion: a schema nested 100 000 dicts deep is
//! written like a flat one, and a dict that contains itself is an error, not a hang.

use crate::errors::{ErrorAt, pointer_of};
use crate::snapshot::Recorder;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

/// Writes `s` as a JSON string literal, escaped from its UTF-8. Under the 3.9 limited API the
/// one wheel targets, a `str` cannot lend its UTF-8: it is read from the `bytes` Python makes
/// of it (`to_cow` would copy that `bytes` once more into a `String`).
fn string(s: &Bound<'_, PyString>, out: &mut Vec<u8>) -> Result<(), String> {
    let utf8 = s.encode_utf8().map_err(|e| e.to_string())?;
    escape(utf8.as_bytes(), out);
    Ok(())
}

/// How deep the containers of one value may nest. Far beyond what the engine keeps (64 schema
/// levels, cut and reported); a cycle reaches it at once.
pub const MAX_NESTING: usize = 20_000;

/// One open container: where its items come from, and (for the error's pointer) where we are:
/// the key of the entry being written, or how many items were taken.
enum Frame<'py> {
    Dict(
        pyo3::types::iter::BoundDictIterator<'py>,
        Option<Bound<'py, PyAny>>,
    ),
    List(pyo3::types::iter::BoundListIterator<'py>, usize),
    Tuple(pyo3::types::iter::BoundTupleIterator<'py>, usize),
}

/// Writes `value` as compact JSON text (UTF-8) into `out`; tells `shape`, when given, every
/// value met (with its key) and every container closed, in document order: the result cache's
/// snapshot, taken in the same pass.
pub fn write<'py>(
    value: &Bound<'py, PyAny>,
    out: &mut Vec<u8>,
    shape: Option<&mut Recorder>,
) -> Result<(), ErrorAt> {
    write_under(value, None, out, shape)
}

/// [`write`] for a value met under `key` (in the dict `shape` has open): the snapshot's
/// entry for it goes under that key.
pub fn write_under<'py>(
    value: &Bound<'py, PyAny>,
    key: Option<&Bound<'py, PyAny>>,
    out: &mut Vec<u8>,
    mut shape: Option<&mut Recorder>,
) -> Result<(), ErrorAt> {
    let mut stack: Vec<Frame<'py>> = Vec::new();
    if let Some(r) = shape.as_deref_mut() {
        r.met(key, value);
    }
    let mut next = Some(value.clone());
    loop {
        if let Some(v) = next.take()
            && let Some(frame) = scalar_or_open(&v, out).map_err(|r| at(&stack, r))?
        {
            if stack.len() >= MAX_NESTING {
                return Err(at(
                    &stack,
                    format!(
                        "nested deeper than {MAX_NESTING} levels (a dict or list that contains itself?)"
                    ),
                ));
            }
            stack.push(frame);
        }
        // The next item of the innermost open container, or close it. Items are taken as the
        // iterators give them (one reference each, no copy of a list).
        let (item, first) = match stack.last_mut() {
            None => return Ok(()),
            Some(Frame::Dict(items, current)) => match items.next() {
                Some((k, v)) => {
                    let first = current.is_none();
                    *current = Some(k);
                    (Some(v), first)
                }
                None => (None, false),
            },
            Some(Frame::List(items, i)) => {
                *i += 1;
                (items.next(), *i == 1)
            }
            Some(Frame::Tuple(items, i)) => {
                *i += 1;
                (items.next(), *i == 1)
            }
        };
        let Some(v) = item else {
            out.push(match stack.pop() {
                Some(Frame::Dict(..)) => b'}',
                _ => b']',
            });
            if let Some(r) = shape.as_deref_mut() {
                r.closed();
            }
            continue;
        };
        if !first {
            out.push(b',');
        }
        if let Some(Frame::Dict(_, Some(k))) = stack.last() {
            let Ok(key) = k.cast::<PyString>() else {
                let shown = k.repr().map(|r| r.to_string()).unwrap_or_default();
                return Err(at(&stack, format!("a key is not a string: {shown}")));
            };
            string(key, out).map_err(|e| at(&stack, e))?;
            out.push(b':');
        }
        if let Some(r) = shape.as_deref_mut() {
            let key = match stack.last() {
                Some(Frame::Dict(_, k)) => k.as_ref(),
                _ => None,
            };
            r.met(key, &v);
        }
        next = Some(v);
    }
}

/// Writes a scalar, or opens a container (written up to its first item) and returns its frame.
fn scalar_or_open<'py>(
    v: &Bound<'py, PyAny>,
    out: &mut Vec<u8>,
) -> Result<Option<Frame<'py>>, String> {
    if let Ok(s) = v.cast::<PyString>() {
        string(s, out)?;
    } else if let Ok(d) = v.cast::<PyDict>() {
        out.push(b'{');
        return Ok(Some(Frame::Dict(d.iter(), None)));
    } else if let Ok(l) = v.cast::<PyList>() {
        out.push(b'[');
        return Ok(Some(Frame::List(l.iter(), 0)));
    } else if v.is_none() {
        out.extend_from_slice(b"null");
    } else if let Ok(b) = v.cast::<PyBool>() {
        out.extend_from_slice(if b.is_true() { b"true" } else { b"false" });
    } else if let Ok(i) = v.cast::<PyInt>() {
        match i.extract::<i64>() {
            Ok(n) => out.extend_from_slice(n.to_string().as_bytes()),
            // Beyond 64 bits: Python's own digits are valid JSON.
            Err(_) => {
                out.extend_from_slice(i.str().map_err(|e| e.to_string())?.to_string().as_bytes())
            }
        }
    } else if let Ok(f) = v.cast::<PyFloat>() {
        let x = f.value();
        if !x.is_finite() {
            return Err(format!("{x} is not a JSON number"));
        }
        out.extend_from_slice(
            serde_json::Number::from_f64(x)
                .map(|n| n.to_string())
                .unwrap_or_default()
                .as_bytes(),
        );
    } else if let Ok(t) = v.cast::<PyTuple>() {
        out.push(b'[');
        return Ok(Some(Frame::Tuple(t.iter(), 0)));
    } else {
        let ty = v
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_default();
        return Err(format!(
            "a {ty} is not a JSON value (use dict, list, str, int, float, bool or None)"
        ));
    }
    Ok(None)
}

/// Appends `s` (UTF-8) as a JSON string literal.
fn escape(s: &[u8], out: &mut Vec<u8>) {
    out.push(b'"');
    // Most strings need no escape: one branch-free pass finds that out.
    if !s.iter().fold(false, |any, &b| {
        any | (b < 0x20) | (b == b'"') | (b == b'\\')
    }) {
        out.extend_from_slice(s);
        out.push(b'"');
        return;
    }
    let mut start = 0;
    for (i, &b) in s.iter().enumerate() {
        let esc: &[u8] = match b {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            b'\n' => b"\\n",
            b'\r' => b"\\r",
            b'\t' => b"\\t",
            0x08 => b"\\b",
            0x0c => b"\\f",
            0..=0x1f => b"",
            _ => continue,
        };
        out.extend_from_slice(&s[start..i]);
        if esc.is_empty() {
            out.extend_from_slice(format!("\\u{b:04x}").as_bytes());
        } else {
            out.extend_from_slice(esc);
        }
        start = i + 1;
    }
    out.extend_from_slice(&s[start..]);
    out.push(b'"');
}

/// The error at the place the walk has reached.
fn at(stack: &[Frame<'_>], reason: String) -> ErrorAt {
    let segments = stack.iter().filter_map(|f| match f {
        Frame::Dict(_, Some(k)) => Some(k.str().map(|s| s.to_string()).unwrap_or_default()),
        Frame::Dict(_, None) => None,
        Frame::List(_, i) | Frame::Tuple(_, i) => Some(i.saturating_sub(1).to_string()),
    });
    ErrorAt {
        pointer: pointer_of(segments),
        reason,
    }
}
