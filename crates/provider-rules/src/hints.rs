//! Hints: the short prose a dropped constraint leaves in `description`, so the model still
//! sees it ("At least 3 characters.", "Allowed values: 1, 2, 3.", "Format: uri.").

use schema_core::{Instance, Key, Keyword, Schema, SchemaObject, TypeSet, Value};

/// The longest list of values a hint spells out.
const MAX_VALUES: usize = 40;
/// The longest hint text.
const MAX_HINT: usize = 400;

/// Appends hints to a description: `"Desc (hint hint)"`, or the hints alone.
pub(crate) fn join(description: Option<&str>, hints: &[String]) -> String {
    // Written once into a string of the final length (no joined copy of the hints).
    let d = description.map(str::trim_end).filter(|d| !d.is_empty());
    let len = hints.iter().map(|h| h.len() + 1).sum::<usize>() + d.map_or(0, |d| d.len() + 3);
    let mut out = String::with_capacity(len);
    if let Some(d) = d {
        out.push_str(d);
        out.push_str(" (");
    }
    for (i, h) in hints.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(h);
    }
    if d.is_some() {
        out.push(')');
    }
    out
}

/// The hint that keeps the meaning of `kw: value` when the keyword is dropped from `node`.
/// `None` for keywords that carry no meaning for a model (`$schema`, `$comment`, ...).
pub(crate) fn for_keyword(kw: Keyword, value: &Value) -> Option<String> {
    use Keyword as K;
    let n = |v: &Value| match v {
        Value::Number(n) => Some(n.to_string()),
        // A number schema-core kept as written (`1e2`, a bignum).
        Value::Instance(i) if i.json_type().is_number() => Some(i.as_json().to_owned()),
        _ => None,
    };
    let s = |v: &Value| match v {
        Value::String(s) => Some(s.clone()),
        _ => None,
    };
    let hint = match kw {
        K::MinLength => {
            let x = n(value)?;
            if x == "1" {
                "Must not be empty.".to_owned()
            } else {
                format!("At least {x} characters.")
            }
        }
        K::MaxLength => format!("At most {} characters.", n(value)?),
        K::Pattern => format!("Must match the regular expression {}.", s(value)?),
        K::Format => format!("Format: {}.", s(value)?),
        K::Minimum => format!("At least {}.", n(value)?),
        K::Maximum => format!("At most {}.", n(value)?),
        K::ExclusiveMinimum => format!("Greater than {}.", n(value)?),
        K::ExclusiveMaximum => format!("Less than {}.", n(value)?),
        K::MultipleOf => format!("A multiple of {}.", n(value)?),
        K::MinItems => format!("At least {} items.", n(value)?),
        K::MaxItems => format!("At most {} items.", n(value)?),
        K::UniqueItems => match value {
            Value::Bool(true) => "Items must be unique.".to_owned(),
            _ => return None,
        },
        K::MinProperties => format!("At least {} properties.", n(value)?),
        K::MaxProperties => format!("At most {} properties.", n(value)?),
        K::MinContains => format!("At least {} matching items.", n(value)?),
        K::MaxContains => format!("At most {} matching items.", n(value)?),
        K::Const => match value {
            Value::Instance(i) => format!("Must be {}.", short(i)),
            _ => return None,
        },
        K::Enum => match value {
            Value::Instances(list) => format!("Allowed values: {}.", values(list)),
            _ => return None,
        },
        K::Default => match value {
            Value::Instance(i) => format!("Default: {}.", short(i)),
            _ => return None,
        },
        K::Example => match value {
            Value::Instance(i) => format!("Example: {}.", short(i)),
            _ => return None,
        },
        K::Examples => match value {
            Value::Instances(list) if !list.is_empty() => {
                format!("Examples: {}.", values(list))
            }
            _ => return None,
        },
        K::Deprecated => match value {
            Value::Bool(true) => "Deprecated.".to_owned(),
            _ => return None,
        },
        K::ReadOnly => match value {
            Value::Bool(true) => "Read-only.".to_owned(),
            _ => return None,
        },
        K::WriteOnly => match value {
            Value::Bool(true) => "Write-only.".to_owned(),
            _ => return None,
        },
        K::Nullable => match value {
            Value::Bool(true) => "May be null.".to_owned(),
            _ => return None,
        },
        K::ContentEncoding => format!("Encoded as {}.", s(value)?),
        K::ContentMediaType => format!("Media type: {}.", s(value)?),
        K::Not => match value {
            Value::Schema(x) => format!("Must not be {}.", summarize(x)),
            _ => return None,
        },
        K::AdditionalProperties | K::UnevaluatedProperties => match value {
            Value::Schema(x) => match &**x {
                Schema::Bool(false) => "No other properties are allowed.".to_owned(),
                x if x.is_empty_schema() => return None,
                x => format!("Other properties: {}.", summarize(x)),
            },
            _ => return None,
        },
        K::UnevaluatedItems | K::AdditionalItems => match value {
            Value::Schema(x) => match &**x {
                Schema::Bool(false) => "No other items are allowed.".to_owned(),
                x if x.is_empty_schema() => return None,
                x => format!("Other items: {}.", summarize(x)),
            },
            _ => return None,
        },
        K::PatternProperties => match value {
            Value::SchemaMap(m) if !m.is_empty() => {
                let parts: Vec<String> = m
                    .iter()
                    .map(|(p, x)| format!("properties matching {p}: {}", summarize(x)))
                    .collect();
                format!("{}.", capitalize(&parts.join("; ")))
            }
            _ => return None,
        },
        K::PropertyNames => match value {
            Value::Schema(x) if !x.is_empty_schema() => {
                format!("Property names: {}.", summarize(x))
            }
            _ => return None,
        },
        K::Contains => match value {
            Value::Schema(x) => format!("Must contain an item that is {}.", summarize(x)),
            _ => return None,
        },
        K::DependentRequired => match value {
            Value::StringsMap(m) if !m.is_empty() => {
                let parts: Vec<String> = m
                    .iter()
                    .map(|(k, v)| format!("if \"{k}\" is present, {} must be too", names(v)))
                    .collect();
                format!("{}.", capitalize(&parts.join("; ")))
            }
            _ => return None,
        },
        K::Required => match value {
            Value::Strings(v) if !v.is_empty() => format!("Required: {}.", names(v)),
            _ => return None,
        },
        K::Items => match value {
            Value::Schema(x) if !x.is_empty_schema() => format!("Items: {}.", summarize(x)),
            _ => return None,
        },
        K::PrefixItems => match value {
            Value::Schemas(list) => format!(
                "Items in order: {}.",
                list.iter().map(summarize).collect::<Vec<_>>().join(", ")
            ),
            _ => return None,
        },
        K::AnyOf | K::OneOf => match value {
            Value::Schemas(list) => format!(
                "Accepts {}.",
                list.iter().map(summarize).collect::<Vec<_>>().join(" or ")
            ),
            _ => return None,
        },
        _ => return None,
    };
    Some(truncate(hint))
}

