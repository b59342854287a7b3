//! A validating JSON cursor for the stream readers that read an event in one pass by hand
//! ([`super::chat`]): values it is asked for are slices of the text, every other value is
//! skipped and validated (strings eight bytes at a time, containers without recursion).
//!
//! It only answers what it is sure of, as the request side's slot scan does: an escaped key,
//! a `\u` escape of a surrogate (its pairing is serde_json's to judge) or nesting past
//! [`MAX_DEPTH`] give `None`, and the caller reads the text with serde_json instead, whose
//! answer stands. For every text it accepts, serde_json accepts it too and reads the same.

use crate::locate::RawText;

/// Nesting this deep or deeper is left to serde_json (and its own limit of 128).
pub(crate) const MAX_DEPTH: usize = 100;

const LO: u64 = 0x0101_0101_0101_0101;
const HI: u64 = 0x8080_8080_8080_8080;

/// Where the first `"`, `\` or control character (below 0x20) of the eight bytes `w` (read
/// little-endian) is, if any: the lowest flagged byte of the usual zero-byte test is exact
/// (a borrow only runs upwards from a byte that matches).
fn first_special(w: u64) -> Option<usize> {
    let zero = |x: u64| x.wrapping_sub(LO) & !x;
    let low = w.wrapping_sub(LO * 0x20) & !w;
    let m = (zero(w ^ (LO * u64::from(b'"'))) | zero(w ^ (LO * u64::from(b'\\'))) | low) & HI;
    (m != 0).then(|| (m.trailing_zeros() / 8) as usize)
}

/// A stack of up to 128 flags (`true`: an object).
#[derive(Default)]
struct Open {
    bits: u128,
    len: usize,
}

impl Open {
    fn push(&mut self, object: bool) {
        self.bits = (self.bits << 1) | u128::from(object);
        self.len += 1;
    }

    fn last(&self) -> Option<bool> {
        (self.len > 0).then_some(self.bits & 1 == 1)
    }

    fn pop(&mut self) {
        self.bits >>= 1;
        self.len = self.len.saturating_sub(1);
    }
}

/// The cursor over one JSON text.
pub(crate) struct Cursor<'a> {
    text: &'a str,
    b: &'a [u8],
    i: usize,
}

impl<'a> Cursor<'a> {
    pub(crate) fn new(text: &'a str) -> Self {
        Cursor {
            text,
            b: text.as_bytes(),
            i: 0,
        }
    }

    /// Whether the whole text was read (whitespace after the last value skipped).
    pub(crate) fn at_end(&mut self) -> bool {
        self.ws();
        self.i == self.b.len()
    }

