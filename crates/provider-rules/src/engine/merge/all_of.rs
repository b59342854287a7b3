//! `all-of`: `allOf` merged into its node where `allOf` is not accepted.

use crate::RuleId;
use crate::engine::{Cx, Rule};
use crate::hints;
use schema_core::{InstanceType as T, Key, Keyword, Schema, SchemaObject, TypeSet, Value};

/// How many nested `allOf` levels one node merges.
const MAX_ROUNDS: usize = 64;

/// `allOf` merged into its node where `allOf` is not accepted.
pub(crate) static ALL_OF: Rule = Rule::new(RuleId::AllOf)
    .reads(&[Keyword::AllOf])
    .gate(|r, _| r.merges_all_of())
    .pre(all_of)
    .post(all_of)
    .found_by(
        &crate::engine::filter::UNSUPPORTED_KEYWORD,
        "an allOf the profile refuses is a keyword it does not accept",
    );

/// Merges `allOf` branches into the node as a conjunction: types intersected, properties
/// merged, `required` united, the tighter bound kept, enums intersected. What cannot be said
/// in one node (two different patterns, two unions) goes to the description.
/// Gated by [`Rules::merges_all_of`](crate::Rules::merges_all_of). Prevents `Unknown name "allOf"` (Gemini), `allOf` not supported
/// (OpenAI strict).
pub(crate) fn all_of(node: &mut Schema, p: &crate::engine::passes::At<'_>, cx: &mut Cx<'_>) {
    let Some(o) = node.as_object_mut() else {
        return;
    };
    merge_all_of(o, p, cx);
}

/// Merges every `allOf` of the node (also nested ones brought up by a branch).
pub(crate) fn merge_all_of(o: &mut SchemaObject, p: &str, cx: &mut Cx<'_>) {
    let mut rounds = 0;
    while let Some(v) = o.remove(Keyword::AllOf) {
        rounds += 1;
        let Value::Schemas(list) = v else { break };
        for b in &list {
            intersect(o, b, p, cx);
        }
        cx.change(
            p,
            RuleId::AllOf,
            format!("allOf of {} merged into the node", list.len()),
        );
        if rounds >= MAX_ROUNDS {
            o.remove(Keyword::AllOf);
            break;
        }
    }
}

fn num(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        _ => None,
    }
}

fn is_lower_bound(kw: Keyword) -> bool {
    use Keyword as K;
    matches!(
        kw,
        K::Minimum
            | K::ExclusiveMinimum
            | K::MinLength
            | K::MinItems
            | K::MinProperties
            | K::MinContains
    )
}

fn is_upper_bound(kw: Keyword) -> bool {
    use Keyword as K;
    matches!(
        kw,
        K::Maximum
            | K::ExclusiveMaximum
            | K::MaxLength
            | K::MaxItems
            | K::MaxProperties
            | K::MaxContains
    )
}

fn intersect_types(a: &TypeSet, b: &TypeSet) -> Vec<T> {
    let mut out = Vec::new();
    for &x in a.as_slice() {
        for &y in b.as_slice() {
            let t = match (x, y) {
                _ if x == y => Some(x),
                (T::Number, T::Integer) | (T::Integer, T::Number) => Some(T::Integer),
                _ => None,
            };
            if let Some(t) = t
                && !out.contains(&t)
            {
                out.push(t);
            }
        }
    }
    out
}

/// `dst` becomes `dst ∧ src` where one node can say it; the rest goes to the description.
pub(crate) fn intersect(dst: &mut SchemaObject, src: &Schema, p: &str, cx: &mut Cx<'_>) {
    let src = match src {
        Schema::Bool(true) => return,
        Schema::Bool(false) => {
            dst.insert(Keyword::Not, Value::Schema(Box::default()));
            return;
        }
        Schema::Object(o) => o,
    };
    // Each side's schema for extra members holds for the names only the other declares.
    super::extras::node_side(dst, src, p, cx);
    let crossed = super::extras::member_side(dst, src, p, cx);
    let src = crossed.as_ref().unwrap_or(src);
    for e in src.entries() {
        let Key::Known(kw) = e.key else {
            if !dst.entries().iter().any(|x| x.key == e.key) {
                dst.insert_key(e.key.clone(), e.value.clone());
            }
            continue;
        };
        let Some(cur) = dst.get_mut(kw) else {
            dst.insert(kw, e.value.clone());
            continue;
        };
        let merged = match (kw, &mut *cur, &e.value) {
            (Keyword::Type, Value::Type(a), Value::Type(b)) => {
                let t = intersect_types(a, b);
                match t.len() {
                    0 => false,
                    1 => {
                        *a = TypeSet::Single(t[0]);
                        true
                    }
                    _ => {
                        *a = TypeSet::List(t);
                        true
                    }
                }
            }
            (Keyword::Required, Value::Strings(a), Value::Strings(b)) => {
                for n in b {
                    if !a.contains(n) {
                        a.push(n.clone());
                    }
                }
                true
            }
            (_, Value::SchemaMap(a), Value::SchemaMap(b)) => {
                for (k, s) in b {
                    match a.get_mut(k) {
                        Some(existing) => {
                            let x = existing.make_object();
                            intersect(x, s, p, cx);
                        }
                        None => {
                            a.insert(k.clone(), s.clone());
                        }
                    }
                }
                true
            }
            (_, Value::Number(_), Value::Number(_)) if is_lower_bound(kw) || is_upper_bound(kw) => {
                let (x, y) = (num(cur).unwrap_or(0.0), num(&e.value).unwrap_or(0.0));
                let take_new = if is_lower_bound(kw) { y > x } else { y < x };
                if take_new {
                    *cur = e.value.clone();
                }
                true
            }
            (Keyword::Enum, Value::Instances(a), Value::Instances(b)) => {
                a.retain(|x| b.contains(x));
                true
            }
            (_, Value::Schema(a), Value::Schema(b)) => {
                match (&**a, &**b) {
                    (Schema::Bool(false), _) => {}
                    (_, Schema::Bool(false)) => **a = Schema::Bool(false),
                    _ => {
                        let x = a.make_object();
                        intersect(x, b, p, cx);
                    }
                }
                true
            }
            (Keyword::Nullable, Value::Bool(a), Value::Bool(b)) => {
                *a = *a && *b;
                true
            }
            (Keyword::UniqueItems, Value::Bool(a), Value::Bool(b)) => {
                *a = *a || *b;
                true
            }
            (
                Keyword::Title
                | Keyword::Description
                | Keyword::Default
                | Keyword::Examples
                | Keyword::Example
                | Keyword::Comment
                | Keyword::SchemaUri
                | Keyword::Id
                | Keyword::Deprecated
                | Keyword::ReadOnly
                | Keyword::WriteOnly,
                _,
                _,
            ) => true,
            (_, a, b) => a == b,
        };
        if !merged {
            cx.lost(
                p,
                RuleId::AllOf,
                format!("{kw} of an allOf branch could not be merged"),
                hints::for_keyword(kw, &e.value),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::alone::fixes;
    use crate::rules::Rules;

    #[test]
    fn gemini_unknown_name_all_of_cannot_find_field_all_of_merged() {
        let (out, changes) = fixes(
            &ALL_OF,
            r#"{"allOf":[{"type":"string"},{"description":"A name."}]}"#,
            &Rules::GEMINI,
            RuleId::UnsupportedKeyword,
        );
        assert_eq!(changes[0].rule, RuleId::AllOf);
        assert_eq!(
            out.to_json_string(),
            r#"{"type":"string","description":"A name."}"#
        );
    }
}
