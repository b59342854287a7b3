//! Reading input: a file or standard input, as bytes or UTF-8 text, and JSON errors that say
//! where (`NAME:LINE:COLUMN`) and what.

use super::error::CliError;
use serde_json::value::RawValue;
use std::io::Read;
use std::path::Path;

/// Input text and the name to call it by in messages (a path, or `<stdin>`).
#[derive(Debug, Clone)]
pub struct Source {
    /// The file name as given, or `<stdin>`.
    pub name: String,
    /// The whole text.
    pub text: String,
}

/// Reads `file` (`None` or `-`: standard input).
pub fn read_source(file: Option<&Path>) -> Result<Source, CliError> {
    let (name, bytes) = read_bytes(file)?;
    let text = String::from_utf8(bytes).map_err(|e| {
        CliError::usage(format!(
            "{name} is not UTF-8 text (invalid byte at offset {}); JSON must be UTF-8",
            e.utf8_error().valid_up_to()
        ))
    })?;
    Ok(Source { name, text })
}

/// Reads `file` (`None` or `-`: standard input) as bytes, with the name to call it by.
pub fn read_bytes(file: Option<&Path>) -> Result<(String, Vec<u8>), CliError> {
    Ok(match file {
        None => read_stdin()?,
        Some(p) if p.as_os_str() == "-" => read_stdin()?,
        Some(p) => {
            let name = p.display().to_string();
            let bytes = std::fs::read(p).map_err(|e| {
                CliError::usage(format!(
                    "cannot read {name}: {e} (check the path, or pass - to read standard input)"
                ))
            })?;
            (name, bytes)
        }
    })
}

/// Reads `file` (`None` or `-`: standard input) as bytes, with the name to call it by; a large
/// file into huge pages ([`super::read_large`]).
pub fn read_body(file: Option<&Path>) -> Result<(String, bytes::Bytes), CliError> {
    let Some(p) = file.filter(|p| p.as_os_str() != "-") else {
        if let Some((f, len)) = stdin_file() {
            // A file given as standard input (`< FILE`) is read as a named file is.
            let bytes = super::read_large::read_all(f, len)
                .map_err(|e| CliError::usage(format!("cannot read standard input: {e}")))?;
            return Ok(("<stdin>".to_owned(), bytes));
        }
        let (name, bytes) = read_stdin()?;
        return Ok((name, bytes.into()));
    };
    let name = p.display().to_string();
    let cannot = |e: std::io::Error| {
        CliError::usage(format!(
            "cannot read {name}: {e} (check the path, or pass - to read standard input)"
        ))
    };
    let f = std::fs::File::open(p).map_err(cannot)?;
    let len = f.metadata().map_err(cannot)?.len();
    let bytes = super::read_large::read_all(f, len).map_err(cannot)?;
    Ok((name, bytes))
}

/// Standard input read whole: into a buffer of the file's size when it is a file (`< FILE`:
/// no buffer grown by doubling and copied, a whole input's worth of memory more at its
/// peak), else as it comes.
fn read_stdin() -> Result<(String, Vec<u8>), CliError> {
    let name = "<stdin>".to_owned();
    let cannot = |e: std::io::Error| CliError::usage(format!("cannot read standard input: {e}"));
    let mut bytes = Vec::new();
    match stdin_file() {
        Some((mut f, len)) => {
            // One byte more: `read_to_end` sees the end without growing the buffer.
            bytes.reserve_exact(usize::try_from(len).unwrap_or(0).saturating_add(1));
            f.read_to_end(&mut bytes).map_err(cannot)?;
        }
        None => {
            std::io::stdin().read_to_end(&mut bytes).map_err(cannot)?;
        }
    }
    Ok((name, bytes))
}

/// Standard input as a [`File`](std::fs::File) with its size, when it is a regular file
/// (`< FILE`; not a pipe or a terminal). Reading it reads standard input (the same open file
/// and offset); nothing has read standard input before, so std's buffer holds nothing.
#[cfg(unix)]
fn stdin_file() -> Option<(std::fs::File, u64)> {
    use std::os::fd::AsFd;
    let f = std::fs::File::from(std::io::stdin().as_fd().try_clone_to_owned().ok()?);
    let meta = f.metadata().ok()?;
    meta.is_file().then_some((f, meta.len()))
}

/// Elsewhere standard input is read as it comes.
#[cfg(not(unix))]
fn stdin_file() -> Option<(std::fs::File, u64)> {
    None
}

/// The error for text that is not valid JSON: `NAME:LINE:COLUMN: invalid JSON: WHAT`.
pub fn json_error(name: &str, e: &serde_json::Error) -> CliError {
    let full = e.to_string();
    let what = match full.rfind(" at line ") {
        Some(i) => &full[..i],
        None => full.as_str(),
    };
    CliError::usage(format!(
        "{name}:{}:{}: invalid JSON: {what} (fix the JSON at that position)",
        e.line(),
        e.column()
    ))
}

/// Parses `text` as JSON and returns the JSON value's raw text, or the error with line and
/// column.
pub fn parse_json<'a>(name: &str, text: &'a str) -> Result<&'a RawValue, CliError> {
    serde_json::from_str::<&RawValue>(text).map_err(|e| json_error(name, &e))
}

/// Parses `text` as a `serde_json::Value` (for validation, where key order does not matter),
/// or the error with line and column.
///
/// A `Value` is built, cloned and dropped by recursion, one call per level, so the depth is
/// bounded first (by a scan that does not recurse): up to [`schema_core::MAX_VALUE_DEPTH`]
/// JSON levels (a schema of 200 levels of `properties` takes 401) is read; deeper is an error
/// saying so, not a stack overflow, and not "invalid JSON" (serde_json's own limit, 128 levels,
/// refuses valid schemas of 64 levels).
pub fn parse_value(name: &str, text: &str) -> Result<serde_json::Value, CliError> {
    // Invalid JSON is said so first, at its position (this check does not recurse).
    parse_json(name, text)?;
    let depth = schema_core::nesting(text);
    if depth > schema_core::MAX_VALUE_DEPTH {
        return Err(CliError::usage(format!(
            "{name}: nested too deep (more than {} levels of arrays and objects; {depth} found)",
            schema_core::MAX_VALUE_DEPTH
        )));
    }
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    let value = serde::Deserialize::deserialize(&mut de).map_err(|e| json_error(name, &e))?;
    de.end().map_err(|e| json_error(name, &e))?;
    Ok(value)
}
