//! Adversarial request bodies, with the real profiles. Each test runs its work on a thread with
//! the default 2 MiB stack and fails if no answer comes within a generous bound (a hang guard,
//! not a timing assertion); where output could blow up, its size is bounded. Every output is
//! checked with the independent slot locator (`support/slot_mask.rs`): valid JSON whenever the
//! input was, different from the input only inside schema slots.
//!
//! Complements `service.rs` (fail-open paths with a fake sanitizer) and `locate`'s unit tests.
//!
//! Duplicate keys, as the layer treats them (`duplicate_keys_are_treated_consistently`):
//! - a duplicate of a key the layer reads on a slot path (`tools`, `input_schema`,
//!   `functionDeclarations`, `parameters`, a tool's `name` or `strict`, the top-level `model`):
//!   the body goes on untouched, reported as `Skipped(DuplicateKey(pointer))` — serde_json and
//!   Python read the last one, other parsers the first; the layer does not guess which schema
//!   the upstream will use, and never rewrites one copy and not the other;
//! - duplicates anywhere else (the conversation, unrelated fields): ignored, bytes kept;
//! - duplicates inside a schema slot: the schema is read as serde_json (and Python) read it,
//!   the last occurrence wins; when the profile changes the slot, it is rewritten from that
//!   reading (the duplicates are gone); when it changes nothing, the slot's bytes go on as they
//!   came, duplicates included, so the upstream reads what it would have read without the layer.

#[path = "../common/mod.rs"]
mod common;
#[path = "../support/slot_mask.rs"]
mod slot_mask;

mod depth;
mod malformed;
mod shapes;
mod size;
mod support;
