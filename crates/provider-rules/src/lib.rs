//! # provider-rules
//!
//! What each LLM provider accepts in a tool's JSON Schema, as data ([`Rules`], one `const`
//! per profile), and the engine that rewrites a schema into it ([`sanitize`]), with a report
//! of every change and a linter that predicts the provider's 400 ([`check`](fn@check)).
//!
//! ```
//! use provider_rules::{check, sanitize, Rules, Slot};
//! use schema_core::Schema;
//!
//! // An MCP tool's input schema, as servers send it.
//! let input = Schema::from_str(r#"{
//!     "type": "object",
//!     "properties": {
//!         "url": {"type": "string", "format": "uri"},
//!         "limit": {"type": ["integer", "null"], "exclusiveMinimum": 0}
//!     },
//!     "additionalProperties": false,
//!     "$schema": "http://json-schema.org/draft-07/schema#"
//! }"#)?;
//!
//! // Gemini would answer 400 ...
//! assert!(!check(&input.to_value(), &Rules::GEMINI, Slot::Parameters).is_empty());
//! // ... so rewrite it: what Gemini can say another way is said so (`> 0` on integers is
//! // `minimum: 1`, a closed object has at most its 2 properties), the rest goes to the
//! // descriptions.
//! let out = sanitize(&input, &Rules::GEMINI, Slot::Parameters);
//! assert!(check(&out.schema.to_value(), &Rules::GEMINI, Slot::Parameters).is_empty());
//! assert_eq!(
//!     out.schema.to_json_string(),
//!     r#"{"type":"object","properties":{"url":{"type":"string","description":"Format: uri."},"limit":{"type":"integer","nullable":true,"minimum":1}},"maxProperties":2,"description":"No other properties are allowed."}"#
//! );
//! assert!(out.report.lossy_count() > 0);
//! # Ok::<(), schema_core::SchemaError>(())
//! ```
//!
//! ## Providers are data
//!
//! Each provider is one [`Provider`] value in one file under `src/providers/`: its name and
//! description, its profiles by [`Role`] (native, JSON-Schema slots, strict: each a
//! [`Rules`]), the model prefixes, vendors and hosts that identify it, the APIs it serves, its
//! error texts per rule. [`PROVIDERS`] lists them; everything else reads that list: the
//! checker's error texts (by the profile's [`family`], so a custom profile with
//! `extends = "gemini"` keeps Gemini's), [`PROFILES`], the tower layer's profiles, `auto`
//! routing and constructors, the CLI's `providers`, `matrix` and `--provider`.
//!
//! ```
//! use provider_rules::{Role, family, provider};
//! let groq = provider("groq").unwrap();
//! assert_eq!(groq.strict.unwrap().name(), "groq-strict");
//! assert!(groq.serves_host("api.groq.com"));
//! assert_eq!(family(groq.strict.unwrap()).map(|(p, r)| (p.name, r)), Some(("groq", Role::Strict)));
//! ```
//!
//! ## Adding a provider
//!
//! One file and one line:
//!
//! 1. `src/providers/acme.rs`: the provider's profiles as `impl Rules { pub const ACME: Rules
//!    = Rules { name: Cow::Borrowed("acme"), ..Rules::OPENAI }; }` (derive from the nearest
//!    built-in; every field that differs carries a comment citing the provider error it
//!    prevents), and `impl Provider { pub const ACME: Provider = Provider { name: "acme",
//!    description, native: &Rules::ACME, json_schema, strict, models, vendors, hosts, apis,
//!    carries, errors } }`.
//! 2. `src/providers/mod.rs`: the line `acme => ACME,` in the `providers!` list.
//!
//! The provider is then in [`PROVIDERS`] and [`PROFILES`] (so every corpus, property and
//! fuzz test that loops over them covers it), `ToolSchemaLayer::for_provider("acme")`, `auto`
//! (by its hosts, models, vendors and APIs), `toolschema providers`, `matrix` and
//! `--provider acme`. Its description's claims about the rules are derived from the rules
//! ([`Rules::traits`]) and each claim is tested against what sanitizing does.
//!
//! ## Adding a rule
//!
//! A rule is one value, a `Rule` (its [`RuleId`], its gate, its step before and/or after a
//! node's children, its check, its hints, the other ids it reports), declared in the file of
//! its fix; the engine and the checker both run the rules in one declared order, `ORDER` in
//! `src/engine/mod.rs`. Three steps:
//!
//! 1. One file, `src/engine/acme.rs`, holding
//!    - the step, `pub(crate) fn acme(node: &mut Schema, p: &str, cx: &mut Cx<'_>)`, which
//!      reports each change with `cx.change(p, RuleId::Acme, ..)` (or `cx.lost(.., hint)` when
//!      meaning moves to the description: the sentence is a `Hint` of the rule, `const
//!      ACME_HINT: Hint = Hint::new(RuleId::Acme, "Acme: {}.")`, filled with
//!      `ACME_HINT.with(&[words])`; a dropped keyword's own hint is `hints::for_keyword`);
//!    - its check, `pub(crate) mod check { pub(crate) fn acme(c: &mut Checker<'_>, p: &str, o:
//!      &SchemaObject) }`, which `c.push`es what the step would change;
//!    - the rule: `pub(crate) static ACME: Rule = Rule::new(RuleId::Acme).gate(|r, _|
//!      r.acme).post(acme).check(Check::Object(check::acme)).hints(&[ACME_HINT]);`, with
//!      `.reports(&[..])` for the other ids its changes and violations name (the gate is the
//!      one [`Rules`] field that turns it on: the step does not test it; a rule without its
//!      own check names the rule whose check finds what it fixes,
//!      `.found_by(&filter::UNSUPPORTED_KEYWORD, why)`, or says why none can,
//!      `.unchecked(why)`);
//!    - its unit tests, `engine::alone::fixes(&ACME, json, rules, id)` (the check finds it,
//!      the fix alone fixes it, the check then finds nothing), each named for the provider
//!      error it prevents (integration tests run a rule alone by its id: `one_rule::fix` and
//!      `one_rule::check`).
//! 2. One line in the order: `Post(&acme::ACME),` (or `Pre(..)`, or both) in `ORDER`, and
//!    `mod acme;` beside it; its id, `Acme = "acme",`, in `src/rule_id.rs` ([`RuleId`], the name
//!    reports and the CLI show). Where the line goes is where the step runs and where the
//!    checker reports it. A pass over the whole tree that no step of a node can be is a
//!    `Tree` entry of the same order (declared in `src/engine/trees.rs`, with the reason),
//!    run before or after the walk at its place; the depth cap stays the last entry. A test fails for a rule that fixes without a check or a reason, or a step with no
//!    place in the order.
//! 3. Its error text in the provider's file: an [`ErrorText`] `{ rules: &["acme"], text }` in
//!    `src/providers/<provider>.rs`, quoted from a public 400 (a test checks that every id
//!    there is a [`RuleId`] that a rule reports: `one_rule::provider_errors` reads them from
//!    the rule).
//!
//! Every property, corpus and fuzz test then covers it: `check(sanitize(x))` is empty for
//! every profile only if the step fixes what the check finds.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod batch;
mod check;
mod config;
mod cost;
pub mod decode;
mod depth;
pub mod encode;
mod engine;
#[doc(hidden)]
pub use engine::alone as one_rule;
mod hints;
mod keys;
mod keyword_set;
mod names;
mod parsed;
mod providers;
mod report;
mod rule_id;
mod rules;
mod slot;
mod tool_input;
mod traits;

