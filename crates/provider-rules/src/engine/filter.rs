//! The keyword filter: what the provider does not accept is removed, its meaning kept as a
//! hint (a `format` or a `pattern` the profile refuses: `formats.rs`, `patterns.rs`). Runs after the structural steps, so only what could not be rewritten is left.

use super::message::{Later, Part::Text, message};
use super::{Check, Cx, Rule};
use crate::RuleId;
use crate::hints;
use crate::rules::Rules;
use schema_core::{InstanceType, Key, Keyword, Schema, SchemaObject, TypeSet, Value};

/// Keywords whose loss changes nothing an instance is validated against.
fn is_annotation(kw: Keyword) -> bool {
    use Keyword as K;
    matches!(
        kw,
        K::SchemaUri
            | K::Id
            | K::Anchor
            | K::DynamicAnchor
            | K::RecursiveAnchor
            | K::Vocabulary
            | K::Comment
            | K::Title
            | K::Description
            | K::Default
            | K::Examples
            | K::Example
            | K::Deprecated
            | K::ReadOnly
            | K::WriteOnly
            | K::Discriminator
            | K::PropertyOrdering
            | K::ContentEncoding
            | K::ContentMediaType
            | K::ContentSchema
            | K::Defs
            | K::Definitions
    )
}

/// The end of the message of a keyword the provider does not accept.
const NOT_ACCEPTED: &str = " is not accepted by the provider";

/// The keywords the provider does not accept, removed (their meaning kept as a hint).
pub(crate) static UNSUPPORTED_KEYWORD: Rule = Rule::new(RuleId::UnsupportedKeyword)
    .post(unsupported_keywords)
    .check(Check::Object(check::keywords))
    .reports(&[
        RuleId::UnknownKeyword,
        RuleId::MalformedKeyword,
        RuleId::ExclusiveBound,
    ]);

/// Removes every keyword the provider does not accept, unknown keywords where they are
/// refused (`Unknown name "$schema" ... Cannot find field.`) and known keywords with a value of
/// the wrong JSON type. A dropped exclusive bound becomes the inclusive one where that is
/// accepted ("Greater than 0.").
pub(crate) fn unsupported_keywords(
    node: &mut Schema,
    p: &crate::engine::passes::At<'_>,
    cx: &mut Cx<'_>,
) {
    let rules = cx.rules;
    let Some(o) = node.as_object_mut() else {
        return;
    };
    let refused = |e: &&schema_core::Entry| refuses(rules, e);
    // Most nodes hold nothing refused: one scan, no list.
    if accepts_all(o, rules) {
        return;
    }
    let drop: Vec<Key> = o
        .entries()
        .iter()
        .filter(refused)
        .map(|e| e.key.clone())
        .collect();
    for key in drop {
        let Some(value) = o.remove_key(&key) else {
            continue;
        };
        // `minContains: 0` makes `contains` always pass: without it, `contains` would
        // require a match (xAI refuses min/maxContains).
        if key == Key::Known(Keyword::MinContains)
            && matches!(&value, Value::Number(n) if n.as_f64() == Some(0.0))
            && o.remove(Keyword::Contains).is_some()
        {
            cx.change(
                p,
                RuleId::UnsupportedKeyword,
                "contains with minContains 0 removed",
            );
        }
        match key {
            Key::Other(name) => {
                cx.change(
                    p,
                    RuleId::UnknownKeyword,
                    Later(|| message(&[Text(&name), Text(NOT_ACCEPTED)])),
                );
            }
            Key::Known(kw) if matches!(value, Value::Raw(_)) => {
                cx.lost(
                    p,
                    RuleId::MalformedKeyword,
                    Later(|| message(&[Text(kw.as_str()), Text(" had the wrong JSON type")])),
                    None,
                );
            }
            Key::Known(kw) => {
                if inclusive_bound(o, kw, &value, rules) {
                    cx.change(
                        p,
                        RuleId::ExclusiveBound,
                        Later(|| {
                            message(&[
                                Text(kw.as_str()),
                                Text(" became the inclusive bound that says the same"),
                            ])
                        }),
                    );
                    continue;
                }
                let hint = hints::for_keyword(kw, &value);
                if is_annotation(kw) && hint.is_none() {
                    cx.change(
                        p,
                        RuleId::UnsupportedKeyword,
                        Later(|| message(&[Text(kw.as_str()), Text(NOT_ACCEPTED)])),
                    );
                } else {
                    cx.lost(
                        p,
                        RuleId::UnsupportedKeyword,
                        Later(|| message(&[Text(kw.as_str()), Text(NOT_ACCEPTED)])),
                        hint,
                    );
                }
            }
        }
    }
}

/// Whether the profile refuses the entry `e`: an unknown keyword where those are refused, a
/// known one it does not accept or with a value of the wrong JSON type.
fn refuses(rules: &Rules, e: &schema_core::Entry) -> bool {
    match (&e.key, &e.value) {
        (Key::Other(_), _) => !rules.unknown_keywords,
        (Key::Known(_), Value::Raw(_)) => true,
        (Key::Known(kw), _) => !rules.keywords.contains(*kw),
    }
}

