//! Sanitizing a schema the caller has already parsed (or built as the parser would): what
//! [`crate::sanitize_slice_with`] does after its parse, for a binding that reads its own
//! values (a Python dict) straight into the tree, with no JSON text in between.

use crate::engine;
use crate::{Rules, SanitizeOptions, Sanitized, Slot, depth};
use schema_core::{DiagnosticKind, ParseOptions, Parsed, Schema, SchemaError};

/// [`crate::sanitize_slice_with`] on a schema already parsed: `parsed` is what
/// [`schema_core::Schema::parse`] returned for the bytes (with the default
/// [`schema_core::ParseOptions`]), or a tree built to say the same: every known keyword's value
/// of the wrong JSON type kept as [`schema_core::Value::Raw`] *and* reported as a
/// [`DiagnosticKind::WrongType`], every subtree deeper than 64 levels cut to `{}` and reported
/// as a [`DiagnosticKind::DepthLimit`]. The result is then the one `sanitize_slice_with` gives
/// for the bytes. (A tree that holds an unreported `Raw` value, or nests deeper than the
/// parser keeps, is for [`crate::sanitize_with`], which assumes neither.)
///
/// ```
/// use provider_rules::{sanitize_parsed_with, sanitize_slice_with, Rules, SanitizeOptions, Slot};
/// use schema_core::{ParseOptions, Schema};
/// let text = br#"{"type":"object","properties":{"n":{"enum":[1,2]}}}"#;
/// let parsed = Schema::parse(text, &ParseOptions::default())?;
/// let opts = SanitizeOptions::default();
/// let a = sanitize_parsed_with(parsed, &Rules::GEMINI, Slot::Parameters, &opts);
/// let b = sanitize_slice_with(text, &Rules::GEMINI, Slot::Parameters, &opts)?;
/// assert_eq!(a.schema.to_json_string(), b.schema.to_json_string());
/// assert_eq!(a.report, b.report);
/// # Ok::<(), schema_core::SchemaError>(())
/// ```
pub fn sanitize_parsed_with(
    parsed: Parsed,
    rules: &Rules,
    slot: Slot,
    options: &SanitizeOptions,
) -> Sanitized {
    Read::from_parsed(parsed, rules).sanitized(rules, slot, options)
}

/// A schema as [`crate::sanitize_slice_with`] reads it: the parsed tree, what the parser cut
/// at its depth limit, and whether it kept a value of the wrong JSON type.
pub(crate) struct Read {
    schema: Schema,
    cuts: depth::Cuts,
    raw: engine::Raw,
}

impl Read {
    /// Parses `bytes` (the parser's error: they are not JSON).
    pub(crate) fn parse(bytes: &[u8], rules: &Rules) -> Result<Read, SchemaError> {
        // Strict mode closes every object: it adds `required` and `additionalProperties` to
        // most objects with `properties`, whose room is kept as they are read.
        let options = ParseOptions {
            room_to_close: rules.strict,
            ..ParseOptions::default()
        };
        let parsed = Schema::parse(bytes, &options)?;
        Ok(Read::from_parsed(parsed, rules))
    }

    /// What the parser returned, with its depth cuts and wrong-type values noted.
    pub(crate) fn from_parsed(parsed: Parsed, rules: &Rules) -> Read {
        // Each value of the wrong JSON type the parser keeps it reports.
        let raw = if parsed
            .diagnostics
            .iter()
            .any(|d| matches!(d.kind, DiagnosticKind::WrongType { .. }))
        {
            engine::Raw::Maybe
        } else {
            engine::Raw::None(parsed.keywords)
        };
        let (schema, cuts) = depth::Cuts::read(parsed, rules);
        Read { schema, cuts, raw }
    }

    /// Whether sanitizing it (without encodings) changes nothing, as proven before the engine
    /// runs ([`engine::unchanged`]): kept whole, a schema at its root (fuzz `batch`: a root
    /// `"x"` read as `{}`, which `Slot::Schema` keeps, was proven unchanged and went on as
    /// `"x"`), without values of the wrong JSON type, and no step of the profile can change
    /// it. `false`: not proven.
    pub(crate) fn cannot_change(&self, rules: &Rules, slot: Slot) -> bool {
        self.cuts.as_read()
            && matches!(self.raw, engine::Raw::None(_))
            && engine::unchanged::cannot_change(&self.schema, rules, slot)
    }

