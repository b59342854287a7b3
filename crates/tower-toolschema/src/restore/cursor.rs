//! A validating JSON cursor for the stream readers that read an event in one pass by hand
//! ([`super::chat`]): values it is asked for are slices of the text, every other value is
//! skipped and validated (strings eight bytes at a time, containers without recursion).
//!
//! It only answers what it is sure of, as the request side's slot scan does: an escaped key,
//! a `\u` escape of a surrogate (its pairing is serde_json's to judge) or nesting past
//! [`MAX_DEPTH`] give `None`, and the caller reads the text with serde_json instead, whose
//! answer stands. For every text it accepts, serde_json accepts it too and reads the same.

use crate::lex::{Lexer, MAX_DEPTH};
use crate::locate::RawText;

/// The cursor over one JSON text.
pub(crate) struct Cursor<'a> {
    text: &'a str,
    lx: Lexer<'a>,
}

impl<'a> Cursor<'a> {
    pub(crate) fn new(text: &'a str) -> Self {
        Cursor {
            text,
            lx: Lexer::new(text.as_bytes()),
        }
    }

    /// Whether the whole text was read (whitespace after the last value skipped).
    pub(crate) fn at_end(&mut self) -> bool {
        self.ws();
        self.lx.i == self.lx.b.len()
    }

    #[inline]
    pub(crate) fn ws(&mut self) {
        self.lx.ws();
    }

    /// The byte at the cursor.
    #[inline]
    pub(crate) fn peek(&self) -> Option<u8> {
        self.lx.peek()
    }

    #[inline]
    fn eat(&mut self, c: u8) -> Option<()> {
        self.lx.eat(c)
    }

    /// Skips the value at the cursor (validating it): `depth` is the nesting it starts at.
    #[inline]
    pub(crate) fn skip(&mut self, depth: usize) -> Option<()> {
        self.lx.skip(depth)
    }

    /// The members of the object at the cursor (`{` not yet read), at nesting `depth`: `f`
    /// gets each key (unescaped keys only: an escaped one gives `None`) with the cursor at its
    /// value, and must read that value.
    #[inline]
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
            let start = self.lx.i;
            if self.lx.rest_of_string()? {
                return None;
            }
            let key = self.text.get(start..self.lx.i - 1)?;
            self.ws();
            self.eat(b':')?;
            self.ws();
            f(self, key)?;
            self.ws();
            match self.peek()? {
                b',' => {
                    self.lx.i += 1;
                    self.ws();
                }
                b'}' => {
                    self.lx.i += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }

    /// The elements of the array at the cursor (`[` not yet read), at nesting `depth`: `f`
    /// is called with the cursor at each element, and must read it.
    #[inline]
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
                    self.lx.i += 1;
                    self.ws();
                }
                b']' => {
                    self.lx.i += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }

    /// The value at the cursor, read past (validated): its text.
    pub(crate) fn raw(&mut self, depth: usize) -> Option<RawText<'a>> {
        let start = self.lx.i;
        self.skip(depth)?;
        Some(RawText::new(self.text.get(start..self.lx.i)?))
    }

    /// Whether the value at the cursor is not `null` (read past either way).
    pub(crate) fn non_null(&mut self, depth: usize) -> Option<bool> {
        if self.lx.b.get(self.lx.i..self.lx.i + 4) == Some(b"null") {
            self.lx.i += 4;
            return Some(false);
        }
        self.skip(depth).map(|()| true)
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
        let ch = match *b.get(i + 1)? {
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
            other => schema_core::short_escape(other)?,
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
