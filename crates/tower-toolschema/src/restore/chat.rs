//! An OpenAI Chat stream chunk: what the way back needs of it (the choices'
//! indices and finish, each tool call's index, name and arguments, and whether an event
//! carries nothing but one argument fragment), every other value skipped by serde_json's
//! scanner, nothing copied. The same reading as the generic walker (`json::members`): the
//! last of a repeated key counts, a value of another type than expected counts as absent.
//! Nesting is fixed (chunk, choice, delta, call, function); skipped values are scanned
//! without recursion.

use std::marker::PhantomData;

use crate::locate::RawText;
use serde::de::{Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::json::Key;

/// A chunk: `choices[]` and whether it carries `usage`.
#[derive(Debug, Default)]
pub(crate) struct Chunk<'a> {
    /// The elements of `choices` (`None`: not an object), when it is an array.
    pub choices: Vec<Option<Choice<'a>>>,
    /// A non-null `usage`.
    pub usage: bool,
}

/// One element of `choices`.
#[derive(Debug, Default)]
pub(crate) struct Choice<'a> {
    pub index: Option<RawText<'a>>,
    /// A non-null `finish_reason`.
    pub finished: bool,
    /// `delta`, when present (an object or not).
    pub delta: Option<Delta<'a>>,
}

/// A choice's `delta`.
#[derive(Debug)]
pub(crate) struct Delta<'a> {
    /// The elements of `tool_calls` (`None`: not an object), when it is an array.
    pub calls: Vec<Option<Call<'a>>>,
    /// Every member is `tool_calls`, `role` or null.
    pub only_calls: bool,
}

impl Default for Delta<'_> {
    fn default() -> Self {
        Delta {
            calls: Vec::new(),
            only_calls: true,
        }
    }
}

/// One element of `tool_calls`.
#[derive(Debug, Default)]
pub(crate) struct Call<'a> {
    pub index: Option<RawText<'a>>,
    /// Its members are `index` and `function` only.
    pub only_index_function: bool,
    /// `function.name`.
    pub name: Option<RawText<'a>>,
    /// `function.arguments`.
    pub arguments: Option<RawText<'a>>,
    /// How many members `function` has (0 when it is not an object).
    pub function_members: usize,
}

/// Reads `text` (one event's data): `None` when it is not JSON. Read by hand in one pass
/// ([`super::chat_scan`]); a text that reader is not sure of is read with serde_json.
pub(crate) fn read(text: &str) -> Option<Chunk<'_>> {
    super::chat_scan::read(text).or_else(|| read_serde(text))
}

/// [`read`] with serde_json (whose answer stands where the hand-written reader is not sure).
pub(crate) fn read_serde(text: &str) -> Option<Chunk<'_>> {
    serde_json::from_str::<Obj<Chunk<'_>>>(text)
        .ok()
        .map(|o| o.0.unwrap_or_default())
}

/// A type read from the members of an object.
trait FromMap<'de>: Sized {
    fn from_map<A: MapAccess<'de>>(map: A) -> Result<Self, A::Error>;
}

/// An object read as `T`, or `None` for any other value (skipped).
struct Obj<T>(Option<T>);

/// An array's elements, each an object read as `T` or `None`; `None` for any other value.
struct Arr<T>(Option<Vec<Option<T>>>);

/// Skips a value of any other type: the visitor methods serde_json calls for them.
macro_rules! other_values {
    ($out:expr) => {
        fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
            Ok($out)
        }
        fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
            Ok($out)
        }
        fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
            Ok($out)
        }
        fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
            Ok($out)
        }
        fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
            Ok($out)
        }
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok($out)
        }
    };
}

impl<'de, T: FromMap<'de>> Deserialize<'de> for Obj<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(PhantomData<T>);
        impl<'de, T: FromMap<'de>> Visitor<'de> for V<T> {
            type Value = Obj<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("any value")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Obj<T>, A::Error> {
                T::from_map(map).map(|t| Obj(Some(t)))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Obj<T>, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Obj(None))
            }
            other_values!(Obj(None));
        }
        d.deserialize_any(V(PhantomData))
    }
}

impl<'de, T: FromMap<'de>> Deserialize<'de> for Arr<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(PhantomData<T>);
        impl<'de, T: FromMap<'de>> Visitor<'de> for V<T> {
            type Value = Arr<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("any value")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Arr<T>, A::Error> {
                let mut out = Vec::new();
                while let Some(Obj(item)) = seq.next_element::<Obj<T>>()? {
                    out.push(item);
                }
                Ok(Arr(Some(out)))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Arr<T>, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Arr(None))
            }
            other_values!(Arr(None));
        }
        d.deserialize_any(V(PhantomData))
    }
}

/// Whether a value is not `null` (skipped either way).
fn non_null<'de, A: MapAccess<'de>>(map: &mut A) -> Result<bool, A::Error> {
    Ok(map.next_value::<Option<IgnoredAny>>()?.is_some())
}

