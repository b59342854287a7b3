//! `not: {"type": ...}` where the dialect has no `not` but has type lists or unions (the Schema
//! proto: `Unknown name "not"`): the node takes the other types (issue 16, Gemini precision).
//! `integer` cannot be taken out of `number` (the proto's NUMBER holds integers), so
//! `not: {"type": "integer"}` keeps `number`: the rewrite only narrows what dropping `not`
//! would widen.

use super::Cx;
use crate::RuleId;
use schema_core::{
    InstanceType as T, Key, Keyword, KeywordMask, Schema, SchemaObject, Transform, TypeSet, Value,
};

/// Keywords of a `not` schema that say nothing of the value.
const ANNOTATIONS: &[Keyword] = &[Keyword::Title, Keyword::Description, Keyword::Comment];

/// The types a `not` schema made only of `type` rules out.
pub(super) fn ruled_out(not: &Schema) -> Option<Vec<T>> {
    let o = not.as_object()?;
    let only_type = o.entries().iter().all(|e| match &e.key {
        Key::Known(k) => *k == Keyword::Type || ANNOTATIONS.contains(k),
        Key::Other(_) => false,
    });
    if !only_type {
        return None;
    }
    o.types().map(|t| t.as_slice().to_vec())
}

/// The types of `o` once `out` are ruled out; `None` when nothing changes or nothing is left.
fn remaining(o: &SchemaObject, out: &[T]) -> Option<Vec<T>> {
    let own: Vec<T> = match o.types() {
        Some(t) => t.as_slice().to_vec(),
        None => T::ALL.to_vec(),
    };
    let gone = |t: &T| match t {
        // Ruling out integers leaves the non-integral numbers: `number` stays.
        T::Integer => out.contains(&T::Integer) || out.contains(&T::Number),
        T::Number => out.contains(&T::Number),
        other => out.contains(other),
    };
    let left: Vec<T> = own.iter().copied().filter(|t| !gone(t)).collect();
    (!left.is_empty() && left.len() < own.len()).then_some(left)
}

/// What a `not` schema says that the proto can say the other way round.
enum Negated {
    /// It takes every value (`not: {}`, `not: true`): the node takes none.
    Everything,
    /// One bound on one type (`minLength`, `maximum`, ...), beside at most `type` of that
    /// type: values of that type take the opposite bound, the others pass.
    Bound(Keyword, serde_json::Value),
}

/// The bounds [`Negated::Bound`] turns round, with the type they apply to.
const BOUNDS: &[(Keyword, T)] = &[
    (Keyword::MinLength, T::String),
    (Keyword::MaxLength, T::String),
    (Keyword::MinItems, T::Array),
    (Keyword::MaxItems, T::Array),
    (Keyword::MinProperties, T::Object),
    (Keyword::MaxProperties, T::Object),
    (Keyword::Minimum, T::Number),
    (Keyword::Maximum, T::Number),
    (Keyword::ExclusiveMinimum, T::Number),
    (Keyword::ExclusiveMaximum, T::Number),
];

/// Whether `not: not` can be said the proto's way ([`Negated`]).
pub(super) fn negatable(not: &Schema) -> bool {
    negated(not).is_some()
}

fn negated(not: &Schema) -> Option<Negated> {
    let o = match not {
        Schema::Bool(true) => return Some(Negated::Everything),
        Schema::Bool(false) => return None,
        Schema::Object(o) => o,
    };
    let mut bound = None;
    for e in o.entries() {
        let Key::Known(k) = &e.key else { return None };
        if ANNOTATIONS.contains(k) || *k == Keyword::Type {
            continue;
        }
        let (_, t) = BOUNDS.iter().find(|(b, _)| b == k)?;
        if bound.is_some() {
            return None;
        }
        bound = Some((*k, *t));
    }
    let Some((k, t)) = bound else {
        // Annotations only (a `type` alone is the other pass's).
        return (!o.contains(Keyword::Type)).then_some(Negated::Everything);
    };
    if let Some(types) = o.types() {
        let same = |x: &T| *x == t || (t == T::Number && *x == T::Integer);
        if types.as_slice().len() != 1 || !types.as_slice().iter().all(same) {
            return None;
        }
    }
    let v = not.to_value().get(k.as_str())?.clone();
    v.is_number().then_some(Negated::Bound(k, v))
}

