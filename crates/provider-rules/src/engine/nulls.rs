//! Nullability: written in the profile's [`NullStyle`], and null-only nodes where the
//! provider has no NULL type.

use super::merge::absorb;
use super::rule::Hint;
use super::{Check, Cx, Rule};
use crate::RuleId;
use crate::rules::NullStyle;
use schema_core::{
    Instance, InstanceType as T, JsonType, Key, Keyword, Schema, SchemaObject, TypeSet, Value,
};

/// Keywords that stay on the outer node when a node is wrapped into `anyOf`.
pub(crate) const ANNOTATIONS: &[Keyword] = &[
    Keyword::Title,
    Keyword::Description,
    Keyword::Default,
    Keyword::Examples,
    Keyword::Example,
    Keyword::Deprecated,
    Keyword::ReadOnly,
    Keyword::WriteOnly,
    Keyword::Comment,
];

/// Whether a branch says "null" and nothing else that matters.
pub(crate) fn is_null_branch(s: &Schema) -> bool {
    let Some(o) = s.as_object() else { return false };
    matches!(o.types(), Some(TypeSet::Single(T::Null)))
        && o.entries().iter().all(|e| match e.key {
            Key::Known(k) => k == Keyword::Type || ANNOTATIONS.contains(&k),
            Key::Other(_) => true,
        })
}

fn null_schema() -> Schema {
    let mut o = SchemaObject::new();
    o.insert(Keyword::Type, Value::Type(TypeSet::Single(T::Null)));
    Schema::Object(o)
}

/// Nullability in the profile's spelling, and null-only nodes where there is no null type
/// (the step tests the profile's spelling on each node it rewrites).
pub(crate) static NULLS: Rule = Rule::new(RuleId::Nullable)
    .reads_for(nulls_read)
    .pre(normalize)
    .post(normalize)
    .check(Check::Object(check::null_type))
    .reports(&[RuleId::NullType])
    .hints(&[ALWAYS_NULL]);

/// What a null-only schema leaves where the provider has no null type.
const ALWAYS_NULL: Hint = Hint::new(RuleId::NullType, "Always null.");

/// What [`normalize`] reads for a profile, each part of it on its own condition: unions'
/// null branches where `nullable` is the style, `nullable` where the dialect lacks it,
/// `type` where it lacks the null type (`type` is on nearly every node; most profiles never
/// read it here).
fn nulls_read(rules: &crate::Rules, _: crate::Slot) -> schema_core::KeywordMask {
    let nullable_ok = rules.keywords.contains(Keyword::Nullable);
    let mut read = Vec::with_capacity(4);
    if rules.null_style == NullStyle::Nullable && nullable_ok {
        read.extend([Keyword::AnyOf, Keyword::OneOf]);
    }
    if !nullable_ok {
        read.push(Keyword::Nullable);
    }
    if !rules.null_type {
        read.push(Keyword::Type);
    }
    schema_core::KeywordMask::of(&read)
}

/// Rewrites "or null" into the profile's style:
/// - `Nullable`: `anyOf: [X, {"type": "null"}]` → X + `nullable: true` (gemini: a `type` list
///   is `Proto field is not repeating`, `nullable` is accepted, aoci-spec/aoci-code#61);
/// - `TypeList`: `nullable: true` → `"null"` added to the type list;
/// - `AnyOf`: `nullable: true` → an `anyOf` with a `{"type": "null"}` branch.
///
/// A null-only node where `null_type` is off becomes a nullable string.
pub(crate) fn normalize(node: &mut Schema, p: &crate::engine::passes::At<'_>, cx: &mut Cx<'_>) {
    let rules = cx.rules;
    let nullable_ok = rules.keywords.contains(Keyword::Nullable);
    let Some(o) = node.as_object_mut() else {
        return;
    };

    if rules.null_style == NullStyle::Nullable && nullable_ok {
        for kw in [Keyword::AnyOf, Keyword::OneOf] {
            let Some(list) = o.schemas(kw) else { continue };
            if !list.iter().any(is_null_branch) {
                continue;
            }
            let rest: Vec<Schema> = list
                .iter()
                .filter(|b| !is_null_branch(b))
                .cloned()
                .collect();
            match rest.len() {
                0 => {
                    o.remove(kw);
                    // A node typed already (the root shaped to an object) keeps its type.
                    if o.contains(Keyword::Type) {
                        o.insert(Keyword::Nullable, Value::Bool(true));
                    } else {
                        o.insert(Keyword::Type, Value::Type(TypeSet::Single(T::Null)));
                    }
                }
                1 => {
                    o.remove(kw);
                    if let Some(branch) = rest.into_iter().next() {
                        absorb(o, branch);
                    }
                    o.insert(Keyword::Nullable, Value::Bool(true));
                }
                _ => {
                    let rest = rest
                        .into_iter()
                        .map(|mut b| {
                            b.make_object().insert(Keyword::Nullable, Value::Bool(true));
                            b
                        })
                        .collect();
                    o.insert(kw, Value::Schemas(rest));
                }
            }
            cx.change(
                p,
                RuleId::Nullable,
                format!("a null branch of {kw} became nullable"),
            );
        }
    }

    if !nullable_ok && let Some(v) = o.remove(Keyword::Nullable) {
        if matches!(v, Value::Bool(true)) {
            add_null(o, rules.null_style);
        }
        cx.change(p, RuleId::Nullable, "nullable written as JSON Schema");
    }

    if !rules.null_type && matches!(o.types(), Some(TypeSet::Single(T::Null))) {
        o.insert(Keyword::Type, Value::Type(TypeSet::Single(T::String)));
        if nullable_ok {
            o.insert(Keyword::Nullable, Value::Bool(true));
        }
        cx.lost(
            p,
            RuleId::NullType,
            "a null-only schema became a nullable string",
            Some(ALWAYS_NULL.text()),
        );
    }
}

