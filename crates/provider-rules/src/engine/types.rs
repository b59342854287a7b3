//! Types: `type` lists split into one type per node, missing types inferred, and keywords
//! that belong to another type removed.

use super::{Check, Cx, Rule};
use crate::RuleId;
use crate::rules::{NullStyle, TypeLists};
use schema_core::{
    InstanceType as T, JsonType, Key, Keyword, Schema, SchemaObject, TypeSet, Value,
};

/// The types a type-specific keyword applies to (`None`: any type): schema-core's
/// [`Keyword::applies_to`], read by every step that moves or drops keywords by type.
pub(crate) fn applies_to(kw: Keyword) -> Option<&'static [T]> {
    kw.applies_to()
}

/// Whether keyword `kw` says something about instances of type `t`.
pub(crate) fn keyword_fits(kw: Keyword, t: T) -> bool {
    applies_to(kw).is_none_or(|ts| ts.contains(&t))
}

/// The node's types: its `type`, or none.
pub(crate) fn node_types(o: &SchemaObject) -> &[T] {
    o.declared_types()
}

/// The JSON Schema type of an instance.
pub(crate) fn instance_type(j: JsonType) -> T {
    match j {
        JsonType::Null => T::Null,
        JsonType::Boolean => T::Boolean,
        JsonType::Integer => T::Integer,
        JsonType::Number => T::Number,
        JsonType::String => T::String,
        JsonType::Array => T::Array,
        JsonType::Object => T::Object,
    }
}

/// Which of several types to keep when only one can be: objects and arrays carry the most
/// structure, then strings (which can spell any scalar).
pub(crate) fn rank(t: T) -> u8 {
    match t {
        T::Object => 6,
        T::Array => 5,
        T::String => 4,
        T::Number => 3,
        T::Integer => 2,
        T::Boolean => 1,
        T::Null => 0,
    }
}

fn type_words(types: &[T]) -> String {
    let names: Vec<&str> = types.iter().map(|t| t.as_str()).collect();
    match names.len() {
        0 => String::new(),
        1 => names[0].to_owned(),
        n => format!("{} or {}", names[..n - 1].join(", "), names[n - 1]),
    }
}

/// Whether unions may be written as `anyOf` under these rules.
pub(crate) fn unions_allowed(cx: &Cx<'_>) -> bool {
    !cx.rules.collapses_unions()
}

/// A `type` list split into one type per node where the provider wants one.
pub(crate) static TYPE_LIST: Rule = Rule::new(RuleId::TypeList)
    .gate(|r, _| r.type_lists == TypeLists::Split)
    .pre(split_type_list)
    .post(split_type_list)
    .check(Check::Object(check::type_list));

/// `"type": ["string", "number", "null"]` → one type per node (gated by
/// [`TypeLists::Split`]). Several types become an `anyOf` of typed branches, each taking the
/// keywords that apply to it; `null` becomes the profile's null style (done by the null step).
/// Prevents `Proto field is not repeating, cannot start list`.
pub(crate) fn split_type_list(node: &mut Schema, p: &str, cx: &mut Cx<'_>) {
    let Some(o) = node.as_object_mut() else {
        return;
    };
    let Some(TypeSet::List(list)) = o.types().cloned() else {
        return;
    };
    let mut types: Vec<T> = Vec::new();
    for t in &list {
        if !types.contains(t) {
            types.push(*t);
        }
    }
    let has_null = types.contains(&T::Null);
    let others: Vec<T> = types.iter().copied().filter(|t| *t != T::Null).collect();
    match others.len() {
        0 => {
            o.insert(Keyword::Type, Value::Type(TypeSet::Single(T::Null)));
            cx.change(
                p,
                RuleId::TypeList,
                "a type list of null only became type null",
            );
        }
        1 => {
            o.insert(Keyword::Type, Value::Type(TypeSet::Single(others[0])));
            if has_null {
                o.insert(Keyword::Nullable, Value::Bool(true));
            }
            cx.change(
                p,
                RuleId::TypeList,
                format!("type list became {} (nullable)", others[0]),
            );
        }
        _ if unions_allowed(cx) && !o.contains(Keyword::AnyOf) => {
            let mut branches = Vec::new();
            for (i, t) in others.iter().enumerate() {
                let mut b = SchemaObject::new();
                b.insert(Keyword::Type, Value::Type(TypeSet::Single(*t)));
                for e in o.entries() {
                    if let Key::Known(kw) = e.key
                        && applies_to(kw).is_some()
                        && keyword_fits(kw, *t)
                    {
                        b.insert(kw, e.value.clone());
                    }
                }
                if has_null && i == 0 {
                    b.insert(Keyword::Nullable, Value::Bool(true));
                }
                branches.push(Schema::Object(b));
            }
            o.retain(|e| match e.key {
                Key::Known(kw) => kw != Keyword::Type && applies_to(kw).is_none(),
                Key::Other(_) => true,
            });
            o.insert(Keyword::AnyOf, Value::Schemas(branches));
            cx.change(
                p,
                RuleId::TypeList,
                format!("type list became anyOf of {}", type_words(&others)),
            );
        }
        _ => {
            let best = others
                .iter()
                .copied()
                .max_by_key(|t| rank(*t))
                .unwrap_or(T::String);
            o.insert(Keyword::Type, Value::Type(TypeSet::Single(best)));
            if has_null {
                o.insert(Keyword::Nullable, Value::Bool(true));
            }
            let rest: Vec<T> = others.iter().copied().filter(|t| *t != best).collect();
            cx.lost(
                p,
                RuleId::TypeList,
                format!("type list collapsed to {best}"),
                Some(format!("Also accepts {}.", type_words(&rest))),
            );
        }
    }
    if has_null && others.len() > 1 && cx.rules.null_style == NullStyle::AnyOf {
        // The null step adds the null branch.
        if let Some(o) = node.as_object_mut() {
            o.insert(Keyword::Nullable, Value::Bool(true));
        }
    }
}

