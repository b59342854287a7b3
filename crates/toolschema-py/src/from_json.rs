//! JSON text to Python values, without recursion (any nesting depth), keys in document order.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyFloat, PyList, PyString};

/// An open container and, for a dict, the key its next value goes under.
enum Open<'py> {
    Dict(Bound<'py, PyDict>, Bound<'py, PyString>),
    List(Vec<Bound<'py, PyAny>>),
}

/// The Python value of the JSON text `text` (dicts, lists, str, int, float, bool, None).
pub fn to_python<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    let mut r = Reader {
        b: text.as_bytes(),
        text,
        i: 0,
    };
    let mut stack: Vec<Open<'py>> = Vec::new();
    'value: loop {
        r.ws();
        let mut v: Bound<'py, PyAny> = match r.peek()? {
            b'{' => {
                r.i += 1;
                r.ws();
                if r.peek()? == b'}' {
                    r.i += 1;
                    PyDict::new(py).into_any()
                } else {
                    let key = r.key(py)?;
                    stack.push(Open::Dict(PyDict::new(py), key));
                    continue 'value;
                }
            }
            b'[' => {
                r.i += 1;
                r.ws();
                if r.peek()? == b']' {
                    r.i += 1;
                    PyList::empty(py).into_any()
                } else {
                    stack.push(Open::List(Vec::new()));
                    continue 'value;
                }
            }
            b'"' => r.string(py)?.into_any(),
            b't' => r.literal("true", true.into_pyobject(py)?.to_owned().into_any())?,
            b'f' => r.literal("false", false.into_pyobject(py)?.to_owned().into_any())?,
            b'n' => r.literal("null", py.None().into_bound(py))?,
            _ => r.number(py)?,
        };
        // Put the value into its container; close every container that ends here.
        loop {
            let close = match stack.last_mut() {
                None => {
                    r.ws();
                    if r.i != r.b.len() {
                        return Err(r.error("trailing characters"));
                    }
                    return Ok(v);
                }
                Some(Open::Dict(d, key)) => {
                    d.set_item(&*key, &v)?;
                    r.ws();
                    match r.peek()? {
                        b',' => {
                            r.i += 1;
                            *key = r.key(py)?;
                            continue 'value;
                        }
                        b'}' => true,
                        _ => return Err(r.error("expected , or }")),
                    }
                }
                Some(Open::List(items)) => {
                    items.push(v.clone());
                    r.ws();
                    match r.peek()? {
                        b',' => {
                            r.i += 1;
                            continue 'value;
                        }
                        b']' => true,
                        _ => return Err(r.error("expected , or ]")),
                    }
                }
            };
            if close {
                r.i += 1;
                v = match stack.pop() {
                    Some(Open::Dict(d, _)) => d.into_any(),
                    Some(Open::List(items)) => PyList::new(py, items)?.into_any(),
                    None => return Err(r.error("unbalanced")),
                };
            }
        }
    }
}

struct Reader<'a> {
    b: &'a [u8],
    text: &'a str,
    i: usize,
}

impl Reader<'_> {
    fn error(&self, what: &str) -> PyErr {
        PyValueError::new_err(format!("invalid JSON at byte {}: {what}", self.i))
    }

    fn ws(&mut self) {
        while matches!(self.b.get(self.i), Some(b' ' | b'\n' | b'\r' | b'\t')) {
            self.i += 1;
        }
    }

    fn peek(&self) -> PyResult<u8> {
        self.b
            .get(self.i)
            .copied()
            .ok_or_else(|| self.error("unexpected end"))
    }

    fn literal<'py>(&mut self, word: &str, v: Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        if self.b[self.i..].starts_with(word.as_bytes()) {
            self.i += word.len();
            Ok(v)
        } else {
            Err(self.error("unknown literal"))
        }
    }

    /// `"key":` (leading white space allowed).
    fn key<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyString>> {
        self.ws();
        if self.peek()? != b'"' {
            return Err(self.error("expected a key"));
        }
        let k = self.string(py)?;
        self.ws();
        if self.peek()? != b':' {
            return Err(self.error("expected :"));
        }
        self.i += 1;
        Ok(k)
    }

    fn string<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyString>> {
        let start = self.i;
        self.i += 1;
        let mut escaped = false;
        loop {
            match self.b.get(self.i) {
                None => return Err(self.error("unterminated string")),
                Some(b'"') => break,
                Some(b'\\') => {
                    escaped = true;
                    self.i += 2;
                }
                Some(_) => self.i += 1,
            }
        }
        self.i += 1;
        let raw = self
            .text
            .get(start..self.i)
            .ok_or_else(|| self.error("bad string"))?;
        if escaped {
            let s: String = serde_json::from_str(raw).map_err(|e| self.error(&e.to_string()))?;
            Ok(PyString::new(py, &s))
        } else {
            Ok(PyString::new(py, &raw[1..raw.len() - 1]))
        }
    }

    fn number<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let start = self.i;
        let mut float = false;
        while let Some(c) = self.b.get(self.i) {
            match c {
                b'0'..=b'9' | b'-' | b'+' => {}
                b'.' | b'e' | b'E' => float = true,
                _ => break,
            }
            self.i += 1;
        }
        let raw = self.text.get(start..self.i).unwrap_or_default();
        if raw.is_empty() {
            return Err(self.error("expected a value"));
        }
        if float {
            let x: f64 = raw.parse().map_err(|_| self.error("bad number"))?;
            return Ok(PyFloat::new(py, x).into_any());
        }
        if let Ok(n) = raw.parse::<i64>() {
            return Ok(n.into_pyobject(py)?.into_any());
        }
        // Beyond 64 bits: Python's int reads the digits.
        py.get_type::<pyo3::types::PyInt>().call1((raw,))
    }
}
