//! Merges: `allOf` into its node, `if`/`then`/`else` and `dependentSchemas` into optional
//! properties, where the provider does not accept them.

use super::{Cx, Rule};
use crate::RuleId;
use crate::hints;

use schema_core::{InstanceType as T, Key, Keyword, Schema, SchemaObject, TypeSet, Value};

/// How many nested `allOf` levels one node merges.
const MAX_ROUNDS: usize = 64;

/// Adds the keywords of `src` that `dst` lacks (the node's own keywords win).
pub(crate) fn absorb(dst: &mut SchemaObject, src: Schema) {
    let Schema::Object(mut src) = src else { return };
    for e in std::mem::take(src.entries_mut()) {
        if !dst.entries().iter().any(|x| x.key == e.key) {
            dst.insert_key(e.key, e.value);
        }
    }
}

/// `allOf` merged into its node where `allOf` is not accepted.
pub(crate) static ALL_OF: Rule = Rule::new(RuleId::AllOf)
    .gate(|r, _| r.merges_all_of())
    .pre(all_of)
    .post(all_of)
    .found_by(
        &super::filter::UNSUPPORTED_KEYWORD,
        "an allOf the profile refuses is a keyword it does not accept",
    );

/// Merges `allOf` branches into the node as a conjunction: types intersected, properties
/// merged, `required` united, the tighter bound kept, enums intersected. What cannot be said
/// in one node (two different patterns, two unions) goes to the description.
/// Gated by [`Rules::merges_all_of`](crate::Rules::merges_all_of). Prevents `Unknown name "allOf"` (Gemini), `allOf` not supported
/// (OpenAI strict).
pub(crate) fn all_of(node: &mut Schema, p: &str, cx: &mut Cx<'_>) {
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

/// `if`/`then`/`else` folded where `if` is not accepted.
pub(crate) static CONDITIONALS: Rule = Rule::new(RuleId::Conditional)
    .gate(|r, _| !r.keywords.contains(Keyword::If))
    .pre(conditionals)
    .found_by(
        &super::filter::UNSUPPORTED_KEYWORD,
        "an if/then/else the profile refuses is a keyword it does not accept",
    );

/// `if`/`then`/`else` (where not accepted): the properties of `then` and `else` become
/// optional properties of the node, and the condition goes to the description.
pub(crate) fn conditionals(node: &mut Schema, p: &str, cx: &mut Cx<'_>) {
    let Some(o) = node.as_object_mut() else {
        return;
    };
    if !(o.contains(Keyword::If) || o.contains(Keyword::Then) || o.contains(Keyword::Else)) {
        return;
    }
    let cond = o.remove(Keyword::If);
    let then = o.remove(Keyword::Then);
    let els = o.remove(Keyword::Else);
    let mut parts = Vec::new();
    let cond_text = match &cond {
        Some(Value::Schema(s)) => condition(s),
        _ => "a condition holds".to_owned(),
    };
    // A property only one branch describes is free in the other: it is added untyped, with
    // its schema in words; one both describe accepts either schema.
    let then_props = branch_properties(&then);
    let else_props = branch_properties(&els);
    let mut added: Vec<(String, Schema)> = Vec::new();
    for (name, s) in then_props.iter() {
        let prop = match else_props.get(name) {
            Some(e) if e == s => s.clone(),
            Some(e) => {
                let mut u = SchemaObject::new();
                u.insert(Keyword::AnyOf, Value::Schemas(vec![s.clone(), e.clone()]));
                Schema::Object(u)
            }
            None => described(&format!("If {cond_text}: {}.", hints::summarize(s))),
        };
        added.push((name.clone(), prop));
    }
    for (name, s) in else_props.iter() {
        if !then_props.contains_key(name) {
            added.push((
                name.clone(),
                described(&format!("Otherwise: {}.", hints::summarize(s))),
            ));
        }
    }
    add_optional_properties(o, added);
    for (label, v) in [("then", &then), ("else", &els)] {
        let Some(Value::Schema(s)) = v else { continue };
        let what = consequence(s);
        if !what.is_empty() {
            parts.push(if label == "then" {
                format!("If {cond_text}: {what}.")
            } else {
                format!("Otherwise: {what}.")
            });
        }
    }
    let hint = if parts.is_empty() {
        None
    } else {
        Some(parts.join(" "))
    };
    cx.lost(
        p,
        RuleId::Conditional,
        "if/then/else merged into optional properties",
        hint,
    );
}

/// `dependentSchemas` folded where it is not accepted.
pub(crate) static DEPENDENT_SCHEMAS: Rule = Rule::new(RuleId::DependentSchemas)
    .gate(|r, _| !r.keywords.contains(Keyword::DependentSchemas))
    .pre(dependent_schemas)
    .found_by(
        &super::filter::UNSUPPORTED_KEYWORD,
        "a dependentSchemas the profile refuses is a keyword it does not accept",
    );

/// `dependentSchemas` (where not accepted): their properties become optional properties.
pub(crate) fn dependent_schemas(node: &mut Schema, p: &str, cx: &mut Cx<'_>) {
    let Some(o) = node.as_object_mut() else {
        return;
    };
    let Some(Value::SchemaMap(m)) = o.remove(Keyword::DependentSchemas) else {
        return;
    };
    let mut parts = Vec::new();
    for (name, s) in &m {
        // Only when `name` is present: the properties are added untyped, their schema in words.
        let added = branch_properties(&Some(Value::Schema(Box::new(s.clone()))))
            .iter()
            .map(|(k, x)| {
                let text = format!("When \"{name}\" is present: {}.", hints::summarize(x));
                (k.clone(), described(&text))
            })
            .collect();
        add_optional_properties(o, added);
        let what = consequence(s);
        if !what.is_empty() {
            parts.push(format!("When \"{name}\" is present: {what}."));
        }
    }
    let hint = if parts.is_empty() {
        None
    } else {
        Some(parts.join(" "))
    };
    cx.lost(
        p,
        RuleId::DependentSchemas,
        "dependentSchemas merged into optional properties",
        hint,
    );
}

/// The `properties` of a `then`/`else`/dependent schema.
fn branch_properties(v: &Option<Value>) -> schema_core::SchemaMap {
    match v {
        Some(Value::Schema(s)) => s
            .as_object()
            .and_then(SchemaObject::properties)
            .cloned()
            .unwrap_or_default(),
        _ => schema_core::SchemaMap::new(),
    }
}

/// An untyped schema that says `text`.
fn described(text: &str) -> Schema {
    let mut o = SchemaObject::new();
    o.insert(Keyword::Description, Value::String(text.to_owned()));
    Schema::Object(o)
}

/// Adds the properties the node does not have yet (its own stay: the conditional ones only
/// apply sometimes).
fn add_optional_properties(o: &mut SchemaObject, props: Vec<(String, Schema)>) {
    if props.is_empty() {
        return;
    }
    if o.properties().is_none() {
        o.insert(Keyword::Properties, Value::SchemaMap(Default::default()));
    }
    if let Some(own) = o.properties_mut() {
        for (k, v) in props {
            if !own.contains_key(&k) {
                own.insert(k, v);
            }
        }
    }
}

/// `country is "US"` for `{"properties": {"country": {"const": "US"}}}`.
fn condition(s: &Schema) -> String {
    let Some(o) = s.as_object() else {
        return "a condition holds".to_owned();
    };
    let mut parts = Vec::new();
    if let Some(props) = o.properties() {
        for (k, v) in props {
            if let Some(vo) = v.as_object() {
                if let Some(c) = vo.instance(Keyword::Const) {
                    parts.push(format!("\"{k}\" is {}", hints::short(c)));
                } else if let Some(list) = vo.enum_values() {
                    parts.push(format!("\"{k}\" is one of {}", hints::values(list)));
                }
            }
        }
    }
    if let Some(r) = o.required() {
        for n in r {
            parts.push(format!("\"{n}\" is present"));
        }
    }
    if parts.is_empty() {
        format!("the value is {}", hints::summarize(s))
    } else {
        parts.join(" and ")
    }
}

/// `"zip" is required` for `{"required": ["zip"]}`.
fn consequence(s: &Schema) -> String {
    let Some(o) = s.as_object() else {
        return String::new();
    };
    let mut parts = Vec::new();
    if let Some(r) = o.required()
        && !r.is_empty()
    {
        let names: Vec<String> = r.iter().map(|n| format!("\"{n}\"")).collect();
        parts.push(format!("{} required", names.join(", ")));
    }
    if let Some(props) = o.properties() {
        for (k, v) in props {
            if let Some(vo) = v.as_object() {
                if let Some(c) = vo.instance(Keyword::Const) {
                    parts.push(format!("\"{k}\" must be {}", hints::short(c)));
                } else if let Some(list) = vo.enum_values() {
                    parts.push(format!("\"{k}\" is one of {}", hints::values(list)));
                }
            }
        }
    }
    // A consequence about the value itself (`"then": {"minimum": -10}`) in words.
    if parts.is_empty() && o.properties().is_none() {
        let what = hints::summarize(s);
        if what != hints::ANY_VALUE {
            parts.push(what);
        }
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RuleId;
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

    #[test]
    fn gemini_unknown_name_if_cannot_find_field_conditional_folded() {
        let (_, changes) = fixes(
            &CONDITIONALS,
            r#"{"type":"object","properties":{"a":{"type":"string"}},"if":{"required":["a"]},"then":{"required":["b"]}}"#,
            &Rules::GEMINI,
            RuleId::UnsupportedKeyword,
        );
        assert_eq!(changes[0].rule, RuleId::Conditional);
    }

    #[test]
    fn gemini_unknown_name_dependent_schemas_cannot_find_field_folded() {
        let (_, changes) = fixes(
            &DEPENDENT_SCHEMAS,
            r#"{"type":"object","properties":{"a":{"type":"string"}},"dependentSchemas":{"a":{"required":["b"]}}}"#,
            &Rules::GEMINI,
            RuleId::UnsupportedKeyword,
        );
        assert_eq!(changes[0].rule, RuleId::DependentSchemas);
    }
}
