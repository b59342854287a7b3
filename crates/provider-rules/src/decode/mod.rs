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

use crate::encode::Encoding;
use schema_core::{InstanceType, Keyword, Schema, pointer};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// How one value of a tool's arguments is decoded; the identity when [empty](Decoder::is_identity).
///
/// See the [module docs](crate::decode) for an example.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Decoder {
    /// Members of this object that are removed when their value is `null` (the strict rewrite
    /// made them required and nullable; the original neither required them nor accepted
    /// `null`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub drop_null: Vec<String>,
    /// Decoders of this object's properties' values.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub properties: BTreeMap<String, Decoder>,
    /// The decoder of this array's items.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub items: Option<Box<Decoder>>,
    /// Decoders of this array's leading items, by position.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub prefix_items: Vec<Decoder>,
    /// The decoder of this object's other members' values.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub additional_properties: Option<Box<Decoder>>,
    /// The branches of this value's `anyOf`: the first whose types admit the value decodes it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub any_of: Vec<Branch>,
    /// How this value was encoded ([`crate::encode`]): decoded by it, in place of the fields
    /// above.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encoding: Option<Encoding>,
    /// A decoder applied to this value after this one (at the root: the encodings' tree, after
    /// the strict nulls are removed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub then: Option<Box<Decoder>>,
    /// At the root of a tree: the decoders of the schema's kept definitions (`$defs`), by
    /// name, and under `""` the root's own (for `$ref: "#"`), which
    /// [`reference`](Decoder::reference) names.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub defs: BTreeMap<String, Decoder>,
    /// The schema here is a `$ref`: the value is decoded by the root's
    /// [`defs`](Decoder::defs) entry of this name, in place of the fields above (followed
    /// through recursion, bounded by the value's depth).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<String>,
}

/// What [`Decoder::decode_json_noted`] made: the decoded text (`None`: unchanged) and what the
/// decoding could not do as asked (duplicate map keys, strings that are not JSON text...).
///
/// ```
/// use provider_rules::decode::Decoder;
/// use provider_rules::encode::Encoding;
/// let d = Decoder { encoding: Some(Encoding::Json), ..Decoder::default() };
/// let out = d.decode_json_noted(r#""not json""#)?;
/// assert_eq!(out.text, None);
/// assert_eq!(out.notes.len(), 1);
/// # Ok::<(), provider_rules::decode::DecodeError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Decoded {
    /// The decoded text; `None` when nothing changed.
    pub text: Option<String>,
    /// What was kept as it came, and why.
    pub notes: Vec<String>,
}

/// One `anyOf` branch of a [`Decoder`].
///
/// ```
/// use provider_rules::decode::{Branch, Decoder};
/// let b = Branch { types: vec!["object".into()], ..Branch::default() };
/// assert_eq!(serde_json::to_string(&b).unwrap(), r#"{"types":["object"]}"#);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Branch {
    /// The JSON types the branch admits (its `type`; empty: any type).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub types: Vec<String>,
    /// The types the branch admitted before it was encoded, where they differ (used when
    /// encoding a value in the tool's terms; empty: the same as `types`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub from_types: Vec<String>,
    /// How a value this branch takes is decoded.
    #[serde(default, skip_serializing_if = "Decoder::is_identity")]
    pub decoder: Decoder,
}

