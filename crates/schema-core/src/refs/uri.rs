//! URI reference resolution (RFC 3986 §5.2) for `$id` and `$ref`.

pub(super) fn split(reference: &str) -> (&str, &str) {
    match reference.split_once('#') {
        Some((b, f)) => (b, f),
        None => (reference, ""),
    }
}

/// The scheme of an absolute URI (`http`, `urn`...), if `s` has one.
fn scheme(s: &str) -> Option<&str> {
    let (scheme, _) = s.split_once(':')?;
    let mut chars = scheme.chars();
    let first = chars.next()?;
    (first.is_ascii_alphabetic()
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')))
    .then_some(scheme)
}

/// Resolves `reference` against `base` (RFC 3986 §5.2, without query handling): an absolute
/// reference stands as it is, a fragment replaces the base's, a path is merged with the
/// base's directory and its dot segments removed.
///
/// ```
/// use schema_core::resolve_uri;
/// assert_eq!(resolve_uri("http://x/a/b.json", "c.json#/d"), "http://x/a/c.json#/d");
/// assert_eq!(resolve_uri("http://x/a/b.json", "../c.json"), "http://x/c.json");
/// assert_eq!(resolve_uri("http://x/a/b.json", "/c.json"), "http://x/c.json");
/// assert_eq!(resolve_uri("urn:uuid:1234", "#/$defs/a"), "urn:uuid:1234#/$defs/a");
/// assert_eq!(resolve_uri("", "#/$defs/a"), "#/$defs/a");
/// ```
pub fn resolve_uri(base: &str, reference: &str) -> String {
    let base_doc = split(base).0;
    if reference.is_empty() {
        return base_doc.to_owned();
    }
    if reference.starts_with('#') {
        return format!("{base_doc}{reference}");
    }
    if scheme(reference).is_some() {
        return remove_dots(reference);
    }
    let Some(sch) = scheme(base_doc) else {
        // No absolute base: a relative reference stays relative (merged with the base's
        // directory when there is one).
        return match base_doc.rfind('/') {
            Some(i) if !reference.starts_with('/') => {
                remove_dots(&format!("{}{reference}", &base_doc[..=i]))
            }
            _ => remove_dots(reference),
        };
    };
    let rest = &base_doc[sch.len() + 1..];
    if let Some(r) = reference.strip_prefix("//") {
        return remove_dots(&format!("{sch}://{r}"));
    }
    // Authority: `//host` up to the next `/`.
    let (authority, path) = match rest.strip_prefix("//") {
        Some(r) => match r.find('/') {
            Some(i) => (&rest[..i + 2], &r[i..]),
            None => (rest, ""),
        },
        None => ("", rest),
    };
    if reference.starts_with('/') {
        return remove_dots(&format!("{sch}:{authority}{reference}"));
    }
    let dir = match path.rfind('/') {
        Some(i) => &path[..=i],
        None if !authority.is_empty() => "/",
        None => "",
    };
    format!(
        "{sch}:{authority}{}",
        remove_dots(&format!("{dir}{reference}"))
    )
}

/// Removes `.` and `..` path segments (before the fragment).
fn remove_dots(uri: &str) -> String {
    let (doc, frag) = match uri.split_once('#') {
        Some((d, f)) => (d, Some(f)),
        None => (uri, None),
    };
    if !doc.contains("./") && !doc.ends_with("/.") && !doc.ends_with("/..") {
        return uri.to_owned();
    }
    let mut out: Vec<&str> = Vec::new();
    let segs: Vec<&str> = doc.split('/').collect();
    let last = segs.len().saturating_sub(1);
    for (i, seg) in segs.iter().enumerate() {
        match *seg {
            "." => {
                if i == last {
                    out.push("");
                }
            }
            ".." => {
                if out.len() > 1
                    || out
                        .first()
                        .is_some_and(|f| !f.is_empty() && !f.ends_with(':'))
                {
                    out.pop();
                }
                if i == last {
                    out.push("");
                }
            }
            s => out.push(s),
        }
    }
    let mut s = out.join("/");
    if let Some(f) = frag {
        s.push('#');
        s.push_str(f);
    }
    s
}