/// A missing `type` inferred where the provider requires one.
pub(crate) static TYPE_INFERRED: Rule = Rule::new(RuleId::TypeInferred)
    .gate(|r, _| r.type_required)
    .post(infer_missing_type)
    .check(Check::Object(check::type_missing));

/// Infers a missing `type` from the keywords present (gated by `type_required`). A node that
/// says nothing about types becomes the profile's any-value schema. Prevents
/// `...type: must be specified when not using one_of, any_of or all_of fields`.
pub(crate) fn infer_missing_type(node: &mut Schema, p: &str, cx: &mut Cx<'_>) {
    let o = node.make_object();
    if o.contains(Keyword::Type) && matches!(o.get(Keyword::Type), Some(Value::Type(_))) {
        return;
    }
    // A malformed `anyOf` (`"anyOf": 1`) is dropped later by the keyword filter: it does not
    // stand for a type (fuzz: `{"anyOf": 1}` came out `{}` for Gemini, `type` missing).
    let accepted =
        |k: Keyword| matches!(o.get(k), Some(Value::Schemas(_))) && cx.rules.keywords.contains(k);
    if accepted(Keyword::AnyOf) || accepted(Keyword::OneOf) || accepted(Keyword::AllOf) {
        return;
    }
    let inferred = infer(o);
    match inferred.len() {
        0 => to_any_value(node, p, cx),
        1 => {
            o.insert(Keyword::Type, Value::Type(TypeSet::Single(inferred[0])));
            cx.change(
                p,
                RuleId::TypeInferred,
                format!("type {} inferred from keywords", inferred[0]),
            );
        }
        _ => {
            let best = inferred
                .iter()
                .copied()
                .max_by_key(|t| rank(*t))
                .unwrap_or(T::String);
            o.insert(Keyword::Type, Value::Type(TypeSet::Single(best)));
            cx.change(
                p,
                RuleId::TypeInferred,
                format!("type {best} inferred from keywords"),
            );
        }
    }
}

/// The types a typeless node's keywords speak of.
pub(crate) fn infer(o: &SchemaObject) -> Vec<T> {
    let mut out: Vec<T> = Vec::new();
    let add = |t: T, out: &mut Vec<T>| {
        if !out.contains(&t) {
            out.push(t)
        }
    };
    for e in o.entries() {
        let Key::Known(kw) = e.key else { continue };
        if matches!(e.value, Value::Raw(_)) || kw == Keyword::Format {
            continue;
        }
        if let Some(ts) = applies_to(kw) {
            add(ts[0], &mut out);
        }
    }
    if out.is_empty() {
        let values: Vec<&schema_core::Instance> =
            match (o.instance(Keyword::Const), o.enum_values()) {
                (Some(c), _) => vec![c],
                (None, Some(list)) => list.iter().collect(),
                _ => Vec::new(),
            };
        let mut types: Vec<T> = values
            .iter()
            .map(|i| instance_type(i.json_type()))
            .collect();
        if types.contains(&T::Number) {
            types.retain(|t| *t != T::Integer);
        }
        for t in types {
            if t != T::Null {
                add(t, &mut out);
            }
        }
    }
    out
}

