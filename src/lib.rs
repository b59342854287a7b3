//! # toolschema
//!
//! Make LLM tool calling work across providers: rewrite each tool's JSON Schema into the dialect
//! its target provider accepts, keep every constraint the target can express, fold what must be
//! dropped into the `description`, and report what changed.
//!
//! This facade re-exports the workspace crates:
//! - [`schema_core`]: the typed JSON Schema model, parser, walk and `$ref` resolution.
#![forbid(unsafe_code)]

pub use schema_core;
