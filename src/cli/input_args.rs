//! Where a command's documents come from: files (or standard input), or an MCP server started
//! with `--mcp -- COMMAND` — the flags `check`, `sanitize`, `diff` and `matrix` share.

use super::error::CliError;
use super::input::{self, Document, Hints};
use super::mcp::fetch_tools;
use super::read::Source;
use clap::{Args, ValueEnum};
use std::path::PathBuf;
use std::time::Duration;

/// Files, or an MCP server's tool list.
#[derive(Debug, Clone, Args)]
pub struct SourceArgs {
    /// Read the tools from an MCP server started with the command after `--` (stdio).
    #[arg(long)]
    pub mcp: bool,
    /// With --mcp: give up on the server after this many seconds.
    #[arg(long, default_value_t = 30.0, value_name = "SECS")]
    pub timeout: f64,
    /// The input files: JSON Schemas, MCP tools/list results, JSON arrays of MCP tools, or
    /// request bodies (`-` or nothing: standard input).
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// With --mcp: the server's command and arguments.
    #[arg(last = true, value_name = "COMMAND")]
    pub command: Vec<String>,
}

impl SourceArgs {
    /// Reads and recognises every document (`command` names the subcommand in messages).
    /// No file and no `--mcp`: standard input, unless `need_file` (then a usage error).
    pub fn load(
        &self,
        hints: &Hints,
        command: &str,
        need_file: bool,
    ) -> Result<Vec<Document>, CliError> {
        if self.mcp {
            if !self.files.is_empty() {
                return Err(CliError::usage(format!(
                    "--mcp reads the tools from a server: put its command after --, not FILEs before it (e.g. `toolschema {command} --mcp -- python3 server.py`)"
                )));
            }
            if hints.as_slot.is_some() || hints.api.is_some() {
                return Err(CliError::usage(
                    "--mcp reads an MCP tool list: --as and --api do not apply to it",
                ));
            }
            return Ok(vec![self.mcp_document(command)?]);
        }
        if !self.command.is_empty() {
            return Err(CliError::usage(format!(
                "a command after -- is only read with --mcp: `toolschema {command} --mcp -- COMMAND ARGS...`"
            )));
        }
        if self.files.is_empty() {
            if need_file {
                return Err(CliError::usage(format!(
                    "nothing to show: pass FILE... (MCP tool lists, tool arrays or request bodies; - for standard input) or `toolschema {command} --mcp -- COMMAND`"
                )));
            }
            return Ok(vec![input::load(None, hints)?]);
        }
        let progress = super::progress::Progress::new(self.files.len());
        self.files
            .iter()
            .enumerate()
            .map(|(i, f)| {
                progress.step(i, &f.display().to_string());
                input::load(Some(f), hints)
            })
            .collect()
    }

    /// The one document of a command that writes one (`sanitize`).
    pub fn load_one(&self, hints: &Hints, command: &str) -> Result<Document, CliError> {
        if self.files.len() > 1 {
            return Err(CliError::usage(format!(
                "`toolschema {command}` writes one document: pass one FILE ({} given)",
                self.files.len()
            )));
        }
        let mut docs = self.load(hints, command, false)?;
        docs.pop().ok_or_else(|| CliError::usage("nothing to read"))
    }

    /// The tool list of the MCP server after `--`, as a document named `mcp: COMMAND`.
    fn mcp_document(&self, command: &str) -> Result<Document, CliError> {
        if !(self.timeout.is_finite() && self.timeout > 0.0) {
            return Err(CliError::usage(
                "--timeout must be a positive number of seconds",
            ));
        }
        let text = fetch_tools(
            &self.command,
            Duration::from_secs_f64(self.timeout),
            command,
        )?;
        let source = Source {
            name: format!("mcp: {}", self.command.join(" ")),
            text,
        };
        input::parse_document(source, &Hints::default())
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

/// The input documents and how to read them.
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
    /// Files or an MCP server.
    #[command(flatten)]
    pub source: SourceArgs,
}

impl InputArgs {
    /// What the flags say about the input.
    pub fn hints(&self) -> Result<Hints, CliError> {
        if self.as_slot.is_some() && self.api.is_some() {
            return Err(CliError::usage(
                "--as reads one schema and --api a request body: pass only one of them",
            ));
        }
        Ok(Hints {
            as_slot: self.as_slot.map(Into::into),
            api: self.api.as_deref().map(input::api_by_name).transpose()?,
        })
    }

    /// Reads and recognises every document.
    pub fn load_all(&self, command: &str) -> Result<Vec<Document>, CliError> {
        self.source.load(&self.hints()?, command, false)
    }

    /// Reads and recognises the one document of a command that writes one.
    pub fn load_one(&self, command: &str) -> Result<Document, CliError> {
        self.source.load_one(&self.hints()?, command)
    }

    /// The one file given (`None`: standard input), when the input is not an MCP server.
    pub fn single_file(&self) -> Option<Option<&std::path::Path>> {
        match self.source.files.as_slice() {
            _ if self.source.mcp => None,
            [] => Some(None),
            [f] => Some(Some(f.as_path())),
            _ => None,
        }
    }
}
