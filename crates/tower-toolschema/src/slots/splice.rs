//! Splicing replacements into a body: the changed byte ranges are copied, everything around
//! them is kept verbatim (and can be forwarded as slices of the input).

use std::ops::Range;

use bytes::Bytes;

/// One replacement of a byte range of the body.
#[derive(Debug)]
pub(crate) struct Edit {
    pub(crate) range: Range<usize>,
    pub(crate) bytes: Vec<u8>,
}

/// A rewritten body: the input's bytes before `head`, then `middle`, then the input's bytes
/// from `tail` on. Only the region between the first and the last edit is copied; the rest (the
/// conversation, usually) can be forwarded as slices of the input without a copy. The middle
/// is shared: a known tool list's (the tool-list cache's) is handed to every request that
/// reuses it without a copy.
#[derive(Debug)]
pub(crate) struct Spliced {
    head: usize,
    middle: Bytes,
    tail: usize,
    len: usize,
}

impl Spliced {
    /// `input` (of `len` bytes) with its bytes `region` replaced by `middle`; `None` when the
    /// region is not inside the input.
    pub(crate) fn shared(region: Range<usize>, middle: Bytes, len: usize) -> Option<Self> {
        if region.start > region.end || region.end > len {
            return None;
        }
        Some(Spliced {
            head: region.start,
            len: len - (region.end - region.start) + middle.len(),
            middle,
            tail: region.end,
        })
    }

    /// The input's bytes that were replaced, and what replaces them.
    pub(crate) fn region(&self) -> (Range<usize>, &Bytes) {
        (self.head..self.tail, &self.middle)
    }

    /// The rewritten body's length.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The rewritten body as slices of `input` around the copied middle: O(1), no copy of the
    /// unchanged head and tail. `input` must be the body given to [`splice`].
    pub(crate) fn into_parts(self, input: &Bytes) -> Vec<Bytes> {
        let mut parts = Vec::with_capacity(3);
        if self.head > 0 {
            parts.push(input.slice(..self.head));
        }
        if !self.middle.is_empty() {
            parts.push(self.middle);
        }
        if self.tail < input.len() {
            parts.push(input.slice(self.tail..));
        }
        parts
    }

    /// [`Spliced::into_vec`] without consuming it.
    pub(crate) fn clone_vec(&self, input: &[u8]) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.len);
        out.extend_from_slice(&input[..self.head]);
        out.extend_from_slice(&self.middle);
        out.extend_from_slice(&input[self.tail..]);
        out
    }

    /// The rewritten body in one buffer: O(n), one copy of the whole body. `input` must be the
    /// body given to [`splice`].
    pub(crate) fn into_vec(self, input: &[u8]) -> Vec<u8> {
        self.clone_vec(input)
    }
}

/// Replaces the (non-overlapping) ranges of `edits` in `input`; everything else is kept
/// verbatim. O(e log e) to sort the e edits plus O(m) to copy the m bytes from the first edit to
/// the last; the bytes outside them are not touched. `None` if the edits overlap or fall outside
/// the input.
pub(crate) fn splice(input: &[u8], mut edits: Vec<Edit>) -> Option<Spliced> {
    edits.sort_by_key(|e| e.range.start);
    let (Some(first), Some(last)) = (edits.first(), edits.last()) else {
        return Some(Spliced {
            head: input.len(),
            middle: Bytes::new(),
            tail: input.len(),
            len: input.len(),
        });
    };
    let (head, tail) = (first.range.start, last.range.end.max(first.range.end));
    if tail > input.len() {
        return None;
    }
    let added: usize = edits.iter().map(|e| e.bytes.len()).sum();
    let mut middle = Vec::with_capacity((tail - head) + added);
    let mut at = head;
    for e in edits {
        if e.range.start < at || e.range.end > input.len() || e.range.start > e.range.end {
            return None;
        }
        middle.extend_from_slice(&input[at..e.range.start]);
        middle.extend_from_slice(&e.bytes);
        at = e.range.end;
    }
    let tail = at;
    let len = head + middle.len() + (input.len() - tail);
    Some(Spliced {
        head,
        middle: middle.into(),
        tail,
        len,
    })
}

/// [`splice`] then [`Spliced::into_vec`] in one pass: `input` with each range of `edits`
/// replaced by its bytes, every byte written once (the replacements are borrowed: a shared
/// buffer goes in without a copy of its own). `None` if the edits overlap or fall outside the
/// input.
pub(crate) fn spliced_vec(input: &[u8], edits: &mut [(Range<usize>, &[u8])]) -> Option<Vec<u8>> {
    edits.sort_by_key(|(r, _)| r.start);
    let mut len = input.len();
    for (r, bytes) in edits.iter() {
        let cut = r.end.checked_sub(r.start)?;
        len = len.checked_sub(cut)?.checked_add(bytes.len())?;
    }
    let mut out = Vec::with_capacity(len);
    let mut at = 0;
    for (r, bytes) in edits.iter() {
        if r.start < at {
            return None;
        }
        out.extend_from_slice(input.get(at..r.start)?);
        out.extend_from_slice(bytes);
        at = r.end;
    }
    out.extend_from_slice(input.get(at..)?);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splice_replaces_ranges_and_keeps_the_rest() {
        let input = b"0123456789";
        let out = splice(
            input,
            vec![
                Edit {
                    range: 7..9,
                    bytes: b"X".to_vec(),
                },
                Edit {
                    range: 1..3,
                    bytes: b"ABC".to_vec(),
                },
            ],
        );
        let out = out.unwrap();
        assert_eq!(out.len(), 10);
        let parts = out.into_parts(&Bytes::from_static(input));
        assert_eq!(parts, [&b"0"[..], b"ABC3456X", b"9"]);
        let mut borrowed: Vec<(Range<usize>, &[u8])> = vec![(7..9, b"X"), (1..3, b"ABC")];
        assert_eq!(spliced_vec(input, &mut borrowed).unwrap(), b"0ABC3456X9");
        assert_eq!(spliced_vec(input, &mut []).unwrap(), input);
        assert!(spliced_vec(input, &mut [(1..5, &b""[..]), (3..6, &b""[..])]).is_none());
        assert!(spliced_vec(input, &mut [(8..11, &b""[..])]).is_none());
        let out = splice(
            input,
            vec![Edit {
                range: 0..10,
                bytes: b"x".to_vec(),
            }],
        )
        .unwrap();
        assert_eq!(out.into_vec(input), b"x");
        let out = splice(input, vec![]).unwrap();
        assert_eq!(out.into_parts(&Bytes::from_static(input)), [&input[..]]);
        assert!(
            splice(
                input,
                vec![
                    Edit {
                        range: 1..5,
                        bytes: vec![]
                    },
                    Edit {
                        range: 3..6,
                        bytes: vec![]
                    }
                ]
            )
            .is_none()
        );
        assert!(
            splice(
                input,
                vec![Edit {
                    range: 8..11,
                    bytes: vec![]
                }]
            )
            .is_none()
        );
    }
}
