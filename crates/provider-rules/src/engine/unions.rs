//! Unions: collapse where no union is, and `anyOf` standing alone where siblings are refused
//! (`oneOf`: `one_of.rs`; a union without branches: `empty_unions.rs`).

use super::merge::absorb;
use super::nulls::{ANNOTATIONS, is_null_branch};
use super::rule::Hint;
use super::types::{infer, keyword_fits, rank};
use super::{Check, Cx, Rule};
use crate::RuleId;
use crate::hints;
use crate::rules::Unions;
use schema_core::{Entry, InstanceType as T, Key, Keyword, Schema, SchemaObject, TypeSet, Value};

/// How many nested unions one node collapses.
const MAX_ROUNDS: usize = 64;

/// A union collapsed to its best branch where no union is accepted.
pub(crate) static COLLAPSE: Rule = Rule::new(RuleId::UnionCollapse)
    .reads(&[Keyword::AnyOf])
    .gate(|r, _| r.collapses_unions())
    .pre(collapse)
    .post(collapse)
    .found_by(
        &super::filter::UNSUPPORTED_KEYWORD,
        "an anyOf where the profile has no union is a keyword it does not accept",
    )
    .hints(&[ACCEPTS]);

/// What a union collapsed to its best branch leaves: every branch.
const ACCEPTS: Hint = Hint::new(RuleId::UnionCollapse, "Accepts {}.");

/// Where no union is accepted, `anyOf` collapses to its best branch (object, then array, then
/// string, ...), a null branch becomes `nullable`, and the other branches go to the
/// description ("Accepts string or integer."). A branch may bring its own union: the node
/// collapses until none is left.
pub(crate) fn collapse(node: &mut Schema, p: &crate::engine::passes::At<'_>, cx: &mut Cx<'_>) {
    let Some(o) = node.as_object_mut() else {
        return;
    };
    for _ in 0..MAX_ROUNDS {
        if !collapse_once(o, p, cx) {
            break;
        }
    }
}

fn collapse_once(o: &mut SchemaObject, p: &str, cx: &mut Cx<'_>) -> bool {
    let Some(Value::Schemas(list)) = o.remove(Keyword::AnyOf) else {
        return false;
    };
    let has_null = list.iter().any(is_null_branch);
    let mut rest: Vec<Schema> = list.into_iter().filter(|b| !is_null_branch(b)).collect();
    let best = (0..rest.len()).max_by_key(|&i| {
        let r = match rest[i].as_object() {
            Some(b) => match b.types() {
                Some(TypeSet::Single(t)) => rank(*t),
                Some(TypeSet::List(l)) => l.iter().map(|t| rank(*t)).max().unwrap_or(0),
                None => infer(b).into_iter().map(rank).max().unwrap_or(0),
            },
            None => 0,
        };
        // Earlier branches win ties.
        (r, usize::MAX - i)
    });
    let summary: Vec<String> = rest.iter().map(hints::summarize).collect();
    if let Some(i) = best {
        let mut b = rest.swap_remove(i);
        widen(&mut b, &rest);
        absorb(o, b);
    }
    if has_null && cx.rules.keywords.contains(Keyword::Nullable) {
        o.insert(Keyword::Nullable, Value::Bool(true));
    }
    if summary.len() > 1 {
        cx.lost(
            p,
            RuleId::UnionCollapse,
            "anyOf collapsed to its best branch",
            Some(ACCEPTS.with(&[&summary.join(" or ")])),
        );
    } else {
        cx.change(
            p,
            RuleId::UnionCollapse,
            "anyOf with one branch merged into the node",
        );
    }
    true
}

/// The types a branch admits (all of them when it says none).
fn branch_types(s: &Schema) -> Option<Vec<TypeSet>> {
    let o = s.as_object()?;
    match o.types() {
        Some(ts) => Some(vec![ts.clone()]),
        None => {
            let ts = infer(o);
            (!ts.is_empty()).then(|| ts.into_iter().map(TypeSet::Single).collect())
        }
    }
}

/// Whether two branches admit a value of a common type (`None`: every type).
fn overlap(a: &Option<Vec<TypeSet>>, b: &Option<Vec<TypeSet>>) -> bool {
    let (Some(a), Some(b)) = (a, b) else {
        return true;
    };
    let flat = |l: &Vec<TypeSet>| -> Vec<schema_core::InstanceType> {
        l.iter()
            .flat_map(|t| t.as_slice().iter().copied())
            .collect()
    };
    let (a, b) = (flat(a), flat(b));
    a.iter().any(|x| {
        b.iter()
            .any(|y| x == y || matches!((x, y), (T::Integer, T::Number) | (T::Number, T::Integer)))
    })
}

