//! Where the parser is as it reads: the JSON pointer's segments, made into text only when a
//! diagnostic needs it (most parses make none). Written as text, each member name of every
//! `properties` map cost an escape scan and a copy (callgrind: ≈ 1.3 % of a sanitize call on
//! the corpus schemas).

use crate::keyword::Keyword;
use crate::pointer;

/// One segment of the pointer.
pub(super) enum Segment {
    /// A keyword holding subschemas.
    Keyword(Keyword),
    /// An array index.
    Index(usize),
    /// A member name borrowed from the input: its byte range there.
    Input(usize, usize),
    /// A member name serde_json decoded (it held escapes).
    Owned(String),
}

/// The pointer of the value being read, as segments.
pub(super) struct Path {
    segments: Vec<Segment>,
}

/// Room for the segments of typical schemas' deepest values.
const CAPACITY: usize = 16;

impl Path {
    #[cfg(test)]
    pub(super) fn new() -> Path {
        Path::in_buffer(Vec::new())
    }

    /// An empty pointer kept in `segments` (emptied).
    pub(super) fn in_buffer(mut segments: Vec<Segment>) -> Path {
        segments.clear();
        segments.reserve(CAPACITY);
        Path { segments }
    }

    /// The buffer, for the next parse.
    pub(super) fn into_buffer(self) -> Vec<Segment> {
        self.segments
    }

    /// How many segments it holds (a mark for [`Path::truncate`]).
    pub(super) fn len(&self) -> usize {
        self.segments.len()
    }

    /// Back to the first `mark` segments.
    pub(super) fn truncate(&mut self, mark: usize) {
        self.segments.truncate(mark);
    }

    /// Appends `/keyword`.
    pub(super) fn push_keyword(&mut self, keyword: Keyword) {
        self.segments.push(Segment::Keyword(keyword));
    }

    /// Appends `/index`.
    pub(super) fn push_index(&mut self, index: usize) {
        self.segments.push(Segment::Index(index));
    }

    /// Appends `/name`: by its place in `input` where it is borrowed from there, else a copy.
    pub(super) fn push_name(&mut self, name: &str, input: &[u8]) {
        let start = (name.as_ptr() as usize).wrapping_sub(input.as_ptr() as usize);
        let within = start <= input.len() && name.len() <= input.len() - start;
        self.segments.push(if within {
            Segment::Input(start, name.len())
        } else {
            Segment::Owned(name.to_owned())
        });
    }

    /// The pointer's text (names escaped), `input` the text [`Path::push_name`] was given.
    pub(super) fn text(&self, input: &[u8]) -> String {
        let mut out = String::new();
        for s in &self.segments {
            match s {
                Segment::Keyword(k) => {
                    // A keyword's name holds no `~` or `/`.
                    out.push('/');
                    out.push_str(k.as_str());
                }
                Segment::Index(i) => pointer::push_index(&mut out, *i),
                Segment::Input(start, len) => {
                    let name = input
                        .get(*start..start + len)
                        .and_then(|b| std::str::from_utf8(b).ok())
                        .unwrap_or_default();
                    pointer::push(&mut out, name);
                }
                Segment::Owned(name) => pointer::push(&mut out, name),
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names borrowed from the input and copied ones give the same text, escaped.
    #[test]
    fn the_text_is_the_pointer_of_the_segments() {
        let input = br#"{"a/b":{"c~d":1}}"#;
        let text = std::str::from_utf8(input).unwrap();
        let mut p = Path::new();
        p.push_keyword(Keyword::Properties);
        p.push_name(&text[2..5], input);
        assert!(matches!(p.segments[1], Segment::Input(2, 3)));
        p.push_keyword(Keyword::Items);
        p.push_index(12);
        let mark = p.len();
        p.push_name("c~d", input);
        assert!(matches!(p.segments[mark], Segment::Owned(_)));
        assert_eq!(p.text(input), "/properties/a~1b/items/12/c~0d");
        p.truncate(mark);
        assert_eq!(p.text(input), "/properties/a~1b/items/12");
        assert_eq!(Path::new().text(input), "");
    }

    /// A diagnostic below a name with `/` (borrowed from the input) and below one with a JSON
    /// escape (decoded, so copied) says where, escaped as a pointer.
    #[test]
    fn a_diagnostic_names_the_members_it_sits_under() {
        let text =
            r#"{"properties":{"a/b":{"items":[true,{"minimum":"x"}]},"c\u007ed":{"type":7}}}"#;
        let parsed = crate::Schema::parse(text.as_bytes(), &Default::default()).unwrap();
        let at: Vec<&str> = parsed
            .diagnostics
            .iter()
            .map(|d| d.pointer.as_str())
            .collect();
        assert_eq!(
            at,
            ["/properties/a~1b/items/1/minimum", "/properties/c~0d/type"]
        );
    }
}
