//! A small line diff (longest common subsequence) with unified-style hunks.

/// One line of a diff.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Line<'a> {
    /// In both.
    Same(&'a str),
    /// Only in the old text.
    Removed(&'a str),
    /// Only in the new text.
    Added(&'a str),
}

/// Above this many cells the LCS table is not built: the middle is shown as removed + added.
const MAX_CELLS: usize = 16_000_000;

/// The line diff of `old` and `new`.
pub fn diff_lines<'a>(old: &'a str, new: &'a str) -> Vec<Line<'a>> {
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    // Common prefix and suffix first: sanitizing usually changes a few lines of many.
    let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..]
        .iter()
        .rev()
        .zip(b[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (ma, mb) = (&a[prefix..a.len() - suffix], &b[prefix..b.len() - suffix]);
    let mut out: Vec<Line<'a>> = a[..prefix].iter().map(|l| Line::Same(l)).collect();
    if ma.len().saturating_mul(mb.len()) > MAX_CELLS {
        out.extend(ma.iter().map(|l| Line::Removed(l)));
        out.extend(mb.iter().map(|l| Line::Added(l)));
    } else {
        // lcs[i][j]: LCS length of ma[i..] and mb[j..].
        let w = mb.len() + 1;
        let mut lcs = vec![0u32; (ma.len() + 1) * w];
        for i in (0..ma.len()).rev() {
            for j in (0..mb.len()).rev() {
                lcs[i * w + j] = if ma[i] == mb[j] {
                    lcs[(i + 1) * w + j + 1] + 1
                } else {
                    lcs[(i + 1) * w + j].max(lcs[i * w + j + 1])
                };
            }
        }
        let (mut i, mut j) = (0, 0);
        while i < ma.len() && j < mb.len() {
            if ma[i] == mb[j] {
                out.push(Line::Same(ma[i]));
                i += 1;
                j += 1;
            } else if lcs[(i + 1) * w + j] >= lcs[i * w + j + 1] {
                out.push(Line::Removed(ma[i]));
                i += 1;
            } else {
                out.push(Line::Added(mb[j]));
                j += 1;
            }
        }
        out.extend(ma[i..].iter().map(|l| Line::Removed(l)));
        out.extend(mb[j..].iter().map(|l| Line::Added(l)));
    }
    out.extend(a[a.len() - suffix..].iter().map(|l| Line::Same(l)));
    out
}

/// The diff as hunks with `context` unchanged lines around each change: `@@ -a,n +b,m @@`
/// headers, then lines prefixed with ` `, `-` or `+`. Empty when the texts are equal.
pub fn unified(diff: &[Line<'_>], context: usize) -> Vec<String> {
    let changed: Vec<usize> = diff
        .iter()
        .enumerate()
        .filter(|(_, l)| !matches!(l, Line::Same(_)))
        .map(|(i, _)| i)
        .collect();
    let mut out = Vec::new();
    let mut k = 0;
    while k < changed.len() {
        let start = changed[k].saturating_sub(context);
        let mut end = (changed[k] + context + 1).min(diff.len());
        k += 1;
        while k < changed.len() && changed[k] <= end + context {
            end = (changed[k] + context + 1).min(diff.len());
            k += 1;
        }
        // Line numbers (1-based) of the hunk's start in each text.
        let (mut old_no, mut new_no) = (1, 1);
        for l in &diff[..start] {
            match l {
                Line::Same(_) => {
                    old_no += 1;
                    new_no += 1;
                }
                Line::Removed(_) => old_no += 1,
                Line::Added(_) => new_no += 1,
            }
        }
        let hunk = &diff[start..end];
        let old_len = hunk.iter().filter(|l| !matches!(l, Line::Added(_))).count();
        let new_len = hunk
            .iter()
            .filter(|l| !matches!(l, Line::Removed(_)))
            .count();
        out.push(format!("@@ -{old_no},{old_len} +{new_no},{new_len} @@"));
        for l in hunk {
            out.push(match l {
                Line::Same(s) => format!(" {s}"),
                Line::Removed(s) => format!("-{s}"),
                Line::Added(s) => format!("+{s}"),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_line_is_removed_then_added() {
        let d = diff_lines("a\nb\nc", "a\nx\nc");
        assert_eq!(
            d,
            [
                Line::Same("a"),
                Line::Removed("b"),
                Line::Added("x"),
                Line::Same("c")
            ]
        );
        assert_eq!(unified(&d, 1), ["@@ -1,3 +1,3 @@", " a", "-b", "+x", " c"]);
    }

    #[test]
    fn equal_texts_have_no_hunks() {
        assert!(unified(&diff_lines("a\nb", "a\nb"), 3).is_empty());
    }

    #[test]
    fn distant_changes_make_separate_hunks_with_line_numbers() {
        let old: Vec<String> = (0..20).map(|i| i.to_string()).collect();
        let mut new = old.clone();
        new[2] = "two".into();
        new.insert(15, "extra".into());
        let (old, new) = (old.join("\n"), new.join("\n"));
        let d = diff_lines(&old, &new);
        let h = unified(&d, 1);
        let headers: Vec<&String> = h.iter().filter(|l| l.starts_with("@@")).collect();
        assert_eq!(headers, ["@@ -2,3 +2,3 @@", "@@ -15,2 +15,3 @@"]);
    }

    #[test]
    fn lcs_keeps_the_longest_common_lines() {
        let d = diff_lines("a\nb\nc\nd", "b\nc\nd\ne");
        assert_eq!(
            d,
            [
                Line::Removed("a"),
                Line::Same("b"),
                Line::Same("c"),
                Line::Same("d"),
                Line::Added("e")
            ]
        );
    }
}
