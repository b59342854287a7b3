//! Argument decoders: what undoes, in a model's tool-call arguments, a change the sanitizer
//! made to the tool's schema.
//!
//! [`sanitize`](crate::sanitize) returns one [`Decoder`] per schema
//! ([`Sanitized::decoder`](crate::Sanitized::decoder)). The tree mirrors the schema: a node
//! decodes one value, with children for `properties`, `items`, `prefixItems`,
//! `additionalProperties` and the branches of `anyOf`. Today one decoding exists:
//!
//! - **strict nulls** ([`Decoder::drop_null`]): OpenAI's strict mode requires every property,
//!   so the strict rewrite made each optional property required and nullable; a model fills the
//!   ones it does not want with `null`. Where the original property did not accept `null`, the
//!   decoder removes the member (`"cursor": null`), so the tool receives what its own schema
//!   allows.
//!
//! Where the sanitized schema keeps `$defs`/`$ref` (OpenAI strict), the root's
//! [`Decoder::defs`] hold each definition's decoder and a node under a `$ref` names its
//! definition ([`Decoder::reference`]): a recursive schema's decoder decodes a value at every
//! depth, bounded by the value's own depth.
//!
//! Decoding works on JSON text and keeps every other byte: key order, spacing and number
//! spellings survive, and text a decoder does not change is returned as `None` (no copy).
//!
//! Files: `types.rs` (the decoder's types), `text.rs` (the transcriber on JSON text: strict
//! nulls and the encodings' decoders), `refs.rs` (kept definitions and the references that
//! name them); encoding a value back is [`Decoder::encode_value`] (and, keeping the members'
//! order, [`Decoder::encode_json`]).
//!
//! ```
//! use provider_rules::{sanitize, Rules, Slot};
//! use schema_core::Schema;
//!
//! let tool = Schema::from_str(r#"{"type":"object","properties":{
//!     "q":{"type":"string"},"cursor":{"type":"string"}},"required":["q"]}"#)?;
//! let out = sanitize(&tool, &Rules::OPENAI_STRICT, Slot::Parameters);
//! assert_eq!(out.decoder.drop_null, ["cursor"]);
//! // What the model sends under the strict schema ...
//! let sent = r#"{"q": "rust", "cursor": null}"#;
//! // ... is what the tool accepts once decoded.
//! assert_eq!(out.decoder.decode_json(sent)?.as_deref(), Some(r#"{"q": "rust"}"#));
//! // A real cursor stays.
//! assert_eq!(out.decoder.decode_json(r#"{"q":"x","cursor":"c2"}"#)?, None);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod refs;
mod text;
mod types;

pub(crate) use refs::{build, drop_repeated_json, link_root};
pub(crate) use text::{key_text, skip, skip_string, ws};
pub use types::{Branch, DecodeError, Decoded, Decoder};

use refs::defs;
use schema_core::InstanceType;

impl Decoder {
    /// Whether this decoder changes nothing.
    ///
    /// ```
    /// assert!(provider_rules::decode::Decoder::default().is_identity());
    /// ```
    pub fn is_identity(&self) -> bool {
        self.is_identity_here() && self.then.as_deref().is_none_or(Decoder::is_identity)
    }

    /// Decodes JSON text: `Ok(None)` when nothing changes (every byte kept), `Ok(Some(text))`
    /// with only the decoded members removed otherwise. Bounded by the decoder's depth (no
    /// recursion follows the text where the decoder has nothing to do).
    ///
    /// See the [module docs](crate::decode) for an example.
    pub fn decode_json(&self, text: &str) -> Result<Option<String>, DecodeError> {
        self.decode_json_noted(text).map(|d| d.text)
    }

    /// [`decode_json`](Decoder::decode_json), with what the decoding kept as it came.
    ///
    /// See [`Decoded`] for an example.
    pub fn decode_json_noted(&self, text: &str) -> Result<Decoded, DecodeError> {
        self.decode_noted(text, false)
    }

