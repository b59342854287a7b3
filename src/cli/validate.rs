//! `toolschema validate --schema FILE [ARGS_FILE]`: a tool call's arguments against the tool's
//! original schema, with the message a model can act on. Exit 0 valid, 1 invalid, 2 bad input.

use super::error::{CliError, CliResult};
use super::output::emit;
use super::read::{parse_value, read_source};
use clap::Args;
use std::path::PathBuf;
use tool_calls::{ValidateOptions, validate_tool_input};

/// Arguments of `toolschema validate`.
#[derive(Debug, Clone, Args)]
pub struct ValidateArgs {
    /// The tool's schema: a JSON Schema or a tool definition (MCP `inputSchema`, Anthropic
    /// `input_schema`, OpenAI `parameters`).
    #[arg(long, value_name = "FILE")]
    pub schema: PathBuf,
    /// The arguments of the call, a JSON object (`-` or nothing: standard input).
    #[arg(value_name = "ARGS_FILE")]
    pub args: Option<PathBuf>,
    /// Accept JSON text where an object or array is expected, when it parses and validates
    /// (and say so).
    #[arg(long)]
    pub lenient: bool,
}

/// Runs `toolschema validate`.
pub fn run(args: &ValidateArgs) -> CliResult {
    if args.schema.as_os_str() == "-" && args.args.as_ref().is_none_or(|a| a.as_os_str() == "-") {
        return Err(CliError::usage(
            "the schema and the arguments cannot both come from standard input: pass ARGS_FILE",
        ));
    }
    let schema_src = read_source(Some(&args.schema))?;
    let schema = parse_value(&schema_src.name, &schema_src.text)?;
    let args_src = read_source(args.args.as_deref())?;
    let input = parse_value(&args_src.name, &args_src.text)?;
    let options = if args.lenient {
        ValidateOptions::lenient()
    } else {
        ValidateOptions::default()
    };
    let outcome = validate_tool_input(&schema, &input, &options);
    emit(&format!("{outcome}\n"));
    Ok(u8::try_from(outcome.exit_code()).unwrap_or(1))
}
