//! A progress line on standard error for long work (`reading 3/40: FILE`), only when standard
//! error is a terminal, only once the work has taken a moment, and cleared when it ends: in a
//! pipe, a log or CI, nothing is written.

use std::cell::Cell;
use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// Nothing is shown for work shorter than this.
const QUIET_FOR: Duration = Duration::from_millis(300);
/// The line is redrawn at most this often.
const EVERY: Duration = Duration::from_millis(100);
/// The longest line drawn (a long file name is cut at the start).
const MAX_WIDTH: usize = 78;

/// A progress line over `total` steps.
#[derive(Debug)]
pub struct Progress {
    on: bool,
    total: usize,
    start: Instant,
    last: Cell<Option<Instant>>,
    drawn: Cell<bool>,
}

impl Progress {
    /// Progress over `total` steps, drawn only when standard error is a terminal.
    pub fn new(total: usize) -> Progress {
        Progress {
            on: std::io::stderr().is_terminal(),
            total,
            start: Instant::now(),
            last: Cell::new(None),
            drawn: Cell::new(false),
        }
    }

    /// Step `index` (0-based) of the work, doing `what`.
    pub fn step(&self, index: usize, what: &str) {
        if !self.on {
            return;
        }
        let now = Instant::now();
        if now.duration_since(self.start) < QUIET_FOR
            || self
                .last
                .get()
                .is_some_and(|t| now.duration_since(t) < EVERY)
        {
            return;
        }
        self.last.set(Some(now));
        self.drawn.set(true);
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r\x1b[K{}", line(index, self.total, what));
        let _ = err.flush();
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if self.drawn.get() {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[K");
            let _ = err.flush();
        }
    }
}

/// `3/40 FILE`, at most [`MAX_WIDTH`] characters (the end of `what` kept).
fn line(index: usize, total: usize, what: &str) -> String {
    let head = format!("{}/{total} ", index + 1);
    let room = MAX_WIDTH.saturating_sub(head.chars().count());
    let n = what.chars().count();
    if n <= room {
        return format!("{head}{what}");
    }
    let tail: String = what.chars().skip(n - room.saturating_sub(1)).collect();
    format!("{head}…{tail}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_counts_from_one_and_keeps_the_end_of_a_long_name() {
        assert_eq!(line(0, 3, "a.json"), "1/3 a.json");
        let long = format!("{}/tools.json", "d".repeat(200));
        let l = line(9, 40, &long);
        assert_eq!(l.chars().count(), MAX_WIDTH);
        assert!(l.starts_with("10/40 …"), "{l}");
        assert!(l.ends_with("/tools.json"), "{l}");
    }
}
