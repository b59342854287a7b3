//! A list of shared entries bounded in count and in bytes, the oldest dropped first: the home of
//! the eviction that the tool-list cache ([`super::request_cache`]) and renaming's memo
//! (`rename_memo`) both need. Each keeps its own key and entry type; the list only weighs,
//! finds and drops. A list whose bounds are zero is off: it keeps and finds nothing.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, PoisonError};

use super::cache::CacheConfig;

/// What an entry holds, roughly, in bytes (for the byte bound).
pub(crate) trait Weigh {
    fn size(&self) -> usize;
}

/// The list (see the module docs).
#[derive(Debug)]
pub(crate) struct Bounded<T> {
    max_entries: usize,
    max_bytes: usize,
    state: Mutex<State<T>>,
}

#[derive(Debug)]
struct State<T> {
    /// Oldest first.
    entries: VecDeque<Arc<T>>,
    bytes: usize,
}

impl<T: Weigh> Bounded<T> {
    /// A list within `config`'s bounds and at most `max_entries` / `max_bytes` (off when
    /// `config` is).
    pub(crate) fn new(config: CacheConfig, max_entries: usize, max_bytes: usize) -> Self {
        let (entries, bytes) = config.bounds();
        Bounded {
            max_entries: entries.min(max_entries),
            max_bytes: bytes.min(max_bytes),
            state: Mutex::new(State {
                entries: VecDeque::new(),
                bytes: 0,
            }),
        }
    }

    pub(crate) fn is_enabled(&self) -> bool {
        self.max_entries > 0 && self.max_bytes > 0
    }

    /// The newest entry `pick` accepts.
    pub(crate) fn find(&self, mut pick: impl FnMut(&T) -> bool) -> Option<Arc<T>> {
        if !self.is_enabled() {
            return None;
        }
        let state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        state.entries.iter().rev().find(|e| pick(e)).map(Arc::clone)
    }

    /// Every entry `pick` accepts, the newest first.
    pub(crate) fn all(&self, mut pick: impl FnMut(&T) -> bool) -> Vec<Arc<T>> {
        if !self.is_enabled() {
            return Vec::new();
        }
        let state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        state
            .entries
            .iter()
            .rev()
            .filter(|e| pick(e))
            .map(Arc::clone)
            .collect()
    }

    /// Keeps `entry` in place of the first kept one that `same(kept, &entry)` says it replaces
    /// (if any); the oldest go past the bounds. An entry larger than the byte bound is not kept.
    pub(crate) fn insert(&self, entry: Arc<T>, mut same: impl FnMut(&T, &T) -> bool) {
        let size = entry.size();
        if !self.is_enabled() || size > self.max_bytes {
            return;
        }
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(i) = state.entries.iter().position(|e| same(e, &entry))
            && let Some(old) = state.entries.remove(i)
        {
            state.bytes = state.bytes.saturating_sub(old.size());
        }
        state.entries.push_back(entry);
        state.bytes += size;
        while state.entries.len() > self.max_entries || state.bytes > self.max_bytes {
            let Some(old) = state.entries.pop_front() else {
                break;
            };
            state.bytes = state.bytes.saturating_sub(old.size());
        }
    }

    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .entries
            .len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl Weigh for Vec<u8> {
        fn size(&self) -> usize {
            self.len()
        }
    }

    #[test]
    fn keeps_the_newest_within_both_bounds_and_replaces_the_same() {
        let l = Bounded::new(CacheConfig::new(), 3, 10);
        for i in 0..5u8 {
            l.insert(Arc::new(vec![i]), |_, _| false);
        }
        assert_eq!(l.len(), 3);
        assert!(l.find(|e| e[0] == 1).is_none() && l.find(|e| e[0] == 4).is_some());
        assert_eq!(
            l.all(|_| true).iter().map(|e| e[0]).collect::<Vec<_>>(),
            [4, 3, 2]
        );
        l.insert(Arc::new(vec![3]), |kept, new| kept == new);
        assert_eq!(
            l.all(|_| true).iter().map(|e| e[0]).collect::<Vec<_>>(),
            [3, 4, 2]
        );
        l.insert(Arc::new(vec![7; 6]), |_, _| false);
        assert!(l.all(|_| true).iter().map(|e| e.len()).sum::<usize>() <= 10);
        l.insert(Arc::new(vec![0; 11]), |_, _| false);
        assert!(
            l.find(|e| e.len() == 11).is_none(),
            "larger than the byte bound"
        );
        let off = Bounded::new(CacheConfig::disabled(), 3, 10);
        off.insert(Arc::new(vec![1]), |_, _| false);
        assert!(off.find(|_| true).is_none() && off.all(|_| true).is_empty());
    }
}