/// No value is accepted here: the proto has no `false`, so a string of one member the
/// description names stands for it (a model that sends it sends what the tool refuses
/// anyway; every other value is refused as the original refuses it).
pub(crate) const NOTHING: &str = "(no value is accepted)";

/// Why a node accepts no value its composition could say (`allOf` with a `false` member;
/// `oneOf` with two members that take everything, or only `false` members).
fn accepts_nothing(o: &SchemaObject) -> Option<&'static str> {
    if o.enum_values().is_some_and(<[_]>::is_empty) {
        return Some("an empty enum: a node that accepts none");
    }
    let all = |kw| o.schemas(kw).unwrap_or_default();
    if all(Keyword::AllOf)
        .iter()
        .any(|m| matches!(m, Schema::Bool(false)))
    {
        return Some("allOf with a false member: a node that accepts none");
    }
    let one = all(Keyword::OneOf);
    let everything =
        |m: &Schema| matches!(m, Schema::Bool(true)) || m.as_object().is_some_and(|x| x.is_empty());
    if one.iter().filter(|m| everything(m)).count() >= 2
        || (!one.is_empty() && one.iter().all(|m| matches!(m, Schema::Bool(false))))
    {
        return Some("oneOf that no value matches exactly once: a node that accepts none");
    }
    None
}

/// Properties whose schema is `false`, and the members a `false` dependent schema forbids
/// (`dependentSchemas: {"bar": false}`: `bar` may not be there), become properties that
/// accept no value ([`nothing`]) instead of being dropped (which would let any value in).
/// A typeless node keeps every type: only objects are held to the properties. The names.
fn forbid_members(s: &mut Schema) -> Option<Vec<String>> {
    let o = s.as_object()?;
    let false_in = |kw: Keyword| {
        o.schema_map(kw)
            .is_some_and(|m| m.values().any(|v| matches!(v, Schema::Bool(false))))
    };
    // Read as JSON only where the node has draft-07 `dependencies` (rare): no copy per node.
    let dep_false = o.contains(Keyword::Dependencies)
        && s.to_value()
            .get("dependencies")
            .and_then(serde_json::Value::as_object)
            .is_some_and(|d| d.values().any(|v| *v == serde_json::Value::Bool(false)));
    if !false_in(Keyword::Properties) && !false_in(Keyword::DependentSchemas) && !dep_false {
        return None;
    }
    let typeless = o.types().is_none();
    let mut j = s.to_value();
    let m = j.as_object_mut()?;
    let mut n = Schema::Bool(false);
    nothing(&mut n);
    let none = n.to_value();
    let mut names = Vec::new();
    for kw in ["dependentSchemas", "dependencies"] {
        let Some(map) = m.get_mut(kw).and_then(serde_json::Value::as_object_mut) else {
            continue;
        };
        let gone: Vec<String> = map
            .iter()
            .filter(|(_, v)| **v == serde_json::Value::Bool(false))
            .map(|(k, _)| k.clone())
            .collect();
        for k in &gone {
            map.remove(k);
        }
        if map.is_empty() {
            m.remove(kw);
        }
        let props = m
            .entry("properties")
            .or_insert_with(|| serde_json::json!({}));
        if let Some(props) = props.as_object_mut() {
            for k in gone {
                props.insert(k.clone(), none.clone());
                names.push(k);
            }
        }
    }
    if let Some(props) = m
        .get_mut("properties")
        .and_then(serde_json::Value::as_object_mut)
    {
        for (k, v) in props.iter_mut() {
            if *v == serde_json::Value::Bool(false) {
                *v = none.clone();
                names.push(k.clone());
            }
        }
    }
    if typeless {
        let all: Vec<serde_json::Value> = T::ALL.iter().map(|t| t.as_str().into()).collect();
        m.insert("type".to_owned(), serde_json::Value::Array(all));
    }
    *s = Schema::from_value(&j);
    Some(names)
}