    /// [`decode_json`](Decoder::decode_json) of a text the caller has already checked is one
    /// JSON value (as serde_json reads it, e.g. with a validating scanner of its own): the same
    /// answer, without reading the text once more only to check it. A text that is not JSON
    /// gives an unspecified answer (never a panic).
    ///
    /// ```
    /// use provider_rules::decode::Decoder;
    /// let d = Decoder { drop_null: vec!["cursor".into()], ..Decoder::default() };
    /// let text = r#"{"q":"rust","cursor":null}"#;
    /// assert_eq!(d.decode_checked_json(text)?, d.decode_json(text)?);
    /// assert_eq!(d.decode_checked_json(text)?.as_deref(), Some(r#"{"q":"rust"}"#));
    /// # Ok::<(), provider_rules::decode::DecodeError>(())
    /// ```
    pub fn decode_checked_json(&self, text: &str) -> Result<Option<String>, DecodeError> {
        self.decode_noted(text, true).map(|d| d.text)
    }

    /// [`decode_json_noted`](Decoder::decode_json_noted); `checked`: the text is known to be
    /// JSON (not checked again).
    fn decode_noted(&self, text: &str, checked: bool) -> Result<Decoded, DecodeError> {
        let _scope = defs::Scope::enter(self);
        let mut notes = Vec::new();
        let first = self.decode_own(text, checked, &mut notes)?;
        let text = match self.then.as_deref() {
            Some(t) if !t.is_identity() => {
                let base = first.as_deref().unwrap_or(text);
                t.decode_noted(base, checked).map(|mut d| {
                    notes.append(&mut d.notes);
                    d.text.or(first)
                })?
            }
            _ => first,
        };
        Ok(Decoded { text, notes })
    }

    fn decode_own(
        &self,
        text: &str,
        checked: bool,
        notes: &mut Vec<String>,
    ) -> Result<Option<String>, DecodeError> {
        if self.is_identity_here() {
            return Ok(None);
        }
        if !checked {
            serde_json::from_str::<serde::de::IgnoredAny>(text)
                .map_err(|e| DecodeError::NotJson(e.to_string()))?;
        }
        let s = text.as_bytes();
        let start = ws(s, 0);
        let mut out = Vec::with_capacity(s.len());
        out.extend_from_slice(&s[..start]);
        let changed = match self.value(s, start, &mut out, notes) {
            Some((end, changed)) => {
                out.extend_from_slice(&s[end..]);
                changed
            }
            None => false,
        };
        if !changed {
            return Ok(None);
        }
        // The text was checked to be JSON and only whole members were removed.
        String::from_utf8(out)
            .map(Some)
            .map_err(|e| DecodeError::NotJson(e.to_string()))
    }

    /// Decodes a parsed value in place; returns how many members were removed.
    ///
    /// ```
    /// use provider_rules::decode::Decoder;
    /// let d = Decoder { drop_null: vec!["a".into()], ..Decoder::default() };
    /// let mut v = serde_json::json!({"a": null, "b": null});
    /// assert_eq!(d.decode_value(&mut v), 1);
    /// assert_eq!(v, serde_json::json!({"b": null}));
    /// ```
    pub fn decode_value(&self, v: &mut serde_json::Value) -> usize {
        self.decode_value_noted(v, &mut Vec::new())
    }

    /// [`decode_value`](Decoder::decode_value), adding to `notes` what was kept as it came.
    ///
    /// ```
    /// use provider_rules::decode::Decoder;
    /// use provider_rules::encode::Encoding;
    /// let d = Decoder { encoding: Some(Encoding::EnumText), ..Decoder::default() };
    /// let mut v = serde_json::json!("3");
    /// assert_eq!(d.decode_value_noted(&mut v, &mut Vec::new()), 1);
    /// assert_eq!(v, serde_json::json!(3));
    /// ```
    pub fn decode_value_noted(&self, v: &mut serde_json::Value, notes: &mut Vec<String>) -> usize {
        let _scope = defs::Scope::enter(self);
        if self.reference.is_some() {
            return defs::follow(self, |d| d.decode_value_noted(v, notes)).unwrap_or(0);
        }
        let mut n = self.decode_value_own(v, notes);
        if let Some(t) = self.then.as_deref() {
            n += t.decode_value_noted(v, notes);
        }
        n
    }

