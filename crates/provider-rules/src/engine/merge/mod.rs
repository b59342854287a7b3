//! Merges: what the merging rules share; each is a file of its own: `allOf` into its node
//! ([`all_of`]), `if`/`then`/`else` ([`conditionals`]) and `dependentSchemas`
//! ([`dependent_schemas`]) into optional properties, where the provider does not accept them.

mod all_of;
mod conditionals;
mod dependent_schemas;
mod extras;

pub(crate) use all_of::{ALL_OF, merge_all_of};
pub(crate) use conditionals::CONDITIONALS;
pub(crate) use dependent_schemas::DEPENDENT_SCHEMAS;
pub(crate) use extras::hold_parts;

use crate::hints;
use schema_core::{Keyword, Schema, SchemaObject, Value};

/// Adds the keywords of `src` that `dst` lacks (the node's own keywords win).
pub(crate) fn absorb(dst: &mut SchemaObject, src: Schema) {
    let Schema::Object(mut src) = src else { return };
    for e in std::mem::take(src.entries_mut()) {
        if !dst.entries().iter().any(|x| x.key == e.key) {
            dst.insert_key(e.key, e.value);
        }
    }
}

/// The `properties` of a `then`/`else`/dependent schema.
fn branch_properties(v: &Option<Value>) -> schema_core::SchemaMap {
    match v {
        Some(Value::Schema(s)) => s
            .as_object()
            .and_then(SchemaObject::properties)
            .cloned()
            .unwrap_or_default(),
        _ => schema_core::SchemaMap::default(),
    }
}

/// A merge's hint: its sentences one after the other, or none.
fn sentences(parts: Vec<String>) -> Option<String> {
    (!parts.is_empty()).then(|| parts.join(" "))
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
