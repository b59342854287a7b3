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

/// The high bit of each byte of `w` that is below `n` may be set, and is where one is (exact
/// for `n <= 0x80` on the lowest such byte; a set bit above it may be a borrow): zero exactly
/// when no byte is below `n`.
const fn below(w: u64, n: u8) -> u64 {
    w.wrapping_sub(splat(n)) & !w & HI
}

/// Zero exactly when no byte of `w` is `b`.
const fn byte(w: u64, b: u8) -> u64 {
    below(w ^ splat(b), 1)
}

/// Whether `word` is non-zero on some eight bytes of `bytes`; the last bytes (fewer than
/// eight) are tested as one word padded with `pad`, a byte `word` never flags: no loop of
/// byte tests on the tail of a short name.
fn any(bytes: &[u8], pad: u8, word: impl Fn(u64) -> u64) -> bool {
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        if let Ok(a) = <[u8; 8]>::try_from(c)
            && word(u64::from_le_bytes(a)) != 0
        {
            return true;
        }
    }
    let rest = chunks.remainder();
    if rest.is_empty() {
        return false;
    }
    let mut last = [pad; 8];
    last[..rest.len()].copy_from_slice(rest);
    word(u64::from_le_bytes(last)) != 0
}

/// Whether `bytes` hold a byte JSON escapes in a string: a control byte, `"` or `\`.
pub(crate) fn needs_json_escape(bytes: &[u8]) -> bool {
    // The three tests are or-ed, not short-circuited: one branch a word.
    any(bytes, b'a', |w| {
        below(w, 0x20) | byte(w, b'"') | byte(w, b'\\')
    })
}

/// Where a JSON string's plain run ends: the index of the first control byte, `"` or `\\` in
/// `bytes` (`bytes.len()` when there is none), found eight bytes at a time.
pub(crate) fn string_stop(bytes: &[u8]) -> usize {
    let mut at = 0;
    while let Some(c) = bytes.get(at..at + 8) {
        if let Ok(a) = <[u8; 8]>::try_from(c) {
            let w = u64::from_le_bytes(a);
            // The lowest flagged byte is exact (a borrow only flags bytes above it).
            let stop = below(w, 0x20) | byte(w, b'"') | byte(w, b'\\');
            if stop != 0 {
                return at + (stop.trailing_zeros() / 8) as usize;
            }
        }
        at += 8;
    }
    // Fewer than eight bytes left (the end of the text: most strings end well before it).
    let rest = bytes.get(at..).unwrap_or_default();
    at + rest
        .iter()
        .position(|&b| b < 0x20 || b == b'"' || b == b'\\')
        .unwrap_or(rest.len())
}

/// Whether `bytes` hold a `~` or a `/` (what a JSON pointer segment escapes).
pub(crate) fn needs_pointer_escape(bytes: &[u8]) -> bool {
    any(bytes, b'a', |w| byte(w, b'~') | byte(w, b'/'))
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
                    let stop = s.iter().position(|&b| b < 0x20 || b == b'"' || b == b'\\');
                    assert_eq!(string_stop(&s), stop.unwrap_or(len), "{s:?}");
                }
            }
        }
        assert!(!needs_json_escape(b""));
        assert!(!needs_pointer_escape("é".as_bytes()));
    }
}