/// Keywords that shape a value rather than bound it: the chosen branch keeps them.
const STRUCTURE: &[Keyword] = &[
    Keyword::Type,
    Keyword::Properties,
    Keyword::Items,
    Keyword::PrefixItems,
    Keyword::PropertyOrdering,
    Keyword::Nullable,
];

/// The chosen branch of a collapsing union, widened by the other branches that admit values
/// of its type, so what they accept stays accepted: their object properties join it with
/// `required` the names all of them require, and a bound or value list (`maxLength`,
/// `minimum`, `enum`, ...) stays only where every such branch has the same. What a branch of
/// another type accepts is lost (said in the description by the collapse).
fn widen(best: &mut Schema, others: &[Schema]) {
    let mine = branch_types(best);
    let near: Vec<&Schema> = others
        .iter()
        .filter(|b| overlap(&mine, &branch_types(b)))
        .collect();
    if near.is_empty() {
        return;
    }
    let Schema::Object(o) = best else { return };
    // Properties of every object branch, the first one's schema winning.
    for b in &near {
        let Some(bp) = b.as_object().and_then(|bo| bo.properties()) else {
            continue;
        };
        let Some(Value::SchemaMap(props)) = o.get_mut(Keyword::Properties) else {
            continue;
        };
        for (k, v) in bp.iter() {
            if props.get(k).is_none() {
                props.insert(k.clone(), v.clone());
            }
        }
    }
    let enum_joined = join_enums(o, &near);
    keep_shared(o, &near, enum_joined);
}

/// Value lists of branches of one type join (`"a"|"b"` or `"c"` is `"a"|"b"|"c"`) when every
/// such branch has one; `false` (nothing done) otherwise.
fn join_enums(o: &mut SchemaObject, near: &[&Schema]) -> bool {
    let Some(Value::Instances(mine)) = o.get_mut(Keyword::Enum) else {
        return false;
    };
    let lists: Option<Vec<&Vec<schema_core::Instance>>> = near
        .iter()
        .map(
            |b| match b.as_object().and_then(|bo| bo.get(Keyword::Enum)) {
                Some(Value::Instances(l)) => Some(l),
                _ => None,
            },
        )
        .collect();
    let Some(lists) = lists else { return false };
    for v in lists.into_iter().flatten() {
        if !mine.contains(v) {
            mine.push(v.clone());
        }
    }
    true
}

/// The rest of [`widen`]: constraints kept only where every near branch has the same
/// (`enum_joined`: the enum already holds every branch's values), `required` the names all of
/// them require.
fn keep_shared(o: &mut SchemaObject, near: &[&Schema], enum_joined: bool) {
    let same_everywhere = |e: &Entry| {
        near.iter().all(|b| {
            b.as_object()
                .is_some_and(|bo| bo.entries().iter().any(|x| x == e))
        })
    };
    o.retain(|e| match e.key {
        Key::Known(Keyword::Required) => {
            // Kept below, as the names every near branch requires.
            true
        }
        Key::Known(kw) if STRUCTURE.contains(&kw) => true,
        Key::Known(kw) if ANNOTATIONS.contains(&kw) => true,
        Key::Known(Keyword::Enum) if enum_joined => true,
        Key::Other(_) => true,
        _ => same_everywhere(e),
    });
    if let Some(Value::Strings(req)) = o.get_mut(Keyword::Required) {
        req.retain(|n| {
            near.iter().all(|b| {
                b.as_object()
                    .and_then(|bo| bo.required())
                    .is_some_and(|r| r.contains(n))
            })
        });
        if req.is_empty() {
            o.remove(Keyword::Required);
        }
    }
}

/// `anyOf` made the only keyword of its node.
pub(crate) static ALONE: Rule = Rule::new(RuleId::AnyOfAlone)
    .gate(|r, _| r.unions == Unions::Alone)
    .post(alone)
    .check(Check::Object(check::alone));

