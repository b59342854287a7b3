//! Objects: what every object rule shares; each rule on objects is a file of its own
//! ([`property_named_properties`], [`required`], [`additional_properties`],
//! [`empty_properties`], [`boolean_required`](mod@boolean_required)).

mod additional_properties;
mod boolean_required;
mod empty_properties;
mod property_named_properties;
mod required;

pub(crate) use additional_properties::ADDITIONAL_PROPERTIES;
pub(crate) use boolean_required::{boolean_required, promote_boolean_required};
pub(crate) use empty_properties::EMPTY_PROPERTIES;
pub(crate) use property_named_properties::PROPERTY_NAMED_PROPERTIES;
pub(crate) use required::{REQUIRED, settled as required_settled};

use crate::engine::types::node_types;
use schema_core::{InstanceType as T, SchemaObject};

/// Whether a node describes objects (typed so, or typeless with `properties`).
pub(crate) fn is_object(o: &SchemaObject) -> bool {
    let t = node_types(o);
    t.contains(&T::Object) || (t.is_empty() && o.properties().is_some())
}
