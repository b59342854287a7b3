//! `format`: the values the provider does not accept go to the description.

use super::{Check, Cx, Rule};
use crate::RuleId;
use crate::hints;
use schema_core::{Keyword, Schema};

/// A `format` the provider does not accept, removed.
pub(crate) static FORMAT: Rule = Rule::new(RuleId::Format)
    .reads(&[Keyword::Format])
    .gate(|r, _| r.formats.is_some())
    .post(formats)
    .check(Check::Object(check::formats));

/// `format` values outside the profile's list go to the description ("Format: uri.").
/// Prevents `format: only 'enum' and 'date-time' are supported for STRING type` (Gemini) and
/// `'uri' is not a valid format` (OpenAI strict).
pub(crate) fn formats(node: &mut Schema, p: &crate::engine::passes::At<'_>, cx: &mut Cx<'_>) {
    let Some(allowed) = &cx.rules.formats else {
        return;
    };
    let Some(o) = node.as_object_mut() else {
        return;
    };
    let Some(f) = o.string(Keyword::Format) else {
        return;
    };
    if allowed.iter().any(|a| a == f) {
        return;
    }
    if let Some(v) = o.remove(Keyword::Format) {
        cx.lost(
            p,
            RuleId::Format,
            "a format the provider does not accept was removed",
            hints::for_keyword(Keyword::Format, &v),
        );
    }
}

/// What the provider would reject that this file's step fixes: the checker's part of the
/// rule (run on every object node, in the order of [`ORDER`](crate::engine::ORDER)).
pub(crate) mod check {
    use crate::RuleId;
    use crate::check::Checker;
    use schema_core::{Keyword, SchemaObject};

    /// A `format` the provider does not accept ([`formats`](super::formats)).
    pub(crate) fn formats(c: &mut Checker<'_>, p: &str, o: &SchemaObject) {
        let r = c.rules;
        if let (Some(allowed), Some(f)) = (&r.formats, o.string(Keyword::Format))
            && !allowed.iter().any(|a| a == f)
        {
            c.push(p, RuleId::Format, format!("format {f} is not accepted"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RuleId;
    use crate::engine::alone::fixes;
    use crate::rules::Rules;

    #[test]
    fn gemini_format_only_enum_and_date_time_are_supported_for_string_type() {
        let (out, _) = fixes(
            &FORMAT,
            r#"{"type":"string","format":"uri"}"#,
            &Rules::GEMINI,
            RuleId::Format,
        );
        assert!(
            !out.to_json_string().contains("format"),
            "{}",
            out.to_json_string()
        );
    }
}