/// A few words describing what a schema accepts: `string`, `integer (one of 1, 2)`,
/// `object with a, b`.
pub(crate) fn summarize(schema: &Schema) -> String {
    let o = match schema {
        Schema::Bool(true) => return "anything".to_owned(),
        Schema::Bool(false) => return "nothing".to_owned(),
        Schema::Object(o) => o,
    };
    let mut out = match o.types() {
        Some(TypeSet::Single(t)) => t.as_str().to_owned(),
        Some(TypeSet::List(l)) => l
            .iter()
            .map(|t| t.as_str())
            .collect::<Vec<_>>()
            .join(" or "),
        None if o.properties().is_some() => "object".to_owned(),
        None => String::new(),
    };
    if let Some(i) = o.instance(Keyword::Const) {
        push_word(&mut out, &short(i));
    } else if let Some(list) = o.enum_values() {
        push_word(&mut out, &format!("(one of {})", values(list)));
    } else if let Some(p) = o.properties() {
        if !p.is_empty() {
            let keys: Vec<&str> = p.keys().map(String::as_str).take(8).collect();
            push_word(&mut out, &format!("with {}", keys.join(", ")));
        }
    } else if let Some(x) = o.schema(Keyword::Items) {
        push_word(&mut out, &format!("of {}", summarize_flat(x)));
    }
    if let Some(f) = o.string(Keyword::Format) {
        push_word(&mut out, &format!("({f})"));
    }
    if let Some(p) = o.string(Keyword::Pattern) {
        push_word(&mut out, &format!("matching {p}"));
    }
    if let Some(list) = o
        .schemas(Keyword::AnyOf)
        .or_else(|| o.schemas(Keyword::OneOf))
    {
        let alts: Vec<String> = list.iter().map(summarize_flat).collect();
        push_word(&mut out, &alts.join(" or "));
    }
    // Bounds in words ("integer at least 2", "at most 2 characters"), a few at most.
    let bounds = o
        .entries()
        .iter()
        .filter_map(|e| match e.key {
            Key::Known(kw) if BOUNDS.contains(&kw) => for_keyword(kw, &e.value),
            _ => None,
        })
        .take(MAX_BOUNDS)
        .map(|b| phrase(&b))
        .collect::<Vec<_>>();
    if !bounds.is_empty() {
        push_word(&mut out, &bounds.join(", "));
    }
    if out.is_empty() {
        if let Some(r) = o.reference() {
            out = r.rsplit('/').next().unwrap_or(r).to_owned();
        } else {
            out = ANY_VALUE.to_owned();
        }
    }
    truncate(out)
}

