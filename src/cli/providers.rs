//! `toolschema providers`: the built-in profiles and providers, one line each, from the
//! registry.

use super::error::{CliResult, EXIT_OK};
use super::output::{Cell, Color, Style, emit, table};
use super::profile::provider_lines;

/// Runs `toolschema providers`.
pub fn run() -> CliResult {
    let style = Style::for_stdout();
    let rows: Vec<Vec<Cell>> = provider_lines()
        .into_iter()
        .map(|(name, line)| vec![Cell::colored(name, Color::Bold), Cell::plain(line)])
        .collect();
    emit(&table(&rows, style));
    Ok(EXIT_OK)
}