/// The types a node speaks of: its `type`, else what its keywords imply ([`infer`]), else
/// what its conditional, dependent and composed subschemas imply. Read as a node is entered,
/// before merges and filters remove the keywords that said it.
pub(crate) fn spoken(node: &Schema) -> Vec<T> {
    spoken_within(node, 0)
}

/// How many levels of composed subschemas [`spoken`] looks into.
const SPOKEN_DEPTH: usize = 4;

fn spoken_within(node: &Schema, depth: usize) -> Vec<T> {
    let Some(o) = node.as_object() else {
        return Vec::new();
    };
    if let Some(ts) = o.types() {
        return ts.as_slice().to_vec();
    }
    let mut out = infer(o);
    if out.is_empty() {
        use Keyword as K;
        for kw in [K::If, K::Then, K::Else, K::AllOf, K::AnyOf, K::OneOf] {
            let subs: &[Schema] = match o.get(kw) {
                Some(Value::Schema(s)) => std::slice::from_ref(&**s),
                Some(Value::Schemas(l)) => l,
                _ => continue,
            };
            if depth >= SPOKEN_DEPTH {
                break;
            }
            for s in subs {
                for t in spoken_within(s, depth + 1) {
                    if !out.contains(&t) {
                        out.push(t);
                    }
                }
            }
        }
    }
    out
}

/// Replaces a node that accepts any value by the profile's any-value schema, keeping its
/// annotations. Where that schema is one type only, a node whose keywords spoke of a type
/// ([`Cx::guess`]) gets that type instead: `{"enum": [1, 2]}` on a profile that takes string
/// enums only keeps `integer`, not `string`.
fn to_any_value(node: &mut Schema, p: &str, cx: &mut Cx<'_>) {
    let guess = cx
        .guess()
        .iter()
        .copied()
        .filter(|t| *t != T::Null)
        .max_by_key(|t| rank(*t));
    if let Some(t) = guess {
        node.make_object()
            .insert(Keyword::Type, Value::Type(TypeSet::Single(t)));
        // No "Any JSON value." beside a type: the keywords said what the value is meant to be.
        cx.lost(
            p,
            RuleId::AnyValue,
            format!("a schema accepting any value got type {t}, the type its keywords spoke of"),
            None,
        );
        return;
    }
    let Some(any) = cx.any_value().cloned() else {
        return;
    };
    let Schema::Object(mut any) = any else { return };
    let lossy = !any.contains(Keyword::AnyOf);
    if let Some(o) = node.as_object() {
        for e in o.entries() {
            if !any.entries().iter().any(|x| x.key == e.key) {
                any.insert_key(e.key.clone(), e.value.clone());
            }
        }
    }
    *node = Schema::Object(any);
    if lossy {
        cx.lost(
            p,
            RuleId::AnyValue,
            "a schema accepting any value got a type",
            Some("Any JSON value.".to_owned()),
        );
    } else {
        cx.change(
            p,
            RuleId::AnyValue,
            "a schema accepting any value got typed alternatives",
        );
    }
}

/// Keywords on a type they do not apply to, removed where the provider refuses them.
pub(crate) static FOREIGN_KEYWORD: Rule = Rule::new(RuleId::ForeignKeyword)
    .gate(|r, _| r.keywords_on_own_type_only)
    .post(drop_foreign_keywords)
    .check(Check::Object(check::foreign_keywords));

/// Removes keywords that apply to another type than the node's (gated by
/// `keywords_on_own_type_only`). Lossless: JSON Schema ignores them on other types. Prevents
/// `...items: field predicate failed: $type == Type.ARRAY`.
pub(crate) fn drop_foreign_keywords(node: &mut Schema, p: &str, cx: &mut Cx<'_>) {
    let Some(o) = node.as_object_mut() else {
        return;
    };
    let Some(TypeSet::Single(t)) = o.types().cloned() else {
        return;
    };
    let mut dropped = Vec::new();
    o.retain(|e| match e.key {
        Key::Known(kw) if !keyword_fits(kw, t) && !crate::rules::format_tolerated(kw, t) => {
            dropped.push(kw.as_str());
            false
        }
        _ => true,
    });
    if !dropped.is_empty() {
        cx.change(
            p,
            RuleId::ForeignKeyword,
            format!("{} do not apply to type {t}", dropped.join(", ")),
        );
    }
}