    fn decode_value_own(&self, v: &mut serde_json::Value, notes: &mut Vec<String>) -> usize {
        if let Some(e) = &self.encoding {
            return usize::from(e.decode_value(v, notes));
        }
        let mut n = 0;
        if let Some(b) = self.branch_for(json_type(v)) {
            n += b.decode_value_noted(v, notes);
        }
        match v {
            serde_json::Value::Object(map) => {
                for name in &self.drop_null {
                    if map.get(name).is_some_and(serde_json::Value::is_null) {
                        map.remove(name);
                        n += 1;
                    }
                }
                for (k, child) in map.iter_mut() {
                    if let Some(d) = self.member(k) {
                        n += d.decode_value_noted(child, notes);
                    }
                }
            }
            serde_json::Value::Array(list) => {
                for (i, item) in list.iter_mut().enumerate() {
                    if let Some(d) = self.item(i) {
                        n += d.decode_value_noted(item, notes);
                    }
                }
            }
            _ => {}
        }
        n
    }

    /// Encodes a value in the tool's terms into what the sanitized schema expects (the inverse
    /// of decoding: maps to entries, values to JSON text, ...; strict nulls for the members
    /// left out). For earlier tool calls in a conversation's history, and tests.
    ///
    /// ```
    /// use provider_rules::decode::Decoder;
    /// use provider_rules::encode::Encoding;
    /// let d = Decoder { encoding: Some(Encoding::Json), ..Decoder::default() };
    /// assert_eq!(d.encode_value(&serde_json::json!([1])), serde_json::json!("[1]"));
    /// ```
    pub fn encode_value(&self, v: &serde_json::Value) -> serde_json::Value {
        let _scope = defs::Scope::enter(self);
        if self.reference.is_some() {
            return defs::follow(self, |d| d.encode_value(v)).unwrap_or_else(|| v.clone());
        }
        let inner = match self.then.as_deref() {
            Some(t) => t.encode_value(v),
            None => v.clone(),
        };
        self.encode_own(inner)
    }

    fn encode_own(&self, v: serde_json::Value) -> serde_json::Value {
        if let Some(e) = &self.encoding {
            return e.encode_value(&v);
        }
        let t = json_type(&v);
        if let Some(b) = self.any_of.iter().find(|b| {
            let types = if b.from_types.is_empty() {
                &b.types
            } else {
                &b.from_types
            };
            admits(types, t)
        }) && !b.decoder.is_identity()
        {
            return self.encode_members(b.decoder.encode_value(&v));
        }
        self.encode_members(v)
    }

    fn encode_members(&self, v: serde_json::Value) -> serde_json::Value {
        match v {
            serde_json::Value::Object(mut map) => {
                for (k, child) in map.iter_mut() {
                    if let Some(d) = self.member(k) {
                        *child = d.encode_value(child);
                    }
                }
                for name in &self.drop_null {
                    if !map.contains_key(name) {
                        map.insert(name.clone(), serde_json::Value::Null);
                    }
                }
                serde_json::Value::Object(map)
            }
            serde_json::Value::Array(mut list) => {
                for (i, item) in list.iter_mut().enumerate() {
                    if let Some(d) = self.item(i) {
                        *item = d.encode_value(item);
                    }
                }
                serde_json::Value::Array(list)
            }
            other => other,
        }
    }

    /// Whether this node itself (without [`then`](Decoder::then)) changes nothing.
    fn is_identity_here(&self) -> bool {
        self.drop_null.is_empty()
            && self.properties.is_empty()
            && self.items.is_none()
            && self.prefix_items.is_empty()
            && self.additional_properties.is_none()
            && self.any_of.iter().all(|b| b.decoder.is_identity())
            && self.encoding.is_none()
            && self.reference.is_none()
    }

    fn member(&self, name: &str) -> Option<&Decoder> {
        self.properties
            .get(name)
            .or(self.additional_properties.as_deref())
            .filter(|d| !d.is_identity())
    }

    fn item(&self, i: usize) -> Option<&Decoder> {
        self.prefix_items
            .get(i)
            .or(self.items.as_deref())
            .filter(|d| !d.is_identity())
    }

