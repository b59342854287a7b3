//! `toolschema completions SHELL` and `toolschema man`: shell completions and the man page,
//! generated from the clap definition (so they always match the commands and flags).

use super::Cli;
use super::error::{CliError, CliResult, EXIT_OK};
use super::output::emit_bytes;
use clap::{Args, CommandFactory};
use clap_complete::Shell;

/// Arguments of `toolschema completions`.
#[derive(Debug, Clone, Args)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, elvish or powershell.
    #[arg(value_enum, value_name = "SHELL")]
    pub shell: Shell,
}

/// Writes the completion script for the shell on stdout.
pub fn completions(args: &CompletionsArgs) -> CliResult {
    let mut cmd = Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "toolschema", &mut out);
    emit_bytes(&out);
    Ok(EXIT_OK)
}

/// Writes the man page (roff) on stdout.
pub fn man() -> CliResult {
    let mut out = Vec::new();
    clap_mangen::Man::new(Cli::command())
        .render(&mut out)
        .map_err(|e| CliError::usage(format!("cannot render the man page: {e}")))?;
    emit_bytes(&out);
    Ok(EXIT_OK)
}
