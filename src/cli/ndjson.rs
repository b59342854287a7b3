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
    answer_lines(input, 1 << 16, std::io::stdout().lock(), &name, rules, slot)
}

/// Answers every line of `input` on `out`, reading `capacity` bytes at a time (see the module
/// header for when the output is flushed).
fn answer_lines(
    input: impl Read,
    capacity: usize,
    out: impl Write,
    name: &str,
    rules: &Rules,
    slot: Slot,
) -> CliResult {
    let mut reader = BufReader::with_capacity(capacity, input);
    let mut out = std::io::BufWriter::with_capacity(1 << 16, out);
    // Only a line that runs past the end of the read buffer is copied (into `long`).
    let mut long = Vec::new();
    let mut buf = String::new();
    let mut number = 0usize;
    let cannot = |e: std::io::Error| CliError::usage(format!("cannot read {name}: {e}"));
    loop {
        // Nothing more buffered: whoever waits for the answers so far gets them now.
        if reader.buffer().is_empty() && out.flush().is_err() {
            // A closed pipe (`... | head`): stop quietly, as the other commands do.
            return Ok(EXIT_OK);
        }
        let ahead = reader.fill_buf().map_err(cannot)?;
        if ahead.is_empty() {
            break;
        }
        number += 1;
        let written = match memchr::memchr(b'\n', ahead) {
            // The whole line is in the buffer: read where it is.
            Some(end) => {
                let written = answer(&ahead[..end], rules, slot, &mut buf, &mut out);
                reader.consume(end + 1);
                written
            }
            None => {
                long.clear();
                long.extend_from_slice(ahead);
                let n = ahead.len();
                reader.consume(n);
                reader.read_until(b'\n', &mut long).map_err(cannot)?;
                let line = long.strip_suffix(b"\n").unwrap_or(&long);
                answer(line, rules, slot, &mut buf, &mut out)
            }
        };
        match written {
            Ok(None) => {}
            Ok(Some(why)) => eprintln!("warning: {name}: line {number}: {why}; wrote null"),
            Err(_) => return Ok(EXIT_OK),
        }
    }
    let _ = out.flush();
    Ok(EXIT_OK)
}

/// Writes the answer to one line (without its `\n`; a `\r` before it goes too) and a newline;
/// why it was refused, if it was (`null` written).
fn answer(
    line: &[u8],
    rules: &Rules,
    slot: Slot,
    buf: &mut String,
    out: &mut impl Write,
) -> std::io::Result<Option<String>> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let (bytes, refused) = match sanitize_line(line, rules, slot, buf) {
        LineResult::Unchanged => (line, None),
        LineResult::Changed => (buf.as_bytes(), None),
        LineResult::Refused(why) => (&b"null"[..], Some(why)),
    };
    out.write_all(bytes)?;
    out.write_all(b"\n")?;
    Ok(refused)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_read_where_they_are_or_across_reads_give_the_same_answers() {
        let long = format!(
            r#"{{"type":"object","description":"{}","additionalProperties":false}}"#,
            "x".repeat(100)
        );
        let lines = [
            r#"{"type":"object","additionalProperties":false}"#,
            "{\"type\":\"string\"}\r",
            "{\"type\":",
            "",
            &long,
            r#"{"type":["string","null"]}"#,
        ];
        let mut expected = Vec::new();
        let mut buf = String::new();
        for line in lines {
            answer(
                line.as_bytes(),
                &Rules::GEMINI,
                Slot::Parameters,
                &mut buf,
                &mut expected,
            )
            .unwrap();
        }
        for end in ["", "\n"] {
            let input = format!("{}{end}", lines.join("\n"));
            // 7 bytes a read: most lines straddle reads; 64 KiB: every line is read in place.
            for capacity in [7, 1 << 16] {
                let mut out = Vec::new();
                let code = answer_lines(
                    input.as_bytes(),
                    capacity,
                    &mut out,
                    "t",
                    &Rules::GEMINI,
                    Slot::Parameters,
                )
                .unwrap();
                assert_eq!(code, EXIT_OK);
                assert_eq!(
                    String::from_utf8(out).unwrap(),
                    String::from_utf8(expected.clone()).unwrap(),
                    "capacity {capacity}, last line ended by {end:?}"
                );
            }
        }
    }

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
        let mut out = Vec::new();
        assert_eq!(
            answer(
                b"{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"}}}\r",
                r,
                Slot::Parameters,
                &mut buf,
                &mut out
            )
            .unwrap(),
            None
        );
        assert!(
            answer(b"[", r, Slot::Parameters, &mut buf, &mut out)
                .unwrap()
                .is_some()
        );
        assert_eq!(
            out,
            b"{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"}}}\nnull\n"
        );
    }
}
