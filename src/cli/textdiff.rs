//! Line diffs with unified-style hunks, by the `similar` crate (Myers' diff: no size limit past
//! which a whole block is shown replaced).

use similar::{ChangeTag, TextDiff};
use std::borrow::Cow;

/// The diff of `old` and `new` as hunks with `context` unchanged lines around each change:
/// `@@ -a,n +b,m @@` headers, then lines prefixed with ` `, `-` or `+` (without their line
/// ends). Empty when the texts are equal.
pub fn unified(old: &str, new: &str, context: usize) -> Vec<String> {
    // Lines are compared with their line ends: a last line without one is still the same line.
    let (old, new) = (terminated(old), terminated(new));
    let diff = TextDiff::from_lines(old.as_ref(), new.as_ref());
    let mut out = Vec::new();
    for hunk in diff.unified_diff().context_radius(context).iter_hunks() {
        out.push(hunk.header().to_string());
        for change in hunk.iter_changes() {
            let tag = match change.tag() {
                ChangeTag::Equal => ' ',
                ChangeTag::Delete => '-',
                ChangeTag::Insert => '+',
            };
            let line = change.value();
            let line = line.strip_suffix('\n').unwrap_or(line);
            out.push(format!("{tag}{}", line.strip_suffix('\r').unwrap_or(line)));
        }
    }
    out
}

fn terminated(text: &str) -> Cow<'_, str> {
    if text.is_empty() || text.ends_with('\n') {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(format!("{text}\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_line_is_removed_then_added() {
        assert_eq!(
            unified("a\nb\nc", "a\nx\nc", 1),
            ["@@ -1,3 +1,3 @@", " a", "-b", "+x", " c"]
        );
    }

    #[test]
    fn equal_texts_have_no_hunks() {
        assert!(unified("a\nb", "a\nb", 3).is_empty());
    }

    #[test]
    fn distant_changes_make_separate_hunks_with_line_numbers() {
        let old: Vec<String> = (0..20).map(|i| i.to_string()).collect();
        let mut new = old.clone();
        new[2] = "two".into();
        new.insert(15, "extra".into());
        let (old, new) = (old.join("\n"), new.join("\n"));
        let h = unified(&old, &new, 1);
        let headers: Vec<&String> = h.iter().filter(|l| l.starts_with("@@")).collect();
        assert_eq!(headers, ["@@ -2,3 +2,3 @@", "@@ -15,2 +15,3 @@"]);
    }

    #[test]
    fn the_longest_common_lines_are_kept() {
        assert_eq!(
            unified("a\nb\nc\nd", "b\nc\nd\ne", 3),
            ["@@ -1,4 +1,4 @@", "-a", " b", " c", " d", "+e"]
        );
    }

    #[test]
    fn a_large_text_with_one_change_shows_only_that_change() {
        // 5,000 × 5,000 lines: past the old hand-written LCS's 16 M cells, where it showed the
        // whole middle replaced.
        let old: Vec<String> = (0..5000).map(|i| format!("line {i}")).collect();
        let mut new = old.clone();
        new[10] = "first".into();
        new[4990] = "last".into();
        let h = unified(&old.join("\n"), &new.join("\n"), 0);
        let changed: Vec<&String> = h
            .iter()
            .filter(|l| l.starts_with('-') || l.starts_with('+'))
            .collect();
        assert_eq!(
            changed,
            ["-line 10", "+first", "-line 4990", "+last"],
            "{h:?}"
        );
    }
}
