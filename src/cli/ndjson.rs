//! `toolschema sanitize --ndjson`: one schema per input line, one result per output line, in
//! order. A schema that needs no change is written back byte for byte; a changed one as compact
//! JSON; one that cannot be read as `null`, with a line on standard error saying which and why.
//!
//! Output is flushed whenever the input has nothing more buffered, so a process that writes one
//! line and waits for the answer gets it, while a file or a pipe full of lines is answered in
//! large writes. One output buffer and one serialization buffer serve every line.

use super::error::{CliError, CliResult, EXIT_OK};
use provider_rules::{Rules, Slot, sanitize_into};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;

/// The result of one input line.
#[derive(Debug, PartialEq, Eq)]
pub enum LineResult {
    /// Nothing to change: the line is written back as it is.
    Unchanged,
    /// The sanitized schema, as compact JSON, is in the buffer.
    Changed,
    /// The line is not a readable schema: why.
    Refused(String),
}

/// Sanitizes one line's schema; a changed schema's JSON text is written into `buf` (cleared first).
pub fn sanitize_line(line: &[u8], rules: &Rules, slot: Slot, buf: &mut String) -> LineResult {
    if line.iter().all(u8::is_ascii_whitespace) {
        return LineResult::Refused("an empty line, not a schema".to_owned());
    }
    match sanitize_into(line, rules, slot, buf) {
        Err(e) => LineResult::Refused(format!("not a readable schema: {e}")),
        Ok(false) => LineResult::Unchanged,
        Ok(true) => LineResult::Changed,
    }
}

/// Runs the batch mode over `file` (`None` or `-`: standard input).
pub fn run(file: Option<&Path>, rules: &Rules, slot: Slot) -> CliResult {
    let (name, input): (String, Box<dyn Read>) = match file {
        Some(p) if p.as_os_str() != "-" => {
            let f = std::fs::File::open(p).map_err(|e| {
                CliError::usage(format!(
                    "cannot read {}: {e} (check the path, or pass - to read standard input)",
                    p.display()
                ))
            })?;
            (p.display().to_string(), Box::new(f))
        }
        _ => ("<stdin>".to_owned(), Box::new(std::io::stdin().lock())),
    };
    let mut reader = BufReader::with_capacity(1 << 16, input);
    let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let mut line = Vec::new();
    let mut buf = String::new();
    let mut number = 0usize;
    loop {
        // Nothing more buffered: whoever waits for the answers so far gets them now.
        if reader.buffer().is_empty() && out.flush().is_err() {
            // A closed pipe (`... | head`): stop quietly, as the other commands do.
            return Ok(EXIT_OK);
        }
        line.clear();
        let n = reader
            .read_until(b'\n', &mut line)
            .map_err(|e| CliError::usage(format!("cannot read {name}: {e}")))?;
        if n == 0 {
            break;
        }
        number += 1;
        let text = strip_newline(&line);
        let written = match sanitize_line(text, rules, slot, &mut buf) {
            LineResult::Unchanged => out.write_all(text),
            LineResult::Changed => out.write_all(buf.as_bytes()),
            LineResult::Refused(why) => {
                eprintln!("warning: {name}: line {number}: {why}; wrote null");
                out.write_all(b"null")
            }
        };
        if written.and_then(|()| out.write_all(b"\n")).is_err() {
            return Ok(EXIT_OK);
        }
    }
    let _ = out.flush();
    Ok(EXIT_OK)
}

/// The line without its `\n` or `\r\n`.
fn strip_newline(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_sanitized_kept_or_refused() {
        let mut buf = String::new();
        let r = &Rules::GEMINI;
        assert_eq!(
            sanitize_line(br#"{"type":"object"}"#, r, Slot::Parameters, &mut buf),
            LineResult::Unchanged
        );
        assert_eq!(
            sanitize_line(
                br#"{"type":"object","additionalProperties":false}"#,
                r,
                Slot::Parameters,
                &mut buf
            ),
            LineResult::Changed
        );
        assert_eq!(
            buf,
            r#"{"type":"object","maxProperties":0,"description":"No other properties are allowed."}"#
        );
        assert!(matches!(
            sanitize_line(b"{\"type\":", r, Slot::Parameters, &mut buf),
            LineResult::Refused(_)
        ));
        assert!(matches!(
            sanitize_line(b"  ", r, Slot::Parameters, &mut buf),
            LineResult::Refused(_)
        ));
        assert_eq!(strip_newline(b"{}\r\n"), b"{}");
    }
}
