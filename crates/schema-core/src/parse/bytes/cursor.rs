//! The byte reader's lexer: whitespace, single bytes, strings (their plain runs found eight
//! bytes at a time, escapes decoded), numbers, literals, and whole values skipped without
//! recursion, each checked as strictly as serde_json checks it.
//!
//! It only answers what it is sure of: invalid text, an escaped surrogate that does not pair,
//! or a value nested past [`MAX_SKIP_DEPTH`] give `None`, and the parse is left to serde_json.
//! For every text it accepts, serde_json accepts it too and reads it the same.
//! (`tower-toolschema` has a lexer of the same kind for the layer's slot scan; schema-core
//! keeps its own: it does not depend on the layer.)

use crate::scan_bytes::string_stop;
use std::borrow::Cow;

/// A skipped value nested this deep or deeper is left to serde_json.
const MAX_SKIP_DEPTH: u32 = 64;

/// The text and the position in it.
pub(super) struct Cursor<'i> {
    text: &'i str,
    pos: usize,
}

impl<'i> Cursor<'i> {
    /// A cursor at the start of `text`.
    pub(super) fn new(text: &'i str) -> Cursor<'i> {
        Cursor { text, pos: 0 }
    }

    fn bytes(&self) -> &'i [u8] {
        self.text.as_bytes()
    }

    /// Skips JSON whitespace.
    pub(super) fn ws(&mut self) {
        let b = self.bytes();
        while let Some(c) = b.get(self.pos) {
            if !matches!(c, b' ' | b'\n' | b'\r' | b'\t') {
                break;
            }
            self.pos += 1;
        }
    }

