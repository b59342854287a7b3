//! Each rule's answer to "can your steps change this object node?" ([`STEPS`]), asked only
//! where the node holds what the rule declares it reads ([`super::super::Rule::reads`]): its
//! step's own usual-case test where the step has one in its file, else the same test written
//! here from the step (a step this table answers only by its declaration says
//! [`Answer::Reads`]). A test holds that every rule of [`ORDER`] is here.

use super::{Leaves, Node};
use crate::Rules;
use crate::engine::objects::is_object;
use crate::engine::rule::Rule;
use crate::engine::types::{keyword_fits, node_types};
use crate::engine::{
    arrays, booleans, draft, empty_unions, enums, filter, formats, merge, min_items, nulls,
    objects, one_of, patterns, root, strict, types, unions,
};
use crate::rules::{AdditionalProperties as AP, MissingItems, NullStyle};
use schema_core::{InstanceType as T, Key, Keyword, Schema, SchemaObject, TypeSet, Value};

/// How a rule answers.
#[derive(Clone, Copy)]
pub(super) enum Answer {
    /// By what it declares it reads, no more: on a node that holds any of it, it may change it.
    Reads,
    /// By this test (on a node that holds what it reads).
    Leaves(Leaves),
}

/// Every rule of the walk with its answer.
pub(super) static STEPS: &[(&Rule, Answer)] = &[
    (&empty_unions::EMPTY, Answer::Leaves(no_empty_union)),
    (&root::SHAPE, Answer::Leaves(root_shaped)),
    (&draft::DRAFT_2020, Answer::Leaves(draft_2020_already)),
    (
        &objects::PROPERTY_NAMED_PROPERTIES,
        Answer::Leaves(no_property_named_properties),
    ),
    (&one_of::ONE_OF, Answer::Reads),
    (&merge::ALL_OF, Answer::Reads),
    (&merge::CONDITIONALS, Answer::Reads),
    (&merge::DEPENDENT_SCHEMAS, Answer::Reads),
    (&types::TYPE_LIST, Answer::Leaves(no_type_list)),
    (&nulls::NULLS, Answer::Leaves(nulls_in_style)),
    (&unions::COLLAPSE, Answer::Reads),
    (&enums::CONST, Answer::Reads),
    (&arrays::TUPLE_FOLD, Answer::Reads),
    (&booleans::BOOLEAN_SCHEMA, Answer::Leaves(no_boolean_child)),
    (&one_of::LOOSENED, Answer::Leaves(no_loss_below)),
    (&enums::ENUM_VALUES, Answer::Leaves(enum_taken)),
    (&types::TYPE_INFERRED, Answer::Leaves(typed)),
    (&arrays::ITEMS_MISSING, Answer::Leaves(items_there)),
    (&types::FOREIGN_KEYWORD, Answer::Leaves(own_keywords_only)),
    (
        &objects::EMPTY_PROPERTIES,
        Answer::Leaves(no_empty_properties),
    ),
    (&objects::REQUIRED, Answer::Leaves(required_settled)),
    (
        &objects::ADDITIONAL_PROPERTIES,
        Answer::Leaves(additional_as_wanted),
    ),
    (&formats::FORMAT, Answer::Leaves(format_accepted)),
    (&patterns::PATTERN_SYNTAX, Answer::Leaves(pattern_accepted)),
    (&strict::STRICT_REQUIRED, Answer::Leaves(strict_closed)),
    (&min_items::MIN_ITEMS, Answer::Reads),
    (
        &filter::UNSUPPORTED_KEYWORD,
        Answer::Leaves(keywords_accepted),
    ),
    (&unions::DEFAULT_BESIDE_ANY_OF, Answer::Reads),
    (&unions::ALONE, Answer::Leaves(any_of_alone)),
];

/// The answer of a step of `rule` (`None`: it may change any node that holds what it reads).
pub(super) fn answer(rule: &'static Rule) -> Option<Leaves> {
    match STEPS.iter().find(|(r, _)| std::ptr::eq(*r, rule))?.1 {
        Answer::Reads => None,
        Answer::Leaves(f) => Some(f),
    }
}

/// The rules of the walk (each once).
#[cfg(test)]
pub(super) fn walk_rules() -> Vec<&'static Rule> {
    use crate::engine::{ORDER, Run, WALK};
    let mut out: Vec<&'static Rule> = Vec::new();
    for run in &ORDER[WALK.0..WALK.1] {
        if let Run::Pre(r) | Run::Post(r) = run
            && !out.iter().any(|o| std::ptr::eq(*o, *r))
        {
            out.push(r);
        }
    }
    out
}

/// [`empty_unions::empty`]: no `anyOf`/`oneOf`/`allOf` without branches.
fn no_empty_union(o: &SchemaObject, _: &Node<'_>) -> bool {
    [Keyword::AnyOf, Keyword::OneOf, Keyword::AllOf]
        .iter()
        .all(|kw| !o.schemas(*kw).is_some_and(<[Schema]>::is_empty))
}

