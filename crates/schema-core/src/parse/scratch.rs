//! The parser's working buffers, kept from one parse to the next on each thread.
//!
//! A parse uses three stacks (the entries of the objects being read, the members of the maps
//! being read, the pointer's segments). Made anew, each cost an allocation of a few hundred
//! bytes to 1.5 KiB per parse, and glibc's `malloc` serves blocks that size slowly (callgrind:
//! ≈ 2,500 instructions for the entries' 16, where a whole no-change sanitize call takes ≈ 37 k);
//! kept, they cost nothing after a thread's first parse. Buffers that grew past [`KEPT`] items
//! are dropped rather than kept, so one huge schema does not hold its memory for the thread's
//! life.

use super::path::Segment;
use crate::schema::{Entry, Schema};
use std::cell::Cell;

/// The largest buffer (in items) kept for the next parse.
const KEPT: usize = 256;

/// The buffers, empty between parses.
#[derive(Default)]
pub(super) struct Scratch {
    /// The entries of the schema objects being read, innermost last.
    pub(super) entries: Vec<Entry>,
    /// The members of the maps of subschemas being read, innermost last.
    pub(super) members: Vec<(String, Schema)>,
    /// The segments of the pointer of the value being read.
    pub(super) segments: Vec<Segment>,
}

std::thread_local! {
    /// This thread's buffers while no parse holds them.
    static KEPT_SCRATCH: Cell<Scratch> = const {
        Cell::new(Scratch { entries: Vec::new(), members: Vec::new(), segments: Vec::new() })
    };
}

impl Scratch {
    /// This thread's buffers (new ones when a parse already holds them, or on its first parse).
    pub(super) fn take() -> Scratch {
        KEPT_SCRATCH.take()
    }

    /// Hands the buffers back for the next parse, emptied (what an error left in them is
    /// dropped here).
    pub(super) fn keep(mut self) {
        if self.entries.capacity() > KEPT
            || self.members.capacity() > KEPT
            || self.segments.capacity() > KEPT
        {
            return;
        }
        self.entries.clear();
        self.members.clear();
        self.segments.clear();
        KEPT_SCRATCH.set(self);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffers_come_back_empty_and_huge_ones_are_not_kept() {
        let mut s = Scratch::take();
        s.entries.push(Entry {
            key: crate::Key::Known(crate::Keyword::Type),
            value: crate::Value::Bool(true),
        });
        s.members.reserve(8);
        s.keep();
        let s = Scratch::take();
        assert!(s.entries.is_empty() && s.members.is_empty());
        assert!(s.members.capacity() >= 8);
        let mut huge = s;
        huge.segments.reserve(KEPT + 1);
        huge.keep();
        assert_eq!(Scratch::take().segments.capacity(), 0);
    }

    #[test]
    fn a_parse_reuses_what_a_failed_one_left() {
        assert!(crate::Schema::from_str(r#"{"properties":{"a":{"type":"string"},"b":"#).is_err());
        let s = crate::Schema::from_str(r#"{"properties":{"c":{"type":"string"}}}"#).unwrap();
        assert_eq!(
            s.to_json_string(),
            r#"{"properties":{"c":{"type":"string"}}}"#
        );
    }
}