impl<'de> FromMap<'de> for Chunk<'de> {
    fn from_map<A: MapAccess<'de>>(mut map: A) -> Result<Self, A::Error> {
        let mut out = Chunk::default();
        while let Some(Key(k)) = map.next_key::<Key<'de>>()? {
            match &*k {
                "usage" => out.usage = non_null(&mut map)?,
                "choices" => {
                    out.choices = map.next_value::<Arr<Choice<'de>>>()?.0.unwrap_or_default()
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(out)
    }
}

impl<'de> FromMap<'de> for Choice<'de> {
    fn from_map<A: MapAccess<'de>>(mut map: A) -> Result<Self, A::Error> {
        let mut out = Choice::default();
        while let Some(Key(k)) = map.next_key::<Key<'de>>()? {
            match &*k {
                "index" => out.index = Some(map.next_value()?),
                "finish_reason" => out.finished = non_null(&mut map)?,
                "delta" => {
                    out.delta = Some(map.next_value::<Obj<Delta<'de>>>()?.0.unwrap_or_default())
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(out)
    }
}

impl<'de> FromMap<'de> for Delta<'de> {
    fn from_map<A: MapAccess<'de>>(mut map: A) -> Result<Self, A::Error> {
        let mut out = Delta::default();
        while let Some(Key(k)) = map.next_key::<Key<'de>>()? {
            match &*k {
                "tool_calls" => {
                    out.calls = map.next_value::<Arr<Call<'de>>>()?.0.unwrap_or_default()
                }
                "role" => {
                    map.next_value::<IgnoredAny>()?;
                }
                _ => {
                    if non_null(&mut map)? {
                        out.only_calls = false;
                    }
                }
            }
        }
        Ok(out)
    }
}

impl<'de> FromMap<'de> for Call<'de> {
    fn from_map<A: MapAccess<'de>>(mut map: A) -> Result<Self, A::Error> {
        let mut out = Call {
            only_index_function: true,
            ..Call::default()
        };
        while let Some(Key(k)) = map.next_key::<Key<'de>>()? {
            match &*k {
                "index" => out.index = Some(map.next_value()?),
                "function" => {
                    let f = map
                        .next_value::<Obj<Function<'de>>>()?
                        .0
                        .unwrap_or_default();
                    (out.name, out.arguments, out.function_members) =
                        (f.name, f.arguments, f.members);
                }
                _ => {
                    out.only_index_function = false;
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(out)
    }
}

/// A call's `function`.
#[derive(Default)]
struct Function<'a> {
    name: Option<RawText<'a>>,
    arguments: Option<RawText<'a>>,
    members: usize,
}

impl<'de> FromMap<'de> for Function<'de> {
    fn from_map<A: MapAccess<'de>>(mut map: A) -> Result<Self, A::Error> {
        let mut out = Function::default();
        while let Some(Key(k)) = map.next_key::<Key<'de>>()? {
            out.members += 1;
            match &*k {
                "name" => out.name = Some(map.next_value()?),
                "arguments" => out.arguments = Some(map.next_value()?),
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_the_way_back_needs_and_takes_any_value() {
        let c = read(r#"{"choices":[{"index":1,"delta":{"role":"assistant","content":null,"tool_calls":[{"index":2,"function":{"arguments":"{\"a\""}}]},"finish_reason":null},3],"usage":null}"#).unwrap();
        assert!(!c.usage);
        assert_eq!(c.choices.len(), 2);
        let ch = c.choices[0].as_ref().unwrap();
        assert_eq!(ch.index.map(|r| r.get()), Some("1"));
        assert!(!ch.finished && c.choices[1].is_none());
        let d = ch.delta.as_ref().unwrap();
        assert!(d.only_calls);
        let call = d.calls[0].as_ref().unwrap();
        assert_eq!(call.index.map(|r| r.get()), Some("2"));
        assert!(call.only_index_function && call.name.is_none());
        assert_eq!(call.function_members, 1);
        assert_eq!(call.arguments.map(|r| r.get()), Some(r#""{\"a\"""#));
        // Any other type counts as absent; the last of a repeated key counts; not JSON: `None`.
        let c = read(r#"{"choices":{"a":1},"choices":[{"delta":[1],"finish_reason":"stop"}],"usage":{"n":1}}"#).unwrap();
        assert!(c.usage);
        let ch = c.choices[0].as_ref().unwrap();
        assert!(ch.finished);
        assert!(ch.delta.as_ref().unwrap().calls.is_empty());
        assert!(read("[1,2]").unwrap().choices.is_empty());
        assert!(
            read(r#"{"choices":[{"delta":{"content":"x"}}]}"#)
                .unwrap()
                .choices[0]
                .as_ref()
                .unwrap()
                .delta
                .as_ref()
                .is_some_and(|d| !d.only_calls)
        );
        assert!(read("[DONE]").is_none());
        assert!(read(r#"{"a":1} x"#).is_none());
    }
}