/// Whether `s` is what [`nothing`] makes (or `false`): a node that accepts no value.
pub(super) fn accepts_no_value(s: &Schema) -> bool {
    match s {
        Schema::Bool(b) => !b,
        Schema::Object(o) => o
            .enum_values()
            .is_some_and(|e| e.len() == 1 && e[0].to_value().as_str() == Some(NOTHING)),
    }
}

/// Makes `s` accept no value ([`NOTHING`]), keeping its title and description.
pub(super) fn nothing(s: &mut Schema) {
    let mut n = serde_json::Map::new();
    if let Some(o) = s.as_object() {
        if let Some(t) = o.string(Keyword::Title) {
            n.insert("title".to_owned(), t.into());
        }
        let d = crate::encode::described(o.description(), "Accepts no value.");
        n.insert("description".to_owned(), d.into());
    } else {
        n.insert("description".to_owned(), "Accepts no value.".into());
    }
    n.insert("type".to_owned(), "string".into());
    n.insert("enum".to_owned(), serde_json::json!([NOTHING]));
    *s = Schema::from_value(&serde_json::Value::Object(n));
}

/// Whether the profile is the Schema-proto family (no `not`, unions, `maxProperties`): the
/// dialect these tree passes rewrite for. Other dialects without `not` keep what they do.
pub(super) fn proto_family(rules: &crate::Rules) -> bool {
    let k = &rules.keywords;
    !k.contains(Keyword::Not) && k.contains(Keyword::AnyOf) && k.contains(Keyword::MaxProperties)
}

/// Rewrites `s` (whose `not` is `what`); what was done, for the report.
fn negate(s: &mut Schema, what: &Negated) -> String {
    let mut j = s.to_value();
    let Some(o) = j.as_object_mut() else {
        return String::new();
    };
    o.remove("not");
    match what {
        Negated::Everything => {
            nothing(s);
            "not of every value: a node that accepts none".to_owned()
        }
        Negated::Bound(k, v) => {
            let t = BOUNDS
                .iter()
                .find(|(b, _)| b == k)
                .map_or(T::String, |(_, t)| *t);
            // The opposite bound: counts exactly, numbers as the proto's inclusive bounds
            // (`not: {minimum: 3}` is `< 3`, said `maximum: 3`: a superset).
            let count = v.as_u64();
            let (flip, value): (&str, Option<serde_json::Value>) = match k {
                Keyword::MinLength => (
                    "maxLength",
                    count.and_then(|c| c.checked_sub(1)).map(Into::into),
                ),
                Keyword::MaxLength => ("minLength", count.map(|c| (c + 1).into())),
                Keyword::MinItems => (
                    "maxItems",
                    count.and_then(|c| c.checked_sub(1)).map(Into::into),
                ),
                Keyword::MaxItems => ("minItems", count.map(|c| (c + 1).into())),
                Keyword::MinProperties => (
                    "maxProperties",
                    count.and_then(|c| c.checked_sub(1)).map(Into::into),
                ),
                Keyword::MaxProperties => ("minProperties", count.map(|c| (c + 1).into())),
                Keyword::Minimum | Keyword::ExclusiveMinimum => ("maximum", Some(v.clone())),
                _ => ("minimum", Some(v.clone())),
            };
            let own: Vec<T> = match s.as_object().and_then(SchemaObject::types) {
                Some(ts) => ts.as_slice().to_vec(),
                None => T::ALL.to_vec(),
            };
            let applies = |x: &T| *x == t || (t == T::Number && *x == T::Integer);
            let left: Vec<T> = match &value {
                Some(_) => own.clone(),
                // `not: {minLength: 0}`: no string passes.
                None => own.iter().copied().filter(|x| !applies(x)).collect(),
            };
            if let Some(value) = value
                && own.iter().any(applies)
            {
                // Beside a bound of the same kind, the narrower of the two.
                let keep = match o.get(flip).and_then(serde_json::Value::as_f64) {
                    None => true,
                    Some(have) => {
                        let new = value.as_f64().unwrap_or(have);
                        if flip.starts_with("min") {
                            new > have
                        } else {
                            new < have
                        }
                    }
                };
                if keep {
                    o.insert(flip.to_owned(), value);
                }
            }
            let names: Vec<serde_json::Value> = left.iter().map(|x| x.as_str().into()).collect();
            match names.as_slice() {
                [] => {
                    return negate(s, &Negated::Everything);
                }
                [one] => o.insert("type".to_owned(), one.clone()),
                _ => o.insert("type".to_owned(), serde_json::Value::Array(names)),
            };
            *s = Schema::from_value(&j);
            format!(
                "not {}: {flip} on the values of type {}",
                k.as_str(),
                t.as_str()
            )
        }
    }
}

