//! # schema-core
//!
//! A typed, order-preserving model of JSON Schema — every keyword of draft-04, -06, -07,
//! 2019-09 and 2020-12 plus OpenAPI 3.0's `nullable`, `example` and `discriminator` — with:
//!
//! - a streaming, depth-bounded parser ([`Schema::parse`]): no input makes it recurse without
//!   bound (subschemas deeper than [`ParseOptions::max_depth`] are replaced by `{}` and
//!   reported); keywords with a wrong JSON type are kept verbatim and reported as
//!   [`Diagnostic`]s; a non-object root parses;
//! - no recursion without bound anywhere: serializing is iterative, `Clone`, `PartialEq` and
//!   `Drop` switch to an explicit stack on deep trees, the walk stops at [`MAX_WALK_DEPTH`], so
//!   even a tree built by hand 100,000 levels deep is safe on a 2 MiB stack;
//! - a lossless round-trip: [`Schema::to_json_string`] writes what was read, key order included,
//!   without serde_json's `preserve_order` feature (instances are kept verbatim as [`Instance`]);
//! - a keyword-aware walk ([`Schema::walk`], [`Schema::transform`]) that enters only subschema
//!   positions, with each node's JSON pointer;
//! - local `$ref` resolution and bounded inlining ([`Schema::resolve`], [`Schema::inline_refs`]);
//! - dialect detection ([`Dialect`]).
//!
//! It knows nothing of LLM providers; `provider-rules` builds on it.
//!
//! ```
//! use schema_core::{Keyword, Schema};
//!
//! let text = r##"{"type":"object","properties":{"properties":{"type":"string"}},"required":["properties"]}"##;
//! let schema = Schema::from_str(text)?;
//! // A property named `properties` is a name, not a keyword.
//! let props = schema.as_object().unwrap().properties().unwrap();
//! assert_eq!(props.keys().collect::<Vec<_>>(), ["properties"]);
//! assert_eq!(schema.to_json_string(), text);
//! # Ok::<(), schema_core::SchemaError>(())
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod deep;
mod dialect;
mod error;
mod escape;
mod facts;
mod instance;
mod keyword;
mod keyword_mask;
mod parse;
pub mod pointer;
mod refs;
mod scan;
mod scan_bytes;
mod schema;
mod ser;
mod types;
mod walk;

pub use dialect::Dialect;
pub use error::{Diagnostic, DiagnosticKind, SchemaError};
pub use escape::short_escape;
pub use instance::{Instance, JsonType};
pub use keyword::{Keyword, Shape};
pub use keyword_mask::KeywordMask;
pub use parse::{ParseOptions, Parsed};
pub use refs::{
    InlineOptions, Inlined, RefError, RefIndex, RefIssue, RefIssueKind, merge_ref_siblings,
    resolve_uri,
};
pub use schema::{
    Dependency, Entry, InstanceType, Key, NameHasher, Schema, SchemaMap, SchemaObject, TypeSet,
    Value, schema_map_with_capacity,
};
pub use ser::{MAX_VALUE_DEPTH, PRETTY_MAX_INDENT, nesting, pretty};
pub use walk::{Location, MAX_WALK_DEPTH, Transform, Visit};

/// The README's examples, run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
