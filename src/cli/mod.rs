//! The `toolschema` command-line tool: argument definitions ([`Cli`]) and one module per command.

pub mod check;
pub mod diff;
pub mod engine;
pub mod error;
pub mod input;
pub mod matrix;
pub mod mcp;
pub mod output;
pub mod profile;
pub mod providers;
pub mod restore;
pub mod rules;
pub mod sanitize;
pub mod textdiff;
pub mod validate;

use clap::{Args, Parser, Subcommand, ValueEnum};
use error::{CliError, CliResult};
use std::path::PathBuf;

/// Rewrite LLM tool JSON Schemas into the dialect each provider accepts.
///
/// Exit codes: 0 ok; 1 the provider would reject the input (check) or the arguments are
/// invalid (validate); 2 bad usage, or input that cannot be read or parsed.
#[derive(Debug, Parser)]
#[command(name = "toolschema", version, about, long_about = None)]
pub struct Cli {
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
    /// Restore a provider's response (JSON or SSE) as the layer does for its request.
    Restore(restore::RestoreArgs),
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

/// Where a lone schema sits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SlotArg {
    /// A tool's parameters (input schema): the provider's root rules apply.
    Parameters,
    /// A standalone schema (a tool's output, a response format).
    Schema,
}

impl From<SlotArg> for provider_rules::Slot {
    fn from(s: SlotArg) -> provider_rules::Slot {
        match s {
            SlotArg::Parameters => provider_rules::Slot::Parameters,
            SlotArg::Schema => provider_rules::Slot::Schema,
        }
    }
}

/// The input document and how to read it.
#[derive(Debug, Clone, Args)]
pub struct InputArgs {
    /// Read the input as one JSON Schema in this slot (default: detected; a lone schema is a
    /// tool's parameters).
    #[arg(long = "as", value_enum, value_name = "SLOT")]
    pub as_slot: Option<SlotArg>,
    /// Read the input as a request body of this API (openai-chat, anthropic-messages, gemini,
    /// bedrock-converse, ...; default: detected by its shape).
    #[arg(long, value_name = "NAME")]
    pub api: Option<String>,
    /// The input file: a JSON Schema, an MCP tools/list result, a JSON array of MCP tools, or a
    /// request body (`-` or nothing: standard input).
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
}

impl InputArgs {
    /// What the flags say about the input.
    pub fn hints(&self) -> Result<input::Hints, CliError> {
        if self.as_slot.is_some() && self.api.is_some() {
            return Err(CliError::usage(
                "--as reads one schema and --api a request body: pass only one of them",
            ));
        }
        Ok(input::Hints {
            as_slot: self.as_slot.map(Into::into),
            api: self.api.as_deref().map(input::api_by_name).transpose()?,
        })
    }

    /// Reads and recognises the document.
    pub fn load(&self) -> Result<input::Document, CliError> {
        input::load(self.file.as_deref(), &self.hints()?)
    }
}

/// Runs a command; the exit code, or the error to print (exit 2).
pub fn run(cli: Cli) -> CliResult {
    match cli.command {
        Command::Sanitize(a) => sanitize::run(&a),
        Command::Check(a) => check::run(&a),
        Command::Matrix(a) => matrix::run(&a),
        Command::Diff(a) => diff::run(&a),
        Command::Providers => providers::run(),
        Command::Rules(a) => rules::run(&a),
        Command::Validate(a) => validate::run(&a),
        Command::Restore(a) => restore::run(&a),
    }
}