/// Where `anyOf` must be the only keyword of its node (Vertex: `When using any_of, it must be
/// the only field set.`, vercel/ai#19000), its siblings move into every branch they apply to
/// (through nested `anyOf`s).
pub(crate) fn alone(node: &mut Schema, p: &crate::engine::passes::At<'_>, cx: &mut Cx<'_>) {
    let Some(o) = node.as_object_mut() else {
        return;
    };
    if !o.contains(Keyword::AnyOf) || o.len() == 1 {
        return;
    }
    let Some(Value::Schemas(mut branches)) = o.remove(Keyword::AnyOf) else {
        return;
    };
    let siblings = std::mem::take(o.entries_mut());
    let sib = super::alone_merge::Siblings::of(&siblings);
    push_into_branches(&mut branches, &siblings, &sib, cx.rules.enums, 0);
    o.insert(Keyword::AnyOf, Value::Schemas(branches));
    cx.change(
        p,
        RuleId::AnyOfAlone,
        "anyOf's siblings moved into its branches",
    );
}

/// Copies `siblings` into each branch (the branch's own keywords win, but for its
/// `properties` and `required`, which take the siblings' too: [`super::alone_merge`]).
fn push_into_branches(
    branches: &mut [Schema],
    siblings: &[Entry],
    sib: &super::alone_merge::Siblings<'_>,
    enums: crate::rules::Enums,
    depth: usize,
) {
    for b in branches {
        let bo = b.make_object();
        if depth < MAX_ROUNDS
            && let Some(inner) = bo.schemas_mut(Keyword::AnyOf)
        {
            push_into_branches(inner, siblings, sib, enums, depth + 1);
            continue;
        }
        let was_closed = super::alone_merge::branch_closed(bo);
        let t = match bo.types() {
            Some(TypeSet::Single(t)) => Some(*t),
            _ => None,
        };
        for e in siblings {
            if let (Key::Known(kw), Some(t)) = (&e.key, t)
                && !keyword_fits(*kw, t)
            {
                continue;
            }
            // An enum where the provider takes enums on strings only would be refused on a
            // branch of another type (the branches were already checked): that branch admits
            // none of the values anyway, so leaving it out only widens it.
            if e.key == Key::Known(Keyword::Enum)
                && enums == crate::rules::Enums::Strings
                && t.is_some_and(|t| t != schema_core::InstanceType::String)
            {
                continue;
            }
            // A `default` or `example` goes to the branches its value belongs to (`"x"` is no
            // default of an integer branch).
            if let (Key::Known(Keyword::Default | Keyword::Example), Value::Instance(i), Some(t)) =
                (&e.key, &e.value, t)
                && !TypeSet::Single(t).allows(super::types::instance_type(i.json_type()))
            {
                continue;
            }
            if !bo.entries().iter().any(|x| x.key == e.key) {
                bo.insert_key(e.key.clone(), e.value.clone());
            } else {
                super::alone_merge::merge(bo, e, sib, was_closed);
            }
        }
    }
}

/// The gate of rule `default-beside-any-of`: the profile accepts `default` but not beside
/// `anyOf`. Where `default` is not accepted at all it is an unsupported keyword (dropped and
/// reported as such, once), whatever
/// [`Rules::default_beside_any_of`](crate::Rules::default_beside_any_of) says.
pub(crate) fn refuses_default_beside_any_of(rules: &crate::Rules) -> bool {
    !rules.default_beside_any_of && rules.keywords.contains(Keyword::Default)
}

/// `default` beside `anyOf`, moved where the profile refuses the pair.
pub(crate) static DEFAULT_BESIDE_ANY_OF: Rule = Rule::new(RuleId::DefaultBesideAnyOf)
    .reads(&[Keyword::AnyOf])
    .gate(|r, _| refuses_default_beside_any_of(r))
    .post(default_beside_any_of)
    .check(Check::Object(check::default_beside_any_of));

/// A `default` beside an `anyOf` where the profile refuses the pair (gated by
/// [`Rules::default_beside_any_of`](crate::Rules::default_beside_any_of)) is removed and said
/// in the description ("Default: \"x\"."): the historical gemini-cli sanitizer did so because
/// "Vertex AI gets confused if both anyOf and default are set" (peers.md §3 #55). Runs after
/// every step that can write an `anyOf` on the node (type lists, any-value schemas).
pub(crate) fn default_beside_any_of(
    node: &mut Schema,
    p: &crate::engine::passes::At<'_>,
    cx: &mut Cx<'_>,
) {
    let Some(o) = node.as_object_mut() else {
        return;
    };
    if !matches!(o.get(Keyword::AnyOf), Some(Value::Schemas(_))) {
        return;
    }
    let Some(v) = o.remove(Keyword::Default) else {
        return;
    };
    cx.lost(
        p,
        RuleId::DefaultBesideAnyOf,
        "default removed from beside anyOf",
        hints::for_keyword(Keyword::Default, &v),
    );
}

