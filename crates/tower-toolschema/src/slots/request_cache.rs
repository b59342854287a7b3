//! The tool-list cache: an agent sends the same tool list on every turn (only the conversation
//! grows), so the whole result of a request's slots (every slot report, the edits, the tools
//! declared without a schema) is kept with the raw bytes of the list it came from. On the next
//! request, when the body holds the very same bytes at the same place (compared byte for byte:
//! a JSON value's text is self-delimiting, so equal bytes read as the same value), the slots
//! are not located, planned or looked up one by one: the scan jumps over the list and the
//! result is reused.
//!
//! The list is a *container*: the first array on a slot path (`tools`, `toolConfig.tools`), whose
//! slots and their names and flags all sit inside it. A result is kept only when every slot and
//! every tool name of the body is in one container, every slot report was already a cache hit
//! (so a reused report says what the slow path would), and the body was read by the fast scan;
//! it is reused only under the same `model` and host (the profiles depend on them). The cache is
//! bounded in entries and bytes (32 lists, 4 MiB, or the slot cache's bounds if lower: a
//! request compares at most that many bytes), dropped with every change of the layer's
//! configuration, and off when the slot cache is.

use std::ops::Range;
use std::sync::Arc;

use bytes::Bytes;

use super::bounded::{Bounded, Weigh};
use crate::cache::CacheConfig;
use crate::report::SlotReports;
use crate::restore::needs::Needs;
use crate::shapes::Api;

/// The most tool lists kept (the slot cache's own bound applies too, if lower).
const MAX_ENTRIES: usize = 32;

/// The most bytes kept (the slot cache's own bound applies too, if lower): a request compares
/// at most this many bytes with the kept lists.
const MAX_BYTES: usize = 4 << 20;

/// One request's slot result, for the container bytes it came from.
#[derive(Debug)]
pub(crate) struct Entry {
    /// The container's trie node (its API's trie and its path), as an address.
    pub(crate) node: usize,
    /// The container's JSON text.
    pub(crate) bytes: Box<[u8]>,
    /// The body's `model` and the request's host the result was made under.
    pub(crate) model: Option<String>,
    pub(crate) host: Option<String>,
    /// The report's API.
    pub(crate) api: Option<Api>,
    /// What the way back needs of the result (the same for every request that reuses it).
    pub(crate) needs: Arc<Needs>,
    pub(crate) slots: SlotReports,
    pub(crate) unslotted: Vec<(String, bool)>,
    /// The container's bytes its slots' edits replaced (from the container's start) and what
    /// replaces them, spliced once and shared with every request that reuses the list; `None`:
    /// nothing changed.
    pub(crate) spliced: Option<(Range<usize>, Bytes)>,
}

impl Weigh for Entry {
    fn size(&self) -> usize {
        let slots: usize = self
            .slots
            .iter()
            .map(|s| {
                s.pointer.len() + s.tool.as_ref().map_or(0, |t| t.len()) + s.profile.len() + 256
            })
            .sum();
        let edits = self.spliced.as_ref().map_or(0, |(_, b)| b.len() + 32);
        self.bytes.len() + slots + edits + 128
    }
}

/// The cache (one per configuration; see the module docs).
#[derive(Debug)]
pub(crate) struct RequestCache {
    list: Bounded<Entry>,
    /// How many requests reused a list's result (for tests).
    #[cfg(test)]
    pub(crate) hits: std::sync::atomic::AtomicUsize,
}

impl RequestCache {
    /// A cache within `config`'s bounds (off when `config` is).
    pub(crate) fn new(config: CacheConfig) -> Self {
        RequestCache {
            list: Bounded::new(config, MAX_ENTRIES, MAX_BYTES),
            #[cfg(test)]
            hits: Default::default(),
        }
    }

    pub(crate) fn is_enabled(&self) -> bool {
        self.list.is_enabled()
    }

    /// The entry of the container at trie node `node` whose bytes `rest` (the body from the
    /// container's first byte on) starts with; the newest first.
    pub(crate) fn find(&self, node: usize, rest: &[u8]) -> Option<Arc<Entry>> {
        self.list
            .find(|e| e.node == node && rest.starts_with(&e.bytes))
    }

    /// Keeps `entry`, in place of one for the same container bytes; the oldest go past the
    /// bounds.
    pub(crate) fn insert(&self, entry: Entry) {
        self.list.insert(Arc::new(entry), |kept, new| {
            kept.node == new.node && kept.bytes == new.bytes
        });
    }

    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.list.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(node: usize, bytes: &[u8]) -> Entry {
        Entry {
            node,
            bytes: bytes.into(),
            model: None,
            host: None,
            api: None,
            needs: Arc::new(Needs::of(
                crate::ToolSchemaLayer::openai().config(),
                None,
                &[],
                &[],
            )),
            slots: SlotReports::default(),
            unslotted: Vec::new(),
            spliced: None,
        }
    }

    #[test]
    fn finds_by_node_and_leading_bytes_and_stays_bounded() {
        let c = RequestCache::new(CacheConfig::new());
        c.insert(entry(1, b"[1,2]"));
        assert!(c.find(1, b"[1,2],\"x\":1}").is_some());
        assert!(c.find(2, b"[1,2]").is_none());
        assert!(c.find(1, b"[1,3]").is_none());
        assert!(c.find(1, b"[1,").is_none());
        // The same bytes again replace the entry.
        c.insert(entry(1, b"[1,2]"));
        assert_eq!(c.len(), 1);
        for i in 0..100u8 {
            c.insert(entry(1, &[i]));
        }
        assert_eq!(c.len(), MAX_ENTRIES);
        assert!(c.find(1, &[99]).is_some() && c.find(1, &[0]).is_none());
        let small = RequestCache::new(CacheConfig::new().max_bytes(1000));
        for i in 0..10u8 {
            small.insert(entry(1, &[i; 300]));
        }
        assert!(small.len() <= 2, "{}", small.len());
        let off = RequestCache::new(CacheConfig::disabled());
        off.insert(entry(1, b"[]"));
        assert!(off.find(1, b"[]").is_none());
    }
}
