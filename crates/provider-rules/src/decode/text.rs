//! Decoding on JSON text: a decoder tree transcribes a value, drops the strict nulls and
//! applies its encodings' decoders, and keeps every other byte (key order, spacing, number
//! spellings).

use super::{Decoder, defs};
use schema_core::InstanceType;

impl Decoder {
    /// Transcribes the value at `s[i..]` into `out`, decoded; returns its end and whether
    /// anything changed. `None`: not JSON where a value was expected.
    pub(crate) fn value(
        &self,
        s: &[u8],
        i: usize,
        out: &mut Vec<u8>,
        notes: &mut Vec<String>,
    ) -> Option<(usize, bool)> {
        if self.reference.is_some() {
            return match defs::follow(self, |d| d.value(s, i, out, notes)) {
                Some(r) => r,
                None => {
                    let end = skip(s, i)?;
                    out.extend_from_slice(&s[i..end]);
                    Some((end, false))
                }
            };
        }
        if let Some(e) = &self.encoding {
            return e.decode_text(s, i, out, notes);
        }
        let t = token_type(s, i)?;
        if let Some(b) = self.branch_for(t) {
            // A branch decodes the value first; this node's own members then apply to its
            // output (both rarely: a branch is usually the only decoder).
            if !self.is_object_decoder() && self.items.is_none() && self.prefix_items.is_empty() {
                return b.value(s, i, out, notes);
            }
            let mut tmp = Vec::new();
            let (end, c1) = b.value(s, i, &mut tmp, notes)?;
            let mut again = Vec::with_capacity(tmp.len());
            let (_, c2) = self.own(&tmp, 0, &mut again, notes)?;
            out.extend_from_slice(&again);
            return Some((end, c1 || c2));
        }
        self.own(s, i, out, notes)
    }

    fn own(
        &self,
        s: &[u8],
        i: usize,
        out: &mut Vec<u8>,
        notes: &mut Vec<String>,
    ) -> Option<(usize, bool)> {
        match s.get(i)? {
            b'{' if self.is_object_decoder() => self.object(s, i, out, notes),
            b'[' if self.items.is_some() || !self.prefix_items.is_empty() => {
                self.array(s, i, out, notes)
            }
            _ => {
                let end = skip(s, i)?;
                out.extend_from_slice(&s[i..end]);
                Some((end, false))
            }
        }
    }

    /// Transcribes the object at `s[open]`, its kept members written as they are read (no
    /// copy per member): a dropped member takes the separator after it along, so the kept
    /// members keep the separators between them, and the last one the text before `}`.
    fn object(
        &self,
        s: &[u8],
        open: usize,
        out: &mut Vec<u8>,
        notes: &mut Vec<String>,
    ) -> Option<(usize, bool)> {
        let mut changed = false;
        let mut i = ws(s, open + 1);
        if s.get(i) == Some(&b'}') {
            out.extend_from_slice(&s[open..=i]);
            return Some((i + 1, false));
        }
        out.extend_from_slice(&s[open..i]);
        // The separator after the last kept member, written once another is kept.
        let mut sep: Option<std::ops::Range<usize>> = None;
        let mut kept = false;
        loop {
            let key_start = i;
            let key_end = skip_string(s, i)?;
            let key = key_ref(&s[key_start..key_end])?;
            let colon = ws(s, key_end);
            if s.get(colon) != Some(&b':') {
                return None;
            }
            let v = ws(s, colon + 1);
            let drop = s[v..].starts_with(b"null") && self.drop_null.iter().any(|d| *d == *key);
            let end = if drop {
                changed = true;
                v + 4
            } else {
                if let Some(r) = sep.take() {
                    out.extend_from_slice(&s[r]);
                }
                kept = true;
                out.extend_from_slice(&s[key_start..v]);
                match self.member(&key) {
                    Some(d) => {
                        let (end, c) = d.value(s, v, out, notes)?;
                        changed |= c;
                        end
                    }
                    None => {
                        let end = skip(s, v)?;
                        out.extend_from_slice(&s[v..end]);
                        end
                    }
                }
            };
            let after = ws(s, end);
            match s.get(after)? {
                b',' => {
                    let next = ws(s, after + 1);
                    if !drop {
                        sep = Some(end..next);
                    }
                    i = next;
                }
                b'}' => {
                    if kept {
                        out.extend_from_slice(&s[end..after]);
                    }
                    out.push(b'}');
                    return Some((after + 1, changed));
                }
                _ => return None,
            }
        }
    }