    /// What the engine would say of it where the proof holds ([`Read::cannot_change`]), with
    /// its strict compatibility (`None`: not proven).
    pub(crate) fn unchanged(
        &self,
        rules: &Rules,
        slot: Slot,
    ) -> Option<engine::unchanged::Unchanged> {
        if !(self.cuts.as_read() && matches!(self.raw, engine::Raw::None(_))) {
            return None;
        }
        engine::unchanged::unchanged(&self.schema, rules, slot)
    }

    /// The engine's whole result on it ([`crate::sanitize_slice_with`]). Where no encoding is
    /// asked for and the proof holds, that result is known without running the engine: the
    /// tree as it is, no change, the identity decoder (only the strict rewrite's nullable
    /// properties make one without encodings), and what the engine reports of it without
    /// changing it: the property keys the provider refuses, and whether it is
    /// strict-compatible (a strict profile's notes, [`engine::unchanged::unchanged`]).
    pub(crate) fn sanitized(
        self,
        rules: &Rules,
        slot: Slot,
        options: &SanitizeOptions,
    ) -> Sanitized {
        if !options.encode
            && let Some(u) = self.unchanged(rules, slot)
        {
            return unchanged(self.schema, rules, slot, u);
        }
        self.sanitize(rules, slot, options, engine::Reads::Everything)
    }

    /// The engine on it, for a caller that reads what `reads` says of the result.
    pub(crate) fn sanitize(
        self,
        rules: &Rules,
        slot: Slot,
        options: &SanitizeOptions,
        reads: engine::Reads,
    ) -> Sanitized {
        let cap = if self.cuts.is_empty() {
            engine::Cap::Changed
        } else {
            engine::Cap::On
        };
        let out = engine::sanitize_capped(self.schema, rules, slot, options, cap, self.raw, reads);
        self.cuts.report(out)
    }
}

/// What the engine returns for `schema` where no step changes it (no encodings): the tree,
/// an empty report with the property keys the provider refuses and the strict compatibility
/// the proof found (`u`), the identity decoder (only the strict rewrite's nullable properties
/// make one without encodings).
fn unchanged(
    schema: Schema,
    rules: &Rules,
    slot: Slot,
    u: engine::unchanged::Unchanged,
) -> Sanitized {
    let unfixable = match slot {
        Slot::Parameters => crate::keys::property_keys(&schema, rules),
        Slot::Schema => Vec::new(),
    };
    Sanitized {
        schema,
        report: crate::Report {
            unfixable,
            strict_compatible: u.strict_compatible,
            ..crate::Report::default()
        },
        decoder: crate::decode::Decoder::default(),
    }
}

/// [`crate::sanitize_with`]'s result where it is known without the engine: no encodings, a
/// tree as the parser could have made it (within the depth cap's levels, no known keyword's
/// value of the wrong JSON type: the passes that repair those then find nothing) that the
/// proof says no step changes. `None`: the engine runs.
pub(crate) fn unchanged_tree(
    schema: &Schema,
    rules: &Rules,
    slot: Slot,
    options: &SanitizeOptions,
) -> Option<Sanitized> {
    if options.encode || !depth::within_limit(schema) || malformed(schema) {
        return None;
    }
    let u = engine::unchanged::unchanged(schema, rules, slot)?;
    Some(unchanged(schema.clone(), rules, slot, u))
}

/// Whether a known keyword of `schema` or below holds a value of the wrong JSON type (`schema`
/// is within the depth cap's levels: the recursion is bounded by them).
fn malformed(schema: &Schema) -> bool {
    let Schema::Object(o) = schema else {
        return false;
    };
    if o.malformed().next().is_some() {
        return true;
    }
    let mut found = false;
    o.for_each_child(|_, c| found = found || malformed(c));
    found
}
