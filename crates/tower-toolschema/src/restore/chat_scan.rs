//! An OpenAI Chat stream chunk read by hand in one pass ([`super::cursor`]): what
//! [`super::chat`] reads with serde_json, without a visitor per key or a copy. It reads the
//! same (the last of a repeated key counts, a value of another type than expected counts as
//! absent) and answers only what it is sure of: `None` for a text it is not sure of (not JSON,
//! an escaped key, a surrogate escape, deep nesting), which serde_json then reads.

use super::chat::{Call, Choice, Chunk, Delta};
use super::cursor::Cursor;

/// Reads `text` (one event's data); `None`: not sure (see the module docs).
pub(crate) fn read(text: &str) -> Option<Chunk<'_>> {
    let mut c = Cursor::new(text);
    c.ws();
    let chunk = if c.peek()? == b'{' {
        chunk(&mut c)?
    } else {
        c.skip(0)?;
        Chunk::default()
    };
    c.at_end().then_some(chunk)
}

/// The elements of the array at the cursor, each an object read by `item` or `None`; an empty
/// list for any other value (skipped).
fn list<'a, T>(
    c: &mut Cursor<'a>,
    depth: usize,
    item: fn(&mut Cursor<'a>, usize) -> Option<T>,
) -> Option<Vec<Option<T>>> {
    if c.peek()? != b'[' {
        c.skip(depth)?;
        return Some(Vec::new());
    }
    let mut out = Vec::new();
    c.array(depth, |c| {
        if c.peek()? == b'{' {
            out.push(Some(item(c, depth + 1)?));
        } else {
            c.skip(depth + 1)?;
            out.push(None);
        }
        Some(())
    })?;
    Some(out)
}

fn chunk<'a>(c: &mut Cursor<'a>) -> Option<Chunk<'a>> {
    let mut out = Chunk::default();
    c.object(0, |c, k| {
        match k {
            "usage" => out.usage = c.non_null(1)?,
            "choices" => out.choices = list(c, 1, choice)?,
            _ => c.skip(1)?,
        }
        Some(())
    })?;
    Some(out)
}

fn choice<'a>(c: &mut Cursor<'a>, depth: usize) -> Option<Choice<'a>> {
    let mut out = Choice::default();
    c.object(depth, |c, k| {
        match k {
            "index" => out.index = Some(c.raw(depth + 1)?),
            "finish_reason" => out.finished = c.non_null(depth + 1)?,
            "delta" if c.peek()? == b'{' => out.delta = Some(delta(c, depth + 1)?),
            "delta" => {
                c.skip(depth + 1)?;
                out.delta = Some(Delta::default());
            }
            _ => c.skip(depth + 1)?,
        }
        Some(())
    })?;
    Some(out)
}

fn delta<'a>(c: &mut Cursor<'a>, depth: usize) -> Option<Delta<'a>> {
    let mut out = Delta::default();
    c.object(depth, |c, k| {
        match k {
            "tool_calls" => out.calls = list(c, depth + 1, call)?,
            "role" => c.skip(depth + 1)?,
            _ => {
                if c.non_null(depth + 1)? {
                    out.only_calls = false;
                }
            }
        }
        Some(())
    })?;
    Some(out)
}

fn call<'a>(c: &mut Cursor<'a>, depth: usize) -> Option<Call<'a>> {
    let mut out = Call {
        only_index_function: true,
        ..Call::default()
    };
    c.object(depth, |c, k| {
        match k {
            "index" => out.index = Some(c.raw(depth + 1)?),
            "function" => {
                (out.name, out.arguments, out.function_members) = (None, None, 0);
                if c.peek()? == b'{' {
                    c.object(depth + 1, |c, k| {
                        out.function_members += 1;
                        match k {
                            "name" => out.name = Some(c.raw(depth + 2)?),
                            "arguments" => out.arguments = Some(c.raw(depth + 2)?),
                            _ => c.skip(depth + 2)?,
                        }
                        Some(())
                    })?;
                } else {
                    c.skip(depth + 1)?;
                }
            }
            _ => {
                out.only_index_function = false;
                c.skip(depth + 1)?;
            }
        }
        Some(())
    })?;
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::super::chat;

    /// Every chunk this reader is sure of reads as serde_json reads it.
    #[test]
    fn reads_what_the_serde_reader_reads_or_leaves_it_to_it() {
        let texts = [
            r#"{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"lorem \"x\" \u00e9"},"finish_reason":null}]}"#,
            r#"{"choices":[{"index":1,"delta":{"role":"assistant","content":null,"tool_calls":[{"index":2,"function":{"arguments":"{\"a\""}}]},"finish_reason":null},3],"usage":null}"#,
            r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":7,"id":"call_7","type":"function","function":{"name":"srv_tool_7","arguments":""}}]},"finish_reason":null}]}"#,
            r#"{"choices":{"a":1},"choices":[{"delta":[1],"finish_reason":"stop"}],"usage":{"n":1}}"#,
            r#"{"choices":[{"delta":{"tool_calls":{"a":1}},"delta":null}]}"#,
            r#"{"choices":[{"delta":{"tool_calls":[1,{"function":[1]},{"function":{"name":"a","name":"b","x":1}}]}}]}"#,
            r#"{"choices":[{"delta":{"tool_calls":[{"function":{"name":"a"},"function":2}]}}]}"#,
            r#" { "choices" : [ { "index" : 0 , "delta" : { "tool_calls" : [ { "index" : 0 , "function" : { "arguments" : "x" } } ] } } ] } "#,
            r#"{"choices":[{"index":-1.5e3,"finish_reason":false,"delta":{"x":[],"y":{}}}]}"#,
            r#"{"usage":1,"usage":null}"#,
            r#"{"cho\u0069ces":[]}"#,
            r#"{"choices":[{"delta":{"content":"\ud83d\ude00"}}]}"#,
            r#"{"choices":[{"index":01}]}"#,
            r#"{"choices":[{"index":0,}]}"#,
            r#"{"choices":[]"#,
            r#"{"a":1} x"#,
            "[1,2]",
            "[DONE]",
            "",
            "  ",
            "null",
        ];
        for text in texts {
            let serde = chat::read_serde(text).map(|c| format!("{c:?}"));
            match super::read(text) {
                Some(fast) => assert_eq!(Some(format!("{fast:?}")), serde, "{text}"),
                None => assert!(
                    serde.is_none() || text.contains('\\'),
                    "{text}: gave up on a plain valid chunk"
                ),
            }
        }
        let deep = format!(r#"{{"x":{}{}}}"#, "[".repeat(150), "]".repeat(150));
        assert!(super::read(&deep).is_none());
    }
}
