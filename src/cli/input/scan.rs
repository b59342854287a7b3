//! What recognising a document reads of it, in one pass: its top-level keys and its tools'
//! entries.

use super::raw::ObjectVisitor;
use serde::de::{Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use std::fmt;

/// A JSON object's entries, in order, values raw.
pub(super) type Entries<'a> = Vec<(String, &'a RawValue)>;

/// What recognising a document reads of it, read once: its top-level entries, its tools (the
/// top-level `tools` array, or the document itself when it is an array) and, when asked, each
/// tool's entries. Detection and the search for slots share it, so the tools are not scanned
/// once for each.
pub(super) struct Scanned<'a> {
    /// The top-level keys, in order (`None`: the document is not an object).
    pub(super) top: Option<Vec<String>>,
    /// Each tool's entries (`None` for a tool that is not an object).
    pub(super) tools: Option<Vec<Option<Entries<'a>>>>,
}

impl<'a> Scanned<'a> {
    pub(super) fn of(raw: &'a RawValue) -> Scanned<'a> {
        let mut de = serde_json::Deserializer::from_str(raw.get());
        // Each in one pass: the tools' entries are read where they are (not captured first).
        let (top, tools) = if raw.get().starts_with('[') {
            (None, de.deserialize_seq(ToolsVisitor).ok())
        } else if raw.get().starts_with('{') {
            match de.deserialize_map(TopVisitor) {
                Ok((keys, tools)) => (Some(keys), tools),
                Err(_) => (None, None),
            }
        } else {
            (None, None)
        };
        Scanned { top, tools }
    }

    /// Whether the top level has a `tools` key (an array or not).
    pub(super) fn has_tools_key(&self) -> bool {
        self.top
            .as_ref()
            .is_some_and(|t| t.iter().any(|k| k == "tools"))
    }
}

/// A visitor's methods for every scalar, each returning `$none`.
macro_rules! none_for_scalars {
    ($none:expr) => {
        fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
            Ok($none)
        }
        fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
            Ok($none)
        }
        fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
            Ok($none)
        }
        fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
            Ok($none)
        }
        fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
            Ok($none)
        }
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok($none)
        }
    };
}

/// A JSON object's keys, and the elements of its first `tools` value (as tools) when that is
/// an array.
struct TopVisitor;

impl<'de> Visitor<'de> for TopVisitor {
    type Value = (Vec<String>, Option<Vec<Option<Entries<'de>>>>);

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut keys = Vec::new();
        let mut tools = None;
        while let Some(k) = map.next_key::<String>()? {
            if k == "tools" && !keys.iter().any(|k| k == "tools") {
                tools = map.next_value::<MaybeArray<'de>>()?.0;
            } else {
                map.next_value::<serde::de::IgnoredAny>()?;
            }
            keys.push(k);
        }
        Ok((keys, tools))
    }
}

/// A value's elements, as tools, when it is an array (`None` for any other value, skipped).
struct MaybeArray<'de>(Option<Vec<Option<Entries<'de>>>>);

impl<'de> serde::Deserialize<'de> for MaybeArray<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = MaybeArray<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
                ToolsVisitor.visit_seq(seq).map(|v| MaybeArray(Some(v)))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                while map
                    .next_entry::<serde::de::IgnoredAny, serde::de::IgnoredAny>()?
                    .is_some()
                {}
                Ok(MaybeArray(None))
            }
            none_for_scalars!(MaybeArray(None));
        }
        d.deserialize_any(V)
    }
}

/// An array's elements as tools: each object's entries, `None` for any other element.
struct ToolsVisitor;

impl<'de> Visitor<'de> for ToolsVisitor {
    type Value = Vec<Option<Entries<'de>>>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON array")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::new();
        while let Some(tool) = seq.next_element::<MaybeObject<'de>>()? {
            out.push(tool.0);
        }
        Ok(out)
    }
}

/// A value's entries when it is an object (`None` for any other value, skipped).
struct MaybeObject<'de>(Option<Entries<'de>>);

impl<'de> serde::Deserialize<'de> for MaybeObject<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = MaybeObject<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                ObjectVisitor.visit_map(map).map(|e| MaybeObject(Some(e)))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
                Ok(MaybeObject(None))
            }
            none_for_scalars!(MaybeObject(None));
        }
        d.deserialize_any(V)
    }
}
