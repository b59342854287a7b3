//! Types: the helpers every step that reads or writes `type` shares; each rule on types is a
//! file of its own: a `type` list split ([`type_list`]), a missing type inferred
//! ([`type_inferred`]), keywords of another type removed ([`foreign_keyword`]), upper-case
//! type names read ([`type_case`]).

mod foreign_keyword;
mod type_case;
mod type_inferred;
mod type_list;

pub(crate) use foreign_keyword::FOREIGN_KEYWORD;
pub(crate) use type_case::read_type_names;
pub(crate) use type_inferred::{TYPE_INFERRED, infer_missing_type};
pub(crate) use type_list::TYPE_LIST;

use crate::engine::Cx;
use schema_core::{InstanceType as T, JsonType, Key, Keyword, Schema, SchemaObject, Value};

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

/// Whether unions may be written as `anyOf` under these rules.
pub(crate) fn unions_allowed(cx: &Cx<'_>) -> bool {
    !cx.rules.collapses_unions()
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
