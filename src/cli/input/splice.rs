//! Results spliced back into the original text, each laid out like the slot it replaces.

use std::ops::Range;

/// Replaces the given byte ranges of `text` (non-overlapping) by new text.
pub fn splice(text: &str, mut edits: Vec<(Range<usize>, String)>) -> String {
    edits.sort_by_key(|(r, _)| r.start);
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (range, new) in edits {
        if range.start < at || range.end > text.len() {
            continue;
        }
        out.push_str(&text[at..range.start]);
        out.push_str(&new);
        at = range.end;
    }
    out.push_str(&text[at..]);
    out
}

/// Writes a sanitized schema's text for the slot at `range` of `text` to `write`, in pieces:
/// compact where the original was on one line, otherwise pretty-printed and indented like the
/// line the slot starts on (line by line, the indented text never gathered whole).
pub fn render_like(text: &str, range: &Range<usize>, compact: &str, write: &mut dyn FnMut(&str)) {
    let original = text.get(range.clone()).unwrap_or("");
    if !original.contains('\n') {
        write(compact);
        return;
    }
    let line_start = text[..range.start.min(text.len())]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    let width = text[line_start..]
        .bytes()
        .take_while(|c| *c == b' ' || *c == b'\t')
        .count();
    // The indent (ASCII: `width` bytes from `line_start` are whole chars).
    let indent = &text[line_start..line_start + width];
    let pretty = schema_core::pretty(compact);
    // The indented lines go out in chunks of about `CHUNK` bytes: one call a chunk, not one a
    // line, and never a buffer of the whole slot.
    const CHUNK: usize = 16 << 10;
    let mut chunk = String::with_capacity(pretty.len().min(CHUNK) + 256);
    for (i, line) in pretty.lines().enumerate() {
        if i > 0 {
            chunk.push('\n');
            chunk.push_str(indent);
        }
        chunk.push_str(line);
        if chunk.len() >= CHUNK {
            write(&chunk);
            chunk.clear();
        }
    }
    write(&chunk);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(text: &str, range: &Range<usize>, compact: &str) -> String {
        let mut out = String::new();
        render_like(text, range, compact, &mut |piece| out.push_str(piece));
        out
    }

    #[test]
    fn splice_replaces_ranges_in_order() {
        let text = "0123456789";
        let out = splice(text, vec![(6..8, "B".into()), (1..3, "A".into())]);
        assert_eq!(out, "0A345B89");
    }

    #[test]
    fn a_large_pretty_slot_is_written_in_chunks_and_whole() {
        let props: Vec<String> = (0..2000)
            .map(|i| format!(r#""p{i}":{{"type":"string"}}"#))
            .collect();
        let compact = format!(
            r#"{{"type":"object","properties":{{{}}}}}"#,
            props.join(",")
        );
        let text = "{\n  \"s\": {\n    \"type\": \"x\"\n  }\n}";
        let range = text.find("{\n    ").unwrap()..text.rfind("}\n}").unwrap() + 1;
        let mut pieces = Vec::new();
        render_like(text, &range, &compact, &mut |p| pieces.push(p.to_owned()));
        // Every line of the pretty text, indented like the slot's line, nothing else.
        let want = schema_core::pretty(&compact)
            .lines()
            .collect::<Vec<_>>()
            .join("\n  ");
        assert_eq!(pieces.concat(), want);
        // In pieces of about 16 KiB, not one a line and not one for the whole slot.
        assert!(want.len() > 64 << 10);
        assert!(pieces.len() > 1 && pieces.len() <= want.len() / (16 << 10) + 1);
        assert!(pieces.iter().all(|p| p.len() < (16 << 10) + 256));
    }

    #[test]
    fn render_like_indents_like_the_original() {
        let text = "{\n    \"s\": {\n      \"type\": \"x\"\n    }\n}";
        let start = text.find("{\n      ").unwrap();
        let end = text.rfind("}\n}").unwrap() + 1;
        let out = render(text, &(start..end), r#"{"type":"y"}"#);
        assert_eq!(out, "{\n      \"type\": \"y\"\n    }");
        let one_line = r#"{"s":{"type":"x"}}"#;
        assert_eq!(
            render(one_line, &(5..17), r#"{"type":"y"}"#),
            r#"{"type":"y"}"#
        );
    }
}
