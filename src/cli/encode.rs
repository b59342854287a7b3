//! `toolschema encode --provider NAME --schema ORIGINAL.json INSTANCE.json`: a value in the
//! tool's terms, as the sanitized schema (with the profile's encodings) expects it — what an
//! earlier tool call in a conversation's history looks like to the model. `--ndjson`: one value
//! per line. The arguments are shared with `toolschema decode`.

use super::ProfileArgs;
use super::error::{CliError, CliResult, EXIT_OK};
use super::output::emit;
use super::read::{json_error, read_source};
use clap::Args;
use provider_rules::{SanitizeOptions, Sanitized, Slot, sanitize_slice_with};
use std::path::PathBuf;

/// Arguments of `toolschema encode` and `toolschema decode`.
#[derive(Debug, Clone, Args)]
pub struct CodecArgs {
    /// The profile the schema is sanitized for (with its encodings).
    #[command(flatten)]
    pub profile: ProfileArgs,
    /// The tool's original schema (its input schema).
    #[arg(long, value_name = "FILE")]
    pub schema: PathBuf,
    /// The values are newline-delimited JSON: one per line, each answered on its own line.
    #[arg(long)]
    pub ndjson: bool,
    /// The values (`-` or nothing: standard input).
    #[arg(value_name = "FILE")]
    pub values: Option<PathBuf>,
}

/// The schema sanitized with encodings, and the values to turn: `(where, text)`.
pub(crate) fn prepare(args: &CodecArgs) -> Result<(Sanitized, Vec<(String, String)>), CliError> {
    let choice = args.profile.choice()?;
    let schema = read_source(Some(&args.schema))?;
    let out = sanitize_slice_with(
        schema.text.as_bytes(),
        choice.rules(),
        Slot::Parameters,
        &SanitizeOptions::ENCODE,
    )
    .map_err(|e| CliError::usage(format!("{}: not a JSON schema: {e}", schema.name)))?;
    let input = read_source(args.values.as_deref())?;
    let values = if args.ndjson {
        input
            .text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
            .map(|(i, l)| (format!("{}:{}", input.name, i + 1), l.to_owned()))
            .collect()
    } else {
        vec![(input.name, input.text)]
    };
    Ok((out, values))
}

/// Runs `toolschema encode`.
pub fn run(args: &CodecArgs) -> CliResult {
    let (out, values) = prepare(args)?;
    for (name, text) in values {
        let v: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| json_error(&name, &e))?;
        let encoded = out.decoder.encode_value(&v);
        emit(&format!("{encoded}\n"));
    }
    Ok(EXIT_OK)
}
