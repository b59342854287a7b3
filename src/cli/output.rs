//! Terminal output: colours (as `--color` says: by default only on a terminal, never with
//! `NO_COLOR`), aligned tables, and
//! writing to standard output without panicking on a closed pipe.

use std::io::{IoSlice, IsTerminal, Write};

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
pub fn emit_bytes(bytes: &[u8]) {
    emit_parts(&[bytes]);
}

/// Writes `parts` to standard output, one after the other, as they are.
///
/// Standard output is line-buffered: a large write through it is first searched for its last
/// newline (a scan of every byte, a tenth of `sanitize`'s instructions on a 19 MB body). So a
/// large output goes to the file descriptor itself, the lock held, in vectored writes of the
/// parts as they are (a body's unchanged conversation is written from the input's own bytes,
/// never copied into an output buffer).
pub fn emit_parts<B: AsRef<[u8]>>(parts: &[B]) {
    let mut out = std::io::stdout().lock();
    #[cfg(unix)]
    if parts.iter().map(|p| p.as_ref().len()).sum::<usize>() >= 1 << 16 && out.flush().is_ok() {
        use std::os::fd::AsFd;
        if let Ok(fd) = out.as_fd().try_clone_to_owned() {
            let _ = write_all_vectored(&mut std::fs::File::from(fd), parts);
            return;
        }
    }
    let _ = parts
        .iter()
        .try_for_each(|p| out.write_all(p.as_ref()))
        .and_then(|()| out.flush());
}

/// Writes every byte of `parts` in order, in as few vectored writes as the writer takes.
fn write_all_vectored<B: AsRef<[u8]>>(w: &mut impl Write, parts: &[B]) -> std::io::Result<()> {
    let mut slices: Vec<IoSlice<'_>> = parts
        .iter()
        .map(|p| IoSlice::new(p.as_ref()))
        .filter(|s| !s.is_empty())
        .collect();
    let mut rest = &mut slices[..];
    while !rest.is_empty() {
        match w.write_vectored(rest) {
            Ok(0) => return Err(std::io::ErrorKind::WriteZero.into()),
            Ok(n) => IoSlice::advance_slices(&mut rest, n),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
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

    /// A writer that takes at most `max` bytes a call, recording the calls.
    struct Short {
        max: usize,
        got: Vec<u8>,
        calls: usize,
    }

    impl Write for Short {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.write_vectored(&[IoSlice::new(buf)])
        }
        fn write_vectored(&mut self, bufs: &[IoSlice<'_>]) -> std::io::Result<usize> {
            self.calls += 1;
            let mut n = 0;
            for b in bufs {
                let take = b.len().min(self.max - n);
                self.got.extend_from_slice(&b[..take]);
                n += take;
                if n == self.max {
                    break;
                }
            }
            Ok(n)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn vectored_writes_write_every_part_in_order_through_short_writes() {
        let parts: [&[u8]; 4] = [b"head-", b"", b"middle-", b"tail"];
        for max in [1, 3, 7, 100] {
            let mut w = Short {
                max,
                got: Vec::new(),
                calls: 0,
            };
            write_all_vectored(&mut w, &parts).unwrap();
            assert_eq!(w.got, b"head-middle-tail", "max {max}");
            assert_eq!(w.calls, 16_usize.div_ceil(max), "max {max}");
        }
        let mut full = Short {
            max: 0,
            got: Vec::new(),
            calls: 0,
        };
        assert_eq!(
            write_all_vectored(&mut full, &parts).unwrap_err().kind(),
            std::io::ErrorKind::WriteZero
        );
    }

    #[test]
    fn plain_style_paints_nothing() {
        assert_eq!(Style::plain().paint("x", Color::Red), "x");
    }
}
