//! The sanitized-slot cache.
//!
//! Agents send the same tools on every turn, so the result of sanitizing a slot is cached, keyed
//! by the profile, the slot kind and a seeded foldhash of the slot's bytes (the seed is random
//! per cache; a fast hash, several times cheaper than SipHash on a slot's few hundred bytes).
//! On a hash match the stored input bytes are compared too, so a collision, found or forged,
//! can never serve another schema's result: at worst it evicts an entry, as any new schema can. The cache is bounded in entries
//! and bytes (oldest entries are evicted first), shared by every clone of a layer, and safe
//! under concurrency (one short mutex hold per lookup or insert; sanitizing runs outside it).
//! A hit costs one hash and one comparison of the slot's bytes.
//!
//! The same bounds (at most 32 entries and 4 MiB) hold the tool-list cache: a request whose whole tool
//! list has the bytes of a list seen before (same `model`, same host) reuses that list's slot
//! reports and edits without reading the list slot by slot. It is dropped with every change of
//! a layer's configuration, and is off when this cache is.
//!
//! ```
//! use tower_toolschema::{CacheConfig, ToolSchemaLayer};
//!
//! let layer = ToolSchemaLayer::gemini().cache(CacheConfig::new().max_entries(512).max_bytes(8 << 20));
//! let no_cache = ToolSchemaLayer::gemini().cache(CacheConfig::disabled());
//! # let _ = (layer, no_cache);
//! ```

use std::collections::{HashMap, VecDeque};
use std::hash::BuildHasher;
use std::sync::{Arc, Mutex, PoisonError};

use crate::report::Change;
use crate::sanitizer::SchemaSlot;

/// Bounds of the sanitized-slot cache.
///
/// ```
/// use tower_toolschema::CacheConfig;
/// assert_eq!(CacheConfig::new(), CacheConfig::default());
/// assert_ne!(CacheConfig::new().max_entries(16), CacheConfig::new());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CacheConfig {
    max_entries: usize,
    max_bytes: usize,
}

impl Default for CacheConfig {
    fn default() -> Self {
        CacheConfig {
            max_entries: 4096,
            max_bytes: 32 << 20,
        }
    }
}

impl CacheConfig {
    /// The default bounds: 4096 entries, 32 MiB (input plus output bytes).
    ///
    /// ```
    /// use tower_toolschema::CacheConfig;
    /// assert_eq!(CacheConfig::new(), CacheConfig::new().max_entries(4096).max_bytes(32 << 20));
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// No caching.
    ///
    /// ```
    /// use tower_toolschema::{CacheConfig, ToolSchemaLayer, sanitize_body};
    ///
    /// let layer = ToolSchemaLayer::anthropic().cache(CacheConfig::disabled());
    /// let body = bytes::Bytes::from_static(br#"{"messages":[],"tools":[{"name":"t","input_schema":{"type":"object","properties":{"d":{"type":"string","format":"date"}}}}]}"#);
    /// let (_, first) = sanitize_body(layer.config(), None, body.clone());
    /// let (_, again) = sanitize_body(layer.config(), None, body);
    /// assert!(!first.slots[0].cached && !again.slots[0].cached);
    /// ```
    pub fn disabled() -> Self {
        CacheConfig {
            max_entries: 0,
            max_bytes: 0,
        }
    }

    /// At most this many entries (0 disables the cache).
    ///
    /// ```
    /// use tower_toolschema::CacheConfig;
    /// assert_eq!(CacheConfig::new().max_entries(0).max_bytes(0), CacheConfig::disabled());
    /// ```
    pub fn max_entries(mut self, n: usize) -> Self {
        self.max_entries = n;
        self
    }

    /// At most this many bytes of stored input and output (0 disables the cache).
    ///
    /// ```
    /// let layer = tower_toolschema::ToolSchemaLayer::openai().cache(tower_toolschema::CacheConfig::new().max_bytes(1 << 20));
    /// # let _ = layer;
    /// ```
    pub fn max_bytes(mut self, n: usize) -> Self {
        self.max_bytes = n;
        self
    }

    pub(crate) fn is_enabled(&self) -> bool {
        self.max_entries > 0 && self.max_bytes > 0
    }

    /// (entries, bytes), both 0 when disabled.
    pub(crate) fn bounds(&self) -> (usize, usize) {
        match self.is_enabled() {
            true => (self.max_entries, self.max_bytes),
            false => (0, 0),
        }
    }
}

/// A cached result: the sanitized slot (or `None`: unchanged) and its changes.
#[derive(Debug)]
pub(crate) struct Cached {
    pub(crate) json: Option<bytes::Bytes>,
    pub(crate) changes: Arc<[Change]>,
    pub(crate) strict_compatible: bool,
    pub(crate) unfixable: Arc<[String]>,
    pub(crate) strict_cost: provider_rules::StrictCost,
    /// The tool's argument decoder (the identity for most), cached with the schema.
    pub(crate) decoder: Arc<provider_rules::Decoder>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    profile: u64,
    slot: SchemaSlot,
    hash: u64,
}

#[derive(Debug)]
struct Entry {
    input: Box<[u8]>,
    value: Arc<Result<Cached, String>>,
    size: usize,
}

#[derive(Debug, Default)]
struct State {
    map: HashMap<Key, Entry, foldhash::fast::RandomState>,
    order: VecDeque<Key>,
    bytes: usize,
}