    fn array(
        &self,
        s: &[u8],
        open: usize,
        out: &mut Vec<u8>,
        notes: &mut Vec<String>,
    ) -> Option<(usize, bool)> {
        let mut i = ws(s, open + 1);
        out.extend_from_slice(&s[open..i]);
        let mut changed = false;
        if s.get(i) == Some(&b']') {
            out.push(b']');
            return Some((i + 1, false));
        }
        let mut index = 0;
        loop {
            let end = match self.item(index) {
                Some(d) => {
                    let (end, c) = d.value(s, i, out, notes)?;
                    changed |= c;
                    end
                }
                None => {
                    let end = skip(s, i)?;
                    out.extend_from_slice(&s[i..end]);
                    end
                }
            };
            index += 1;
            let after = ws(s, end);
            match s.get(after)? {
                b',' => {
                    let next = ws(s, after + 1);
                    out.extend_from_slice(&s[end..next]);
                    i = next;
                }
                b']' => {
                    out.extend_from_slice(&s[end..=after]);
                    return Some((after + 1, changed));
                }
                _ => return None,
            }
        }
    }
}

/// The JSON type of the token at `s[i]`.
fn token_type(s: &[u8], i: usize) -> Option<InstanceType> {
    Some(match s.get(i)? {
        b'{' => InstanceType::Object,
        b'[' => InstanceType::Array,
        b'"' => InstanceType::String,
        b't' | b'f' => InstanceType::Boolean,
        b'n' => InstanceType::Null,
        b'-' | b'0'..=b'9' => {
            let end = number_end(s, i);
            if s[i..end].iter().any(|b| matches!(b, b'.' | b'e' | b'E')) {
                InstanceType::Number
            } else {
                InstanceType::Integer
            }
        }
        _ => return None,
    })
}

pub(crate) fn ws(s: &[u8], mut i: usize) -> usize {
    while s
        .get(i)
        .is_some_and(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
    {
        i += 1;
    }
    i
}

fn number_end(s: &[u8], mut i: usize) -> usize {
    while s
        .get(i)
        .is_some_and(|b| matches!(b, b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'))
    {
        i += 1;
    }
    i
}

/// The end of the string starting at `s[i]` (a `"`).
pub(crate) fn skip_string(s: &[u8], i: usize) -> Option<usize> {
    if s.get(i) != Some(&b'"') {
        return None;
    }
    let mut j = i + 1;
    loop {
        match s.get(j)? {
            b'\\' => j += 2,
            b'"' => return Some(j + 1),
            _ => j += 1,
        }
    }
}

/// The end of the value starting at `s[i]`, without recursion.
pub(crate) fn skip(s: &[u8], i: usize) -> Option<usize> {
    match s.get(i)? {
        b'"' => skip_string(s, i),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut j = i;
            loop {
                match s.get(j)? {
                    b'"' => {
                        j = skip_string(s, j)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth = depth.checked_sub(1)?;
                        if depth == 0 {
                            return Some(j + 1);
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
        }
        b't' | b'n' => s[i..].get(..4).map(|_| i + 4),
        b'f' => s[i..].get(..5).map(|_| i + 5),
        _ => {
            let end = number_end(s, i);
            (end > i).then_some(end)
        }
    }
}

pub(crate) fn key_text(raw: &[u8]) -> Option<String> {
    key_ref(raw).map(std::borrow::Cow::into_owned)
}

/// [`key_text`], borrowed when the key has no escapes.
pub(crate) fn key_ref(raw: &[u8]) -> Option<std::borrow::Cow<'_, str>> {
    if raw.contains(&b'\\') {
        serde_json::from_slice(raw)
            .ok()
            .map(std::borrow::Cow::Owned)
    } else {
        std::str::from_utf8(raw.get(1..raw.len().checked_sub(1)?)?)
            .ok()
            .map(std::borrow::Cow::Borrowed)
    }
}