/// Adds "or null" to a node in a JSON Schema style.
pub(crate) fn add_null(o: &mut SchemaObject, style: NullStyle) {
    // A `const` admits only its value: null needs a branch of its own.
    if o.contains(Keyword::Const) && !o.contains(Keyword::AnyOf) {
        if o.instance(Keyword::Const)
            .is_some_and(|c| c.json_type() != JsonType::Null)
        {
            wrap_with_null(o);
        }
        return;
    }
    // An `enum` admits only its values: null joins them (a type list alone would not do).
    if let Some(values) = o.instances_mut(Keyword::Enum)
        && !values.iter().any(|v| v.json_type() == JsonType::Null)
    {
        values.push(Instance::null());
    }
    match (o.types(), style) {
        (Some(TypeSet::Single(T::Null)), _) => {}
        (Some(TypeSet::List(l)), _) if l.contains(&T::Null) => {}
        (Some(_), NullStyle::TypeList | NullStyle::Nullable) => {
            // `null` joins the types where they are (no copy of the list, no second lookup).
            if let Some(Value::Type(types)) = o.get_mut(Keyword::Type) {
                let list = match std::mem::replace(types, TypeSet::Single(T::Null)) {
                    TypeSet::Single(t) => vec![t, T::Null],
                    TypeSet::List(mut l) => {
                        l.push(T::Null);
                        l
                    }
                };
                *types = TypeSet::List(list);
            }
        }
        (None, _) if !o.contains(Keyword::AnyOf) && !o.contains(Keyword::OneOf) => {
            // A typeless node already accepts null.
        }
        (_, _) => {
            if let Some(list) = o.schemas_mut(Keyword::AnyOf) {
                if !list.iter().any(is_null_branch) {
                    list.push(null_schema());
                }
                return;
            }
            wrap_with_null(o);
        }
    }
}

/// `X` → `{annotations, "anyOf": [X without annotations, {"type": "null"}]}`.
fn wrap_with_null(o: &mut SchemaObject) {
    let mut inner = SchemaObject::new();
    let mut outer = SchemaObject::new();
    for e in std::mem::take(o.entries_mut()) {
        match e.key {
            Key::Known(k) if ANNOTATIONS.contains(&k) => outer.entries_mut().push(e),
            _ => inner.entries_mut().push(e),
        }
    }
    outer.insert(
        Keyword::AnyOf,
        Value::Schemas(vec![Schema::Object(inner), null_schema()]),
    );
    *o = outer;
}

/// What the provider would reject that this file's steps fix: the checker's part of these
/// rules (run on every object node, in the order of [`ORDER`](crate::engine::ORDER)).
pub(crate) mod check {
    use crate::RuleId;
    use crate::check::Checker;
    use schema_core::{InstanceType as T, SchemaObject};

    /// `type: "null"` where the provider has no null type ([`normalize`](super::normalize)).
    pub(crate) fn null_type(c: &mut Checker<'_>, p: &str, o: &SchemaObject) {
        let r = c.rules;
        let types = o.declared_types();
        if !r.null_type && types == [T::Null] {
            c.push(
                p,
                RuleId::NullType,
                "the provider has no null type".to_owned(),
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
    fn code_assist_has_no_null_type_null_type_rewritten() {
        fixes(
            &NULLS,
            r#"{"type":"object","properties":{"v":{"anyOf":[{"type":"string"},{"type":"null"}]}}}"#,
            &Rules::GEMINI_CODE_ASSIST,
            RuleId::NullType,
        );
    }
}
