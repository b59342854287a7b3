//! The seam between the HTTP machinery and the schema engine: [`SlotSanitizer`].
//!
//! The default, [`RulesSanitizer`], parses a slot with `schema_core` and applies a
//! `provider_rules` profile. A custom sanitizer can be plugged in with
//! [`ToolSchemaLayer::sanitizer`](crate::ToolSchemaLayer::sanitizer).
//!
//! ```
//! use tower_toolschema::sanitizer::{SchemaSlot, SlotOutcome, SlotSanitizer};
//! use tower_toolschema::Profile;
//!
//! /// Drops every `"format"` keyword at the top level of a schema (a toy).
//! struct NoTopFormat;
//!
//! impl SlotSanitizer for NoTopFormat {
//!     fn sanitize(&self, schema: &[u8], _: &Profile, _: SchemaSlot) -> Result<SlotOutcome, String> {
//!         let mut v: serde_json::Value = serde_json::from_slice(schema).map_err(|e| e.to_string())?;
//!         let removed = v.as_object_mut().and_then(|o| o.remove("format")).is_some();
//!         Ok(if removed {
//!             SlotOutcome::rewritten(serde_json::to_vec(&v).map_err(|e| e.to_string())?, vec![])
//!         } else {
//!             SlotOutcome::unchanged()
//!         })
//!     }
//! }
//!
//! let layer = tower_toolschema::ToolSchemaLayer::openai().sanitizer(NoTopFormat);
//! # let _ = layer;
//! ```

use crate::profile::Profile;
use crate::report::Change;

/// Which kind of schema a slot holds, as the engine sees it: `provider_rules::Slot` itself
/// (`Parameters`: a tool's input schema, root rules apply; `Schema`: structured output, tool
/// output).
///
/// See the [module docs](crate::sanitizer) for an example.
pub use provider_rules::Slot as SchemaSlot;

/// The result of sanitizing one slot.
///
/// ```
/// use tower_toolschema::sanitizer::SlotOutcome;
/// let o = SlotOutcome::rewritten(br#"{"type":"object"}"#.to_vec(), vec![]);
/// assert_eq!(o.json.as_deref(), Some(&br#"{"type":"object"}"#[..]));
/// assert!(o.strict_compatible && o.unfixable.is_empty() && o.decoder.is_identity());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SlotOutcome {
    /// The new schema's JSON text, or `None` when nothing changed (the slot's original bytes go
    /// on untouched).
    pub json: Option<Vec<u8>>,
    /// What changed.
    pub changes: Vec<Change>,
    /// Whether the result satisfies the provider's strict mode.
    pub strict_compatible: bool,
    /// What the provider will still reject that sanitizing cannot fix without a change the
    /// caller must undo on the response side (Anthropic property keys that need renaming).
    pub unfixable: Vec<String>,
    /// What the result spends of the provider's request-wide strict limits
    /// ([`provider_rules::RequestLimits`]): counted by the default sanitizer where the profile
    /// has such limits, zero otherwise.
    pub strict_cost: provider_rules::StrictCost,
    /// What undoes, in the model's arguments for this tool, what the rewrite made it send
    /// (strict nulls; see [`provider_rules::decode`]): applied on the way back.
    pub decoder: provider_rules::Decoder,
}

impl SlotOutcome {
    /// Nothing changed.
    ///
    /// ```
    /// let o = tower_toolschema::sanitizer::SlotOutcome::unchanged();
    /// assert!(o.json.is_none() && o.changes.is_empty());
    /// ```
    pub fn unchanged() -> Self {
        SlotOutcome {
            json: None,
            changes: Vec::new(),
            strict_compatible: true,
            unfixable: Vec::new(),
            strict_cost: provider_rules::StrictCost::default(),
            decoder: provider_rules::Decoder::default(),
        }
    }

    /// The schema was rewritten to `json`.
    ///
    /// ```
    /// let o = tower_toolschema::sanitizer::SlotOutcome::rewritten(b"{}".to_vec(), vec![]);
    /// assert_eq!(o.json, Some(b"{}".to_vec()));
    /// ```
    pub fn rewritten(json: Vec<u8>, changes: Vec<Change>) -> Self {
        SlotOutcome {
            json: Some(json),
            changes,
            strict_compatible: true,
            unfixable: Vec::new(),
            strict_cost: provider_rules::StrictCost::default(),
            decoder: provider_rules::Decoder::default(),
        }
    }

    /// Sets [`strict_compatible`](SlotOutcome::strict_compatible).
    ///
    /// ```
    /// # use tower_toolschema::sanitizer::SlotOutcome;
    /// assert!(!SlotOutcome::unchanged().strict_compatible(false).strict_compatible);
    /// ```
    pub fn strict_compatible(mut self, yes: bool) -> Self {
        self.strict_compatible = yes;
        self
    }

    /// Sets [`unfixable`](SlotOutcome::unfixable).
    ///
    /// ```
    /// # use tower_toolschema::sanitizer::SlotOutcome;
    /// let o = SlotOutcome::unchanged().unfixable(vec!["key \"$x\" needs renaming".into()]);
    /// assert_eq!(o.unfixable.len(), 1);
    /// ```
    pub fn unfixable(mut self, problems: Vec<String>) -> Self {
        self.unfixable = problems;
        self
    }

