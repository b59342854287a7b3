//! `pattern`: the linear-time `regex` crate first; what it cannot compile (look-around,
//! back-references) goes to `fancy-regex` with a backtrack limit. A pattern neither evaluates
//! (the limit reached, or syntax neither reads) is never taken as matched: the caller reports
//! it as not checked.

/// How many backtracking steps one match may take before it is given up (`fancy-regex`'s own
/// default is 1,000,000; a tool call's strings are short).
pub(crate) const BACKTRACK_LIMIT: usize = 100_000;

/// The longest pattern compiled (longer ones are not checked).
const MAX_PATTERN_LEN: usize = 4096;

/// A compiled `pattern`.
pub(crate) enum Pattern {
    /// Compiled by `regex`: linear time.
    Linear(regex::Regex),
    /// Compiled by `fancy-regex` only: backtracking, bounded by [`BACKTRACK_LIMIT`].
    Backtracking(Box<fancy_regex::Regex>),
    /// Neither compiles it.
    Unusable,
}

impl Pattern {
    pub(crate) fn compile(pattern: &str) -> Pattern {
        if pattern.len() > MAX_PATTERN_LEN {
            return Pattern::Unusable;
        }
        let pattern = &control_escapes(pattern);
        if let Ok(re) = regex::RegexBuilder::new(pattern)
            .size_limit(1 << 20)
            .dfa_size_limit(1 << 20)
            .build()
        {
            return Pattern::Linear(re);
        }
        match fancy_regex::RegexBuilder::new(pattern)
            .backtrack_limit(BACKTRACK_LIMIT)
            .delegate_size_limit(1 << 20)
            .delegate_dfa_size_limit(1 << 20)
            .build()
        {
            Ok(re) => Pattern::Backtracking(Box::new(re)),
            Err(_) => Pattern::Unusable,
        }
    }

    /// Whether `s` matches; `None` when that could not be found out.
    pub(crate) fn is_match(&self, s: &str) -> Option<bool> {
        match self {
            Pattern::Linear(re) => Some(re.is_match(s)),
            Pattern::Backtracking(re) => re.is_match(s).ok(),
            Pattern::Unusable => None,
        }
    }
}

/// ECMA-262's control escapes (`\cC`: the character U+0003), which neither engine reads,
/// written as `\x{03}`. An escaped backslash before the `c` is left alone.
fn control_escapes(pattern: &str) -> std::borrow::Cow<'_, str> {
    if !pattern.contains("\\c") {
        return std::borrow::Cow::Borrowed(pattern);
    }
    let mut out = String::with_capacity(pattern.len());
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.peek().copied() {
            Some('c') => {
                chars.next();
                match chars.peek().copied() {
                    Some(l) if l.is_ascii_alphabetic() => {
                        chars.next();
                        out.push_str(&format!("\\x{{{:02X}}}", (l as u32) % 32));
                    }
                    _ => out.push_str("\\c"),
                }
            }
            Some(other) => {
                chars.next();
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::Pattern;

    #[test]
    fn look_around_and_back_references_are_evaluated() {
        let p = Pattern::compile("^(?=.*[0-9]).{8,}$");
        assert!(matches!(p, Pattern::Backtracking(_)));
        assert_eq!(p.is_match("abc"), Some(false));
        assert_eq!(p.is_match("abcdefg1"), Some(true));
        let p = Pattern::compile(r"^(\w)\1$");
        assert_eq!(p.is_match("aa"), Some(true));
        assert_eq!(p.is_match("ab"), Some(false));
    }

    #[test]
    fn ecma_control_escapes_are_read() {
        let p = Pattern::compile(r"^\cC$");
        assert_eq!(p.is_match("\u{3}"), Some(true));
        assert_eq!(p.is_match("C"), Some(false));
        assert_eq!(Pattern::compile(r"^\\cC$").is_match("\\cC"), Some(true));
    }

    #[test]
    fn catastrophic_backtracking_is_not_checked_rather_than_matched() {
        let p = Pattern::compile(r"^(a+)+\1x$");
        let s = format!("{}!", "a".repeat(40));
        assert_eq!(p.is_match(&s), None);
        assert_eq!(Pattern::compile("(?<=[").is_match("x"), None);
    }
}