/// What [`summarize`] says of a schema that says nothing.
pub(crate) const ANY_VALUE: &str = "any value";

/// Keywords whose hint reads as a bound on the values of a type.
const BOUNDS: &[Keyword] = &[
    Keyword::MinLength,
    Keyword::MaxLength,
    Keyword::Minimum,
    Keyword::Maximum,
    Keyword::ExclusiveMinimum,
    Keyword::ExclusiveMaximum,
    Keyword::MultipleOf,
    Keyword::MinItems,
    Keyword::MaxItems,
    Keyword::MinProperties,
    Keyword::MaxProperties,
];

/// How many bounds one summary names.
const MAX_BOUNDS: usize = 2;

/// A hint sentence as a phrase: "At least 2." → "at least 2".
fn phrase(sentence: &str) -> String {
    let s = sentence.strip_suffix('.').unwrap_or(sentence);
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_lowercase().chain(c).collect(),
        None => String::new(),
    }
}

/// [`summarize`] without descending further (for nested parts).
fn summarize_flat(schema: &Schema) -> String {
    match schema.as_object().and_then(SchemaObject::types) {
        Some(TypeSet::Single(t)) => t.as_str().to_owned(),
        Some(TypeSet::List(l)) => l
            .iter()
            .map(|t| t.as_str())
            .collect::<Vec<_>>()
            .join(" or "),
        None => summarize(schema),
    }
}

fn push_word(out: &mut String, w: &str) {
    if !out.is_empty() {
        out.push(' ');
    }
    out.push_str(w);
}

/// `a, b, c` for instance values, bounded.
pub(crate) fn values(list: &[Instance]) -> String {
    let mut parts: Vec<String> = list.iter().take(MAX_VALUES).map(short).collect();
    if list.len() > MAX_VALUES {
        parts.push(format!("… ({} in total)", list.len()));
    }
    parts.join(", ")
}

fn names(list: &[String]) -> String {
    list.iter()
        .map(|n| format!("\"{n}\""))
        .collect::<Vec<_>>()
        .join(", ")
}

/// An instance as JSON text, bounded.
pub(crate) fn short(i: &Instance) -> String {
    truncate(i.as_json().to_owned())
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

fn truncate(mut s: String) -> String {
    if s.len() > MAX_HINT {
        let mut end = MAX_HINT;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        s.truncate(end);
        s.push('…');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(n: u64) -> Value {
        Value::Number(n.into())
    }

    /// Hints follow a description in parentheses, or stand alone where it is blank; the
    /// description's trailing space is dropped.
    #[test]
    fn hints_join_a_description() {
        let h = ["At least 1.".to_owned(), "Format: uri.".to_owned()];
        assert_eq!(
            join(Some("A link. "), &h),
            "A link. (At least 1. Format: uri.)"
        );
        assert_eq!(join(Some(" \n"), &h), "At least 1. Format: uri.");
        assert_eq!(join(None, &h[..1]), "At least 1.");
        assert_eq!(join(Some(" x"), &h[1..]), " x (Format: uri.)");
    }

    #[test]
    fn bounds_read_as_prose() {
        assert_eq!(
            for_keyword(Keyword::MinLength, &num(3)).unwrap(),
            "At least 3 characters."
        );
        assert_eq!(
            for_keyword(Keyword::MinLength, &num(1)).unwrap(),
            "Must not be empty."
        );
        assert_eq!(
            for_keyword(Keyword::ExclusiveMinimum, &num(0)).unwrap(),
            "Greater than 0."
        );
    }

    #[test]
    fn enum_values_are_listed_and_bounded() {
        let list: Vec<Instance> = (0..50)
            .map(|i| Instance::from_json(&i.to_string()).unwrap())
            .collect();
        let h = for_keyword(Keyword::Enum, &Value::Instances(list)).unwrap();
        assert!(h.starts_with("Allowed values: 0, 1, 2"));
        assert!(h.contains("(50 in total)"));
    }

    #[test]
    fn summaries_are_short() {
        let s = Schema::from_str(r#"{"type":"integer","enum":[1,2]}"#).unwrap();
        assert_eq!(summarize(&s), "integer (one of 1, 2)");
        let s = Schema::from_str(r#"{"properties":{"a":{},"b":{}}}"#).unwrap();
        assert_eq!(summarize(&s), "object with a, b");
    }

    #[test]
    fn join_appends_in_parentheses() {
        assert_eq!(
            join(Some("A URL"), &["Format: uri.".into()]),
            "A URL (Format: uri.)"
        );
        assert_eq!(join(None, &["Format: uri.".into()]), "Format: uri.");
    }
}