/// What the provider would reject that this file's steps fix: the checker's part of these
/// rules (run on every object node, in the order of [`ORDER`](crate::engine::ORDER)).
pub(crate) mod check {
    use crate::RuleId;
    use crate::check::Checker;
    use crate::rules::Unions;
    use schema_core::{Keyword, SchemaObject};

    /// `anyOf` beside other keywords where it must stand alone ([`alone`](super::alone)).
    pub(crate) fn alone(c: &mut Checker<'_>, p: &str, o: &SchemaObject) {
        let r = c.rules;
        if r.unions == Unions::Alone && o.contains(Keyword::AnyOf) && o.len() > 1 {
            c.push(
                p,
                RuleId::AnyOfAlone,
                "anyOf must be the only keyword of its node".to_owned(),
            );
        }
    }

    /// `default` beside `anyOf` ([`default_beside_any_of`](super::default_beside_any_of)).
    pub(crate) fn default_beside_any_of(c: &mut Checker<'_>, p: &str, o: &SchemaObject) {
        if super::refuses_default_beside_any_of(c.rules)
            && o.contains(Keyword::AnyOf)
            && o.contains(Keyword::Default)
        {
            c.push(
                p,
                RuleId::DefaultBesideAnyOf,
                "default must not stand beside anyOf".to_owned(),
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
    fn vertex_when_using_any_of_it_must_be_the_only_field_set() {
        fixes(
            &ALONE,
            r#"{"anyOf":[{"type":"string"},{"type":"integer"}],"description":"A value."}"#,
            &Rules::VERTEX,
            RuleId::AnyOfAlone,
        );
    }

    #[test]
    fn gemini_default_beside_any_of_is_refused_default_moved() {
        fixes(
            &DEFAULT_BESIDE_ANY_OF,
            r#"{"anyOf":[{"type":"string"},{"type":"integer"}],"default":"a"}"#,
            &Rules::GEMINI,
            RuleId::DefaultBesideAnyOf,
        );
    }

    /// A profile without `default` reports a `default` beside `anyOf` once, as the keyword it
    /// does not accept (Gemini: `Unknown name "default"`), even if it also says the pair is
    /// refused.
    #[test]
    fn default_on_a_profile_without_default_is_an_unknown_name_once_not_twice() {
        let rules = Rules {
            keywords: Rules::GEMINI.keywords.without(&[Keyword::Default]),
            ..Rules::GEMINI
        };
        assert!(!rules.default_beside_any_of);
        let v = serde_json::json!({"type": "object", "properties": {"v": {
            "anyOf": [{"type": "string"}, {"type": "integer"}], "default": "a"}}});
        let found = crate::check(&v, &rules, crate::Slot::Parameters);
        let at_v: Vec<_> = found
            .iter()
            .filter(|f| f.pointer == "/properties/v")
            .collect();
        assert_eq!(at_v.len(), 1, "{found:?}");
        assert_eq!(at_v[0].rule, RuleId::UnsupportedKeyword);
        let s = Schema::from_str(&v.to_string()).unwrap();
        let out = crate::sanitize(&s, &rules, crate::Slot::Parameters);
        assert!(
            out.report
                .changes
                .iter()
                .all(|c| c.rule != RuleId::DefaultBesideAnyOf),
            "{:?}",
            out.report.changes
        );
        assert!(crate::check(&out.schema.to_value(), &rules, crate::Slot::Parameters).is_empty());
    }
    #[test]
    fn code_assist_unknown_name_any_of_cannot_find_field_union_collapsed() {
        let (out, changes) = fixes(
            &COLLAPSE,
            r#"{"anyOf":[{"type":"string"},{"type":"integer"}]}"#,
            &Rules::GEMINI_CODE_ASSIST,
            RuleId::UnsupportedKeyword,
        );
        assert_eq!(changes[0].rule, RuleId::UnionCollapse);
        assert_eq!(out.to_json_string(), r#"{"type":"string"}"#);
    }
}