pub use batch::sanitize_into;
pub use check::{check, check_schema, check_slice};
pub use config::RulesError;
pub use cost::{StrictCost, strict_cost};
pub use decode::Decoder;
pub use encode::{Encodings, SanitizeOptions};
pub use names::{NameMap, RenameReason, ToolNames, check_tool_name};
pub(crate) use parsed::Read;
pub use parsed::sanitize_parsed_with;
pub use providers::{
    Carries, ErrorText, PROFILES, PROVIDERS, Provider, Role, family, profile, profile_names,
    provider, provider_names,
};
pub use report::{Change, Report, Sanitized, Violation};
pub use rule_id::{RuleId, UnknownRule};
pub use rules::*;
pub use slot::Slot;
pub use tool_input::{
    EMPTY_INPUT_SCHEMA, ToolInput, check_field_count, check_tool_count, non_schema_root,
    tool_input_schema,
};

use schema_core::{Schema, SchemaError};

/// Rewrites `schema` into what the provider described by `rules` accepts.
///
/// Never panics; idempotent (`sanitize(sanitize(x)) == sanitize(x)`); deterministic; property
/// names and their order are kept. What the provider cannot express is folded into
/// `description` (when `rules.hints`), and every change is in the report, which is empty
/// exactly when the output equals the input. For every profile,
/// `check(sanitize(x).schema)` is empty. The output nests at most 64 schema levels (what the
/// parser keeps, and what `check` accepts): where the engine's rewriting would go deeper (the
/// profile's any-value alternatives below a node at level 60...), the subtree is replaced by a
/// schema that does not describe it, and the report says so (rule `depth`, lossy).
///
/// For JSON bytes, [`sanitize_slice`] also reports what the parser cut.
///
/// ```
/// use provider_rules::{sanitize, Rules, Slot};
/// let s = schema_core::Schema::from_str(r#"{"type":"object","properties":{"n":{"type":"integer","enum":[1,2,3]}}}"#)?;
/// let out = sanitize(&s, &Rules::GEMINI, Slot::Parameters);
/// assert_eq!(out.schema.to_json_string(),
///     r#"{"type":"object","properties":{"n":{"type":"integer","minimum":1,"maximum":3,"description":"Allowed values: 1, 2, 3."}}}"#);
/// # Ok::<(), schema_core::SchemaError>(())
/// ```
pub fn sanitize(schema: &Schema, rules: &Rules, slot: Slot) -> Sanitized {
    sanitize_with(schema, rules, slot, &SanitizeOptions::default())
}

