//! `toolschema providers`: the built-in profiles, one line each.

use super::error::{CliResult, EXIT_OK};
use super::output::{Cell, Color, Style, emit, table};
use super::profile::description;

/// Runs `toolschema providers`.
pub fn run() -> CliResult {
    let style = Style::for_stdout();
    let rows: Vec<Vec<Cell>> = provider_rules::profile_names()
        .map(|name| {
            vec![
                Cell::colored(name, Color::Bold),
                Cell::plain(description(name)),
            ]
        })
        .collect();
    emit(&table(&rows, style));
    Ok(EXIT_OK)
}