/// [`root::shape`]: below the root nothing; at the root, already the shape the profile wants
/// (no union or `allOf` it would merge, typed object, with `properties`).
fn root_shaped(o: &SchemaObject, at: &Node<'_>) -> bool {
    if !at.root {
        return true;
    }
    let r = at.rules;
    let composed = [Keyword::AllOf, Keyword::AnyOf, Keyword::OneOf]
        .iter()
        .any(|k| o.contains(*k));
    if !r.root_shaped(at.slot) {
        return !(r.strict && composed);
    }
    let root = r.root;
    if !(root.object || root.properties || root.no_composition) {
        return true;
    }
    if (root.no_composition || (root.object && r.unions == crate::Unions::Alone)) && composed {
        return false;
    }
    if root.object && node_types(o) != [T::Object] {
        return false;
    }
    !(root.properties && is_object(o) && o.properties().is_none())
}

/// [`draft::to_2020`]: no draft-04 boolean bound it rewrites, no `"$id": "#name"` where the
/// profile wants 2020-12, no draft-07 tuple or lone `additionalItems` where it folds tuples,
/// no `dependencies` it splits.
fn draft_2020_already(o: &SchemaObject, at: &Node<'_>) -> bool {
    let r = at.rules;
    let bounds = [Keyword::ExclusiveMinimum, Keyword::ExclusiveMaximum]
        .iter()
        .all(|ex| {
            !matches!(o.get(*ex), Some(Value::Bool(_)))
                || (!r.draft_2020 && r.keywords.contains(*ex))
        });
    let anchor = !(r.draft_2020 && o.string(Keyword::Id).is_some_and(|id| id.starts_with('#')));
    let tuples = !(r.draft_2020 || r.tuples != crate::rules::Tuples::Keep)
        || !(matches!(o.get(Keyword::Items), Some(Value::Schemas(_)))
            || (r.draft_2020 && o.contains(Keyword::AdditionalItems)));
    let dependencies = !((r.draft_2020 || !r.keywords.contains(Keyword::Dependencies))
        && matches!(o.get(Keyword::Dependencies), Some(Value::Dependencies(_))));
    bounds && anchor && tuples && dependencies
}

/// [`objects::property_named_properties`]: no property named `properties` that looks like
/// an object.
fn no_property_named_properties(o: &SchemaObject, _: &Node<'_>) -> bool {
    o.properties()
        .and_then(|m| m.get("properties"))
        .and_then(Schema::as_object)
        .is_none_or(|io| !(is_object(io) || io.contains(Keyword::AdditionalProperties)))
}

/// [`types::split_type_list`]: one type, or none.
fn no_type_list(o: &SchemaObject, _: &Node<'_>) -> bool {
    !matches!(o.types(), Some(TypeSet::List(_)))
}

/// [`nulls::normalize`]: "or null" already in the profile's style.
fn nulls_in_style(o: &SchemaObject, at: &Node<'_>) -> bool {
    let r = at.rules;
    let nullable_ok = r.keywords.contains(Keyword::Nullable);
    if r.null_style == NullStyle::Nullable
        && nullable_ok
        && [Keyword::AnyOf, Keyword::OneOf].iter().any(|kw| {
            o.schemas(*kw)
                .is_some_and(|l| l.iter().any(nulls::is_null_branch))
        })
    {
        return false;
    }
    if !nullable_ok && o.contains(Keyword::Nullable) {
        return false;
    }
    r.null_type || !matches!(o.types(), Some(TypeSet::Single(T::Null)))
}

/// [`booleans::children`]: no boolean subschema but those left to their own steps.
fn no_boolean_child(o: &SchemaObject, _: &Node<'_>) -> bool {
    booleans::leaves(o)
}

/// [`one_of::loosened`]: it acts only on a loss recorded below the node. Where every other
/// step leaves the tree as it is, the only losses recorded are the notes that a node is not
/// strict-compatible, which a profile makes only where it is strict or closes every object
/// ([`super::marks_not_strict`]).
fn no_loss_below(_: &SchemaObject, at: &Node<'_>) -> bool {
    !super::marks_not_strict(at.rules)
}

/// [`enums::enum_values`]'s usual case.
fn enum_taken(o: &SchemaObject, at: &Node<'_>) -> bool {
    enums::enum_leaves(o, at.rules)
}

/// [`types::infer_missing_type`]: a `type` there, or a union the profile accepts.
fn typed(o: &SchemaObject, at: &Node<'_>) -> bool {
    if matches!(o.get(Keyword::Type), Some(Value::Type(_))) {
        return true;
    }
    let accepted =
        |k: Keyword| matches!(o.get(k), Some(Value::Schemas(_))) && at.rules.keywords.contains(k);
    accepted(Keyword::AnyOf) || accepted(Keyword::OneOf) || accepted(Keyword::AllOf)
}

