//! Byte scans eight bytes at a time (in safe code, on `u64` words): whether a string needs
//! JSON escaping, whether a pointer segment needs `~`/`/` escaping. The serializer and every
//! walk's pointer run them on each string and each property name, so a byte-at-a-time loop
//! was a visible part of the engine's instructions (callgrind).

const LO: u64 = 0x0101_0101_0101_0101;
const HI: u64 = 0x8080_8080_8080_8080;

/// Every byte of the word is `b`.
const fn splat(b: u8) -> u64 {
    LO * b as u64
}

/// Whether some byte of `w` is below `n` (exact for `n <= 0x80`).
const fn has_below(w: u64, n: u8) -> bool {
    w.wrapping_sub(splat(n)) & !w & HI != 0
}

/// Whether some byte of `w` is zero.
const fn has_zero(w: u64) -> bool {
    has_below(w, 1)
}

/// Whether some byte of `w` is `b`.
const fn has_byte(w: u64, b: u8) -> bool {
    has_zero(w ^ splat(b))
}

/// Whether any byte of `bytes` matches `word` (on eight bytes) or `byte` (on the rest).
fn any(bytes: &[u8], word: impl Fn(u64) -> bool, byte: impl Fn(u8) -> bool) -> bool {
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        if let Ok(a) = <[u8; 8]>::try_from(c)
            && word(u64::from_le_bytes(a))
        {
            return true;
        }
    }
    chunks.remainder().iter().any(|&b| byte(b))
}

/// Whether `bytes` hold a byte JSON escapes in a string: a control byte, `"` or `\`.
pub(crate) fn needs_json_escape(bytes: &[u8]) -> bool {
    any(
        bytes,
        |w| has_below(w, 0x20) || has_byte(w, b'"') || has_byte(w, b'\\'),
        |b| b < 0x20 || b == b'"' || b == b'\\',
    )
}

/// Whether `bytes` hold a `~` or a `/` (what a JSON pointer segment escapes).
pub(crate) fn needs_pointer_escape(bytes: &[u8]) -> bool {
    any(
        bytes,
        |w| has_byte(w, b'~') || has_byte(w, b'/'),
        |b| b == b'~' || b == b'/',
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every byte value at every position of strings of 1 to 19 bytes: the word scan says
    /// what a byte-at-a-time scan says.
    #[test]
    fn word_scans_agree_with_byte_scans() {
        for len in 1..20 {
            for at in 0..len {
                for b in 0..=255u8 {
                    let mut s = vec![b'a'; len];
                    s[at] = b;
                    // A neighbour at 0x80 and above must not confuse the borrow of the subtraction.
                    if at + 1 < len {
                        s[at + 1] = 0xff;
                    }
                    let json = s.iter().any(|&b| b < 0x20 || b == b'"' || b == b'\\');
                    let ptr = s.iter().any(|&b| b == b'~' || b == b'/');
                    assert_eq!(needs_json_escape(&s), json, "{s:?}");
                    assert_eq!(needs_pointer_escape(&s), ptr, "{s:?}");
                }
            }
        }
        assert!(!needs_json_escape(b""));
        assert!(!needs_pointer_escape("é".as_bytes()));
    }
}