/// The node step, applied by `proto_walk` (one walk for the Schema-proto passes).
pub(super) struct Types<'a, 'r> {
    pub(super) cx: &'a mut Cx<'r>,
}
/// The keywords [`Types`] reads: it leaves a node that holds none of them as it is (an empty
/// enum, an `allOf`/`oneOf` that accepts nothing, `false` members, a `not`).
pub(super) const TYPES_READ: KeywordMask = KeywordMask::of(&[
    Keyword::Enum,
    Keyword::AllOf,
    Keyword::OneOf,
    Keyword::Properties,
    Keyword::DependentSchemas,
    Keyword::Dependencies,
    Keyword::Not,
]);

/// Whether [`Types`] leaves `o` (which holds some of [`TYPES_READ`]) as it is: it accepts
/// something, has no member that accepts nothing, no draft-07 `dependencies` (read as JSON),
/// no `not`.
pub(super) fn leaves(o: &SchemaObject, _: &super::unchanged::Node<'_>) -> bool {
    let false_in = |kw: Keyword| {
        o.schema_map(kw)
            .is_some_and(|m| m.values().any(|v| matches!(v, Schema::Bool(false))))
    };
    accepts_nothing(o).is_none()
        && !false_in(Keyword::Properties)
        && !false_in(Keyword::DependentSchemas)
        && !o.contains(Keyword::Dependencies)
        && !o.contains(Keyword::Not)
}

