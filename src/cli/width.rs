//! Fitting text output to the terminal: its width (`COLUMNS`, else the terminal's size when
//! standard output is one; no limit in a pipe), word wrapping, and a table that abbreviates
//! its headers, shortens its first column and then splits into blocks until it fits.

use super::output::{Cell, Style, table};
use std::io::IsTerminal;

/// The narrowest width fitted to; below it, lines are as they come.
const MIN_WIDTH: usize = 20;

/// The width to fit: `COLUMNS` when it is a number, else the terminal's width when standard
/// output is a terminal; `None` (no limit) otherwise, as in a pipe.
pub fn stdout_width() -> Option<usize> {
    if let Some(n) = std::env::var("COLUMNS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|n| *n > 0)
    {
        return Some(n.max(MIN_WIDTH));
    }
    if !std::io::stdout().is_terminal() {
        return None;
    }
    terminal_size::terminal_size().map(|(w, _)| usize::from(w.0).max(MIN_WIDTH))
}

/// `text` word-wrapped at `width` (no limit: as it is); lines after the first start with
/// `indent`. A word longer than the width stays whole on its own line.
pub fn wrap(text: &str, width: Option<usize>, indent: &str) -> String {
    let Some(width) = width else {
        return text.to_owned();
    };
    let mut out = String::new();
    let mut line_len = 0;
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let n = word.chars().count();
        if line_len > 0 && line_len + 1 + n > width {
            out.push('\n');
            out.push_str(indent);
            line_len = indent.chars().count();
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(word);
        line_len += n;
    }
    out
}

/// `text` cut to `max` characters in the middle (`brave…web_search`): a third of the room
/// for its start, the rest for its end, where names differ most.
pub fn shorten_middle(text: &str, max: usize) -> String {
    let n = text.chars().count();
    if n <= max {
        return text.to_owned();
    }
    let room = max.saturating_sub(1);
    let head = room / 3;
    let tail = room - head;
    let start: String = text.chars().take(head).collect();
    let end: String = text.chars().skip(n - tail).collect();
    format!("{start}…{end}")
}

/// A table: a header row and body rows, the first column naming each row.
#[derive(Debug, Clone)]
pub struct Grid {
    /// The header cells (the first names the first column).
    pub header: Vec<Cell>,
    /// The rows, as long as the header.
    pub rows: Vec<Vec<Cell>>,
}

/// Two spaces between columns, as [`table`] puts them.
const GAP: usize = 2;

fn widths(header: &[Cell], rows: &[Vec<Cell>]) -> Vec<usize> {
    let mut w: Vec<usize> = header.iter().map(|c| c.text.chars().count()).collect();
    for row in rows {
        for (i, c) in row.iter().enumerate() {
            if let Some(x) = w.get_mut(i) {
                *x = (*x).max(c.text.chars().count());
            }
        }
    }
    w
}

fn total(w: &[usize]) -> usize {
    w.iter().sum::<usize>() + GAP * w.len().saturating_sub(1)
}

/// The grid as aligned text fitting `width`: as it is when it fits (or with no limit); else
/// the headers after the first become numbers with a key line above the table; then the first
/// column is shortened (in the middle); then the columns are split into blocks, each repeating
/// the first column.
pub fn fit_table(grid: &Grid, width: Option<usize>, style: Style) -> String {
    let all = |g: &Grid| {
        let mut rows = vec![g.header.clone()];
        rows.extend(g.rows.iter().cloned());
        rows
    };
    let Some(width) = width else {
        return table(&all(grid), style);
    };
    if total(&widths(&grid.header, &grid.rows)) <= width {
        return table(&all(grid), style);
    }
    // Numbered headers, with their key.
    let mut g = grid.clone();
    let mut key = Vec::new();
    for (i, cell) in g.header.iter_mut().enumerate().skip(1) {
        key.push(format!("{i}={}", cell.text));
        cell.text = i.to_string();
    }
    let mut out = wrap(&format!("columns: {}", key.join(", ")), Some(width), "  ");
    out.push('\n');
    // A shorter first column: at most two fifths of the width (and room for one more column),
    // cut in the middle so both ends of a name stay.
    let w = widths(&g.header, &g.rows);
    let widest = w.iter().skip(1).copied().max().unwrap_or(0);
    let cap = (width * 2 / 5)
        .max(16)
        .min(width.saturating_sub(GAP + widest))
        .max(8);
    if total(&w) > width && w.first().is_some_and(|f| *f > cap) {
        for row in &mut g.rows {
            if let Some(c) = row.first_mut() {
                c.text = shorten_middle(&c.text, cap);
            }
        }
    }
    let w = widths(&g.header, &g.rows);
    if total(&w) <= width {
        out.push_str(&table(&all(&g), style));
        return out;
    }
    // Blocks of columns, each with the first.
    let first = w.first().copied().unwrap_or(0);
    let mut start = 1;
    while start < w.len() {
        let mut end = start;
        let mut used = first;
        while end < w.len() && (end == start || used + GAP + w[end] <= width) {
            used += GAP + w[end];
            end += 1;
        }
        let pick = |row: &Vec<Cell>| -> Vec<Cell> {
            row.iter()
                .enumerate()
                .filter(|(i, _)| *i == 0 || (start..end).contains(i))
                .map(|(_, c)| c.clone())
                .collect()
        };
        let mut rows = vec![pick(&g.header)];
        rows.extend(g.rows.iter().map(pick));
        if start > 1 {
            out.push('\n');
        }
        out.push_str(&table(&rows, style));
        start = end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(names: &[&str], rows: &[&[&str]]) -> Grid {
        Grid {
            header: names.iter().map(|n| Cell::plain(*n)).collect(),
            rows: rows
                .iter()
                .map(|r| r.iter().map(|c| Cell::plain(*c)).collect())
                .collect(),
        }
    }

    fn widest(text: &str) -> usize {
        text.lines().map(|l| l.chars().count()).max().unwrap_or(0)
    }

    #[test]
    fn wrap_breaks_between_words_with_an_indent() {
        assert_eq!(wrap("aa bb cc dd", Some(5), "  "), "aa bb\n  cc\n  dd");
        assert_eq!(wrap("aa bb cc", None, "  "), "aa bb cc");
        assert_eq!(wrap("toolong x", Some(4), ""), "toolong\nx");
    }

    #[test]
    fn a_table_that_fits_is_unchanged() {
        let g = grid(&["tool", "gemini"], &[&["a", "ok"]]);
        assert_eq!(
            fit_table(&g, Some(80), Style::plain()),
            "tool  gemini\na     ok\n"
        );
    }

    #[test]
    fn wide_headers_become_numbers_with_a_key() {
        let g = grid(
            &["tool", "gemini-code-assist", "gemini-jsonschema"],
            &[&["search", "fixed (2)", "ok"]],
        );
        let out = fit_table(&g, Some(30), Style::plain());
        assert_eq!(
            out,
            "columns: 1=gemini-code-assist,\n  2=gemini-jsonschema\ntool    1          2\nsearch  fixed (2)  ok\n"
        );
        assert!(widest(&out) <= 30, "{out}");
    }

    #[test]
    fn long_tool_names_are_shortened_then_columns_split_into_blocks() {
        let long = "a_tool_with_a_very_long_name_indeed";
        let g = grid(
            &["tool", "p1", "p2", "p3", "p4"],
            &[&[long, "fixed (10)", "fixed (11)", "ok", "FAIL"]],
        );
        let out = fit_table(&g, Some(40), Style::plain());
        assert!(widest(&out) <= 40, "{out}");
        // 16 characters: both ends of the name.
        let short = "a_too…ame_indeed";
        assert_eq!(shorten_middle(long, 16), short);
        assert!(out.contains(short), "{out}");
        // Every column is still there, each block repeating the tool.
        for cell in ["fixed (10)", "fixed (11)", "ok", "FAIL"] {
            assert!(out.contains(cell), "{out}");
        }
        assert!(out.matches(short).count() >= 2, "{out}");
    }
}
