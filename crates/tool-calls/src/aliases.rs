//! Which sent key probably means which schema field: a small alias table, case- and
//! separator-insensitive matching, and edit distance; and ordering names closest first.

/// Keys models send for a `*name` field (`toolName`, `functionName`, `name`).
const NAME_ALIASES: &[&str] = &[
    "name",
    "tool",
    "function",
    "toolname",
    "functionname",
    "func",
    "method",
    "action",
    "toolid",
];
/// Keys models send for an `arguments`-like field.
const ARGUMENT_ALIASES: &[&str] = &[
    "arguments",
    "args",
    "arg",
    "params",
    "param",
    "parameters",
    "input",
    "inputs",
    "payload",
    "kwargs",
    "toolinput",
    "toolarguments",
];
/// Keys models send for a `namespace` field.
const NAMESPACE_ALIASES: &[&str] = &["namespace", "ns", "server", "group", "category", "toolset"];

/// Lowercases and drops separators, so `tool_name`, `toolName` and `tool-name` compare equal.
pub(crate) fn normalize(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// Edit distance (optimal string alignment: insert, delete, substitute, swap two neighbours)
/// over chars; names longer than 128 chars compare as far apart.
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a.len() > 128 || b.len() > 128 {
        return a.len().max(b.len());
    }
    let width = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * width];
    for (j, cell) in d.iter_mut().take(width).enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        d[i * width] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[(i - 1) * width + j] + 1)
                .min(d[i * width + j - 1] + 1)
                .min(d[(i - 1) * width + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[(i - 2) * width + j - 2] + 1);
            }
            d[i * width + j] = best;
        }
    }
    d[a.len() * width + b.len()]
}

/// Whether `sent` is in the alias group that `field` belongs to.
fn in_alias_table(field: &str, sent: &str) -> bool {
    let (field, sent) = (normalize(field), normalize(sent));
    let name_like = field.ends_with("name") && NAME_ALIASES.contains(&sent.as_str());
    let group = |g: &[&str]| g.contains(&field.as_str()) && g.contains(&sent.as_str());
    name_like || group(ARGUMENT_ALIASES) || group(NAMESPACE_ALIASES)
}

/// The largest edit distance at which two normalized names of this length still look alike.
fn distance_budget(len: usize) -> usize {
    match len {
        0..=3 => 0,
        4..=5 => 1,
        _ => 2,
    }
}

/// How strongly `sent` looks like `field`: lower is closer; `None` when it does not.
fn alias_strength(field: &str, sent: &str) -> Option<usize> {
    let (nf, ns) = (normalize(field), normalize(sent));
    if nf.is_empty() || ns.is_empty() {
        return None;
    }
    if nf == ns {
        return Some(0);
    }
    if in_alias_table(field, sent) {
        return Some(1);
    }
    let d = edit_distance(&nf, &ns);
    if d <= distance_budget(nf.len().min(ns.len())) {
        return Some(2 + d);
    }
    abbreviates(&ns, &nf).then_some(8)
}

/// Whether `short` abbreviates `long`: at least 3 chars, same first char, a subsequence
/// (`fld` for `field`, `nam` for `name`, `desc` for `description`).
fn abbreviates(short: &str, long: &str) -> bool {
    if short.chars().count() < 3 || short.chars().next() != long.chars().next() {
        return false;
    }
    let mut rest = long.chars();
    short.chars().all(|c| rest.any(|l| l == c))
}

/// Among the `unclaimed` sent keys, the one that probably means `field`, closest first.
pub(crate) fn probable_alias<'a>(field: &str, unclaimed: &[&'a str]) -> Option<&'a str> {
    unclaimed
        .iter()
        .filter_map(|sent| alias_strength(field, sent).map(|s| (s, *sent)))
        .min_by_key(|(s, _)| *s)
        .map(|(_, sent)| sent)
}

/// Among `fields`, the one that `sent` probably means.
pub(crate) fn probable_field<'a>(sent: &str, fields: &[&'a str]) -> Option<&'a str> {
    fields
        .iter()
        .filter_map(|f| alias_strength(f, sent).map(|s| (s, *f)))
        .min_by_key(|(s, _)| *s)
        .map(|(_, f)| f)
}

/// `names` ordered closest to `target` first (substring matches, then by edit distance; ties
/// keep the given order).
pub(crate) fn closest_first<'a>(
    target: &str,
    names: impl IntoIterator<Item = &'a str>,
) -> Vec<&'a str> {
    let t = normalize(target);
    let mut scored: Vec<((usize, usize), usize, &str)> = names
        .into_iter()
        .enumerate()
        .map(|(i, name)| {
            let n = normalize(name);
            let d = if t.is_empty() || n.is_empty() {
                (3, 0)
            } else if n == t {
                (0, 0)
            } else if n.contains(&t) || t.contains(&n) {
                (1, edit_distance(&n, &t))
            } else {
                (2, edit_distance(&n, &t))
            };
            (d, i, name)
        })
        .collect();
    scored.sort_by_key(|(d, i, _)| (*d, *i));
    scored.into_iter().map(|(_, _, n)| n).collect()
}

/// Joins at most `limit` names with `, `, then `… (N in total)`.
pub(crate) fn bounded_list(names: &[&str], limit: usize) -> String {
    let shown: Vec<&str> = names.iter().take(limit).copied().collect();
    let mut out = shown.join(", ");
    if names.len() > limit {
        out.push_str(&format!(", … ({} in total)", names.len()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alias_table_maps_name_and_arguments() {
        assert_eq!(probable_alias("toolName", &["name", "args"]), Some("name"));
        assert_eq!(
            probable_alias("arguments", &["name", "params"]),
            Some("params")
        );
        assert_eq!(probable_alias("namespace", &["ns"]), Some("ns"));
    }

    #[test]
    fn separators_and_case_do_not_matter() {
        assert_eq!(
            probable_alias("toolName", &["tool_name"]),
            Some("tool_name")
        );
        assert_eq!(
            probable_alias("max_results", &["MaxResults"]),
            Some("MaxResults")
        );
    }

    #[test]
    fn typos_match_by_edit_distance() {
        assert_eq!(probable_alias("query", &["qeury"]), Some("qeury"));
        assert_eq!(
            probable_alias("repository", &["repositroy"]),
            Some("repositroy")
        );
        assert_eq!(probable_alias("id", &["ip"]), None);
        assert_eq!(probable_alias("field", &["fld"]), Some("fld"));
        assert_eq!(probable_alias("description", &["desc"]), Some("desc"));
        assert_eq!(probable_alias("name", &["nm"]), None);
    }

    #[test]
    fn closest_first_orders_by_similarity() {
        assert_eq!(
            closest_first("serch", ["send", "search"]),
            vec!["search", "send"]
        );
        assert_eq!(
            closest_first("get-runx", ["get-run", "get-run-list", "abort"]),
            vec!["get-run", "get-run-list", "abort"]
        );
        assert_eq!(
            closest_first("run-listx", ["run", "run-list"]),
            vec!["run-list", "run"]
        );
    }

    #[test]
    fn bounded_list_counts_the_rest() {
        assert_eq!(bounded_list(&["a", "b", "c"], 2), "a, b, … (3 in total)");
    }

    #[test]
    fn edit_distance_counts_swaps_as_one() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("ab", "ba"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
    }
}