impl Transform for Types<'_, '_> {
    fn pre(&mut self, p: &str, s: &mut Schema) {
        let Some(o) = s.as_object_mut() else {
            return;
        };
        if !o.may_contain_any(TYPES_READ) {
            return;
        }
        if let Some(why) = accepts_nothing(o) {
            nothing(s);
            self.cx.change(p, RuleId::Not, why.to_owned());
            return;
        }
        if let Some(names) = forbid_members(s) {
            self.cx.change(
                p,
                RuleId::BooleanSchema,
                format!("members that accept no value: {}", names.join(", ")),
            );
        }
        let Some(o) = s.as_object() else { return };
        if let Some(what) = o.schema(Keyword::Not).and_then(negated) {
            let done = negate(s, &what);
            self.cx.change(p, RuleId::Not, done);
            return;
        }
        let Some(o) = s.as_object_mut() else {
            return;
        };
        let Some(left) = o
            .schema(Keyword::Not)
            .and_then(ruled_out)
            .and_then(|out| remaining(o, &out))
        else {
            return;
        };
        o.remove(Keyword::Not);
        let names: Vec<&str> = left.iter().map(|t| t.as_str()).collect();
        let ty = match left.as_slice() {
            [one] => TypeSet::Single(*one),
            _ => TypeSet::List(left.clone()),
        };
        if o.contains(Keyword::Type) {
            o.insert(Keyword::Type, Value::Type(ty));
        } else {
            o.insert_at(0, Keyword::Type, Value::Type(ty));
        }
        self.cx.change(
            p,
            RuleId::Not,
            format!("not of types: the other types ({})", names.join(", ")),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::Rules;
    use schema_core::Schema;

    fn gemini(text: &str) -> serde_json::Value {
        let s = Schema::from_str(text).unwrap();
        crate::sanitize(&s, &Rules::GEMINI, crate::Slot::Schema)
            .schema
            .to_value()
    }

    #[test]
    fn not_of_everything_accepts_nothing_and_a_bound_turns_round() {
        let ok = |out: &serde_json::Value, v: serde_json::Value| {
            jsonschema::validator_for(out).is_ok_and(|x| x.is_valid(&v))
        };
        for text in [
            r#"{"not":{}}"#,
            r#"{"not":true}"#,
            r#"{"not":{"description":"x"}}"#,
        ] {
            let out = gemini(text);
            for v in [
                serde_json::json!(1),
                serde_json::json!("a"),
                serde_json::json!(false),
                serde_json::json!({}),
                serde_json::json!([]),
            ] {
                assert!(!ok(&out, v), "{out}");
            }
        }
        let out = gemini(r#"{"properties":{"foo":{"not":{}}}}"#);
        assert!(!ok(&out, serde_json::json!({"foo": 1})), "{out}");
        assert!(ok(&out, serde_json::json!({"bar": 1})), "{out}");
        // `not: {minLength: 2}`: strings of at most one character, and every other type.
        let out = gemini(r#"{"not":{"minLength":2}}"#);
        for (v, want) in [
            (serde_json::json!("a"), true),
            (serde_json::json!("ab"), false),
            (serde_json::json!(7), true),
            (serde_json::json!([1, 2]), true),
            (serde_json::json!(false), true),
        ] {
            assert_eq!(ok(&out, v.clone()), want, "{v} {out}");
        }
        // Numbers: `not: {exclusiveMaximum: 0}` is `minimum: 0`, exactly.
        let out = gemini(r#"{"type":"number","not":{"exclusiveMaximum":0}}"#);
        assert!(
            ok(&out, serde_json::json!(0)) && !ok(&out, serde_json::json!(-1)),
            "{out}"
        );
        // `not: {minItems: 0}`: no array passes, the rest do.
        let out = gemini(r#"{"not":{"type":"array","minItems":0}}"#);
        assert!(
            !ok(&out, serde_json::json!([])) && ok(&out, serde_json::json!("s")),
            "{out}"
        );
    }

    #[test]
    fn empty_enums_and_false_members_accept_nothing() {
        let ok = |out: &serde_json::Value, v: serde_json::Value| {
            jsonschema::validator_for(out).is_ok_and(|x| x.is_valid(&v))
        };
        let out = gemini(r#"{"enum":[]}"#);
        assert!(
            !ok(&out, serde_json::json!(1)) && !ok(&out, serde_json::json!("a")),
            "{out}"
        );
        for text in [
            r#"{"properties":{"bar":false,"foo":true}}"#,
            r#"{"dependentSchemas":{"bar":false,"foo":true}}"#,
            r#"{"dependencies":{"bar":false,"foo":true}}"#,
        ] {
            let out = gemini(text);
            assert!(!ok(&out, serde_json::json!({"bar": 2})), "{text} {out}");
            assert!(ok(&out, serde_json::json!({"foo": 2})), "{text} {out}");
            assert!(ok(&out, serde_json::json!("not an object")), "{text} {out}");
        }
    }

    #[test]
    fn not_of_types_is_the_other_types() {
        let out = gemini(r#"{"not":{"type":["integer","boolean"]}}"#);
        let types: Vec<&str> = out["anyOf"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|b| b["type"].as_str())
            .collect();
        assert_eq!(types, ["object", "array", "number", "string"], "{out}");
        // Integers cannot leave NUMBER: `not integer` keeps every type.
        let out = gemini(r#"{"type":"number","not":{"type":"integer"}}"#);
        assert_eq!(out["type"], "number");
        // A `not` of a type and one bound turns the bound round.
        let out = gemini(r#"{"type":"string","not":{"type":"string","minLength":2}}"#);
        assert_eq!(
            (&out["type"], &out["maxLength"]),
            (&"string".into(), &1.into())
        );
        // A `not` of more than that is left to the description.
        let out = gemini(r#"{"type":"string","not":{"minLength":2,"pattern":"a"}}"#);
        assert!(out.get("maxLength").is_none());
    }
}