/// [`arrays::missing_items`]: not an array, or one with its items.
fn items_there(o: &SchemaObject, at: &Node<'_>) -> bool {
    at.rules.missing_items == MissingItems::Keep
        || !node_types(o).contains(&T::Array)
        || (!matches!(o.get(Keyword::Items), Some(Value::Raw(_)))
            && (o.contains(Keyword::Items) || o.contains(Keyword::PrefixItems)))
}

/// [`types::drop_foreign_keywords`]: not one type, or only keywords of that type.
fn own_keywords_only(o: &SchemaObject, _: &Node<'_>) -> bool {
    let Some(TypeSet::Single(t)) = o.types() else {
        return true;
    };
    o.entries().iter().all(|e| match e.key {
        Key::Known(kw) => keyword_fits(kw, *t) || crate::rules::format_tolerated(kw, *t),
        Key::Other(_) => true,
    })
}

/// [`objects::empty_properties`]: no empty `properties` map, or the root that keeps one.
fn no_empty_properties(o: &SchemaObject, at: &Node<'_>) -> bool {
    (at.root && at.rules.keeps_root_properties(at.slot))
        || !o
            .schema_map(Keyword::Properties)
            .is_some_and(schema_core::SchemaMap::is_empty)
}

/// [`objects::required`]'s usual case.
fn required_settled(o: &SchemaObject, at: &Node<'_>) -> bool {
    objects::required_settled(o, at.rules)
}

/// [`objects::additional_properties`]: `additionalProperties` as the profile wants it, no
/// closed object to bound by its declared properties (`closed::closed_bound`'s test), no
/// `additionalProperties` beside a `patternProperties` the profile refuses.
fn additional_as_wanted(o: &SchemaObject, at: &Node<'_>) -> bool {
    let r: &Rules = at.rules;
    let k = &r.keywords;
    let ap = o.schema(Keyword::AdditionalProperties);
    let closed_false = matches!(ap, Some(Schema::Bool(false)));
    let patterns = o
        .schema_map(Keyword::PatternProperties)
        .is_some_and(|m| !m.is_empty());
    // `closed::closed_bound` returns at once.
    let unbounded = k.contains(Keyword::AdditionalProperties)
        || !k.contains(Keyword::MaxProperties)
        || !closed_false
        || !is_object(o)
        || patterns;
    if !unbounded {
        return false;
    }
    if !k.contains(Keyword::PatternProperties)
        && patterns
        && r.additional_properties != AP::ForceFalse
        && ap.is_some_and(|s| !matches!(s, Schema::Bool(true)))
    {
        return false;
    }
    match r.additional_properties {
        AP::Keep => true,
        AP::Drop => {
            !(k.contains(Keyword::AdditionalProperties)
                && o.get(Keyword::AdditionalProperties).is_some())
        }
        AP::DropFalse => !closed_false,
        AP::ClosedByDefault => o.get(Keyword::AdditionalProperties).is_some() || !is_object(o),
        AP::ForceFalse => !is_object(o) || closed_false,
    }
}

/// [`formats::formats`]: no `format`, or one the profile accepts.
fn format_accepted(o: &SchemaObject, at: &Node<'_>) -> bool {
    let (Some(allowed), Some(f)) = (&at.rules.formats, o.string(Keyword::Format)) else {
        return true;
    };
    allowed.iter().any(|a| a == f)
}

/// [`patterns::patterns`]: no `pattern`, or one without syntax the profile refuses.
fn pattern_accepted(o: &SchemaObject, at: &Node<'_>) -> bool {
    let (Some(forbidden), Some(p)) = (
        &at.rules.forbidden_pattern_syntax,
        o.string(Keyword::Pattern),
    ) else {
        return true;
    };
    !forbidden.iter().any(|f| p.contains(f.as_ref()))
}

/// `strict::close_object`: not an object (what it notes then, that the node is not
/// strict-compatible, changes nothing: [`super::notes`]), or a closed one with `properties`:
/// where the profile wants every property required, each listed in `required` (the step
/// returns before it looks at the properties); elsewhere, each property an object schema (the
/// step makes a boolean one an object, and drops a `false` one).
fn strict_closed(o: &SchemaObject, at: &Node<'_>) -> bool {
    if !is_object(o) {
        return true;
    }
    let Some(props) = o.properties() else {
        return false;
    };
    if !at.rules.all_required {
        return props.values().all(|s| matches!(s, Schema::Object(_)));
    }
    let Some(required) = o.required() else {
        return false;
    };
    props.len() == required.len() && props.keys().all(|n| required.contains(n))
}

/// [`filter::unsupported_keywords`]: nothing the profile refuses.
fn keywords_accepted(o: &SchemaObject, at: &Node<'_>) -> bool {
    filter::accepts_all(o, at.rules)
}

/// [`unions::alone`]: no `anyOf`, or one alone.
fn any_of_alone(o: &SchemaObject, _: &Node<'_>) -> bool {
    !o.contains(Keyword::AnyOf) || o.len() == 1
}
