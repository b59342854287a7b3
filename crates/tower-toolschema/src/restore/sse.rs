//! Server-sent events framing: splitting a byte stream into events (at any chunking), reading
//! an event's `event` and `data` fields, and rebuilding an event with new data.
//!
//! Lines end in `\n` or `\r\n`; an event ends at an empty line. An event is kept as its raw
//! bytes, terminator included, so an event that is not changed goes on byte for byte.

use std::ops::Range;

use bytes::{Bytes, BytesMut};

use crate::slots::splice::{Edit, splice};

/// Splits a stream into complete events; what follows the last complete event is held.
#[derive(Debug, Default)]
pub(crate) struct Splitter {
    buf: BytesMut,
    /// How far `buf` was scanned.
    scanned: usize,
    /// Where the line being scanned starts.
    line: usize,
}

impl Splitter {
    /// Adds `chunk`; the complete events go to `out`.
    #[cfg(test)]
    pub(crate) fn push(&mut self, chunk: &[u8], out: &mut Vec<Bytes>) {
        self.extend(chunk);
        while let Some(end) = self.next_end(0) {
            out.push(self.take(end));
        }
    }

    /// Adds `chunk` to what is held.
    pub(crate) fn extend(&mut self, chunk: &[u8]) {
        self.buf.extend_from_slice(chunk);
    }

    /// What is held, unsplit.
    pub(crate) fn held(&self) -> &[u8] {
        &self.buf
    }

    /// The end of the next complete event after `from` (where an earlier event ended, or 0),
    /// as an offset into [`Splitter::held`]; `None` until one is complete.
    pub(crate) fn next_end(&mut self, from: usize) -> Option<usize> {
        let mut i = self.scanned.max(from);
        if self.line < from {
            self.line = from;
        }
        while let Some(off) = memchr::memchr(b'\n', &self.buf[i..]) {
            let nl = i + off;
            let content = &self.buf[self.line..nl];
            i = nl + 1;
            if content.is_empty() || content == b"\r" {
                self.scanned = i;
                self.line = i;
                return Some(i);
            }
            self.line = i;
        }
        self.scanned = self.buf.len();
        None
    }

    /// The end of the last complete event in `held()[from..limit]` (`from` when there is none),
    /// the scan moved there: the events before it need no look one by one.
    pub(crate) fn last_end(&mut self, from: usize, limit: usize) -> usize {
        let limit = limit.min(self.buf.len());
        if from >= limit {
            return from;
        }
        match last_event_end(&self.buf[from..limit]) {
            Some(end) => {
                let end = from + end;
                if end > self.scanned {
                    self.scanned = end;
                    self.line = end;
                }
                end
            }
            None => from,
        }
    }

    /// Whether nothing is held (the last chunk ended with a complete event).
    pub(crate) fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// Takes the first `n` held bytes (whole events) as one `Bytes`, without a copy.
    pub(crate) fn take(&mut self, n: usize) -> Bytes {
        let out = self.buf.split_to(n.min(self.buf.len())).freeze();
        self.scanned = self.scanned.saturating_sub(out.len());
        self.line = self.line.saturating_sub(out.len());
        out
    }

    /// What was held at the end of the stream (an event without its terminating empty line).
    pub(crate) fn finish(&mut self) -> Option<Bytes> {
        self.scanned = 0;
        self.line = 0;
        (!self.buf.is_empty()).then(|| std::mem::take(&mut self.buf).freeze())
    }
}

/// The end of the last complete event in `part` (after its `\n\n` or `\n\r\n`), if any:
/// found from the back, line end by line end (a text stream's last event ends the part).
pub(crate) fn last_event_end(part: &[u8]) -> Option<usize> {
    for nl in memchr::memrchr_iter(b'\n', part) {
        let before = &part[..nl];
        if before.ends_with(b"\n") || before.ends_with(b"\n\r") {
            return Some(nl + 1);
        }
    }
    None
}

/// The end of the first event `chunk` completes after `prev` (the last bytes held before it):
/// just after the first `\n` that ends an empty line.
pub(crate) fn first_event_end(prev: &[u8], chunk: &[u8]) -> Option<usize> {
    let byte = |back: usize, nl: usize| match nl.checked_sub(back) {
        Some(i) => chunk.get(i).copied(),
        None => prev
            .len()
            .checked_sub(back - nl)
            .and_then(|i| prev.get(i).copied()),
    };
    memchr::memchr_iter(b'\n', chunk).find_map(|nl| {
        let empty = byte(1, nl) == Some(b'\n')
            || (byte(1, nl) == Some(b'\r') && byte(2, nl) == Some(b'\n'));
        empty.then_some(nl + 1)
    })
}