/// Why arguments could not be decoded (they go on as they are).
///
/// ```
/// use provider_rules::decode::{DecodeError, Decoder};
/// let d = Decoder { drop_null: vec!["a".into()], ..Decoder::default() };
/// assert!(matches!(d.decode_json("{\"a\":"), Err(DecodeError::NotJson(_))));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// The arguments are not JSON text.
    #[error("the arguments are not JSON: {0}")]
    NotJson(String),
}

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
        let _scope = defs::Scope::enter(self);
        let mut notes = Vec::new();
        let first = self.decode_own(text, &mut notes)?;
        let text = match self.then.as_deref() {
            Some(t) if !t.is_identity() => {
                let base = first.as_deref().unwrap_or(text);
                t.decode_json_noted(base).map(|mut d| {
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
        notes: &mut Vec<String>,
    ) -> Result<Option<String>, DecodeError> {
        if self.is_identity_here() {
            return Ok(None);
        }
        serde_json::from_str::<serde::de::IgnoredAny>(text)
            .map_err(|e| DecodeError::NotJson(e.to_string()))?;
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

    /// Transcribes the value at `s[i..]` into `out`, decoded; returns its end and whether
    /// anything changed. `None`: not JSON where a value was expected.
    pub(crate) fn value(
        &self,
        s: &[u8],
        i: usize,
        out: &mut Vec<u8>,
        notes: &mut Vec<String>,
    ) -> Option<(usize, bool)> {
        if self.reference.is_some() {
            return match defs::follow(self, |d| d.value(s, i, out, notes)) {
                Some(r) => r,
                None => {
                    let end = skip(s, i)?;
                    out.extend_from_slice(&s[i..end]);
                    Some((end, false))
                }
            };
        }
        if let Some(e) = &self.encoding {
            return e.decode_text(s, i, out, notes);
        }
        let t = token_type(s, i)?;
        if let Some(b) = self.branch_for(t) {
            // A branch decodes the value first; this node's own members then apply to its
            // output (both rarely: a branch is usually the only decoder).
            if !self.is_object_decoder() && self.items.is_none() && self.prefix_items.is_empty() {
                return b.value(s, i, out, notes);
            }
            let mut tmp = Vec::new();
            let (end, c1) = b.value(s, i, &mut tmp, notes)?;
            let mut again = Vec::with_capacity(tmp.len());
            let (_, c2) = self.own(&tmp, 0, &mut again, notes)?;
            out.extend_from_slice(&again);
            return Some((end, c1 || c2));
        }
        self.own(s, i, out, notes)
    }

    fn own(
        &self,
        s: &[u8],
        i: usize,
        out: &mut Vec<u8>,
        notes: &mut Vec<String>,
    ) -> Option<(usize, bool)> {
        match s.get(i)? {
            b'{' if self.is_object_decoder() => self.object(s, i, out, notes),
            b'[' if self.items.is_some() || !self.prefix_items.is_empty() => {
                self.array(s, i, out, notes)
            }
            _ => {
                let end = skip(s, i)?;
                out.extend_from_slice(&s[i..end]);
                Some((end, false))
            }
        }
    }

    fn object(
        &self,
        s: &[u8],
        open: usize,
        out: &mut Vec<u8>,
        notes: &mut Vec<String>,
    ) -> Option<(usize, bool)> {
        // Members as transcribed text, each with the separator that followed it.
        let mut kept: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
        let mut changed = false;
        let mut i = ws(s, open + 1);
        let lead = &s[open + 1..i];
        if s.get(i) == Some(&b'}') {
            out.extend_from_slice(&s[open..=i]);
            return Some((i + 1, false));
        }
        let mut tail: &[u8];
        loop {
            let key_start = i;
            let key_end = skip_string(s, i)?;
            let key = key_text(&s[key_start..key_end])?;
            let colon = ws(s, key_end);
            if s.get(colon) != Some(&b':') {
                return None;
            }
            let v = ws(s, colon + 1);
            let mut member = s[key_start..v].to_vec();
            let (end, drop) = if self.drop_null.contains(&key) && s[v..].starts_with(b"null") {
                (v + 4, true)
            } else if let Some(d) = self.member(&key) {
                let (end, c) = d.value(s, v, &mut member, notes)?;
                changed |= c;
                (end, false)
            } else {
                let end = skip(s, v)?;
                member.extend_from_slice(&s[v..end]);
                (end, false)
            };
            let after = ws(s, end);
            match s.get(after)? {
                b',' => {
                    let next = ws(s, after + 1);
                    if drop {
                        changed = true;
                    } else {
                        kept.push((member, s[end..next].to_vec()));
                    }
                    i = next;
                }
                b'}' => {
                    tail = &s[end..after];
                    if drop {
                        changed = true;
                    } else {
                        kept.push((member, Vec::new()));
                    }
                    i = after;
                    break;
                }
                _ => return None,
            }
        }
        if kept.is_empty() {
            tail = &[];
        }
        out.push(b'{');
        out.extend_from_slice(lead);
        let n = kept.len();
        for (k, (member, sep)) in kept.into_iter().enumerate() {
            out.extend_from_slice(&member);
            if k + 1 < n {
                if sep.is_empty() {
                    out.push(b',');
                } else {
                    out.extend_from_slice(&sep);
                }
            }
        }
        out.extend_from_slice(tail);
        out.push(b'}');
        Some((i + 1, changed))
    }

    fn array(
        &self,
        s: &[u8],
        open: usize,
        out: &mut Vec<u8>,
        notes: &mut Vec<String>,
    ) -> Option<(usize, bool)> {
        let mut i = ws(s, open + 1);
        out.extend_from_slice(&s[open..i]);
        let mut changed = false;
        if s.get(i) == Some(&b']') {
            out.push(b']');
            return Some((i + 1, false));
        }
        let mut index = 0;
        loop {
            let end = match self.item(index) {
                Some(d) => {
                    let (end, c) = d.value(s, i, out, notes)?;
                    changed |= c;
                    end
                }
                None => {
                    let end = skip(s, i)?;
                    out.extend_from_slice(&s[i..end]);
                    end
                }
            };
            index += 1;
            let after = ws(s, end);
            match s.get(after)? {
                b',' => {
                    let next = ws(s, after + 1);
                    out.extend_from_slice(&s[end..next]);
                    i = next;
                }
                b']' => {
                    out.extend_from_slice(&s[end..=after]);
                    return Some((after + 1, changed));
                }
                _ => return None,
            }
        }
    }
}

/// Following [`Decoder::reference`]: the definitions of the tree being applied.
mod defs {
    use super::Decoder;
    use std::cell::{Cell, RefCell};
    use std::collections::BTreeMap;
    use std::rc::Rc;

    /// How many references one value's decoding follows inside one another at most: a
    /// recursive schema decodes a value as deep as serde_json reads (128 levels), and a chain
    /// of definitions that name each other without a value between them stops here.
    const MAX_FOLLOWED: usize = 512;

    thread_local! {
        /// The definitions of the trees being applied, the innermost last.
        static DEFS: RefCell<Vec<Rc<BTreeMap<String, Decoder>>>> = const { RefCell::new(Vec::new()) };
        /// How many references are being followed.
        static FOLLOWED: Cell<usize> = const { Cell::new(0) };
    }

    /// The definitions of a tree's root, in force while this lives.
    pub(super) struct Scope(bool);

    impl Scope {
        /// Puts `root`'s definitions in force (when it has any).
        pub(super) fn enter(root: &Decoder) -> Scope {
            if root.defs.is_empty() {
                return Scope(false);
            }
            DEFS.with(|d| d.borrow_mut().push(Rc::new(root.defs.clone())));
            Scope(true)
        }
    }

    impl Drop for Scope {
        fn drop(&mut self) {
            if self.0 {
                DEFS.with(|d| d.borrow_mut().pop());
            }
        }
    }

    /// Applies `f` to the definition `node` refers to; `None` where it names nothing in force
    /// or too many references are being followed (the value is then kept as it is).
    pub(super) fn follow<R>(node: &Decoder, f: impl FnOnce(&Decoder) -> R) -> Option<R> {
        let name = node.reference.as_deref()?;
        let defs = DEFS.with(|d| d.borrow().last().cloned())?;
        let target = defs.get(name)?;
        let n = FOLLOWED.with(Cell::get);
        if n >= MAX_FOLLOWED {
            return None;
        }
        FOLLOWED.with(|c| c.set(n + 1));
        let out = f(target);
        FOLLOWED.with(|c| c.set(n));
        Some(out)
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

/// The JSON type of the token at `s[i]`.
fn token_type(s: &[u8], i: usize) -> Option<InstanceType> {
    Some(match s.get(i)? {
        b'{' => InstanceType::Object,
        b'[' => InstanceType::Array,
        b'"' => InstanceType::String,
        b't' | b'f' => InstanceType::Boolean,
        b'n' => InstanceType::Null,
        b'-' | b'0'..=b'9' => {
            let end = number_end(s, i);
            if s[i..end].iter().any(|b| matches!(b, b'.' | b'e' | b'E')) {
                InstanceType::Number
            } else {
                InstanceType::Integer
            }
        }
        _ => return None,
    })
}

pub(crate) fn ws(s: &[u8], mut i: usize) -> usize {
    while s
        .get(i)
        .is_some_and(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
    {
        i += 1;
    }
    i
}

fn number_end(s: &[u8], mut i: usize) -> usize {
    while s
        .get(i)
        .is_some_and(|b| matches!(b, b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'))
    {
        i += 1;
    }
    i
}

/// The end of the string starting at `s[i]` (a `"`).
pub(crate) fn skip_string(s: &[u8], i: usize) -> Option<usize> {
    if s.get(i) != Some(&b'"') {
        return None;
    }
    let mut j = i + 1;
    loop {
        match s.get(j)? {
            b'\\' => j += 2,
            b'"' => return Some(j + 1),
            _ => j += 1,
        }
    }
}

/// The end of the value starting at `s[i]`, without recursion.
pub(crate) fn skip(s: &[u8], i: usize) -> Option<usize> {
    match s.get(i)? {
        b'"' => skip_string(s, i),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut j = i;
            loop {
                match s.get(j)? {
                    b'"' => {
                        j = skip_string(s, j)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth = depth.checked_sub(1)?;
                        if depth == 0 {
                            return Some(j + 1);
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
        }
        b't' | b'n' => s[i..].get(..4).map(|_| i + 4),
        b'f' => s[i..].get(..5).map(|_| i + 5),
        _ => {
            let end = number_end(s, i);
            (end > i).then_some(end)
        }
    }
}

pub(crate) fn key_text(raw: &[u8]) -> Option<String> {
    if raw.contains(&b'\\') {
        serde_json::from_slice(raw).ok()
    } else {
        std::str::from_utf8(raw.get(1..raw.len().checked_sub(1)?)?)
            .ok()
            .map(str::to_owned)
    }
}

/// Builds a decoder tree from the places of the sanitized `schema` where the strict rewrite
/// made a property nullable (`(pointer of the object, property name)`), its kept references
/// followed. A place the tree cannot reach (under `not`...) is returned in the second list.
pub(crate) fn build(schema: &Schema, nulls: &[(String, String)]) -> (Decoder, Vec<String>) {
    let mut root = Decoder::default();
    let mut unreachable = Vec::new();
    for (at, name) in nulls {
        match node_at(&mut root, schema, at) {
            Some(d) => {
                if !d.drop_null.contains(name) {
                    d.drop_null.push(name.clone());
                }
            }
            None => unreachable.push(at.clone()),
        }
    }
    if !root.is_identity() || !root.defs.is_empty() {
        link_refs(&mut root, schema);
    }
    (root, unreachable)
}

/// Gives each kept `$ref` of `schema` its [`Decoder::reference`], then keeps only the
/// references (and definitions) that decode something.
pub(crate) fn link_refs(root: &mut Decoder, schema: &Schema) {
    struct Sites(Vec<(String, String)>);
    impl schema_core::Visit for Sites {
        fn enter(&mut self, p: &str, s: &Schema) -> bool {
            if let Some((_, name)) = s
                .as_object()
                .and_then(|o| o.reference())
                .and_then(crate::Refs::local_name)
            {
                self.0.push((p.to_owned(), name));
            }
            true
        }
    }
    let mut sites = Sites(Vec::new());
    schema.walk(&mut sites);
    if sites.0.is_empty() {
        return;
    }
    for (at, name) in sites.0 {
        if let Some(d) = node_at(root, schema, &at) {
            *d = Decoder {
                reference: Some(name),
                ..Decoder::default()
            };
        }
    }
    link_root(root);
}

/// Adds the root's own copy to its definitions (for `$ref: "#"`), then keeps only the
/// references (and definitions) that decode something.
pub(crate) fn link_root(root: &mut Decoder) {
    let mut copy = root.clone();
    copy.defs.clear();
    copy.then = None;
    root.defs.insert(String::new(), copy);
    prune_refs(root);
}

/// Keeps the references to definitions that decode something (through other definitions
/// included) and those definitions, and drops the rest.
pub(crate) fn prune_refs(root: &mut Decoder) {
    let mut live: std::collections::BTreeSet<String> = root
        .defs
        .iter()
        .filter(|(_, d)| has_own(d))
        .map(|(n, _)| n.clone())
        .collect();
    loop {
        let more: Vec<String> = root
            .defs
            .iter()
            .filter(|(n, d)| !live.contains(*n) && refers_to(d, &live))
            .map(|(n, _)| n.clone())
            .collect();
        if more.is_empty() {
            break;
        }
        live.extend(more);
    }
    let mut defs = std::mem::take(&mut root.defs);
    defs.retain(|n, _| live.contains(n));
    for d in defs.values_mut() {
        strip(d, &live);
    }
    strip(root, &live);
    // The root's own copy is there for `$ref: "#"` only.
    if !refers_to(root, &[String::new()].into())
        && !defs.values().any(|d| refers_to(d, &[String::new()].into()))
    {
        defs.remove("");
    }
    root.defs = defs;
}

/// Removes from `later` (a second run's encodings) the any-value encodings `earlier` (the
/// first run's, applied after it) already has at the same place: a node the first run
/// encoded but the engine then left untyped is encoded again by the second run, and one
/// JSON-text decoding is what the value needs.
pub(crate) fn drop_repeated_json(later: &mut Decoder, earlier: &Decoder) {
    if later.encoding == Some(Encoding::Json) && earlier.encoding == Some(Encoding::Json) {
        later.encoding = None;
    }
    for (name, d) in &mut later.properties {
        if let Some(e) = earlier.properties.get(name) {
            drop_repeated_json(d, e);
        }
    }
    if let (Some(d), Some(e)) = (later.items.as_deref_mut(), earlier.items.as_deref()) {
        drop_repeated_json(d, e);
    }
    if let (Some(d), Some(e)) = (
        later.additional_properties.as_deref_mut(),
        earlier.additional_properties.as_deref(),
    ) {
        drop_repeated_json(d, e);
    }
    for (d, e) in later.prefix_items.iter_mut().zip(&earlier.prefix_items) {
        drop_repeated_json(d, e);
    }
    let live = later.defs.keys().cloned().collect();
    strip(later, &live);
}

/// The children of a decoder node (its encoding's included).
fn children(d: &Decoder) -> Vec<&Decoder> {
    let mut out: Vec<&Decoder> = d.properties.values().collect();
    out.extend(d.items.as_deref());
    out.extend(d.prefix_items.iter());
    out.extend(d.additional_properties.as_deref());
    out.extend(d.any_of.iter().map(|b| &b.decoder));
    match &d.encoding {
        Some(Encoding::Map { value }) => out.push(value),
        Some(Encoding::Tuple { items, rest, .. }) => {
            out.extend(items.iter());
            out.extend(rest.as_deref());
        }
        _ => {}
    }
    out
}

/// Whether `d` decodes something without following references.
fn has_own(d: &Decoder) -> bool {
    !d.drop_null.is_empty() || d.encoding.is_some() || children(d).into_iter().any(has_own)
}

/// Whether `d` holds a reference to one of `names`.
fn refers_to(d: &Decoder, names: &std::collections::BTreeSet<String>) -> bool {
    d.reference.as_ref().is_some_and(|r| names.contains(r))
        || children(d).into_iter().any(|c| refers_to(c, names))
}

/// Removes the references to other than `live` definitions, and the children left identity.
fn strip(d: &mut Decoder, live: &std::collections::BTreeSet<String>) {
    if d.reference.as_ref().is_some_and(|r| !live.contains(r)) {
        d.reference = None;
    }
    for c in d.properties.values_mut() {
        strip(c, live);
    }
    d.properties.retain(|_, c| !c.is_identity());
    if let Some(c) = d.items.as_deref_mut() {
        strip(c, live);
    }
    if d.items.as_deref().is_some_and(Decoder::is_identity) {
        d.items = None;
    }
    if let Some(c) = d.additional_properties.as_deref_mut() {
        strip(c, live);
    }
    if d.additional_properties
        .as_deref()
        .is_some_and(Decoder::is_identity)
    {
        d.additional_properties = None;
    }
    for c in &mut d.prefix_items {
        strip(c, live);
    }
    if d.prefix_items.iter().all(Decoder::is_identity) {
        d.prefix_items.clear();
    }
    for b in &mut d.any_of {
        strip(&mut b.decoder, live);
    }
    if d.any_of.iter().all(|b| b.decoder.is_identity()) {
        d.any_of.clear();
    }
    match &mut d.encoding {
        Some(Encoding::Map { value }) => strip(value, live),
        Some(Encoding::Tuple { items, rest, .. }) => {
            for c in items.iter_mut() {
                strip(c, live);
            }
            if let Some(r) = rest.as_deref_mut() {
                strip(r, live);
            }
        }
        _ => {}
    }
}

/// The decoder node for the schema at `at`, made on the way (a root definition's nodes in
/// [`Decoder::defs`]).
fn node_at<'d>(root: &'d mut Decoder, schema: &Schema, at: &str) -> Option<&'d mut Decoder> {
    let segments = pointer::segments(at)?;
    let mut d = root;
    let mut s = schema;
    let mut it = segments.iter();
    if segments.first().map(String::as_str) == Some(Keyword::Defs.as_str()) {
        it.next();
        let name = it.next()?;
        s = s.as_object()?.schema_map(Keyword::Defs)?.get(name)?;
        d = d.defs.entry(name.clone()).or_default();
    }
    while let Some(seg) = it.next() {
        let o = s.as_object()?;
        match Keyword::from_name(seg) {
            Some(Keyword::Properties) => {
                let name = it.next()?;
                s = o.properties()?.get(name)?;
                d = d.properties.entry(name.clone()).or_default();
            }
            Some(Keyword::Items) => {
                s = o.schema(Keyword::Items)?;
                d = d.items.get_or_insert_with(Box::default);
            }
            Some(Keyword::AdditionalProperties) => {
                s = o.schema(Keyword::AdditionalProperties)?;
                d = d.additional_properties.get_or_insert_with(Box::default);
            }
            Some(Keyword::PrefixItems) => {
                let i: usize = it.next()?.parse().ok()?;
                s = o.schemas(Keyword::PrefixItems)?.get(i)?;
                if d.prefix_items.len() <= i {
                    d.prefix_items.resize_with(i + 1, Decoder::default);
                }
                d = &mut d.prefix_items[i];
            }
            Some(Keyword::AnyOf) => {
                let i: usize = it.next()?.parse().ok()?;
                let branches = o.schemas(Keyword::AnyOf)?;
                if d.any_of.len() < branches.len() {
                    d.any_of = branches
                        .iter()
                        .map(|b| Branch {
                            types: types_of(resolved(schema, b)),
                            ..Branch::default()
                        })
                        .collect();
                }
                s = branches.get(i)?;
                d = &mut d.any_of.get_mut(i)?.decoder;
            }
            _ => return None,
        }
    }
    Some(d)
}

/// `s`, or where it is a kept `$ref`, the root's definition it names (a chain followed,
/// bounded).
pub(crate) fn resolved<'s>(root: &'s Schema, mut s: &'s Schema) -> &'s Schema {
    for _ in 0..16 {
        let Some((_, name)) = s
            .as_object()
            .and_then(|o| o.reference())
            .and_then(crate::Refs::local_name)
        else {
            break;
        };
        let next = if name.is_empty() {
            Some(root)
        } else {
            root.as_object()
                .and_then(|o| o.schema_map(Keyword::Defs))
                .and_then(|m| m.get(&name))
        };
        match next {
            Some(n) if !std::ptr::eq(n, s) => s = n,
            _ => break,
        }
    }
    s
}

fn types_of(s: &Schema) -> Vec<String> {
    s.as_object()
        .and_then(|o| o.types())
        .map(|t| t.as_slice().iter().map(|t| t.as_str().to_owned()).collect())
        .unwrap_or_default()
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
