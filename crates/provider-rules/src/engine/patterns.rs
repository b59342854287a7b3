//! `pattern`: syntax the provider's regex engine refuses goes to the description.

use super::{Check, Cx, Rule};
use crate::RuleId;
use crate::hints;
use schema_core::{Keyword, Schema};

/// A `pattern` with syntax the provider refuses, moved to the description.
pub(crate) static PATTERN_SYNTAX: Rule = Rule::new(RuleId::PatternSyntax)
    .reads(&[Keyword::Pattern])
    .gate(|r, _| r.forbidden_pattern_syntax.is_some())
    .post(patterns)
    .check(Check::Object(check::patterns));

/// A `pattern` using a construct the provider's regex engine refuses (OpenAI: `... is not a
/// 'regex'`, `regex lookaround is not supported`) goes to the description.
pub(crate) fn patterns(node: &mut Schema, p: &crate::engine::passes::At<'_>, cx: &mut Cx<'_>) {
    let Some(forbidden) = &cx.rules.forbidden_pattern_syntax else {
        return;
    };
    let Some(o) = node.as_object_mut() else {
        return;
    };
    let Some(pattern) = o.string(Keyword::Pattern) else {
        return;
    };
    if !forbidden.iter().any(|f| pattern.contains(f.as_ref())) {
        return;
    }
    if let Some(v) = o.remove(Keyword::Pattern) {
        cx.lost(
            p,
            RuleId::PatternSyntax,
            "a pattern the provider's regex engine refuses was removed",
            hints::for_keyword(Keyword::Pattern, &v),
        );
    }
}

/// What the provider would reject that this file's step fixes: the checker's part of the
/// rule (run on every object node, in the order of [`ORDER`](crate::engine::ORDER)).
pub(crate) mod check {
    use crate::RuleId;
    use crate::check::Checker;
    use schema_core::{Keyword, SchemaObject};

    /// A `pattern` with syntax the provider refuses ([`patterns`](super::patterns)).
    pub(crate) fn patterns(c: &mut Checker<'_>, p: &str, o: &SchemaObject) {
        let r = c.rules;
        if let (Some(forbidden), Some(pat)) =
            (&r.forbidden_pattern_syntax, o.string(Keyword::Pattern))
            && forbidden.iter().any(|f| pat.contains(f.as_ref()))
        {
            c.push(
                p,
                RuleId::PatternSyntax,
                format!("pattern {pat:?} uses a construct the provider refuses"),
            );
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
    fn openai_regex_construct_is_not_supported_pattern_dropped() {
        fixes(
            &PATTERN_SYNTAX,
            r#"{"type":"string","pattern":"^\\p{L}+$"}"#,
            &Rules::OPENAI,
            RuleId::PatternSyntax,
        );
    }
}
