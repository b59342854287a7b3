//! # toolschema
//!
//! Make LLM tool calling work across providers: rewrite each tool's JSON Schema into the dialect
//! its target provider accepts, keep every constraint the target can express, fold what must be
//! dropped into the `description`, and report what changed.
//!
//! This facade re-exports the workspace crates:
//! - [`schema_core`]: the typed JSON Schema model, parser, walk and `$ref` resolution.
//! - [`provider_rules`]: the provider profiles, the sanitizing engine, its report and the
//!   rejection check.
//! - [`tower_toolschema`]: the tower layer that sanitizes the schema slots of LLM request bodies.
//! - [`tool_calls`]: tool-call validation with errors a model can act on, and a tool catalogue.
//!
//! The `toolschema` command-line tool (feature `cli`, on by default) puts them behind
//! `sanitize`, `check`, `matrix`, `diff`, `providers`, `rules` and `validate`; run
//! `toolschema --help`.
#![forbid(unsafe_code)]

pub use provider_rules;
pub use schema_core;
pub use tool_calls;
pub use tower_toolschema;

#[cfg(feature = "serve")]
pub mod serve;

/// The README's Rust examples, compiled and run as doctests so they stay true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
