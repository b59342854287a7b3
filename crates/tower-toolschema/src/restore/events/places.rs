//! The open and held calls of a stream by their place (choice and call index, output index,
//! block index): a short list kept in the places' order, as a tree map would keep them, whose
//! room is kept from call to call (a stream has one call or a few open at a time): no
//! allocation per call, as a tree's node was.

/// A call's place in the stream.
pub(super) type Place = (u64, u64);

/// Values by place, in the places' order.
#[derive(Debug)]
pub(super) struct Places<V>(Vec<(Place, V)>);

impl<V> Default for Places<V> {
    fn default() -> Self {
        Places(Vec::new())
    }
}

impl<V> Places<V> {
    fn find(&self, key: &Place) -> Result<usize, usize> {
        self.0.binary_search_by(|(p, _)| p.cmp(key))
    }

    pub(super) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub(super) fn contains_key(&self, key: &Place) -> bool {
        self.find(key).is_ok()
    }

    pub(super) fn get(&self, key: &Place) -> Option<&V> {
        let i = self.find(key).ok()?;
        self.0.get(i).map(|(_, v)| v)
    }

    pub(super) fn get_mut(&mut self, key: &Place) -> Option<&mut V> {
        let i = self.find(key).ok()?;
        self.0.get_mut(i).map(|(_, v)| v)
    }

    /// Puts `value` at `key` (replacing the one there).
    pub(super) fn insert(&mut self, key: Place, value: V) {
        match self.find(&key) {
            Ok(i) => self.0[i].1 = value,
            Err(i) => self.0.insert(i, (key, value)),
        }
    }

    pub(super) fn remove(&mut self, key: &Place) -> Option<V> {
        let i = self.find(key).ok()?;
        Some(self.0.remove(i).1)
    }

    /// The places, in order.
    pub(super) fn keys(&self) -> impl Iterator<Item = &Place> + '_ {
        self.0.iter().map(|(p, _)| p)
    }

    pub(super) fn retain(&mut self, mut keep: impl FnMut(&Place) -> bool) {
        self.0.retain(|(p, _)| keep(p));
    }

    pub(super) fn clear(&mut self) {
        self.0.clear();
    }

    /// Every value, in order, taken (the room kept).
    pub(super) fn drain(&mut self) -> impl Iterator<Item = V> + '_ {
        self.0.drain(..).map(|(_, v)| v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same answers, in the same order, as a tree map given the same steps.
    #[test]
    fn reads_as_a_tree_map_does() {
        let mut ours = Places::default();
        let mut tree = std::collections::BTreeMap::new();
        // Inserts (half the steps), removals and retains over a few places, in a mixed order.
        let steps = (0..60u64).map(|n| ((n * 7 % 4) as u8, (n * 5 % 3, n * 3 % 4)));
        for (n, (op, key)) in steps.enumerate() {
            match op {
                0 | 3 => {
                    ours.insert(key, n);
                    tree.insert(key, n);
                }
                1 => assert_eq!(ours.remove(&key), tree.remove(&key)),
                _ => {
                    ours.retain(|k| k.0 != key.0);
                    tree.retain(|k, _| k.0 != key.0);
                }
            }
            assert_eq!(
                ours.keys().collect::<Vec<_>>(),
                tree.keys().collect::<Vec<_>>()
            );
            assert_eq!(ours.get(&key), tree.get(&key));
            assert_eq!(ours.contains_key(&key), tree.contains_key(&key));
            assert_eq!(ours.is_empty(), tree.is_empty());
        }
        if let Some(v) = ours.get_mut(&(0, 0)) {
            *v = 99;
        }
        let want: Vec<usize> = tree
            .iter()
            .map(|(k, v)| if *k == (0, 0) { 99 } else { *v })
            .collect();
        assert_eq!(ours.drain().collect::<Vec<_>>(), want);
        assert!(ours.is_empty());
        ours.insert((0, 0), 1);
        ours.clear();
        assert!(ours.is_empty());
    }
}
