//! Splitting JSON that was already validated: the members of an object, the elements of an
//! array, as slices of it. No validation (every text here comes from a document serde_json
//! read whole), so a level of the walker costs one skim of its bytes, eight at a time: strings
//! to the next quote or backslash, containers to the next quote or bracket.

use std::borrow::Cow;

use crate::locate::RawText;

const LO: u64 = 0x0101_0101_0101_0101;
const HI: u64 = 0x8080_8080_8080_8080;

/// The bytes of `x` that are zero, flagged in their high bit: the lowest flag is exact (a
/// borrow only runs upwards from a zero byte).
fn zeros(x: u64) -> u64 {
    x.wrapping_sub(LO) & !x & HI
}

fn lowest(m: u64) -> Option<usize> {
    (m != 0).then(|| (m.trailing_zeros() / 8) as usize)
}

/// The first `"` or `\` of the eight bytes `w` (little-endian).
fn first_in_string(w: u64) -> Option<usize> {
    lowest(zeros(w ^ (LO * u64::from(b'"'))) | zeros(w ^ (LO * u64::from(b'\\'))))
}

/// The first byte of `w` that may be `"`, `[`, `]`, `{` or `}`: the four brackets, with bit 5
/// set and bits 1–2 cleared, all read 0x79 (so do `Y`, `_`, `y` and DEL: a candidate is
/// looked at again).
fn first_structural(w: u64) -> Option<usize> {
    let brackets = ((w | (LO * 0x20)) & (LO * 0xF9)) ^ (LO * 0x79);
    lowest(zeros(w ^ (LO * u64::from(b'"'))) | zeros(brackets))
}

struct Split<'a> {
    t: &'a str,
    b: &'a [u8],
    i: usize,
}

impl<'a> Split<'a> {
    fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.b.get(self.i) {
            self.i += 1;
        }
    }

    fn next(&mut self) -> Option<u8> {
        let c = *self.b.get(self.i)?;
        self.i += 1;
        Some(c)
    }

    /// Moves the cursor, eight bytes at a time, to the first byte `find` points at (or to the
    /// last seven bytes).
    fn skim(&mut self, find: fn(u64) -> Option<usize>) {
        while let Some(w) = self.b.get(self.i..self.i + 8) {
            let w = u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]);
            match find(w) {
                Some(k) => {
                    self.i += k;
                    return;
                }
                None => self.i += 8,
            }
        }
    }

    /// Past the string whose opening quote was just read.
    fn end_of_string(&mut self) -> Option<()> {
        loop {
            self.skim(first_in_string);
            match self.next()? {
                b'"' => return Some(()),
                // A backslash: the escaped byte is skipped (a `\u` escape's digits need no care).
                b'\\' => self.i += 1,
                _ => {}
            }
        }
    }

    /// One value from the cursor: its text.
    fn value(&mut self) -> Option<&'a str> {
        let start = self.i;
        match self.next()? {
            b'"' => self.end_of_string()?,
            b'{' | b'[' => {
                let mut depth = 1usize;
                while depth > 0 {
                    self.skim(first_structural);
                    match self.next()? {
                        b'"' => self.end_of_string()?,
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => depth -= 1,
                        _ => {}
                    }
                }
            }
            _ => {
                while let Some(c) = self.b.get(self.i) {
                    if matches!(c, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r') {
                        break;
                    }
                    self.i += 1;
                }
            }
        }
        self.t.get(start..self.i)
    }
}

/// Each item of the container `raw` opened by `open` and closed by `close`: `item` reads one
/// (the cursor at its first byte) and says whether it could. `None` when `raw` is not such a
/// container or an item could not be read.
fn each_item<'a>(
    raw: RawText<'a>,
    (open, close): (u8, u8),
    mut item: impl FnMut(&mut Split<'a>) -> Option<()>,
) -> Option<()> {
    let t = raw.get();
    if t.as_bytes().first() != Some(&open) {
        return None;
    }
    let mut s = Split {
        t,
        b: t.as_bytes(),
        i: 1,
    };
    s.ws();
    if s.b.get(s.i) == Some(&close) {
        return Some(());
    }
    loop {
        s.ws();
        item(&mut s)?;
        s.ws();
        match s.next()? {
            b',' => {}
            c if c == close => return Some(()),
            _ => return None,
        }
    }
}

/// The members of `raw` when it is an object, in order (a key is copied only when it has
/// escapes).
pub(crate) fn members(raw: RawText<'_>) -> Option<Vec<(Cow<'_, str>, RawText<'_>)>> {
    members_with(raw, |_, _| None)
}