/// Upper-case type names (`"STRING"`, `"OBJECT"`: Google's genai `Type` enum, schemas from
/// gemini-cli and ADK) read as the types they name, before anything else looks at types, and
/// written lower-case, as every target spells them (Gemini's proto accepts both).
/// Its step on one node ([`super::passes`] walks the tree).
pub(crate) fn read_type_names(s: &mut Schema, p: &super::passes::At<'_>, cx: &mut Cx<'_>) {
    if s.read_type_name_any_case() {
        cx.change(
            p,
            RuleId::TypeCase,
            "a type name in upper case was read and written lower-case",
        );
    }
}

/// What the provider would reject that this file's steps fix: the checker's part of these
/// rules (run on every object node, in the order of [`ORDER`](crate::engine::ORDER)).
pub(crate) mod check {
    use crate::RuleId;
    use crate::check::Checker;
    use crate::rules::TypeLists;
    use schema_core::{Key, Keyword, SchemaObject, TypeSet, Value};

    /// A list of types where the provider wants one ([`split_type_list`](super::split_type_list)).
    pub(crate) fn type_list(c: &mut Checker<'_>, p: &str, o: &SchemaObject) {
        let r = c.rules;
        if r.type_lists == TypeLists::Split && matches!(o.types(), Some(TypeSet::List(_))) {
            c.push(
                p,
                RuleId::TypeList,
                "type must be a single type, not a list".to_owned(),
            );
        }
    }

    /// A node without `type` where the provider requires one ([`infer_missing_type`](super::infer_missing_type)).
    pub(crate) fn type_missing(c: &mut Checker<'_>, p: &str, o: &SchemaObject) {
        let r = c.rules;
        let composed =
            o.contains(Keyword::AnyOf) || o.contains(Keyword::OneOf) || o.contains(Keyword::AllOf);
        if r.type_required && !matches!(o.get(Keyword::Type), Some(Value::Type(_))) && !composed {
            c.push(p, RuleId::TypeMissing, "type must be specified".to_owned());
        }
    }

    /// Keywords on a type they do not apply to ([`drop_foreign_keywords`](super::drop_foreign_keywords)).
    pub(crate) fn foreign_keywords(c: &mut Checker<'_>, p: &str, o: &SchemaObject) {
        let r = c.rules;
        let types = o.declared_types();
        if r.keywords_on_own_type_only
            && let [t] = types
        {
            for e in o.entries() {
                if let Key::Known(kw) = e.key
                    && !crate::rules::format_tolerated(kw, *t)
                    && kw.applies_to().is_some_and(|ts| !ts.contains(t))
                {
                    c.push(
                        p,
                        RuleId::ForeignKeyword,
                        format!("{kw} is not allowed on type {t}"),
                    );
                }
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
    fn gemini_proto_field_is_not_repeating_cannot_start_list_type_list_split() {
        let (out, _) = fixes(
            &TYPE_LIST,
            r#"{"type":"object","properties":{"v":{"type":["string","integer"]}}}"#,
            &Rules::GEMINI,
            RuleId::TypeList,
        );
        assert!(
            out.to_json_string().contains("anyOf"),
            "{}",
            out.to_json_string()
        );
    }

    #[test]
    fn gemini_type_must_be_specified_when_not_using_any_of_type_inferred() {
        let (out, changes) = fixes(
            &TYPE_INFERRED,
            r#"{"type":"object","properties":{"n":{"minimum":1}}}"#,
            &Rules::GEMINI,
            RuleId::TypeMissing,
        );
        assert_eq!(changes[0].rule, RuleId::TypeInferred);
        assert!(
            out.to_json_string()
                .contains(r#""n":{"minimum":1,"type":"number"}"#)
                || out.to_json_string().contains(r#""type":"number""#),
            "{}",
            out.to_json_string()
        );
    }

    #[test]
    fn gemini_items_field_predicate_failed_type_array_foreign_keyword_dropped() {
        fixes(
            &FOREIGN_KEYWORD,
            r#"{"type":"object","properties":{"s":{"type":"string","minItems":1}}}"#,
            &Rules::GEMINI,
            RuleId::ForeignKeyword,
        );
    }
}
