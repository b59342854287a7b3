//! The renaming's memo: an agent sends the same tool list on every turn (only the conversation
//! grows), so what renaming reads of a *container* (the list the declarations sit in: `tools`,
//! `functions`, Bedrock's `toolConfig.tools`) and what it makes of it (the names to send, the
//! renames for the report) is kept with the container's raw bytes and the name rule. On the
//! next request holding the very same bytes (compared byte for byte: a JSON value's text is
//! self-delimiting, so equal bytes read as the same value) under the same rule, the list is not
//! split tool by tool again and the names are not repaired again: only the rest of the body
//! (the conversation's names) is read.
//!
//! The memo is a pure function of its key (the response shape, the container, the rule, the
//! bytes), so a configuration change cannot make an entry wrong; it is bounded in entries and
//! bytes (the slot cache's bounds apply, if lower) and off when the slot cache is.

use std::sync::Arc;

use provider_rules::{NameMap, ToolNameRule};

use crate::cache::CacheConfig;
use crate::report::Rename;
use crate::slots::bounded::{Bounded, Weigh};
use bytes::Bytes;

/// The most containers kept.
const MAX_ENTRIES: usize = 16;

/// The most bytes kept: a request compares at most this many bytes with the kept lists.
const MAX_BYTES: usize = 4 << 20;

/// What renaming made of one container.
#[derive(Debug)]
pub(crate) struct Memo {
    /// The response shape (its address) and the container's index in its list.
    pub(crate) shape: usize,
    pub(crate) container: usize,
    pub(crate) rule: ToolNameRule,
    /// The container's JSON text.
    pub(crate) bytes: Box<[u8]>,
    /// The container's bytes the declarations' renames replace (from the container's start)
    /// and what replaces them, spliced once and shared (a hit copies no edit); `None`: no
    /// declaration is renamed.
    pub(crate) spliced: Option<(std::ops::Range<usize>, Bytes)>,
    /// The names to send.
    pub(crate) names: Arc<NameMap>,
    /// The renames, for the report.
    pub(crate) renames: Vec<Rename>,
}

impl Weigh for Memo {
    fn size(&self) -> usize {
        let names: usize = self
            .renames
            .iter()
            .map(|r| 2 * (r.original.len() + r.sent.len()) + 128)
            .sum();
        let edits = self.spliced.as_ref().map_or(0, |(_, b)| b.len() + 32);
        self.bytes.len() + names + edits + 128
    }
}

/// The memo (one per configuration; see the module docs).
#[derive(Debug)]
pub(crate) struct RenameMemo {
    list: Bounded<Memo>,
}

impl RenameMemo {
    /// A memo within `config`'s bounds (off when `config` is).
    pub(crate) fn new(config: CacheConfig) -> Self {
        RenameMemo {
            list: Bounded::new(config, MAX_ENTRIES, MAX_BYTES),
        }
    }

    /// The entry for `container` of `shape` under `rule` whose bytes are `bytes`.
    pub(crate) fn find(
        &self,
        shape: usize,
        container: usize,
        rule: &ToolNameRule,
        bytes: &[u8],
    ) -> Option<Arc<Memo>> {
        self.list.find(|e| {
            e.shape == shape && e.container == container && *e.bytes == *bytes && e.rule == *rule
        })
    }

    /// The entries of `shape` (the newest first).
    pub(crate) fn of_shape(&self, shape: usize) -> Vec<Arc<Memo>> {
        self.list.all(|e| e.shape == shape)
    }

    /// Keeps `memo`; the oldest go past the bounds.
    pub(crate) fn insert(&self, memo: Arc<Memo>) {
        self.list.insert(memo, |_, _| false);
    }

    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.list.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use provider_rules::Rules;

    fn memo(bytes: &[u8], rule: &ToolNameRule) -> Arc<Memo> {
        Arc::new(Memo {
            shape: 1,
            container: 0,
            rule: rule.clone(),
            bytes: bytes.into(),
            spliced: None,
            names: Arc::new(NameMap::default()),
            renames: Vec::new(),
        })
    }

    #[test]
    fn finds_by_shape_container_rule_and_bytes_and_stays_bounded() {
        let (openai, gemini) = (&Rules::OPENAI.tool_names, &Rules::GEMINI.tool_names);
        let m = RenameMemo::new(CacheConfig::new());
        m.insert(memo(b"[1,2]", openai));
        assert!(m.find(1, 0, openai, b"[1,2]").is_some());
        assert!(m.find(2, 0, openai, b"[1,2]").is_none());
        assert!(m.find(1, 1, openai, b"[1,2]").is_none());
        assert!(m.find(1, 0, openai, b"[1,3]").is_none());
        assert!(m.find(1, 0, openai, b"[1,2").is_none());
        if openai != gemini {
            assert!(m.find(1, 0, gemini, b"[1,2]").is_none());
        }
        for i in 0..100u8 {
            m.insert(memo(&[i], openai));
        }
        assert_eq!(m.len(), MAX_ENTRIES);
        assert!(m.find(1, 0, openai, &[99]).is_some() && m.find(1, 0, openai, &[0]).is_none());
        let off = RenameMemo::new(CacheConfig::disabled());
        off.insert(memo(b"[]", openai));
        assert!(off.find(1, 0, openai, b"[]").is_none());
    }
}
