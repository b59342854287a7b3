//! Python values to JSON text, without recursion: a schema nested 100 000 dicts deep is
//! written like a flat one, and a dict that contains itself is an error, not a hang.

use crate::errors::{ErrorAt, pointer_of};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

/// How deep the containers of one value may nest. Far beyond what the engine keeps (64 schema
/// levels, cut and reported); a cycle reaches it at once.
pub const MAX_NESTING: usize = 20_000;

/// One open container: where its items come from, and (for the error's pointer) where we are.
enum Frame<'py> {
    Dict(
        pyo3::types::iter::BoundDictIterator<'py>,
        Option<Bound<'py, PyAny>>,
    ),
    Seq(Vec<Bound<'py, PyAny>>, usize),
}

/// Writes `value` as compact JSON text into `out`.
pub fn write<'py>(value: &Bound<'py, PyAny>, out: &mut String) -> Result<(), ErrorAt> {
    let mut stack: Vec<Frame<'py>> = Vec::new();
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
        // The next item of the innermost open container, or close it.
        let step = match stack.last_mut() {
            None => return Ok(()),
            Some(Frame::Dict(items, current)) => match items.next() {
                Some((k, v)) => {
                    let first = current.is_none();
                    *current = Some(k.clone());
                    Step::Entry(k, v, first)
                }
                None => Step::Close('}'),
            },
            Some(Frame::Seq(items, i)) => match items.get(*i).cloned() {
                Some(v) => {
                    *i += 1;
                    Step::Item(v, *i == 1)
                }
                None => Step::Close(']'),
            },
        };
        match step {
            Step::Entry(k, v, first) => {
                if !first {
                    out.push(',');
                }
                let Ok(key) = k.cast::<PyString>() else {
                    let shown = k.repr().map(|r| r.to_string()).unwrap_or_default();
                    return Err(at(&stack, format!("a key is not a string: {shown}")));
                };
                escape(&key.to_cow().map_err(|e| at(&stack, e.to_string()))?, out);
                out.push(':');
                next = Some(v);
            }
            Step::Item(v, first) => {
                if !first {
                    out.push(',');
                }
                next = Some(v);
            }
            Step::Close(c) => {
                out.push(c);
                stack.pop();
            }
        }
    }
}

/// What the innermost open container gives next.
enum Step<'py> {
    Entry(Bound<'py, PyAny>, Bound<'py, PyAny>, bool),
    Item(Bound<'py, PyAny>, bool),
    Close(char),
}

/// Writes a scalar, or opens a container (written up to its first item) and returns its frame.
fn scalar_or_open<'py>(
    v: &Bound<'py, PyAny>,
    out: &mut String,
) -> Result<Option<Frame<'py>>, String> {
    if let Ok(s) = v.cast::<PyString>() {
        escape(&s.to_cow().map_err(|e| e.to_string())?, out);
    } else if let Ok(d) = v.cast::<PyDict>() {
        out.push('{');
        return Ok(Some(Frame::Dict(d.iter(), None)));
    } else if let Ok(l) = v.cast::<PyList>() {
        out.push('[');
        return Ok(Some(Frame::Seq(l.iter().collect(), 0)));
    } else if v.is_none() {
        out.push_str("null");
    } else if let Ok(b) = v.cast::<PyBool>() {
        out.push_str(if b.is_true() { "true" } else { "false" });
    } else if let Ok(i) = v.cast::<PyInt>() {
        match i.extract::<i64>() {
            Ok(n) => out.push_str(&n.to_string()),
            // Beyond 64 bits: Python's own digits are valid JSON.
            Err(_) => out.push_str(&i.str().map_err(|e| e.to_string())?.to_string()),
        }
    } else if let Ok(f) = v.cast::<PyFloat>() {
        let x = f.value();
        if !x.is_finite() {
            return Err(format!("{x} is not a JSON number"));
        }
        out.push_str(
            &serde_json::Number::from_f64(x)
                .map(|n| n.to_string())
                .unwrap_or_default(),
        );
    } else if let Ok(t) = v.cast::<PyTuple>() {
        out.push('[');
        return Ok(Some(Frame::Seq(t.iter().collect(), 0)));
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

/// Appends `s` as a JSON string literal.
pub fn escape(s: &str, out: &mut String) {
    out.push('"');
    let mut start = 0;
    for (i, b) in s.bytes().enumerate() {
        let esc: Option<&str> = match b {
            b'"' => Some("\\\""),
            b'\\' => Some("\\\\"),
            b'\n' => Some("\\n"),
            b'\r' => Some("\\r"),
            b'\t' => Some("\\t"),
            0x08 => Some("\\b"),
            0x0c => Some("\\f"),
            0..=0x1f => None,
            _ => continue,
        };
        out.push_str(&s[start..i]);
        match esc {
            Some(e) => out.push_str(e),
            None => out.push_str(&format!("\\u{b:04x}")),
        }
        start = i + 1;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

/// The error at the place the walk has reached.
fn at(stack: &[Frame<'_>], reason: String) -> ErrorAt {
    let segments = stack.iter().filter_map(|f| match f {
        Frame::Dict(_, Some(k)) => Some(k.str().map(|s| s.to_string()).unwrap_or_default()),
        Frame::Dict(_, None) => None,
        Frame::Seq(_, i) => Some(i.saturating_sub(1).to_string()),
    });
    ErrorAt {
        pointer: pointer_of(segments),
        reason,
    }
}
