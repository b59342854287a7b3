//! `$ref` resolution and inlining.
//!
//! Local references only: `#`, JSON pointers (`#/$defs/X`, `#/definitions/X`, any pointer, with
//! `~0`/`~1` and percent escapes), `$anchor`/`$dynamicAnchor` names (`#name`) and the `$id`s
//! declared inside the document. Inlining replaces each `$ref` by its target merged with the
//! `$ref`'s siblings, detects cycles, unrolls recursion a bounded number of times and then puts
//! a typed placeholder, and stops expanding when a node budget is spent (the ref is then kept),
//! so a chain of definitions that each reference the previous one twice cannot explode.
//!
//! Complexity: resolution is linear in the pointer's length (plus a parse of the subtree when
//! the pointer leads into an unknown keyword); inlining is linear in the size of its output,
//! which the node budget bounds.
mod cycles;
mod index;
mod inline;
mod resolve;
mod uri;

pub use index::RefIndex;
pub use inline::{InlineOptions, Inlined, RefIssue, RefIssueKind, merge_ref_siblings};
pub use uri::resolve_uri;

/// Why a reference could not be followed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RefError {
    /// The reference names another document (`http://...`, `other.json#...`).
    #[error("external reference {0:?} is not resolved (only references inside the document are)")]
    External(String),
    /// The pointer or anchor names nothing in the document.
    #[error("reference {0:?} points to nothing in the document")]
    NotFound(String),
    /// The reference is not a valid URI fragment or JSON pointer.
    #[error("reference {0:?} is not a valid JSON pointer")]
    Malformed(String),
}
