//! Reading JSON text without a tree: the members of an object, the items of an array.

use crate::decode::{key_text, skip, skip_string, ws};

/// The items of the array opening at `s[open]`: each item's span, and the end of the array.
pub(crate) fn items(s: &[u8], open: usize) -> Option<(Vec<(usize, usize)>, usize)> {
    if s.get(open) != Some(&b'[') {
        return None;
    }
    let mut out = Vec::new();
    let mut i = ws(s, open + 1);
    if s.get(i) == Some(&b']') {
        return Some((out, i + 1));
    }
    loop {
        let end = skip(s, i)?;
        out.push((i, end));
        let after = ws(s, end);
        match s.get(after)? {
            b',' => i = ws(s, after + 1),
            b']' => return Some((out, after + 1)),
            _ => return None,
        }
    }
}

/// The members of the object opening at `s[open]`: each member's name and value span, and the
/// end of the object.
pub(crate) type Members = Vec<(String, usize, usize)>;

/// See [`Members`].
pub(crate) fn members(s: &[u8], open: usize) -> Option<(Members, usize)> {
    if s.get(open) != Some(&b'{') {
        return None;
    }
    let mut out = Vec::new();
    let mut i = ws(s, open + 1);
    if s.get(i) == Some(&b'}') {
        return Some((out, i + 1));
    }
    loop {
        let key_end = skip_string(s, i)?;
        let key = key_text(&s[i..key_end])?;
        let colon = ws(s, key_end);
        if s.get(colon) != Some(&b':') {
            return None;
        }
        let v = ws(s, colon + 1);
        let end = skip(s, v)?;
        out.push((key, v, end));
        let after = ws(s, end);
        match s.get(after)? {
            b',' => i = ws(s, after + 1),
            b'}' => return Some((out, after + 1)),
            _ => return None,
        }
    }
}

/// Writes `name` as a JSON string.
pub(crate) fn push_key(out: &mut Vec<u8>, name: &str) {
    // Serializing a `&str` cannot fail.
    out.extend_from_slice(
        serde_json::to_string(name)
            .unwrap_or_else(|_| String::from("\"\""))
            .as_bytes(),
    );
}

/// The value at `s[i..]` an encoding's decoder reads: the text, where the value starts and
/// where it ends (found once, by [`At::of`]).
#[derive(Clone, Copy)]
pub(crate) struct At<'a> {
    /// The text.
    pub(crate) s: &'a [u8],
    /// Where the value starts.
    pub(crate) i: usize,
    /// Where it ends.
    pub(crate) end: usize,
}

impl<'a> At<'a> {
    /// The value at `s[i..]`; `None`: not JSON there.
    pub(crate) fn of(s: &'a [u8], i: usize) -> Option<At<'a>> {
        Some(At {
            s,
            i,
            end: skip(s, i)?,
        })
    }

    /// Copies the value into `out` unchanged: its end, and `false` (nothing changed).
    pub(crate) fn copy(self, out: &mut Vec<u8>) -> Option<(usize, bool)> {
        out.extend_from_slice(self.s.get(self.i..self.end)?);
        Some((self.end, false))
    }
}

/// Decodes the value at `s[i..]` with `d` (identity: copied) into `out`.
pub(crate) fn value(
    d: &crate::decode::Decoder,
    s: &[u8],
    i: usize,
    out: &mut Vec<u8>,
    notes: &mut Vec<String>,
) -> Option<(usize, bool)> {
    if d.is_identity() {
        return At::of(s, i)?.copy(out);
    }
    d.value(s, i, out, notes)
}