    /// Skips whitespace; the next byte, not consumed.
    pub(super) fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.bytes().get(self.pos).copied()
    }

    /// Skips whitespace; the next byte, consumed.
    pub(super) fn next(&mut self) -> Option<u8> {
        let c = self.peek()?;
        self.pos += 1;
        Some(c)
    }

    /// Skips whitespace, then consumes `c` (`None` when the next byte is another).
    pub(super) fn eat(&mut self, c: u8) -> Option<()> {
        (self.next()? == c).then_some(())
    }

    /// Skips whitespace, then consumes `c` when it is next.
    pub(super) fn eat_if(&mut self, c: u8) -> bool {
        let here = self.peek() == Some(c);
        if here {
            self.pos += 1;
        }
        here
    }

    /// Whether only whitespace is left.
    pub(super) fn at_end(&mut self) -> bool {
        self.peek().is_none()
    }

    /// Consumes the literal `word` (`true`, `false`, `null`).
    fn literal(&mut self, word: &str) -> Option<()> {
        let end = self.pos + word.len();
        (self.bytes().get(self.pos..end)? == word.as_bytes()).then_some(())?;
        self.pos = end;
        Some(())
    }

    /// Consumes `true` or `false` after whitespace.
    pub(super) fn boolean(&mut self) -> Option<bool> {
        match self.peek()? {
            b't' => self.literal("true").map(|()| true),
            b'f' => self.literal("false").map(|()| false),
            _ => None,
        }
    }

    /// Reads a string after whitespace: borrowed from the text when it holds no escape.
    pub(super) fn string(&mut self) -> Option<Cow<'i, str>> {
        self.eat(b'"')?;
        let start = self.pos;
        let run = self.run()?;
        if self.bytes().get(run) == Some(&b'"') {
            self.pos = run + 1;
            return self.text.get(start..run).map(Cow::Borrowed);
        }
        self.pos = run;
        self.escaped(start).map(Cow::Owned)
    }

    /// The rest of a string that holds an escape (at the first `\`, the string's content
    /// starting at `start`), decoded. (Out of line: the plain string's path stays short.)
    #[inline(never)]
    fn escaped(&mut self, start: usize) -> Option<String> {
        let mut out = String::with_capacity(self.pos - start + 16);
        out.push_str(self.text.get(start..self.pos)?);
        loop {
            // At a `\` (the run ended there).
            self.pos += 1;
            out.push(self.escape()?);
            let from = self.pos;
            let run = self.run()?;
            out.push_str(self.text.get(from..run)?);
            self.pos = run + 1;
            if self.bytes().get(run) == Some(&b'"') {
                return Some(out);
            }
            self.pos = run;
        }
    }

    /// Skips a string after whitespace (its escapes checked, not decoded).
    fn skip_string(&mut self) -> Option<()> {
        self.eat(b'"')?;
        loop {
            let run = self.run()?;
            self.pos = run + 1;
            if self.bytes()[run] == b'"' {
                return Some(());
            }
            // A `\`: serde_json's skipper takes any escape it can decode, lone surrogates too.
            match *self.bytes().get(self.pos)? {
                b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => self.pos += 1,
                b'u' => {
                    self.pos += 1;
                    self.hex4()?;
                }
                _ => return None,
            }
        }
    }

    /// From inside a string: the index of the `"` or `\` that ends its plain run (`None` at a
    /// control character or the end of the text).
    fn run(&self) -> Option<usize> {
        let rest = self.bytes().get(self.pos..)?;
        let at = self.pos + string_stop(rest);
        match *self.bytes().get(at)? {
            b'"' | b'\\' => Some(at),
            _ => None,
        }
    }

    /// Decodes the escape after a `\` (a surrogate only as half of a pair).
    fn escape(&mut self) -> Option<char> {
        let c = *self.bytes().get(self.pos)?;
        self.pos += 1;
        if c != b'u' {
            return crate::escape::short_escape(c);
        }
        let high = self.hex4()?;
        if (0xDC00..0xE000).contains(&high) {
            return None;
        }
        if !(0xD800..0xDC00).contains(&high) {
            return char::from_u32(high);
        }
        (self.bytes().get(self.pos..self.pos + 2)? == b"\\u").then_some(())?;
        self.pos += 2;
        let low = self.hex4()?;
        if !(0xDC00..0xE000).contains(&low) {
            return None;
        }
        char::from_u32(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
    }

    /// Four hex digits.
    fn hex4(&mut self) -> Option<u32> {
        let digits = self.bytes().get(self.pos..self.pos + 4)?;
        let mut v = 0;
        for &d in digits {
            v = v * 16 + char::from(d).to_digit(16)?;
        }
        self.pos += 4;
        Some(v)
    }

    fn digits(&mut self) -> usize {
        let b = self.bytes();
        let from = self.pos;
        while b.get(self.pos).is_some_and(u8::is_ascii_digit) {
            self.pos += 1;
        }
        self.pos - from
    }

    /// Skips a number (JSON's grammar: no leading zero, digits after `.` and after `e`).
    fn number(&mut self) -> Option<()> {
        let b = self.bytes();
        if b.get(self.pos) == Some(&b'-') {
            self.pos += 1;
        }
        match b.get(self.pos)? {
            b'0' => self.pos += 1,
            b'1'..=b'9' => {
                self.digits();
            }
            _ => return None,
        }
        if b.get(self.pos) == Some(&b'.') {
            self.pos += 1;
            (self.digits() > 0).then_some(())?;
        }
        if matches!(b.get(self.pos), Some(b'e' | b'E')) {
            self.pos += 1;
            if matches!(b.get(self.pos), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            (self.digits() > 0).then_some(())?;
        }
        Some(())
    }

    /// Skips one value after whitespace (without recursion) and returns its text.
    pub(super) fn skip_value(&mut self) -> Option<&'i str> {
        self.ws();
        let start = self.pos;
        // Bit `n`: whether the container at nesting `n + 1` is an object.
        let mut objects = 0u64;
        let mut depth = 0u32;
        loop {
            // A value is next.
            match self.peek()? {
                c @ (b'{' | b'[') => {
                    self.pos += 1;
                    let object = c == b'{';
                    if self.eat_if(if object { b'}' } else { b']' }) {
                        // Empty: a whole value.
                    } else {
                        if depth >= MAX_SKIP_DEPTH - 1 {
                            return None;
                        }
                        objects = (objects << 1) | u64::from(object);
                        depth += 1;
                        if object {
                            self.member_key()?;
                        }
                        continue;
                    }
                }
                b'"' => self.skip_string()?,
                b't' => self.literal("true")?,
                b'f' => self.literal("false")?,
                b'n' => self.literal("null")?,
                _ => self.number()?,
            }
            // A value ended: close what it ends.
            loop {
                if depth == 0 {
                    return self.text.get(start..self.pos);
                }
                let object = objects & 1 == 1;
                match self.next()? {
                    b',' => {
                        if object {
                            self.member_key()?;
                        }
                        break;
                    }
                    b'}' if object => {}
                    b']' if !object => {}
                    _ => return None,
                }
                objects >>= 1;
                depth -= 1;
            }
        }
    }

    /// A member's key and its colon, skipped.
    fn member_key(&mut self) -> Option<()> {
        self.ws();
        self.skip_string()?;
        self.eat(b':')
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skip(text: &str) -> Option<&str> {
        let mut c = Cursor::new(text);
        let v = c.skip_value()?;
        c.at_end().then_some(v)
    }

    #[test]
    fn skips_what_serde_json_accepts_and_refuses_what_it_refuses() {
        for ok in [
            "0",
            "-0.5e+3",
            "1E9",
            r#""a\"\\\/\b\f\n\r\t\u00e9\udc00""#,
            r#"{"a":[1,{"b":null}],"c":{}}"#,
            " [ true , false ,[ ] ] ",
        ] {
            assert_eq!(skip(ok), Some(ok.trim()), "{ok}");
            assert!(serde_json::from_str::<serde::de::IgnoredAny>(ok).is_ok());
        }
        for bad in [
            "01",
            "-",
            "1.",
            "1e",
            ".5",
            "tru",
            "[1,]",
            "{\"a\"}",
            "{\"a\":1,}",
            "[1}",
            "{]",
            "\"\u{1}\"",
            "\"\\x\"",
            "\"\\u12\"",
            "\"abc",
            "[",
            "nul",
        ] {
            assert_eq!(skip(bad), None, "{bad}");
            assert!(serde_json::from_str::<serde::de::IgnoredAny>(bad).is_err());
        }
    }

    #[test]
    fn strings_decode_as_serde_json_decodes_them() {
        for text in [
            r#""plain""#,
            r#""a\"b\\c\/d\be\ff\ng\rh\ti""#,
            r#""\u00e9\u0000x\ud83d\ude00y""#,
            r#""é long enough to cross a word boundary \n twice \t""#,
        ] {
            let mut c = Cursor::new(text);
            let ours = c.string().map(Cow::into_owned);
            assert_eq!(ours, serde_json::from_str::<String>(text).ok(), "{text}");
        }
        for lone in [
            r#""\ud83d""#,
            r#""\ude00""#,
            r#""\ud83dx""#,
            r#""\ud83d\u0041""#,
        ] {
            assert_eq!(Cursor::new(lone).string(), None, "{lone}");
        }
    }

    #[test]
    fn nesting_past_the_bound_is_left_to_serde_json() {
        let deep = format!("{}{}", "[".repeat(70), "]".repeat(70));
        assert_eq!(skip(&deep), None);
        let fits = format!("{}{}", "[".repeat(60), "]".repeat(60));
        assert_eq!(skip(&fits), Some(fits.as_str()));
    }
}