/// [`members`], a value whose length `jump` knows from its key and first bytes on taken
/// without reading it (`jump` is given the key and the text from the value's first byte on).
pub(crate) fn members_with<'a>(
    raw: RawText<'a>,
    jump: impl Fn(&str, &[u8]) -> Option<usize>,
) -> Option<Vec<(Cow<'a, str>, RawText<'a>)>> {
    let mut out = Vec::new();
    each_item(raw, (b'{', b'}'), |s| {
        let key = s.value()?;
        let key = match key.contains('\\') {
            true => Cow::Owned(serde_json::from_str::<String>(key).ok()?),
            false => Cow::Borrowed(key.get(1..key.len().checked_sub(1)?)?),
        };
        s.ws();
        (s.next()? == b':').then_some(())?;
        s.ws();
        let value = match s.b.get(s.i..).and_then(|rest| jump(&key, rest)) {
            Some(n) => {
                let v = s.t.get(s.i..s.i + n)?;
                s.i += n;
                v
            }
            None => s.value()?,
        };
        out.push((key, RawText::new(value)));
        Some(())
    })?;
    Some(out)
}

/// The elements of `raw` when it is an array.
pub(crate) fn elements(raw: RawText<'_>) -> Option<Vec<RawText<'_>>> {
    let mut out = Vec::new();
    each_item(raw, (b'[', b']'), |s| {
        out.push(RawText::new(s.value()?));
        Some(())
    })?;
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::value::RawValue;

    #[test]
    fn the_word_tests_find_the_first_candidate() {
        let string = |c: u8| c == b'"' || c == b'\\';
        let structural = |c: u8| b"\"[]{}Y_y\x7f".contains(&c);
        for c in 0..=255u8 {
            for at in 0..8 {
                let mut w = *b"abcdefgh";
                w[at] = c;
                let w = u64::from_le_bytes(w);
                assert_eq!(first_in_string(w), string(c).then_some(at), "{c}");
                assert_eq!(first_structural(w), structural(c).then_some(at), "{c}");
                let mut two = w.to_le_bytes();
                if at < 7 {
                    two[7] = b'"';
                    let two = u64::from_le_bytes(two);
                    let want = |hit: bool| Some(if hit { at } else { 7 });
                    assert_eq!(first_in_string(two), want(string(c)));
                    assert_eq!(first_structural(two), want(structural(c)));
                }
            }
        }
    }

    /// The split agrees with serde_json's reading of the same text.
    #[test]
    fn splits_as_serde_json_reads() {
        let texts = [
            r#"{}"#,
            r#"{ }"#,
            r#"{"a":1,"b" : [1, {"c":"]}\"}"}] , "d\u0041":"x\\","e":null,"f":-1.5e3,"g":true}"#,
            r#"{"nested":{"a":{"b":[[],[{}]]}},"s":"{[\"","t":false}"#,
        ];
        for text in texts {
            let ours: Vec<(String, String)> = members(RawText::new(text))
                .unwrap()
                .into_iter()
                .map(|(k, v)| (k.into_owned(), v.get().to_owned()))
                .collect();
            let theirs: Vec<(String, String)> =
                serde_json::from_str::<std::collections::BTreeMap<String, &RawValue>>(text)
                    .unwrap()
                    .into_iter()
                    .map(|(k, v)| (k, v.get().to_owned()))
                    .collect();
            let mut sorted = ours.clone();
            sorted.sort();
            assert_eq!(sorted, theirs, "{text}");
            let map: serde_json::Map<String, serde_json::Value> =
                serde_json::from_str(text).unwrap();
            assert_eq!(ours.len(), map.len(), "{text}");
            for (k, v) in &ours {
                let v: serde_json::Value = serde_json::from_str(v).unwrap();
                assert_eq!(map.get(k), Some(&v), "{text}: {k}");
            }
        }
        let list = r#"[ 1 ,"a,]",{"b":[2]}, [] ,null]"#;
        let ours: Vec<&str> = elements(RawText::new(list))
            .unwrap()
            .iter()
            .map(|r| r.get())
            .collect();
        assert_eq!(ours, ["1", r#""a,]""#, r#"{"b":[2]}"#, "[]", "null"]);
        assert_eq!(elements(RawText::new("[]")).unwrap().len(), 0);
        assert!(members(RawText::new("[]")).is_none());
        assert!(elements(RawText::new("{}")).is_none());
    }
}