    pub(crate) fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.b.get(self.i) {
            self.i += 1;
        }
    }

    /// The byte at the cursor.
    pub(crate) fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn eat(&mut self, c: u8) -> Option<()> {
        (self.peek()? == c).then(|| self.i += 1)
    }

    /// The members of the object at the cursor (`{` not yet read), at nesting `depth`: `f`
    /// gets each key (unescaped keys only: an escaped one gives `None`) with the cursor at its
    /// value, and must read that value.
    pub(crate) fn object(
        &mut self,
        depth: usize,
        mut f: impl FnMut(&mut Self, &'a str) -> Option<()>,
    ) -> Option<()> {
        if depth >= MAX_DEPTH {
            return None;
        }
        self.eat(b'{')?;
        self.ws();
        if self.eat(b'}').is_some() {
            return Some(());
        }
        loop {
            self.eat(b'"')?;
            let start = self.i;
            if self.rest_of_string()? {
                return None;
            }
            let key = self.text.get(start..self.i - 1)?;
            self.ws();
            self.eat(b':')?;
            self.ws();
            f(self, key)?;
            self.ws();
            match self.peek()? {
                b',' => {
                    self.i += 1;
                    self.ws();
                }
                b'}' => {
                    self.i += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }

    /// The elements of the array at the cursor (`[` not yet read), at nesting `depth`: `f`
    /// is called with the cursor at each element, and must read it.
    pub(crate) fn array(
        &mut self,
        depth: usize,
        mut f: impl FnMut(&mut Self) -> Option<()>,
    ) -> Option<()> {
        if depth >= MAX_DEPTH {
            return None;
        }
        self.eat(b'[')?;
        self.ws();
        if self.eat(b']').is_some() {
            return Some(());
        }
        loop {
            f(self)?;
            self.ws();
            match self.peek()? {
                b',' => {
                    self.i += 1;
                    self.ws();
                }
                b']' => {
                    self.i += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }

    /// The value at the cursor, read past (validated): its text.
    pub(crate) fn raw(&mut self, depth: usize) -> Option<RawText<'a>> {
        let start = self.i;
        self.skip(depth)?;
        Some(RawText::new(self.text.get(start..self.i)?))
    }

    /// Whether the value at the cursor is not `null` (read past either way).
    pub(crate) fn non_null(&mut self, depth: usize) -> Option<bool> {
        if self.b.get(self.i..self.i + 4) == Some(b"null") {
            self.i += 4;
            return Some(false);
        }
        self.skip(depth).map(|()| true)
    }

    /// Past the string whose opening quote was just read (validating it); whether it had
    /// escapes.
    #[inline]
    fn rest_of_string(&mut self) -> Option<bool> {
        let mut escaped = false;
        loop {
            while let Some(w) = self.b.get(self.i..self.i + 8) {
                let w = u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]);
                match first_special(w) {
                    Some(k) => {
                        self.i += k;
                        break;
                    }
                    None => self.i += 8,
                }
            }
            match self.peek()? {
                b'"' => {
                    self.i += 1;
                    return Some(escaped);
                }
                b'\\' => {
                    escaped = true;
                    self.i += 1;
                    match self.peek()? {
                        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => self.i += 1,
                        b'u' => {
                            let hex = self.b.get(self.i + 1..self.i + 5)?;
                            if !hex.iter().all(u8::is_ascii_hexdigit)
                                || matches!(hex[0], b'd' | b'D') && hex[1] >= b'8'
                            {
                                return None;
                            }
                            self.i += 5;
                        }
                        _ => return None,
                    }
                }
                c if c < 0x20 => return None,
                _ => self.i += 1,
            }
        }
    }

    fn digits(&mut self) -> usize {
        let start = self.i;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
        self.i - start
    }

    fn number(&mut self) -> Option<()> {
        let _ = self.eat(b'-');
        match self.peek()? {
            b'0' => self.i += 1,
            b'1'..=b'9' => {
                self.digits();
            }
            _ => return None,
        }
        if self.eat(b'.').is_some() && self.digits() == 0 {
            return None;
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.i += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.i += 1;
            }
            if self.digits() == 0 {
                return None;
            }
        }
        Some(())
    }

    fn literal(&mut self, word: &[u8]) -> Option<()> {
        let end = self.i + word.len();
        (self.b.get(self.i..end)? == word).then(|| self.i = end)
    }

    fn skip_string(&mut self) -> Option<()> {
        self.eat(b'"')?;
        self.rest_of_string().map(|_| ())
    }

    /// Skips one value (validating it), iteratively: `depth` is the nesting it starts at.
    pub(crate) fn skip(&mut self, depth: usize) -> Option<()> {
        let mut open = Open::default();
        loop {
            match self.peek()? {
                b'"' => self.skip_string()?,
                b'{' | b'[' => {
                    let object = self.peek()? == b'{';
                    self.i += 1;
                    if depth + open.len + 1 >= MAX_DEPTH {
                        return None;
                    }
                    self.ws();
                    if self.eat(if object { b'}' } else { b']' }).is_none() {
                        open.push(object);
                        if object {
                            self.skip_string()?;
                            self.ws();
                            self.eat(b':')?;
                        }
                        self.ws();
                        continue;
                    }
                }
                b't' => self.literal(b"true")?,
                b'f' => self.literal(b"false")?,
                b'n' => self.literal(b"null")?,
                _ => self.number()?,
            }
            // After a value: close what ends here, or go on to the next member or element.
            loop {
                let Some(object) = open.last() else {
                    return Some(());
                };
                self.ws();
                match self.peek()? {
                    b',' => {
                        self.i += 1;
                        self.ws();
                        if object {
                            self.skip_string()?;
                            self.ws();
                            self.eat(b':')?;
                            self.ws();
                        }
                        break;
                    }
                    b'}' if object => {
                        self.i += 1;
                        open.pop();
                    }
                    b']' if !object => {
                        self.i += 1;
                        open.pop();
                    }
                    _ => return None,
                }
            }
        }
    }
}

/// Appends the content of the JSON string token `raw` (quotes included) to `out`, unescaped;
/// `None` (nothing appended) when it is not one valid string token, or holds a `\u` escape of
/// a surrogate (serde_json then judges it: [`super::json::string`]).
pub(crate) fn push_string(raw: &str, out: &mut String) -> Option<()> {
    let body = raw.strip_prefix('"')?.strip_suffix('"')?;
    let mark = out.len();
    let done = unescape_into(body, out);
    if done.is_none() {
        out.truncate(mark);
    }
    done
}

/// The content `body` of a string token, unescaped onto `out`: plain runs as they are, each
/// escape as its character.
fn unescape_into(body: &str, out: &mut String) -> Option<()> {
    let b = body.as_bytes();
    // Where the plain run being read starts; `i` is always at an ASCII byte or inside a run.
    let (mut run, mut i) = (0, 0);
    while let Some(&x) = b.get(i) {
        if x >= 0x20 && x != b'"' && x != b'\\' {
            i += 1;
            continue;
        }
        if x != b'\\' {
            return None;
        }
        out.push_str(body.get(run..i)?);
        let ch = match b.get(i + 1)? {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let hex = b.get(i + 2..i + 6)?;
                if !hex.iter().all(u8::is_ascii_hexdigit) {
                    return None;
                }
                let n = hex.iter().fold(0u32, |n, h| {
                    n * 16 + char::from(*h).to_digit(16).unwrap_or(0)
                });
                if (0xD800..0xE000).contains(&n) {
                    return None;
                }
                i += 4;
                char::from_u32(n)?
            }
            _ => return None,
        };
        out.push(ch);
        i += 2;
        run = i;
    }
    out.push_str(body.get(run..)?);
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_unescape_as_serde_json_does_or_are_left_to_it() {
        for raw in [
            r#""""#,
            r#""abc""#,
            r#""{\"q\":\"rust\","""#,
            r#""a\\b\/c\b\f\n\r\t""#,
            r#""\u00e9\u0041x\u2028""#,
            r#""caf\u00E9 é""#,
            r#""\ud83d\ude00""#,
            r#""\ud83d""#,
            r#""a"b""#,
            r#""a\""#,
            r#""a\x""#,
            r#""\u12""#,
            r#""\u+123""#,
            "\"a\u{1}\"",
            r#"abc"#,
            r#"""#,
        ] {
            let serde = serde_json::from_str::<String>(raw).ok();
            let mut out = String::from(">");
            match push_string(raw, &mut out) {
                Some(()) => assert_eq!(Some(&out[1..]), serde.as_deref(), "{raw}"),
                None => {
                    assert_eq!(out, ">", "{raw}");
                    assert!(serde.is_none() || raw.contains("\\ud"), "{raw}: gave up");
                }
            }
        }
    }

    #[test]
    fn skips_what_serde_json_accepts_and_gives_up_on_the_rest() {
        for text in [
            r#"{"a":[1,-2.5e+3,true,false,null,{}],"b":"x \"q\" \u00e9"}"#,
            r#" [ [ ] , { } , "" , 0 , -0.0e-0 ] "#,
            r#"{"a":01}"#,
            r#"{"a":1.}"#,
            r#"{"a":-}"#,
            r#"{"a":tru}"#,
            r#"{"a":"\x"}"#,
            "{\"a\":\"\u{1}\"}",
            r#"{"a":[1,]}"#,
            r#"{"a":{"b":1,}}"#,
            r#"{"a":1} x"#,
            r#"{"a":[}"#,
            r#"{"a" 1}"#,
            r#"{"a":1"#,
            r#""\ud83d\ude00""#,
            "1",
            "",
            "{",
        ] {
            let serde = serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok();
            let mut c = Cursor::new(text);
            c.ws();
            let fast = c.skip(0).is_some() && c.at_end();
            assert!(fast == serde || (!fast && text.contains("\\ud")), "{text}");
        }
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert!(Cursor::new(&deep).skip(0).is_none());
        let fine = format!("{}{}", "[".repeat(90), "]".repeat(90));
        assert!(Cursor::new(&fine).skip(0).is_some());
    }
}
