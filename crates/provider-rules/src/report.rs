//! What sanitizing changed, and what a provider would reject.

use crate::RuleId;
use schema_core::Schema;
use serde::Serialize;

/// One change the engine made.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Change {
    /// Where, as a JSON pointer into the output schema (`""` is the root).
    pub pointer: String,
    /// The rule that made the change (`type-list`, `enum-strings`, `ref-inline`, ...).
    pub rule: RuleId,
    /// What was done, in words.
    pub message: String,
    /// Whether the schema now accepts something the original rejected (or no longer says
    /// something it said); lost constraints are also folded into `description` when the
    /// profile has `hints` on.
    pub lossy: bool,
}

/// Every change made to one schema.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Report {
    /// The changes, in the order they were made.
    pub changes: Vec<Change>,
    /// For strict profiles: whether the result can be sent in strict mode without changing
    /// what it accepts. `false` tells a caller to send it non-strict rather than get a 400.
    pub strict_compatible: bool,
    /// What the provider will still reject and sanitizing cannot fix without a change the
    /// caller must undo on the response side (Anthropic property keys that need renaming).
    /// Not changes: a report with only these is still empty.
    pub unfixable: Vec<Violation>,
}

impl Default for Report {
    fn default() -> Report {
        Report {
            changes: Vec::new(),
            strict_compatible: true,
            unfixable: Vec::new(),
        }
    }
}

impl Report {
    /// Whether nothing was changed.
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }

    /// Whether `v` (found by [`check`](fn@crate::check) on the result, possibly for another
    /// profile) is one of the [`unfixable`](Report::unfixable) problems already reported.
    pub fn is_unfixable(&self, v: &Violation) -> bool {
        self.unfixable
            .iter()
            .any(|u| u.rule == v.rule && u.pointer == v.pointer)
    }

    /// How many changes lost meaning.
    pub fn lossy_count(&self) -> usize {
        self.changes.iter().filter(|c| c.lossy).count()
    }
}

/// The result of [`sanitize`](crate::sanitize).
#[derive(Clone, Debug)]
pub struct Sanitized {
    /// The rewritten schema.
    pub schema: Schema,
    /// What was changed. Empty if and only if `schema` equals the input.
    pub report: Report,
    /// What undoes, in the model's arguments, what the changes made the model send (strict
    /// nulls): the identity when there is nothing to undo. See [`crate::decode`].
    pub decoder: crate::decode::Decoder,
}

/// Something the provider would reject.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Violation {
    /// Where, as a JSON pointer into the checked schema.
    pub pointer: String,
    /// The rule broken (the same names as [`Change::rule`]).
    pub rule: RuleId,
    /// What is wrong, in words.
    pub message: String,
    /// The provider's own error text for it, where known (from public 400s).
    pub provider_error: Option<&'static str>,
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let at = if self.pointer.is_empty() {
            "(root)"
        } else {
            &self.pointer
        };
        write!(f, "{at}: [{}] {}", self.rule, self.message)?;
        if let Some(e) = self.provider_error {
            write!(f, " (provider says: {e})")?;
        }
        Ok(())
    }
}