/// The end of the first event of `bytes`, which start at the start of a line (after an
/// event, or the stream's start): the line end of its first empty line.
pub(crate) fn event_end_at_line_start(bytes: &[u8]) -> Option<usize> {
    match bytes {
        [b'\n', ..] => Some(1),
        [b'\r', b'\n', ..] => Some(2),
        _ => first_event_end(b"", bytes),
    }
}

/// The lines of an event: (content range, line end range), without a list.
fn lines(raw: &[u8]) -> impl Iterator<Item = (Range<usize>, Range<usize>)> + '_ {
    let mut start = 0;
    std::iter::from_fn(move || {
        if start >= raw.len() {
            return None;
        }
        Some(match memchr::memchr(b'\n', &raw[start..]) {
            Some(off) => {
                let nl = start + off;
                let end = if nl > start && raw[nl - 1] == b'\r' {
                    nl - 1
                } else {
                    nl
                };
                let line = (start..end, end..nl + 1);
                start = nl + 1;
                line
            }
            None => {
                let line = (start..raw.len(), raw.len()..raw.len());
                start = raw.len();
                line
            }
        })
    })
}

fn field_value<'a>(line: &'a [u8], name: &[u8]) -> Option<&'a [u8]> {
    let rest = line.strip_prefix(name)?.strip_prefix(b":")?;
    Some(rest.strip_prefix(b" ").unwrap_or(rest))
}

/// The event's data: its `data` lines joined by `\n` (borrowed when there is one line).
pub(crate) fn data(raw: &[u8]) -> Option<std::borrow::Cow<'_, [u8]>> {
    if let Some(d) = one_data_line(raw) {
        return Some(std::borrow::Cow::Borrowed(d));
    }
    let mut found: Option<std::borrow::Cow<'_, [u8]>> = None;
    for (l, _) in lines(raw) {
        if let Some(v) = field_value(&raw[l], b"data") {
            found = Some(match found {
                None => std::borrow::Cow::Borrowed(v),
                Some(prev) => {
                    let mut joined = prev.into_owned();
                    joined.push(b'\n');
                    joined.extend_from_slice(v);
                    std::borrow::Cow::Owned(joined)
                }
            });
        }
    }
    found
}

/// The data of an event that is one `data: ` line and the empty line (a stream's usual
/// event), found by one search for the line's end: what [`data`] reads of it.
fn one_data_line(raw: &[u8]) -> Option<&[u8]> {
    let rest = raw.strip_prefix(b"data: ")?;
    let nl = memchr::memchr(b'\n', rest)?;
    if !matches!(rest.get(nl + 1..)?, b"\n" | b"\r\n") {
        return None;
    }
    let line = rest.get(..nl)?;
    Some(line.strip_suffix(b"\r").unwrap_or(line))
}

/// Where `data` starts in `event`, when it is a slice of it that a `data: ` line carries: the
/// event's one data line ([`data`] borrows only then), so replacing bytes of `data` in place
/// gives what [`with_data`] gives.
pub(crate) fn data_at(event: &[u8], data: &[u8]) -> Option<usize> {
    let at = (data.as_ptr() as usize).checked_sub(event.as_ptr() as usize)?;
    (at.checked_add(data.len())? <= event.len() && event[..at].ends_with(b"data: ")).then_some(at)
}

/// The event with the `edits` (ranges in its data `data`) made: spliced in place when the data
/// is the event's one `data: ` line ([`data_at`]), else the data spliced and the event rebuilt
/// ([`with_data`]). `None` when the edits do not fit the data.
pub(crate) fn with_edits(event: &Bytes, data: &[u8], mut edits: Vec<Edit>) -> Option<Bytes> {
    match data_at(event, data) {
        // One edit (a name mapped back): written straight into a buffer of its size.
        Some(at) if edits.len() == 1 => {
            let e = edits.first()?;
            let (start, end) = (e.range.start + at, e.range.end + at);
            if start > end || end > event.len() {
                return None;
            }
            let mut out = Vec::with_capacity(event.len() - (end - start) + e.bytes.len());
            out.extend_from_slice(&event[..start]);
            out.extend_from_slice(&e.bytes);
            out.extend_from_slice(&event[end..]);
            Some(Bytes::from(out))
        }
        Some(at) => {
            for e in &mut edits {
                e.range = e.range.start + at..e.range.end + at;
            }
            Some(Bytes::from(splice(event, edits)?.into_vec(event)))
        }
        None => {
            let new = splice(data, edits)?.into_vec(data);
            Some(Bytes::from(with_data(event, &new)))
        }
    }
}

