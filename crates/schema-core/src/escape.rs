//! The one-character JSON string escapes: the character a `\` followed by one byte stands for.

/// The character that `\` + `byte` stands for in a JSON string, for the eight one-byte escapes
/// (`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`); `None` for `u` (a `\uXXXX` escape, read by
/// the caller) and for every byte JSON does not allow after a `\`.
///
/// ```
/// use schema_core::short_escape;
/// assert_eq!(short_escape(b'n'), Some('\n'));
/// assert_eq!(short_escape(b'/'), Some('/'));
/// assert_eq!(short_escape(b'u'), None);
/// assert_eq!(short_escape(b'x'), None);
/// ```
#[inline]
pub fn short_escape(byte: u8) -> Option<char> {
    Some(match byte {
        b'"' => '"',
        b'\\' => '\\',
        b'/' => '/',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::short_escape;

    #[test]
    fn reads_as_serde_json_reads_each_escape() {
        for byte in 0..=u8::MAX {
            let text = format!("\"\\{}\"", char::from(byte));
            let serde = serde_json::from_str::<String>(&text).ok();
            match short_escape(byte) {
                Some(c) => assert_eq!(serde, Some(c.to_string()), "\\{}", char::from(byte)),
                // `u` needs four hex digits; every other byte is refused by serde_json too.
                None => assert!(byte == b'u' || serde.is_none(), "\\{}", char::from(byte)),
            }
        }
    }
}
