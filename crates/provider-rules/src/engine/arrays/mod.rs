//! Arrays: what the array rules share; each is a file of its own: a tuple folded where the
//! provider has none ([`tuple_fold`]), `items` where it is required ([`items_missing`]).

mod items_missing;
mod tuple_fold;

pub(crate) use items_missing::ITEMS_MISSING;
pub(crate) use tuple_fold::TUPLE_FOLD;

use crate::engine::types::instance_type;
use schema_core::{InstanceType as T, Keyword, Schema, SchemaObject, TypeSet, Value};

/// The item type every array among `values` agrees on (other values are ignored), as a
/// typed schema; `None` when they disagree or the type would need more (arrays of arrays).
pub(crate) fn items_of(values: &[schema_core::Instance]) -> Option<Schema> {
    let mut types: Vec<T> = Vec::new();
    for a in values {
        let Ok(elems) = serde_json::from_str::<Vec<Box<serde_json::value::RawValue>>>(a.as_json())
        else {
            continue;
        };
        for e in elems {
            if let Ok(i) = schema_core::Instance::from_json(e.get()) {
                let t = instance_type(i.json_type());
                if !types.contains(&t) {
                    types.push(t);
                }
            }
        }
    }
    if types.contains(&T::Number) {
        types.retain(|t| *t != T::Integer);
    }
    match types.as_slice() {
        [t] if *t != T::Null && *t != T::Array => {
            let mut s = SchemaObject::new();
            s.insert(Keyword::Type, Value::Type(TypeSet::Single(*t)));
            Some(Schema::Object(s))
        }
        _ => None,
    }
}