/// Whether the filter leaves `o` as it is: it holds nothing the profile refuses.
pub(crate) fn accepts_all(o: &SchemaObject, rules: &Rules) -> bool {
    !o.entries().iter().any(|e| refuses(rules, e))
}

/// The largest integer below which every integer an `f64` holds is exact (2^53).
const EXACT_INTEGERS: f64 = 9_007_199_254_740_992.0;

/// Where `exclusiveMinimum`/`exclusiveMaximum` (`kw`, dropped with `value`) is refused, writes
/// the inclusive bound the provider accepts, the tighter of it and one already there. `true`
/// when nothing is lost: on integers the next integer says the same (`> 0.5` is `>= 1`), and an
/// inclusive bound already tighter implies the exclusive one. Otherwise the inclusive bound
/// is the nearest `f64` beyond the exclusive one (the same for every `f64`, which is what
/// JSON readers hold; not for longer decimals; the bound itself beside 0, where the nearest
/// is subnormal) and the caller hints the bound as written
/// ("Greater than 0."). Gemini's Schema has `minimum`/`maximum` only (providers.md §1.3).
fn inclusive_bound(o: &mut SchemaObject, kw: Keyword, value: &Value, rules: &Rules) -> bool {
    let (inc, up) = match kw {
        Keyword::ExclusiveMinimum => (Keyword::Minimum, 1.0),
        Keyword::ExclusiveMaximum => (Keyword::Maximum, -1.0),
        _ => return false,
    };
    if !rules.keywords.contains(inc) {
        return false;
    }
    let Value::Number(n) = value else {
        // A number kept as written (`1e2`, a bignum): the inclusive bound, as it was.
        if matches!(value, Value::Instance(_)) && !o.contains(inc) {
            o.insert(inc, value.clone());
        }
        return false;
    };
    let Some(x) = n.as_f64() else { return false };
    let integers = matches!(o.types(), Some(TypeSet::Single(InstanceType::Integer)));
    let exact = integers && x.abs() < EXACT_INTEGERS;
    let existing = match o.get(inc) {
        Some(Value::Number(e)) => e.as_f64(),
        Some(_) => return false,
        None => None,
    };
    // The tighter of the existing inclusive bound and the new one (`up`: 1 for a minimum).
    // On integers: the smallest integer above `x` (the largest below, for a maximum).
    // Else the nearest `f64` beyond `x` (`> 1.1` is `>= 1.1000000000000003`): every number
    // a JSON reader holds as an `f64` is below, at or above it as it is against `x`; the hint
    // still says the bound as written. Not a subnormal one (beside 0: `5e-324`), which a
    // reader may take for 0 and a model for noise: there the bound stays `x`.
    let beyond = |y: f64| if y.is_normal() { y } else { x };
    let candidate = match (exact, up > 0.0) {
        (true, true) => x.floor() + 1.0,
        (true, false) => x.ceil() - 1.0,
        (false, true) => beyond(x.next_up()),
        (false, false) => beyond(x.next_down()),
    };
    if let Some(e) = existing {
        let implied = (e - x) * up > 0.0;
        if implied || (e - candidate) * up >= 0.0 {
            return implied || exact;
        }
    }
    let number = if exact {
        // `candidate` is integral and within ±2^53: the cast is exact.
        serde_json::Number::from(candidate as i64)
    } else if candidate == x {
        // The bound as written (its spelling kept).
        n.clone()
    } else {
        match serde_json::Number::from_f64(candidate) {
            Some(c) => c,
            None => n.clone(),
        }
    };
    o.insert(inc, Value::Number(number));
    exact
}

/// What the provider would reject that this file's steps fix: the checker's part of these
/// rules (run on every object node, in the order of [`ORDER`](crate::engine::ORDER)).
pub(crate) mod check {
    use crate::RuleId;
    use crate::check::Checker;
    use schema_core::{Key, SchemaObject, Value};

    /// Keywords the provider does not know, does not accept, or finds of the wrong JSON type ([`unsupported_keywords`](super::unsupported_keywords)).
    pub(crate) fn keywords(c: &mut Checker<'_>, p: &str, o: &SchemaObject) {
        let r = c.rules;
        for e in o.entries() {
            match (&e.key, &e.value) {
                (Key::Other(name), _) if !r.unknown_keywords => c.push(
                    p,
                    RuleId::UnknownKeyword,
                    format!("keyword {name} is not accepted"),
                ),
                (Key::Known(kw), Value::Raw(_)) => c.push(
                    p,
                    RuleId::MalformedKeyword,
                    format!("{kw} has the wrong JSON type"),
                ),
                (Key::Known(kw), _) if !r.keywords.contains(*kw) => c.push(
                    p,
                    RuleId::UnsupportedKeyword,
                    format!("keyword {kw} is not accepted"),
                ),
                _ => {}
            }
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
    fn gemini_unknown_name_at_parameters_cannot_find_field() {
        fixes(
            &UNSUPPORTED_KEYWORD,
            r#"{"type":"object","properties":{"a":{"type":"string"}},"x-vendor":1,"$comment":"c"}"#,
            &Rules::GEMINI,
            RuleId::UnknownKeyword,
        );
    }
}
