//! `toolschema rules NAME [--format toml|json]`: print a built-in profile, the starting point
//! of a custom one (`--rules FILE` on sanitize, check, matrix and diff).

use super::error::{CliError, CliResult, EXIT_OK};
use super::output::emit;
use super::profile::builtin;
use clap::{Args, ValueEnum};

/// The format of a printed profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RulesFormat {
    /// TOML.
    Toml,
    /// JSON.
    Json,
}

/// Arguments of `toolschema rules`.
#[derive(Debug, Clone, Args)]
pub struct RulesArgs {
    /// The built-in profile to print (see `toolschema providers`).
    #[arg(value_name = "NAME")]
    pub name: String,
    /// The output format.
    #[arg(long, value_enum, default_value = "toml")]
    pub format: RulesFormat,
}

/// Runs `toolschema rules`.
pub fn run(args: &RulesArgs) -> CliResult {
    let rules = builtin(&args.name)?;
    let written = match args.format {
        RulesFormat::Toml => rules.to_toml(),
        RulesFormat::Json => rules.to_json(),
    };
    let mut text = written.map_err(|e| CliError::usage(format!("{}: {e}", args.name)))?;
    if !text.ends_with('\n') {
        text.push('\n');
    }
    emit(&text);
    Ok(EXIT_OK)
}
