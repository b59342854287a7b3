//! `--color auto|always|never`: whether the commands colour their output, chosen once per run.

use clap::ValueEnum;
use std::sync::OnceLock;

/// When to colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum ColorChoice {
    /// On a terminal, unless `NO_COLOR` is set (and not empty).
    #[default]
    Auto,
    /// Always, also in a pipe and with `NO_COLOR`.
    Always,
    /// Never.
    Never,
}

static CHOICE: OnceLock<ColorChoice> = OnceLock::new();

/// Records the choice for this run (the first call wins).
pub fn set(choice: ColorChoice) {
    let _ = CHOICE.set(choice);
}

/// Whether to colour output going to a stream that is (`terminal`) or is not a terminal.
pub fn enabled(terminal: bool) -> bool {
    decide(
        CHOICE.get().copied().unwrap_or_default(),
        terminal,
        std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()),
    )
}

fn decide(choice: ColorChoice, terminal: bool, no_color: bool) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => terminal && !no_color,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_follows_the_terminal_and_no_color() {
        assert!(decide(ColorChoice::Auto, true, false));
        assert!(!decide(ColorChoice::Auto, false, false));
        assert!(!decide(ColorChoice::Auto, true, true));
        assert!(decide(ColorChoice::Always, false, true));
        assert!(!decide(ColorChoice::Never, true, false));
    }
}
