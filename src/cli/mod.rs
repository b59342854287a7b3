//! The `toolschema` command-line tool: argument definitions ([`Cli`]) and one module per command.

pub mod body;
pub mod check;
pub mod color;
pub mod decode;
pub mod diff;
pub mod encode;
pub mod error;
pub mod input;
pub mod input_args;
pub mod matrix;
pub mod mcp;
#[cfg(feature = "mcp")]
pub mod mcp_proxy;
pub mod meta;
pub mod names;
pub mod ndjson;
pub mod output;
pub mod profile;
pub mod progress;
pub mod providers;
pub mod read;
pub mod read_large;
pub mod restore;
pub mod rules;
pub mod sanitize;
#[cfg(feature = "serve")]
pub mod serve;
pub mod slots;
pub mod textdiff;
pub mod validate;
pub mod width;

use clap::{Args, Parser, Subcommand};
use error::{CliError, CliResult};
pub use input_args::InputArgs;
use std::path::PathBuf;

/// The exit codes, shown under `--help` and in the man page.
pub const EXIT_CODES: &str = "\
Exit codes:
  0  ok: nothing would be rejected, nothing changed (diff), the call is valid (validate)
  1  the provider would reject the input (check), schemas changed (diff), or the call is
     invalid (validate)
  2  bad usage, or input that cannot be read or parsed";

/// Rewrite LLM tool JSON Schemas into the dialect each provider accepts.
#[derive(Debug, Parser)]
#[command(name = "toolschema", version, about, long_about = None, after_help = EXIT_CODES)]
pub struct Cli {
    /// Colour the output: auto (on a terminal, unless NO_COLOR is set), always, never.
    #[arg(
        long,
        global = true,
        value_enum,
        default_value = "auto",
        value_name = "WHEN"
    )]
    pub color: color::ColorChoice,
    /// The command to run.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Rewrite a schema, an MCP tool list or a request body for a provider (on stdout).
    Sanitize(sanitize::SanitizeArgs),
    /// Exit 1, with one line per problem, if the provider would reject the input.
    Check(check::CheckArgs),
    /// A table of tools × providers: accepted as they stand? after sanitizing? meaning lost?
    Matrix(matrix::MatrixArgs),
    /// The before/after of every schema sanitizing changes, as a line diff.
    Diff(diff::DiffArgs),
    /// List the built-in provider profiles.
    Providers,
    /// Print a built-in profile (TOML or JSON), to start a custom one from.
    Rules(rules::RulesArgs),
    /// Validate a tool call's arguments against the tool's original schema.
    Validate(validate::ValidateArgs),
    /// Proxy an MCP server: tools listed clean for a provider, invalid calls answered, not run.
    #[cfg(feature = "mcp")]
    Mcp(mcp_proxy::McpArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell) on stdout.
    Completions(meta::CompletionsArgs),
    /// Print the man page (roff) on stdout.
    Man,
    /// A gateway: point an SDK's base URL at it; tool schemas are fixed on the way upstream.
    #[cfg(feature = "serve")]
    Serve(serve::ServeArgs),
    /// Restore a provider's response (JSON or SSE) as the layer does for its request.
    Restore(restore::RestoreArgs),
    /// A value in the tool's terms as the sanitized schema (with encodings) expects it.
    Encode(encode::CodecArgs),
    /// A model's arguments back in the tool's terms (encodings undone, strict nulls removed).
    Decode(encode::CodecArgs),
}

/// Which profile to apply.
#[derive(Debug, Clone, Args)]
pub struct ProfileArgs {
    /// The provider profile (see `toolschema providers`).
    #[arg(long, short = 'p', value_name = "NAME")]
    pub provider: Option<String>,
    /// A custom profile from a TOML or JSON file (e.g. `extends = "gemini"` plus overrides);
    /// replaces --provider.
    #[arg(long, value_name = "FILE")]
    pub rules: Option<PathBuf>,
}

impl ProfileArgs {
    /// The chosen profile.
    pub fn choice(&self) -> Result<profile::Choice, CliError> {
        profile::Choice::from_args(self.provider.as_deref(), self.rules.as_deref())
    }
}

/// Runs a command; the exit code, or the error to print (exit 2).
pub fn run(cli: Cli) -> CliResult {
    color::set(cli.color);
    match cli.command {
        Command::Sanitize(a) => sanitize::run(&a),
        Command::Check(a) => check::run(&a),
        Command::Matrix(a) => matrix::run(&a),
        Command::Diff(a) => diff::run(&a),
        Command::Providers => providers::run(),
        Command::Rules(a) => rules::run(&a),
        Command::Validate(a) => validate::run(&a),
        #[cfg(feature = "mcp")]
        Command::Mcp(a) => mcp_proxy::run(&a),
        Command::Completions(a) => meta::completions(&a),
        Command::Man => meta::man(),
        #[cfg(feature = "serve")]
        Command::Serve(a) => serve::run(&a),
        Command::Restore(a) => restore::run(&a),
        Command::Encode(a) => encode::run(&a),
        Command::Decode(a) => decode::run(&a),
    }
}