/// [`sanitize`] with options: with [`SanitizeOptions::encode`], the profile's lossless
/// [`Encodings`] say what its dialect cannot (maps, any values, numeric enums, tuples) another
/// way, and [`Sanitized::decoder`] brings the model's values back (see [`encode`]). Only for a
/// caller that decodes; `sanitize` is `sanitize_with` and the default options.
///
/// ```
/// use provider_rules::{sanitize, sanitize_with, Rules, SanitizeOptions, Slot};
/// let tool = schema_core::Schema::from_str(r#"{"type":"object","properties":{"meta":{"type":"object"}},"required":["meta"]}"#)?;
/// // Without encodings, an open object makes the schema not strict-compatible ...
/// assert!(!sanitize(&tool, &Rules::OPENAI_STRICT, Slot::Parameters).report.strict_compatible);
/// // ... with them, it stays strict, and the decoder brings the object back.
/// let out = sanitize_with(&tool, &Rules::OPENAI_STRICT, Slot::Parameters, &SanitizeOptions::ENCODE);
/// assert!(out.report.strict_compatible);
/// let sent = r#"{"meta":[{"key":"n","value":"7"}]}"#;
/// assert_eq!(out.decoder.decode_json(sent)?.as_deref(), Some(r#"{"meta":{"n":7}}"#));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn sanitize_with(
    schema: &Schema,
    rules: &Rules,
    slot: Slot,
    options: &SanitizeOptions,
) -> Sanitized {
    // A schema no step changes is the result as it is: the engine is not run.
    if let Some(out) = parsed::unchanged_tree(schema, rules, slot, options) {
        return out;
    }
    engine::sanitize_with(schema.clone(), rules, slot, options)
}

/// [`sanitize_slice`] with options (see [`sanitize_with`]).
///
/// ```
/// use provider_rules::{sanitize_slice_with, Rules, SanitizeOptions, Slot};
/// let out = sanitize_slice_with(br#"{"type":"object","properties":{"n":{"enum":[1,2]}}}"#,
///     &Rules::GEMINI, Slot::Parameters, &SanitizeOptions::ENCODE)?;
/// assert!(out.report.changes.iter().any(|c| c.rule == "encode-enum-text"));
/// # Ok::<(), schema_core::SchemaError>(())
/// ```
pub fn sanitize_slice_with(
    bytes: &[u8],
    rules: &Rules,
    slot: Slot,
    options: &SanitizeOptions,
) -> Result<Sanitized, SchemaError> {
    Ok(Read::parse(bytes, rules)?.sanitized(rules, slot, options))
}

/// Parses JSON bytes and [`sanitize`]s the schema: the entry point for schemas as they arrive
/// (a request body's slot, a file), at any nesting depth.
///
/// The parser keeps 64 schema levels ([`schema_core::ParseOptions`]'s default) and cuts what is deeper
/// (without recursing into it, so no input can exhaust the stack); each cut is in the report
/// as a lossy change with rule `depth` at the pointer of the cut subtree, and the subtree's
/// place says so in its description (`"Nested deeper than 64 levels; not described."`, when the
/// profile has [`hints`](Rules::hints)). Where the profile's rewriting of the cut place would
/// itself go past the limit (Gemini's any-value alternatives take 6 levels), the cut is made
/// higher up and reported there instead. The output passes [`check`](fn@check), and sanitizing it again
/// changes nothing.
///
/// The error is the parser's: the bytes are not JSON.
///
/// ```
/// use provider_rules::{check, sanitize_slice, Rules, Slot};
/// // 70 levels of objects: the parser keeps 64.
/// let mut text = String::from(r#"{"type":"string"}"#);
/// for _ in 0..70 {
///     text = format!(r#"{{"type":"object","properties":{{"a":{text}}}}}"#);
/// }
/// let out = sanitize_slice(text.as_bytes(), &Rules::OPENAI, Slot::Parameters)?;
/// let cut = out.report.changes.iter().find(|c| c.rule == "depth").expect("reported");
/// assert!(cut.lossy);
/// assert_eq!(cut.pointer, "/properties/a".repeat(64));
/// assert!(out.schema.to_json_string().contains("Nested deeper than 64 levels; not described."));
/// // What comes out is within the limit, so the provider's check passes ...
/// assert!(check(&out.schema.to_value(), &Rules::OPENAI, Slot::Parameters).is_empty());
/// // ... and a second pass is a no-op.
/// let again = sanitize_slice(out.schema.to_json_string().as_bytes(), &Rules::OPENAI, Slot::Parameters)?;
/// assert!(again.report.is_empty());
/// # Ok::<(), schema_core::SchemaError>(())
/// ```
pub fn sanitize_slice(bytes: &[u8], rules: &Rules, slot: Slot) -> Result<Sanitized, SchemaError> {
    sanitize_slice_with(bytes, rules, slot, &SanitizeOptions::default())
}

/// The README's examples, run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
