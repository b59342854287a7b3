//! The model-facing wording: one sentence per [`Problem`], and the whole [`CallError`] message.

use crate::aliases::bounded_list;
use crate::json_type::{join_or, render_value, truncate};
use crate::{CallError, JsonType, Problem, ProblemKind, TypeNoun};
use serde_json::Value;
use std::fmt;

/// At most this many problems are listed in one message.
const MAX_PROBLEMS_SHOWN: usize = 20;
/// At most this many allowed values or field names are listed.
const MAX_NAMES_SHOWN: usize = 40;
/// How long a rendered sent value may get.
const MAX_SENT_CHARS: usize = 80;

/// How a message names the place a JSON pointer points at: `"a.b[0]"`, or `input` for the root.
///
/// ```
/// assert_eq!(tool_calls::field_name("/filters/0/name"), "\"filters[0].name\"");
/// assert_eq!(tool_calls::field_name(""), "input");
/// ```
pub fn field_name(pointer: &str) -> String {
    if pointer.is_empty() {
        return "input".to_owned();
    }
    format!("\"{}\"", dotted(pointer))
}

/// `/a/0/b` as `a[0].b`.
fn dotted(pointer: &str) -> String {
    let mut out = String::new();
    for seg in schema_core::pointer::segments(pointer).unwrap_or_default() {
        if !seg.is_empty() && seg.bytes().all(|b| b.is_ascii_digit()) && !out.is_empty() {
            out.push_str(&format!("[{seg}]"));
        } else {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(&seg);
        }
    }
    out
}

/// The last segment of a pointer, unescaped.
fn leaf(pointer: &str) -> String {
    schema_core::pointer::segments(pointer)
        .and_then(|mut s| s.pop())
        .unwrap_or_default()
}

/// The pointer with its last segment replaced.
fn sibling(pointer: &str, key: &str) -> String {
    let mut out = pointer.rsplit_once('/').map_or("", |(p, _)| p).to_owned();
    schema_core::pointer::push(&mut out, key);
    out
}

fn nouns(types: &[JsonType], root: bool) -> String {
    let names: Vec<String> = types
        .iter()
        .map(|t| match (t, root) {
            (JsonType::Object, true) => "an object".to_owned(),
            (JsonType::Array, true) => "an array".to_owned(),
            _ => t.noun().to_owned(),
        })
        .collect();
    join_or(&names)
}

fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn quoted_list(values: &[Value]) -> String {
    let rendered: Vec<String> = values
        .iter()
        .map(|v| render_value(v, MAX_SENT_CHARS))
        .collect();
    let refs: Vec<&str> = rendered.iter().map(String::as_str).collect();
    bounded_list(&refs, MAX_NAMES_SHOWN)
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let subject = field_name(&self.pointer);
        let sent = self.sent.as_ref().map(|v| render_value(v, MAX_SENT_CHARS));
        let you_sent = sent
            .as_ref()
            .map(|s| format!(" — you sent {s}"))
            .unwrap_or_default();
        let str_len = self
            .sent
            .as_ref()
            .and_then(Value::as_str)
            .map(|s| s.chars().count() as u64);
        let arr_len = self
            .sent
            .as_ref()
            .and_then(Value::as_array)
            .map(|a| a.len() as u64);
        let obj_len = self
            .sent
            .as_ref()
            .and_then(Value::as_object)
            .map(|o| o.len() as u64);
        match &self.kind {
            ProblemKind::Missing {
                expected,
                alias_sent,
                required_by,
            } => {
                write!(f, "{subject} is missing — ")?;
                if let Some(alias) = alias_sent {
                    let alias_path = dotted(&sibling(&self.pointer, alias));
                    write!(
                        f,
                        "you sent \"{alias_path}\"; the field is \"{}\"",
                        leaf(&self.pointer)
                    )
                } else if let Some(by) = required_by {
                    write!(f, "it is required when \"{by}\" is present")
                } else if expected.is_empty() {
                    write!(f, "it is required")
                } else {
                    write!(f, "it is required ({})", nouns(expected, false))
                }
            }
            ProblemKind::WrongType {
                expected,
                found,
                json_text,
            } => {
                if self.pointer.is_empty() {
                    write!(
                        f,
                        "input is invalid: it must be {}, not {}",
                        nouns(expected, true),
                        found.noun()
                    )?;
                } else {
                    write!(
                        f,
                        "{subject} must be {}, not {}",
                        nouns(expected, false),
                        found.noun()
                    )?;
                }
                if *json_text {
                    let what = if expected.contains(&JsonType::Object) {
                        "object"
                    } else {
                        "array"
                    };
                    write!(f, " — send the {what} itself, not JSON text")?;
                } else if !matches!(found, JsonType::Object | JsonType::Array) {
                    write!(f, "{you_sent}")?;
                }
                Ok(())
            }
            ProblemKind::NotInEnum { allowed } => match allowed.as_slice() {
                [one] => write!(
                    f,
                    "{subject} must be {}{you_sent}",
                    render_value(one, MAX_SENT_CHARS)
                ),
                _ => write!(
                    f,
                    "{subject} must be one of {}{you_sent}",
                    quoted_list(allowed)
                ),
            },
            ProblemKind::NotConst { expected } => {
                write!(
                    f,
                    "{subject} must be {}{you_sent}",
                    render_value(expected, MAX_SENT_CHARS)
                )
            }
            ProblemKind::UnknownField {
                allowed,
                suggestion,
            } => {
                write!(f, "{subject} is not an allowed field")?;
                let names: Vec<&str> = allowed.iter().map(String::as_str).collect();
                match (suggestion, names.is_empty()) {
                    (_, true) => write!(f, " — no fields are allowed here"),
                    (Some(s), false) => {
                        write!(
                            f,
                            " — did you mean \"{s}\"? Allowed fields: {}",
                            bounded_list(&names, MAX_NAMES_SHOWN)
                        )
                    }
                    (None, false) => write!(
                        f,
                        " — allowed fields: {}",
                        bounded_list(&names, MAX_NAMES_SHOWN)
                    ),
                }
            }
            ProblemKind::TooShort { min } => {
                write!(
                    f,
                    "{subject} must be at least {} long",
                    plural(*min, "character", "characters")
                )?;
                str_len.map_or(Ok(()), |n| {
                    write!(f, " — you sent {}", plural(n, "character", "characters"))
                })
            }
            ProblemKind::TooLong { max } => {
                write!(
                    f,
                    "{subject} must be at most {} long",
                    plural(*max, "character", "characters")
                )?;
                str_len.map_or(Ok(()), |n| {
                    write!(f, " — you sent {}", plural(n, "character", "characters"))
                })
            }
            ProblemKind::TooFewItems { min } => {
                write!(
                    f,
                    "{subject} must have at least {}",
                    plural(*min, "item", "items")
                )?;
                arr_len.map_or(Ok(()), |n| write!(f, " — you sent {n}"))
            }
            ProblemKind::TooManyItems { max } => {
                write!(
                    f,
                    "{subject} must have at most {}",
                    plural(*max, "item", "items")
                )?;
                arr_len.map_or(Ok(()), |n| write!(f, " — you sent {n}"))
            }
            ProblemKind::TooFewFields { min } => {
                write!(
                    f,
                    "{subject} must have at least {}",
                    plural(*min, "field", "fields")
                )?;
                obj_len.map_or(Ok(()), |n| write!(f, " — you sent {n}"))
            }
            ProblemKind::TooManyFields { max } => {
                write!(
                    f,
                    "{subject} must have at most {}",
                    plural(*max, "field", "fields")
                )?;
                obj_len.map_or(Ok(()), |n| write!(f, " — you sent {n}"))
            }
            ProblemKind::BelowMinimum { limit, exclusive } => {
                let op = if *exclusive {
                    "greater than"
                } else {
                    "at least"
                };
                write!(f, "{subject} must be {op} {limit}{you_sent}")
            }
            ProblemKind::AboveMaximum { limit, exclusive } => {
                let op = if *exclusive { "less than" } else { "at most" };
                write!(f, "{subject} must be {op} {limit}{you_sent}")
            }
            ProblemKind::NotMultipleOf { divisor } => {
                write!(f, "{subject} must be a multiple of {divisor}{you_sent}")
            }
            ProblemKind::DuplicateItems { first, second } => {
                write!(
                    f,
                    "{subject} must not repeat items — items {first} and {second} are equal"
                )
            }
            ProblemKind::PatternMismatch { pattern } => {
                let pattern = truncate(&Value::String(pattern.clone()).to_string(), 200);
                write!(
                    f,
                    "{subject} must match the regular expression {pattern}{you_sent}"
                )
            }
            ProblemKind::PatternNotChecked { pattern } => {
                let pattern = truncate(&Value::String(pattern.clone()).to_string(), 200);
                write!(
                    f,
                    "{subject} could not be checked against the regular expression {pattern} (too costly to evaluate); send a shorter value that plainly matches it{you_sent}"
                )
            }
            ProblemKind::InvalidFormat { format } => match crate::format::describe(format) {
                Some(d) => write!(f, "{subject} must be {d}{you_sent}"),
                None => write!(f, "{subject} must be a valid \"{format}\"{you_sent}"),
            },
            ProblemKind::InvalidFieldName { reason } => {
                write!(f, "{subject} is not an allowed field name — {reason}")
            }
            ProblemKind::ContainsCount { matched, min, max } => match max {
                Some(max) if (*matched as u64) > *max => write!(
                    f,
                    "{subject} must contain at most {} matching the required shape — {matched} do",
                    plural(*max, "item", "items")
                ),
                _ => write!(
                    f,
                    "{subject} must contain at least {} matching the required shape — {matched} do",
                    plural(*min, "item", "items")
                ),
            },
            ProblemKind::SeveralAlternatives { matched } => {
                let list: Vec<String> = matched.iter().map(ToString::to_string).collect();
                write!(
                    f,
                    "{subject} matches alternatives {} of a oneOf, but must match exactly one{you_sent}",
                    join_or(&list).replace(" or ", " and ")
                )
            }
            ProblemKind::NoAlternative { count } => {
                write!(
                    f,
                    "{subject} matches none of the {count} allowed alternatives{you_sent}"
                )
            }
            ProblemKind::Forbidden { schema } => {
                write!(f, "{subject} must not match {schema}{you_sent}")
            }
            ProblemKind::NotAllowed => write!(f, "{subject} is not allowed here"),
            ProblemKind::TooDeep { limit } => {
                write!(
                    f,
                    "{subject} is nested too deeply (more than {limit} levels)"
                )
            }
        }
    }
}

/// The whole message: the problems, then `Expected <worked example>`.
pub(crate) fn render_call_error(err: &CallError) -> String {
    let mut out = String::new();
    match err.problems.as_slice() {
        [] => {}
        [one] => {
            out.push_str(&one.to_string());
            out.push('\n');
        }
        many => {
            out.push_str(&format!("{} problems:\n", many.len()));
            for p in many.iter().take(MAX_PROBLEMS_SHOWN) {
                out.push_str(&format!("- {p}\n"));
            }
            if many.len() > MAX_PROBLEMS_SHOWN {
                out.push_str(&format!(
                    "- … and {} more\n",
                    many.len() - MAX_PROBLEMS_SHOWN
                ));
            }
        }
    }
    out.push_str("Expected ");
    out.push_str(&err.example);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers_read_as_dotted_paths() {
        assert_eq!(dotted("/a/0/b~1c"), "a[0].b/c");
        assert_eq!(dotted("/0"), "0");
        assert_eq!(leaf("/a/toolName"), "toolName");
        assert_eq!(sibling("/a/toolName", "name"), "/a/name");
    }
}