    /// Sets [`strict_cost`](SlotOutcome::strict_cost).
    ///
    /// ```
    /// # use tower_toolschema::sanitizer::SlotOutcome;
    /// use provider_rules::StrictCost;
    /// let cost = StrictCost { optional_parameters: 3, union_parameters: 1, fields: 4 };
    /// assert_eq!(SlotOutcome::unchanged().strict_cost(cost).strict_cost, cost);
    /// ```
    pub fn strict_cost(mut self, cost: provider_rules::StrictCost) -> Self {
        self.strict_cost = cost;
        self
    }

    /// Sets [`decoder`](SlotOutcome::decoder).
    ///
    /// ```
    /// # use tower_toolschema::sanitizer::SlotOutcome;
    /// use provider_rules::Decoder;
    /// let d = Decoder { drop_null: vec!["cursor".into()], ..Decoder::default() };
    /// assert_eq!(SlotOutcome::unchanged().decoder(d.clone()).decoder, d);
    /// ```
    pub fn decoder(mut self, decoder: provider_rules::Decoder) -> Self {
        self.decoder = decoder;
        self
    }
}

/// Rewrites one schema slot for one profile.
///
/// Implementations must be deterministic (results are cached by input bytes and profile) and
/// must never panic.
///
/// ```
/// use tower_toolschema::Profile;
/// use tower_toolschema::sanitizer::{RulesSanitizer, SchemaSlot, SlotSanitizer};
///
/// let gemini = Profile::builtin("gemini").unwrap();
/// let engine: &dyn SlotSanitizer = &RulesSanitizer;
/// let out = engine.sanitize(br#"{"type":"object","additionalProperties":false}"#, &gemini, SchemaSlot::Parameters).unwrap();
/// assert!(out.json.is_some());
/// assert!(engine.check_tool_name("get weather", &gemini).is_some());
/// ```
pub trait SlotSanitizer: Send + Sync + 'static {
    /// Sanitizes the schema whose JSON text is `schema`. `Err` leaves the slot untouched and is
    /// reported.
    fn sanitize(
        &self,
        schema: &[u8],
        profile: &Profile,
        slot: SchemaSlot,
    ) -> Result<SlotOutcome, String>;

    /// Describes why `name` is not a valid tool name for `profile`, if it is not.
    fn check_tool_name(&self, name: &str, profile: &Profile) -> Option<String> {
        let _ = (name, profile);
        None
    }
}

/// The default sanitizer: `schema_core` parsing plus a `provider_rules` profile.
///
/// ```
/// use tower_toolschema::Profile;
/// use tower_toolschema::sanitizer::{RulesSanitizer, SchemaSlot, SlotSanitizer};
///
/// let openai = Profile::builtin("openai").unwrap();
/// let out = RulesSanitizer.sanitize(br#"{"type":"string"}"#, &openai, SchemaSlot::Schema).unwrap();
/// assert!(out.json.is_none(), "nothing to change");
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct RulesSanitizer;

impl SlotSanitizer for RulesSanitizer {
    fn sanitize(
        &self,
        schema: &[u8],
        profile: &Profile,
        slot: SchemaSlot,
    ) -> Result<SlotOutcome, String> {
        rules_outcome(
            schema,
            profile,
            slot,
            &provider_rules::SanitizeOptions::default(),
        )
    }

    fn check_tool_name(&self, name: &str, profile: &Profile) -> Option<String> {
        provider_rules::check_tool_name(name, profile.rules()).map(|v| v.to_string())
    }
}

/// The most a rewritten slot's output buffer reserves up front (it grows past it as needed).
const OUTPUT_RESERVE_MAX: usize = 1 << 20;

/// [`RulesSanitizer`]'s outcome with `options` (the encodings: [`crate::encoding`]).
pub(crate) fn rules_outcome(
    schema: &[u8],
    profile: &Profile,
    slot: SchemaSlot,
    options: &provider_rules::SanitizeOptions,
) -> Result<SlotOutcome, String> {
    {
        // Parsed and sanitized in one step, so what the parser cut at its depth limit is
        // reported.
        let out = provider_rules::sanitize_slice_with(schema, profile.rules(), slot, options)
            .map_err(|e| e.to_string())?;
        let strict_compatible = out.report.strict_compatible;
        let unfixable: Vec<String> = out.report.unfixable.iter().map(|v| v.to_string()).collect();
        let cost = if profile.rules().request_limits.is_limited() {
            provider_rules::strict_cost(&out.schema)
        } else {
            provider_rules::StrictCost::default()
        };
        let decoder = out.decoder;
        let outcome = if out.report.is_empty() {
            SlotOutcome::unchanged()
        } else {
            // The output is about the input's size: one allocation instead of a doubling
            // series (bounded, so a huge slot does not reserve what a small result needs not).
            let mut json = String::with_capacity(schema.len().min(OUTPUT_RESERVE_MAX));
            out.schema.write_json(&mut json);
            SlotOutcome::rewritten(json.into_bytes(), out.report.changes)
        };
        Ok(outcome
            .strict_compatible(strict_compatible)
            .unfixable(unfixable)
            .strict_cost(cost)
            .decoder(decoder))
    }
}
