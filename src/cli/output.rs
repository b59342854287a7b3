//! Terminal output: colours (as `--color` says: by default only on a terminal, never with
//! `NO_COLOR`), aligned tables, and
//! writing to standard output without panicking on a closed pipe.

use std::io::{IsTerminal, Write};

/// A colour for [`Style::paint`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Color {
    /// Accepted.
    Green,
    /// Fixed by sanitizing.
    Yellow,
    /// Rejected.
    Red,
    /// Headers.
    Bold,
    /// Secondary text.
    Dim,
}

/// Whether to colour output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Style {
    /// Emit ANSI colour codes.
    pub color: bool,
}

impl Style {
    /// Colours as `--color` says (`auto`: when standard output is a terminal and `NO_COLOR` is
    /// unset or empty).
    pub fn for_stdout() -> Style {
        Style {
            color: super::color::enabled(std::io::stdout().is_terminal()),
        }
    }

    /// No colours.
    pub fn plain() -> Style {
        Style { color: false }
    }

    /// `text` in `color` (unchanged without colours).
    pub fn paint(&self, text: &str, color: Color) -> String {
        if !self.color {
            return text.to_owned();
        }
        let code = match color {
            Color::Green => "32",
            Color::Yellow => "33",
            Color::Red => "31",
            Color::Bold => "1",
            Color::Dim => "2",
        };
        format!("\x1b[{code}m{text}\x1b[0m")
    }
}

/// One table cell: its text and colour.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cell {
    /// The visible text.
    pub text: String,
    /// Its colour, if any.
    pub color: Option<Color>,
}

impl Cell {
    /// A cell without colour.
    pub fn plain(text: impl Into<String>) -> Cell {
        Cell {
            text: text.into(),
            color: None,
        }
    }

    /// A coloured cell.
    pub fn colored(text: impl Into<String>, color: Color) -> Cell {
        Cell {
            text: text.into(),
            color: Some(color),
        }
    }
}

/// Rows of cells as aligned columns (two spaces apart), colours applied after padding so the
/// escape codes do not disturb the alignment.
pub fn table(rows: &[Vec<Cell>], style: Style) -> String {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let mut widths = vec![0usize; cols];
    for row in rows {
        for (i, cell) in row.iter().enumerate() {
            widths[i] = widths[i].max(cell.text.chars().count());
        }
    }
    let mut out = String::new();
    for row in rows {
        let mut line = String::new();
        for (i, cell) in row.iter().enumerate() {
            let last = i + 1 == row.len();
            let pad = if last {
                0
            } else {
                widths[i] - cell.text.chars().count() + 2
            };
            match cell.color {
                Some(c) => line.push_str(&style.paint(&cell.text, c)),
                None => line.push_str(&cell.text),
            }
            line.extend(std::iter::repeat_n(' ', pad));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// Writes `text` to standard output. A closed pipe (`toolschema matrix ... | head`) ends the
/// output quietly instead of panicking.
pub fn emit(text: &str) {
    emit_bytes(text.as_bytes());
}

/// Writes bytes to standard output as they are.
///
/// Standard output is line-buffered: a large write through it is first searched for its last
/// newline (a scan of every byte, a tenth of `sanitize`'s instructions on a 19 MB body). So a
/// large output goes to the file descriptor itself, in one write, the lock held.
pub fn emit_bytes(bytes: &[u8]) {
    let mut out = std::io::stdout().lock();
    #[cfg(unix)]
    if bytes.len() >= 1 << 16 && out.flush().is_ok() {
        use std::os::fd::AsFd;
        if let Ok(fd) = out.as_fd().try_clone_to_owned() {
            let _ = std::fs::File::from(fd).write_all(bytes);
            return;
        }
    }
    let _ = out.write_all(bytes).and_then(|()| out.flush());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_do_not_disturb_alignment() {
        let rows = vec![
            vec![Cell::plain("tool"), Cell::plain("gemini"), Cell::plain("x")],
            vec![
                Cell::plain("a_long_name"),
                Cell::colored("ok", Color::Green),
                Cell::plain("y"),
            ],
        ];
        let plain = table(&rows, Style::plain());
        assert_eq!(plain, "tool         gemini  x\na_long_name  ok      y\n");
        let coloured = table(&rows, Style { color: true });
        assert_eq!(
            coloured,
            "tool         gemini  x\na_long_name  \x1b[32mok\x1b[0m      y\n"
        );
    }

    #[test]
    fn plain_style_paints_nothing() {
        assert_eq!(Style::plain().paint("x", Color::Red), "x");
    }
}