/// The cache itself (shared through an `Arc` by every clone of a layer and its services).
#[derive(Debug)]
pub(crate) struct SlotCache {
    config: CacheConfig,
    hasher: foldhash::quality::RandomState,
    state: Mutex<State>,
}

impl SlotCache {
    pub(crate) fn new(config: CacheConfig) -> Self {
        SlotCache {
            config,
            hasher: Default::default(),
            state: Mutex::new(State::default()),
        }
    }

    fn key(&self, profile: u64, slot: SchemaSlot, input: &[u8]) -> Key {
        Key {
            profile,
            slot,
            hash: self.hasher.hash_one(input),
        }
    }

    /// The cached result for `input`, or computes it with `f` (outside the lock) and stores it.
    /// Returns the result and whether it was a hit.
    pub(crate) fn get_or_insert(
        &self,
        profile: u64,
        slot: SchemaSlot,
        input: &[u8],
        f: impl FnOnce() -> Result<Cached, String>,
    ) -> (Arc<Result<Cached, String>>, bool) {
        if !self.config.is_enabled() {
            return (Arc::new(f()), false);
        }
        let key = self.key(profile, slot, input);
        {
            let state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some(e) = state.map.get(&key)
                && *e.input == *input
            {
                return (Arc::clone(&e.value), true);
            }
        }
        let value = Arc::new(f());
        let size = input.len()
            + value
                .as_ref()
                .as_ref()
                .ok()
                .and_then(|c| c.json.as_ref())
                .map_or(0, bytes::Bytes::len)
            + 64;
        if size > self.config.max_bytes {
            return (value, false);
        }
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let entry = Entry {
            input: input.into(),
            value: Arc::clone(&value),
            size,
        };
        match state.map.insert(key, entry) {
            Some(old) => state.bytes -= old.size.min(state.bytes),
            None => state.order.push_back(key),
        }
        state.bytes += size;
        while state.map.len() > self.config.max_entries || state.bytes > self.config.max_bytes {
            let Some(oldest) = state.order.pop_front() else {
                break;
            };
            if let Some(old) = state.map.remove(&oldest) {
                state.bytes -= old.size.min(state.bytes);
            }
        }
        (value, false)
    }

    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .map
            .len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn val(s: &str) -> Result<Cached, String> {
        Ok(Cached {
            json: Some(bytes::Bytes::copy_from_slice(s.as_bytes())),
            changes: Arc::from(Vec::new()),
            strict_compatible: true,
            unfixable: Arc::from(Vec::new()),
            strict_cost: provider_rules::StrictCost::default(),
            decoder: Arc::default(),
        })
    }

    #[test]
    fn hits_after_first_miss_and_keys_on_profile_and_slot() {
        let c = SlotCache::new(CacheConfig::new());
        let calls = AtomicUsize::new(0);
        let run = |p, s, i: &[u8]| {
            c.get_or_insert(p, s, i, || {
                calls.fetch_add(1, Ordering::SeqCst);
                val("x")
            })
            .1
        };
        assert!(!run(1, SchemaSlot::Parameters, b"{}"));
        assert!(run(1, SchemaSlot::Parameters, b"{}"));
        assert!(!run(2, SchemaSlot::Parameters, b"{}"));
        assert!(!run(1, SchemaSlot::Schema, b"{}"));
        assert!(!run(1, SchemaSlot::Parameters, b"{ }"));
        assert_eq!(calls.load(Ordering::SeqCst), 4);
    }

    #[test]
    fn bounded_by_entries_and_bytes_and_can_be_off() {
        let c = SlotCache::new(CacheConfig::new().max_entries(3));
        for i in 0..10u8 {
            c.get_or_insert(1, SchemaSlot::Parameters, &[i], || val("x"));
        }
        assert_eq!(c.len(), 3);
        let c = SlotCache::new(CacheConfig::new().max_bytes(300));
        for i in 0..10u8 {
            c.get_or_insert(1, SchemaSlot::Parameters, &[i; 50], || val("x"));
        }
        assert!(c.len() <= 2, "{}", c.len());
        let c = SlotCache::new(CacheConfig::disabled());
        c.get_or_insert(1, SchemaSlot::Parameters, b"{}", || val("x"));
        assert!(
            !c.get_or_insert(1, SchemaSlot::Parameters, b"{}", || val("x"))
                .1
        );
        assert_eq!(c.len(), 0);
    }

    #[test]
    fn shared_across_threads() {
        let c = Arc::new(SlotCache::new(CacheConfig::new()));
        let handles: Vec<_> = (0..4)
            .map(|t| {
                let c = Arc::clone(&c);
                std::thread::spawn(move || {
                    for i in 0..200u32 {
                        let input = format!("{{\"n\":{}}}", i % 50);
                        let (v, _) = c.get_or_insert(
                            t % 2,
                            SchemaSlot::Parameters,
                            input.as_bytes(),
                            || val(&input),
                        );
                        assert_eq!(
                            v.as_ref().as_ref().ok().and_then(|c| c.json.clone()),
                            Some(bytes::Bytes::from(input.into_bytes()))
                        );
                    }
                })
            })
            .collect();
        for h in handles {
            assert!(h.join().is_ok());
        }
        assert_eq!(c.len(), 100);
    }
}
