//! The one place JSON text is scanned byte by byte: whether a byte lies inside a string.

/// Tracks string literals through JSON text fed one byte at a time, so a scanner can tell
/// structure (`{`, `,`, whitespace...) from string contents without parsing.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Strings {
    in_string: bool,
    escaped: bool,
}

impl Strings {
    /// Feeds one byte; `true` when it is structure: outside every string and not a quote.
    /// (Pass any non-ASCII byte, e.g. `0x80`, for a non-ASCII character.)
    pub(crate) fn structural(&mut self, b: u8) -> bool {
        if self.in_string {
            if self.escaped {
                self.escaped = false;
            } else if b == b'\\' {
                self.escaped = true;
            } else if b == b'"' {
                self.in_string = false;
            }
            return false;
        }
        if b == b'"' {
            self.in_string = true;
            return false;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::Strings;

    #[test]
    fn quotes_escapes_and_contents_are_not_structure() {
        let text = br#"{"a\"{":[1]}"#;
        let mut s = Strings::default();
        let structural: String = text
            .iter()
            .filter(|b| s.structural(**b))
            .map(|b| char::from(*b))
            .collect();
        assert_eq!(structural, "{:[1]}");
    }
}
