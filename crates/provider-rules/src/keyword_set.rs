//! [`KeywordSet`]: which keywords a dialect has, as a bit set.

use schema_core::Keyword;
use serde::{Deserialize, Serialize};

/// A set of keywords (a bit set over [`Keyword::ALL`]); serializes as a list of names.
///
/// ```
/// use provider_rules::KeywordSet;
/// use schema_core::Keyword;
/// const SET: KeywordSet = KeywordSet::of(&[Keyword::Type, Keyword::Items]);
/// assert!(SET.contains(Keyword::Items));
/// assert!(!SET.contains(Keyword::OneOf));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct KeywordSet(u128);

impl KeywordSet {
    /// Every keyword schema-core knows.
    pub const ALL: KeywordSet = KeywordSet::of(Keyword::ALL);

    /// The set of the given keywords.
    pub const fn of(keywords: &[Keyword]) -> KeywordSet {
        let mut bits = 0u128;
        let mut i = 0;
        while i < keywords.len() {
            bits |= 1u128 << keywords[i].index();
            i += 1;
        }
        KeywordSet(bits)
    }

    /// This set without the given keywords.
    pub const fn without(self, keywords: &[Keyword]) -> KeywordSet {
        KeywordSet(self.0 & !KeywordSet::of(keywords).0)
    }

    /// This set with the given keywords added.
    pub const fn with(self, keywords: &[Keyword]) -> KeywordSet {
        KeywordSet(self.0 | KeywordSet::of(keywords).0)
    }

    /// Whether the keyword is in the set.
    pub const fn contains(self, keyword: Keyword) -> bool {
        self.0 & (1u128 << keyword.index()) != 0
    }

    /// The keywords in the set, in [`Keyword::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Keyword> {
        Keyword::ALL
            .iter()
            .copied()
            .filter(move |k| self.contains(*k))
    }
}

impl std::fmt::Debug for KeywordSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.iter().map(Keyword::as_str))
            .finish()
    }
}

impl Serialize for KeywordSet {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter().map(Keyword::as_str))
    }
}

impl<'de> Deserialize<'de> for KeywordSet {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<KeywordSet, D::Error> {
        let names = Vec::<String>::deserialize(d)?;
        let mut set = KeywordSet::default();
        for n in names {
            let kw = Keyword::from_name(&n).ok_or_else(|| {
                serde::de::Error::custom(format!("unknown JSON Schema keyword {n:?}"))
            })?;
            set = set.with(&[kw]);
        }
        Ok(set)
    }
}
