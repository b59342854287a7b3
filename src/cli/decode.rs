//! `toolschema decode --provider NAME --schema ORIGINAL.json ARGS.json`: the arguments a model
//! sent under the sanitized schema, in the tool's own terms (encodings undone, strict nulls
//! removed); every byte the decoders do not change is kept. What was kept as it came (a
//! duplicate map key, a string that is not JSON text) goes to standard error. `--ndjson`: one
//! value per line.

use super::encode::{CodecArgs, prepare};
use super::error::{CliError, CliResult, EXIT_OK};
use super::output::emit;

/// Runs `toolschema decode`.
pub fn run(args: &CodecArgs) -> CliResult {
    let (out, values) = prepare(args)?;
    for (name, text) in values {
        let decoded = out
            .decoder
            .decode_json_noted(&text)
            .map_err(|e| CliError::usage(format!("{name}: {e}")))?;
        for note in &decoded.notes {
            eprintln!("{name}: {note}");
        }
        let text = decoded.text.unwrap_or(text);
        emit(&format!("{}\n", text.trim_end()));
    }
    Ok(EXIT_OK)
}
