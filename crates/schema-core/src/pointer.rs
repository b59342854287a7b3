//! JSON pointers (RFC 6901) and URI fragments.

/// Appends `/segment` to a pointer, escaping `~` as `~0` and `/` as `~1`.
///
/// ```
/// let mut p = String::from("/properties");
/// schema_core::pointer::push(&mut p, "a/b~c");
/// assert_eq!(p, "/properties/a~1b~0c");
/// ```
pub fn push(pointer: &mut String, segment: &str) {
    pointer.push('/');
    if !crate::scan_bytes::needs_pointer_escape(segment.as_bytes()) {
        pointer.push_str(segment);
        return;
    }
    for c in segment.chars() {
        match c {
            '~' => pointer.push_str("~0"),
            '/' => pointer.push_str("~1"),
            c => pointer.push(c),
        }
    }
}

/// Appends `/index`.
pub fn push_index(pointer: &mut String, index: usize) {
    pointer.push('/');
    // Digits by hand: `write!` goes through the formatting machinery for every array element
    // a walk enters.
    let mut digits = [b'0'; 20];
    let mut at = digits.len();
    let mut n = index;
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    pointer.push_str(std::str::from_utf8(&digits[at..]).unwrap_or("0"));
}

/// Splits a pointer into its unescaped segments (`""` → none). `None` if it does not start
/// with `/` or has an invalid `~` escape.
///
/// ```
/// use schema_core::pointer::segments;
/// assert_eq!(segments("/$defs/a~1b").unwrap(), vec!["$defs", "a/b"]);
/// assert_eq!(segments("").unwrap(), Vec::<String>::new());
/// assert!(segments("x").is_none());
/// ```
pub fn segments(pointer: &str) -> Option<Vec<String>> {
    if pointer.is_empty() {
        return Some(Vec::new());
    }
    let rest = pointer.strip_prefix('/')?;
    rest.split('/').map(unescape).collect()
}

fn unescape(segment: &str) -> Option<String> {
    let mut out = String::with_capacity(segment.len());
    let mut chars = segment.chars();
    while let Some(c) = chars.next() {
        if c == '~' {
            match chars.next() {
                Some('0') => out.push('~'),
                Some('1') => out.push('/'),
                _ => return None,
            }
        } else {
            out.push(c);
        }
    }
    Some(out)
}

/// Decodes `%XX` escapes of a URI fragment. `None` if an escape is malformed or the result is
/// not UTF-8.
///
/// ```
/// assert_eq!(schema_core::pointer::percent_decode("/a%20b%25").unwrap(), "/a b%");
/// ```
pub fn percent_decode(s: &str) -> Option<String> {
    if !s.contains('%') {
        return Some(s.to_owned());
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Percent-encodes what a URI fragment cannot hold literally (for `$ref` values we write).
pub fn fragment_encode(pointer: &str) -> String {
    let mut out = String::with_capacity(pointer.len());
    for c in pointer.chars() {
        match c {
            '%' => out.push_str("%25"),
            ' ' => out.push_str("%20"),
            '"' => out.push_str("%22"),
            '#' => out.push_str("%23"),
            c => out.push(c),
        }
    }
    out
}
