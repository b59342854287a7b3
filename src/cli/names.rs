//! Matching a name the user typed (a provider, an API) against the valid ones: ASCII case does
//! not matter (`GEMINI` is `gemini`), and a near miss (`gemin`) gets a "did you mean".

use super::error::CliError;

/// `name` among `valid`, ignoring ASCII case; otherwise an error saying `unknown WHAT "NAME"`,
/// the closest valid name when one is near, every valid name, and `more` (a hint, may be
/// empty).
pub fn resolve<'a>(
    what: &str,
    name: &str,
    valid: impl IntoIterator<Item = &'a str>,
    more: &str,
) -> Result<&'a str, CliError> {
    let valid: Vec<&'a str> = valid.into_iter().filter(|v| !v.is_empty()).collect();
    let typed = name.trim();
    if let Some(found) = valid.iter().find(|v| v.eq_ignore_ascii_case(typed)) {
        return Ok(found);
    }
    let suggestion = closest(typed, &valid)
        .map(|s| format!(" (did you mean {s:?}?)"))
        .unwrap_or_default();
    Err(CliError::usage(format!(
        "unknown {what} {name:?}{suggestion}; valid {what}s: {}{more}",
        valid.join(", ")
    )))
}

/// The valid name nearest to `typed` by edit distance (ASCII case ignored), if it is near: at
/// most a third of the longer name's length (at least 1) away, or `typed` is a prefix of it.
fn closest<'a>(typed: &str, valid: &[&'a str]) -> Option<&'a str> {
    let typed = typed.to_ascii_lowercase();
    if typed.is_empty() {
        return None;
    }
    valid
        .iter()
        .map(|v| {
            let d = distance(&typed, &v.to_ascii_lowercase());
            let limit = (typed.chars().count().max(v.chars().count()) / 3).max(1);
            let prefix = v.to_ascii_lowercase().starts_with(&typed);
            (d, v, d <= limit || prefix)
        })
        .filter(|(_, _, near)| *near)
        .min_by_key(|(d, _, _)| *d)
        .map(|(_, v, _)| *v)
}

/// Levenshtein distance, by characters (two rows; names are short).
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut row = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            row[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(row[j] + 1);
        }
        std::mem::swap(&mut prev, &mut row);
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAMES: &[&str] = &[
        "gemini",
        "gemini-jsonschema",
        "openai",
        "openai-strict",
        "xai",
    ];

    #[test]
    fn case_does_not_matter() {
        assert_eq!(
            resolve("provider", "GEMINI", NAMES.iter().copied(), ""),
            Ok("gemini")
        );
        assert_eq!(
            resolve("provider", "OpenAI-Strict", NAMES.iter().copied(), ""),
            Ok("openai-strict")
        );
    }

    #[test]
    fn a_near_miss_gets_a_suggestion_and_the_list() {
        let e = resolve("provider", "gemin", NAMES.iter().copied(), " (see x)")
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "unknown provider \"gemin\" (did you mean \"gemini\"?); valid providers: gemini, gemini-jsonschema, openai, openai-strict, xai (see x)"
        );
        let e = resolve("provider", "opnai", NAMES.iter().copied(), "").unwrap_err();
        assert!(e.to_string().contains("did you mean \"openai\"?"), "{e}");
    }

    #[test]
    fn a_far_name_gets_no_suggestion() {
        let e = resolve("provider", "frobnicate", NAMES.iter().copied(), "").unwrap_err();
        assert!(!e.to_string().contains("did you mean"), "{e}");
    }

    #[test]
    fn distance_counts_edits() {
        assert_eq!(distance("gemin", "gemini"), 1);
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance("", "xai"), 3);
    }
}
