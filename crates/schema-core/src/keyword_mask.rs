//! [`KeywordMask`]: a set of keywords tested against a [`SchemaObject`]'s presence mask, and
//! the bit each keyword has there.

use crate::keyword::Keyword;
#[cfg(doc)]
use crate::{Schema, SchemaObject};

/// A keyword's bit in [`SchemaObject`]'s presence mask (two keywords may share one: that only
/// makes a lookup scan).
pub(crate) const fn maybe_bit(kw: Keyword) -> u64 {
    1 << (kw.index() % 64)
}

/// A set of keywords in the form [`SchemaObject::may_contain_any`] tests against an object's
/// presence mask (two keywords may share a bit: a set may say "maybe" for a keyword it does
/// not hold, never "no" for one it holds).
///
/// ```
/// use schema_core::{Keyword, KeywordMask, Schema};
/// const UNIONS: KeywordMask = KeywordMask::of(&[Keyword::AnyOf, Keyword::OneOf]);
/// let s = Schema::from_str(r#"{"type": "string", "description": "A name."}"#)?;
/// assert!(!s.as_object().unwrap().may_contain_any(UNIONS));
/// let u = Schema::from_str(r#"{"anyOf": [{"type": "string"}, {"type": "null"}]}"#)?;
/// assert!(u.as_object().unwrap().may_contain_any(UNIONS));
/// # Ok::<(), schema_core::SchemaError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeywordMask(pub(crate) u64);

impl KeywordMask {
    /// Every keyword (an object that holds any known keyword may hold one of these).
    ///
    /// ```
    /// use schema_core::{KeywordMask, Schema};
    /// let s = Schema::from_str(r#"{"title": "T"}"#)?;
    /// assert!(s.as_object().unwrap().may_contain_any(KeywordMask::ALL));
    /// # Ok::<(), schema_core::SchemaError>(())
    /// ```
    pub const ALL: KeywordMask = KeywordMask(u64::MAX);

    /// The set of `keywords`.
    ///
    /// ```
    /// use schema_core::{Keyword, KeywordMask};
    /// assert_ne!(KeywordMask::of(&[Keyword::Type]), KeywordMask::of(&[]));
    /// ```
    pub const fn of(keywords: &[Keyword]) -> KeywordMask {
        let mut bits = 0;
        let mut i = 0;
        while i < keywords.len() {
            bits |= maybe_bit(keywords[i]);
            i += 1;
        }
        KeywordMask(bits)
    }

    /// No keyword.
    ///
    /// ```
    /// use schema_core::{Keyword, KeywordMask};
    /// assert!(!KeywordMask::NONE.intersects(KeywordMask::of(&[Keyword::Type])));
    /// ```
    pub const NONE: KeywordMask = KeywordMask(0);

    /// The keywords of either set.
    ///
    /// ```
    /// use schema_core::{Keyword, KeywordMask};
    /// let both = KeywordMask::of(&[Keyword::Type]).union(KeywordMask::of(&[Keyword::Enum]));
    /// assert_eq!(both, KeywordMask::of(&[Keyword::Type, Keyword::Enum]));
    /// ```
    #[must_use]
    pub const fn union(self, other: KeywordMask) -> KeywordMask {
        KeywordMask(self.0 | other.0)
    }

    /// Whether the two sets may share a keyword: `false` means they share none.
    ///
    /// ```
    /// use schema_core::{Keyword, KeywordMask};
    /// let refs = KeywordMask::of(&[Keyword::Ref]);
    /// assert!(refs.intersects(KeywordMask::of(&[Keyword::Ref, Keyword::Type])));
    /// assert!(!refs.intersects(KeywordMask::of(&[Keyword::Type])));
    /// ```
    pub const fn intersects(self, other: KeywordMask) -> bool {
        self.0 & other.0 != 0
    }

    /// The keywords whose value can hold subschemas ([`Keyword::has_subschemas`]: those
    /// [`Schema::for_each_child`] reads a child from).
    ///
    /// ```
    /// use schema_core::{KeywordMask, Schema};
    /// let leaf = Schema::from_str(r#"{"type": "string", "enum": ["a"]}"#)?;
    /// assert!(!leaf.as_object().unwrap().may_contain_any(KeywordMask::subschemas()));
    /// let object = Schema::from_str(r#"{"properties": {"a": true}}"#)?;
    /// assert!(object.as_object().unwrap().may_contain_any(KeywordMask::subschemas()));
    /// # Ok::<(), schema_core::SchemaError>(())
    /// ```
    pub const fn subschemas() -> KeywordMask {
        let mut bits = 0;
        let mut i = 0;
        while i < Keyword::ALL.len() {
            let kw = Keyword::ALL[i];
            if kw.has_subschemas() {
                bits |= maybe_bit(kw);
            }
            i += 1;
        }
        KeywordMask(bits)
    }
}
