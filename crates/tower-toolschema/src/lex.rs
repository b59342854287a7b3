//! A validating JSON lexer over bytes, shared by the request side's slot scan (the fast
//! pass of `slots::locate`) and the way back's hand-written event readers (`restore`'s
//! cursor): whitespace, single bytes, strings (eight bytes at a time), numbers, literals, and
//! whole values skipped without recursion.
//!
//! It only answers what it is sure of: an escaped surrogate (its pairing is serde_json's to
//! judge) or nesting past [`MAX_DEPTH`] give `None`, and the caller reads the text with
//! serde_json instead, whose answer stands. For every text it accepts, serde_json accepts it
//! too.

/// Nesting this deep or deeper is left to serde_json (and its own limit of 128).
pub(crate) const MAX_DEPTH: usize = 100;

/// Where the first `"`, `\` or control character (below 0x20) of the eight bytes `w` (read
/// little-endian) is, if any: the lowest flagged byte of the usual zero-byte test is exact
/// (a borrow only runs upwards from a byte that matches).
pub(crate) fn first_special(w: u64) -> Option<usize> {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let quote = w ^ (LO * u64::from(b'"'));
    let slash = w ^ (LO * u64::from(b'\\'));
    let low = w.wrapping_sub(LO * 0x20) & !w;
    let zero = |x: u64| x.wrapping_sub(LO) & !x;
    let m = (zero(quote) | zero(slash) | low) & HI;
    (m != 0).then(|| (m.trailing_zeros() / 8) as usize)
}

/// A stack of up to 128 flags.
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

/// The lexer: the bytes and the position in them.
pub(crate) struct Lexer<'a> {
    /// The text's bytes.
    pub(crate) b: &'a [u8],
    /// The position: the next byte to read.
    pub(crate) i: usize,
}

impl<'a> Lexer<'a> {
    /// A lexer at the start of `b`.
    pub(crate) fn new(b: &'a [u8]) -> Self {
        Lexer { b, i: 0 }
    }

    /// Past any JSON whitespace.
    #[inline]
    pub(crate) fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.b.get(self.i) {
            self.i += 1;
        }
    }

    /// The byte at the cursor.
    #[inline]
    pub(crate) fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    /// Past the byte `c`, if it is the one at the cursor.
    #[inline]
    pub(crate) fn eat(&mut self, c: u8) -> Option<()> {
        (self.peek()? == c).then(|| self.i += 1)
    }

    /// A string at the cursor, skipped (validated, not sliced).
    pub(crate) fn skip_string(&mut self) -> Option<()> {
        self.eat(b'"')?;
        self.rest_of_string().map(|_| ())
    }

    /// Past the string whose opening quote was just read (validating it); whether it had
    /// escapes.
    #[inline]
    pub(crate) fn rest_of_string(&mut self) -> Option<bool> {
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
                                // A surrogate (D800–DFFF): its pairing is serde_json's to judge.
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

    pub(crate) fn number(&mut self) -> Option<()> {
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

    pub(crate) fn literal(&mut self, word: &[u8]) -> Option<()> {
        let end = self.i + word.len();
        (self.b.get(self.i..end)? == word).then(|| self.i = end)
    }

    /// Skips one value (validating it), iteratively: `depth` is the nesting it starts at.
    pub(crate) fn skip(&mut self, depth: usize) -> Option<()> {
        // The open containers, innermost last (`true`: an object), as bits (fewer than
        // `MAX_DEPTH` of them).
        let mut open = Open::default();
        loop {
            // A value.
            match self.peek()? {
                b'"' => {
                    self.skip_string()?;
                }
                b'{' | b'[' => {
                    let object = self.peek()? == b'{';
                    self.i += 1;
                    if depth + open.len + 1 >= MAX_DEPTH {
                        return None;
                    }
                    self.ws();
                    if self.eat(if object { b'}' } else { b']' }).is_some() {
                        // Empty: a complete value.
                    } else {
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