/// The event with its data replaced by `payload` (one line: JSON has no raw line breaks in
/// strings): the first `data` line carries it, the others go; every other line is kept.
pub(crate) fn with_data(raw: &[u8], payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(raw.len() + payload.len());
    let mut written = false;
    for (l, end) in lines(raw) {
        let line = &raw[l.clone()];
        if field_value(line, b"data").is_some() {
            if !written {
                out.extend_from_slice(b"data: ");
                out.extend_from_slice(payload);
                out.extend_from_slice(&raw[end]);
                written = true;
            }
            continue;
        }
        out.extend_from_slice(line);
        out.extend_from_slice(&raw[end]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_split_at_any_chunking_and_keep_their_bytes() {
        let stream =
            b"event: a\ndata: {\"x\":1}\n\n: comment\r\ndata: 2\r\n\r\ndata: 3\ndata: 4\n\ntail";
        for cut in 0..stream.len() {
            let mut s = Splitter::default();
            let mut out = Vec::new();
            s.push(&stream[..cut], &mut out);
            s.push(&stream[cut..], &mut out);
            let tail = s.finish();
            assert_eq!(out.len(), 3, "cut {cut}");
            assert_eq!(&out[0][..], b"event: a\ndata: {\"x\":1}\n\n");
            assert_eq!(tail.as_deref(), Some(&b"tail"[..]));
        }
        assert_eq!(last_event_end(b"a\n\nb\r\n\r\nc"), Some(8));
        assert_eq!(last_event_end(b"a\n\nb\nc\n"), Some(3));
        assert_eq!(last_event_end(b"a\nb\r\nc"), None);
        assert_eq!(first_event_end(b"", b"a\n\nb\n\n"), Some(3));
        assert_eq!(first_event_end(b"a\n", b"\nb"), Some(1));
        assert_eq!(first_event_end(b"a\r\n", b"\r\nb"), Some(2));
        assert_eq!(first_event_end(b"\n\r", b"\nb"), Some(1));
        assert_eq!(first_event_end(b"a", b"\nb\r\n"), None);
        assert_eq!(event_end_at_line_start(b"\nb\n\n"), Some(1));
        assert_eq!(event_end_at_line_start(b"\r\nb"), Some(2));
        assert_eq!(event_end_at_line_start(b"\rb\n\n"), Some(4));
        assert_eq!(event_end_at_line_start(b"a\r\n\r\nb"), Some(5));
        let ev = b"event: a\r\ndata: 3\r\ndata: 4\r\n\r\n";
        assert_eq!(data(ev).as_deref(), Some(&b"3\n4"[..]));
        assert_eq!(with_data(ev, b"7"), b"event: a\r\ndata: 7\r\n\r\n");
        // Edits in place where the data is the one `data: ` line, else the event rebuilt: the
        // same bytes as `with_data` of the spliced data.
        for ev in [
            &b"event: a\r\ndata: {\"x\":1}\r\n\r\n"[..],
            b"data:  {\"x\":1}\n\n",
            b"data:{\"x\":1}\n\n",
            b"data: {\"x\":\ndata: 1}\n\n",
        ] {
            let ev = Bytes::copy_from_slice(ev);
            let d = match data(&ev) {
                Some(std::borrow::Cow::Borrowed(d)) => ev.slice_ref(d),
                Some(std::borrow::Cow::Owned(d)) => Bytes::from(d),
                None => unreachable!(),
            };
            let at = d.len() - 2;
            let edit = || {
                vec![Edit {
                    range: at..at + 1,
                    bytes: b"22".to_vec(),
                }]
            };
            let want = with_data(&ev, &splice(&d, edit()).unwrap().into_vec(&d));
            assert_eq!(with_edits(&ev, &d, edit()).as_deref(), Some(&want[..]));
        }
        // The one-line reading gives what the lines' reading gives.
        for ev in [
            &b"data: {\"x\":1}\n\n"[..],
            b"data: {\"x\":1}\r\n\r\n",
            b"data: {\"x\":1}\r\n\n",
            b"data: a\rb\n\n",
            b"data: \n\n",
            b"data:  x\n\n",
            b"data: x\n\r\n",
            b"data: x\n",
            b"data: x\n\n\n",
            b"data: x\ndata: y\n\n",
            b"data: x\n: c\n\n",
            b"data: x",
        ] {
            let general = {
                let mut found: Option<Vec<u8>> = None;
                for (l, _) in lines(ev) {
                    if let Some(v) = field_value(&ev[l], b"data") {
                        found = Some(match found {
                            None => v.to_vec(),
                            Some(mut p) => {
                                p.push(b'\n');
                                p.extend_from_slice(v);
                                p
                            }
                        });
                    }
                }
                found
            };
            if let Some(d) = one_data_line(ev) {
                assert_eq!(Some(d.to_vec()), general, "{ev:?}");
            }
            assert_eq!(data(ev).map(|d| d.into_owned()), general, "{ev:?}");
        }
        assert!(one_data_line(b"data: x\n\n").is_some());
        assert!(one_data_line(b"data: x\ndata: y\n\n").is_none());
        assert_eq!(
            data_at(b"data: x\n\n", b"x"),
            None,
            "not a slice of the event"
        );
    }
}
