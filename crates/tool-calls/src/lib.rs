//! Tool-call validation with errors a model can act on, and a tool catalogue with progressive
//! disclosure.
//!
//! Sanitizing a tool schema for a provider drops the constraints the provider cannot express,
//! so a tool call's arguments must still be checked at dispatch, against the tool's
//! **original** schema. When the check fails, the error goes back to the model, and it must be
//! able to fix its call in one step: a bare "Invalid input for tool: X" makes models re-read the
//! schema and loop. This crate says what is wrong, where, what was sent and what is expected,
//! and ends every message with a worked example of the expected shape.
//!
//! # Validate
//!
//! ```
//! use serde_json::json;
//!
//! let schema = json!({
//!     "type": "object",
//!     "properties": {
//!         "namespace": {"type": "string"},
//!         "toolName": {"type": "string"},
//!         "arguments": {"type": "object"}
//!     },
//!     "required": ["namespace", "toolName", "arguments"]
//! });
//! let call = json!({"namespace": "mail", "name": "search", "arguments": "{\"q\": \"x\"}"});
//! let err = tool_calls::validate(&schema, &call).unwrap_err();
//! assert_eq!(err.to_string(), "\
//! 2 problems:
//! - \"toolName\" is missing — you sent \"name\"; the field is \"toolName\"
//! - \"arguments\" must be a JSON object, not a string — send the object itself, not JSON text
//! Expected {\"namespace\":\"<string>\",\"toolName\":\"<string>\",\"arguments\":{...}}");
//!
//! // Opt-in lenient mode: JSON text that parses and validates is accepted, and reported.
//! let ok = tool_calls::validate_with(
//!     &schema,
//!     &json!({"namespace": "mail", "toolName": "search", "arguments": "{\"q\": \"x\"}"}),
//!     &tool_calls::ValidateOptions::lenient(),
//! ).unwrap();
//! assert_eq!(ok.arguments["arguments"], json!({"q": "x"}));
//! assert_eq!(ok.coercions.len(), 1);
//! ```
//!
//! What a message covers: missing required fields, and the sent key that probably meant one (an
//! alias table — `name`/`tool`/`function` for `*name` fields, `args`/`params`/`parameters`/`input`
//! for `arguments` — plus case-, separator- and edit-distance matches against the schema's own
//! property names); wrong types (with JSON text called out); `enum` and `const` values; unknown
//! fields under `additionalProperties: false` (the allowed names, closest first); length, count
//! and numeric bounds; `pattern`s; `format`s; `anyOf`/`oneOf` (the problems of the branch the
//! call meant); `not`, `if`/`then`/`else`, `dependentRequired`. Each [`Problem`] carries its JSON
//! pointer, the value sent and a [`ProblemKind`] with what is expected.
//!
//! # Catalogue and progressive disclosure
//!
//! [`ToolCatalog`] holds tools by namespace. An unknown name is answered with the names there
//! are, closest first (`Tool not found: "serch" in namespace "mail". Tools in this namespace:
//! search, send`). For agents whose tool lists are too large to send on every turn, the catalogue
//! offers two meta-tools ([`ToolCatalog::meta_tools`]) whose schemas are plain, portable JSON
//! Schema: `get_dynamic_tools` (list namespaces, list a namespace's tools, describe one tool with
//! the exact `callWith` input) and `call_dynamic_tool` (`{"namespace", "toolName",
//! "arguments"}`). [`ToolCatalog::handle_meta_call`] answers them: envelope mistakes get the
//! messages above, the arguments are validated against the tool's original schema, and a valid
//! call runs the tool's [`ToolHandler`].
//!
//! ```
//! use serde_json::{json, Value};
//! use tool_calls::{Tool, ToolCatalog};
//!
//! let mut catalog = ToolCatalog::new();
//! catalog.register("mail", Tool::new("search", "Search mail",
//!     json!({"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}))
//!     .with_handler(|args: Value| Ok(json!({"hits": 0, "query": args["query"]}))));
//!
//! let err = catalog.handle_meta_call("call_dynamic_tool",
//!     &json!({"namespace": "mail", "toolName": "search", "arguments": {"q": "x"}})).unwrap_err();
//! assert_eq!(err.to_string(), "\
//! Invalid arguments for tool \"search\" in namespace \"mail\":
//! \"arguments.query\" is missing — it is required (a string)
//! Expected {\"namespace\":\"mail\",\"toolName\":\"search\",\"arguments\":{\"query\":\"<string>\"}}");
//!
//! let out = catalog.handle_meta_call("call_dynamic_tool",
//!     &json!({"namespace": "mail", "toolName": "search", "arguments": {"query": "x"}})).unwrap();
//! assert_eq!(out, json!({"hits": 0, "query": "x"}));
//! ```
//!
//! Handlers are synchronous (`Fn(Value) -> Result<Value, ToolError>`): the catalogue validates
//! and routes; an async application calls [`ToolCatalog::prepare_dynamic_call`], which returns
//! the tool and its validated arguments, and awaits its own handler. See
//! `examples/dispatch.rs` for a whole validate → error to the model → corrected call loop.
//!
//! # The CLI
//!
//! `toolschema validate --schema FILE [ARGS_FILE]` calls [`validate_tool_input`]: the schema file
//! may hold a JSON Schema or a tool definition ([`input_schema_of`]); it prints the
//! [`Outcome`] (`Display` is the model-facing message) and exits with [`Outcome::exit_code`]
//! (0 valid, 1 invalid), or [`EXIT_BAD_INPUT`] (2) when a file cannot be read or parsed.
//!
//! # Why a hand-written validator
//!
//! A message a model can act on needs the structure of each failure (which sent key probably
//! meant the missing field, which `anyOf` branch the call meant, whether a string is JSON text of
//! the expected object); a generic validator's error list does not carry it. Build cost, measured
//! as clean debug builds with one job (`cargo build -j1`) of a binary depending on `serde_json`
//! plus the validator: with this crate's only extra dependency, `regex` (no default features;
//! `std`, `unicode-perl` and `unicode-case`), 9 crates in 12 s; with `jsonschema` 0.33
//! (`default-features = false`), 99 crates in 72 s. `jsonschema` is a dev-dependency only: the
//! tests cross-check this validator's verdicts against it and against the JSON-Schema-Test-Suite
//! (draft 2020-12: 97.7% agreement with the suite, 97.6% with `jsonschema` on the keyword files
//! supported; the remaining cases are references by `$id`/URN/other documents, which this crate
//! does not follow and treats as accepting, and annotation collection inside `not`).
//!
//! Limits: `unevaluatedProperties`/`unevaluatedItems` and non-local `$ref`s accept anything;
//! `pattern` uses the linear-time `regex` crate; a pattern it cannot compile (look-around,
//! back-references) is evaluated by `fancy-regex` with a backtrack limit of 100,000 steps, and
//! one that cannot be evaluated (the limit reached, or syntax neither reads) is reported as not
//! checked ([`ProblemKind::PatternNotChecked`]), never taken as matched. Evaluating beats
//! "not checked" by measurement: of the corpus's 35 distinct patterns (MCP servers and the
//! JSON-Schema-Test-Suite), 33 compile with `regex`, and the other 2 are ECMA-262 control
//! escapes (`\cC`), which the validator translates; the backtracking engine is already in the
//! lock file (through `jsonschema`), so it adds no crate to the workspace's build, and its limit
//! bounds a pathological pattern (`^(a+)+\1x$` on 40 `a`s) to a "not checked"
//! (`cargo test -p tool-calls --test patterns -- --nocapture` prints the counts);
//! arguments nested deeper than [`ValidateOptions::max_depth`] (64)
//! are reported, not walked; a validation stops looking after 200 000 steps.
#![forbid(unsafe_code)]

mod aliases;
mod catalog;
mod check;
mod disclosure;
mod error;
mod example;
mod format;
mod json_type;
mod message;
mod options;
mod outcome;
mod resolve;
mod validate;

pub use catalog::{
    DEFAULT_NAMESPACE, DispatchError, LookupError, Tool, ToolCatalog, ToolDescription, ToolError,
    ToolHandler,
};
pub use check::{Validated, validate, validate_with};
pub use disclosure::{CALL_DYNAMIC_TOOL, GET_DYNAMIC_TOOLS, MetaTool, PreparedCall};
pub use error::{CallError, Coercion, Problem, ProblemKind};
pub use example::{EXAMPLE_BUDGET, example_arguments, worked_example};
pub use json_type::{JsonType, TypeNoun};
pub use message::field_name;
pub use options::ValidateOptions;
pub use outcome::{EXIT_BAD_INPUT, Outcome, input_schema_of, validate_tool_input};

/// The README's examples, run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