    fn branch_for(&self, t: InstanceType) -> Option<&Decoder> {
        self.any_of
            .iter()
            .find(|b| admits(&b.types, t))
            .map(|b| &b.decoder)
            .filter(|d| !d.is_identity())
    }

    fn is_object_decoder(&self) -> bool {
        !self.drop_null.is_empty()
            || !self.properties.is_empty()
            || self.additional_properties.is_some()
    }
}

/// Whether a branch of `types` (empty: any) admits a value of type `t`.
fn admits(types: &[String], t: InstanceType) -> bool {
    types.is_empty()
        || types.iter().any(|n| {
            n == t.as_str() || (t == InstanceType::Integer && n == InstanceType::Number.as_str())
        })
}

fn json_type(v: &serde_json::Value) -> InstanceType {
    match v {
        serde_json::Value::Null => InstanceType::Null,
        serde_json::Value::Bool(_) => InstanceType::Boolean,
        serde_json::Value::Number(n) if n.is_f64() => InstanceType::Number,
        serde_json::Value::Number(_) => InstanceType::Integer,
        serde_json::Value::String(_) => InstanceType::String,
        serde_json::Value::Array(_) => InstanceType::Array,
        serde_json::Value::Object(_) => InstanceType::Object,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dn(names: &[&str]) -> Decoder {
        Decoder {
            drop_null: names.iter().map(|n| (*n).to_owned()).collect(),
            ..Decoder::default()
        }
    }

    #[test]
    fn strict_null_members_go_whatever_their_place_and_spacing() {
        let d = dn(&["a", "c"]);
        let cases = [
            (r#"{"a":null}"#, Some("{}")),
            (r#"{ "a" : null }"#, Some("{ }")),
            (r#"{"a":null,"b":1}"#, Some(r#"{"b":1}"#)),
            (r#"{"b":1,"a":null}"#, Some(r#"{"b":1}"#)),
            (r#"{"b":1, "a":null, "d":2}"#, Some(r#"{"b":1, "d":2}"#)),
            (r#"{"a":null,"b":1,"c":null}"#, Some(r#"{"b":1}"#)),
            ("{\n  \"b\": 1,\n  \"c\": null\n}", Some("{\n  \"b\": 1\n}")),
            (r#"{"a":"x","b":null}"#, None),
            (r#"{"\u0061":null}"#, Some("{}")),
            ("[1]", None),
        ];
        for (input, want) in cases {
            let got = d.decode_json(input).unwrap();
            assert_eq!(got.as_deref(), want, "{input}");
            if let Some(g) = got {
                serde_json::from_str::<serde_json::Value>(&g).unwrap();
            }
        }
    }

    #[test]
    fn nested_items_and_branches_follow_the_tree() {
        let inner = dn(&["x"]);
        let d = Decoder {
            properties: [(
                "list".to_owned(),
                Decoder {
                    items: Some(Box::new(Decoder {
                        any_of: vec![
                            Branch {
                                types: vec!["object".into()],
                                decoder: inner,
                                ..Branch::default()
                            },
                            Branch {
                                types: vec!["null".into()],
                                ..Branch::default()
                            },
                        ],
                        ..Decoder::default()
                    })),
                    ..Decoder::default()
                },
            )]
            .into(),
            ..Decoder::default()
        };
        let input = r#"{"list":[{"x":null,"y":null},null,{"x":1}],"x":null}"#;
        let want = r#"{"list":[{"y":null},null,{"x":1}],"x":null}"#;
        assert_eq!(d.decode_json(input).unwrap().as_deref(), Some(want));
        let mut v: serde_json::Value = serde_json::from_str(input).unwrap();
        assert_eq!(d.decode_value(&mut v), 1);
        assert_eq!(v, serde_json::from_str::<serde_json::Value>(want).unwrap());
        // Serializable, and back.
        let text = serde_json::to_string(&d).unwrap();
        assert_eq!(serde_json::from_str::<Decoder>(&text).unwrap(), d);
    }

    #[test]
    fn not_json_is_an_error_and_identity_reads_nothing() {
        assert!(dn(&["a"]).decode_json(r#"{"a":nul}"#).is_err());
        assert_eq!(Decoder::default().decode_json("not json").unwrap(), None);
    }
}
