//! Following a reference or a JSON pointer into a schema.

use super::{RefError, RefIndex};
use crate::pointer;
use crate::schema::{Schema, Value};
use std::borrow::Cow;

impl Schema {
    /// Resolves a local reference against this schema as the document root.
    ///
    /// ```
    /// use schema_core::Schema;
    /// let root = Schema::from_str(r#"{"$defs": {"a b": {"type": "string"}, "n": {"$anchor": "num", "type": "number"}}}"#)?;
    /// assert_eq!(root.resolve("#/$defs/a%20b").unwrap().to_json_string(), r#"{"type":"string"}"#);
    /// assert_eq!(root.resolve("#num").unwrap().to_json_string(), r#"{"$anchor":"num","type":"number"}"#);
    /// assert!(root.resolve("#/$defs/missing").is_err());
    /// # Ok::<(), schema_core::SchemaError>(())
    /// ```
    pub fn resolve(&self, reference: &str) -> Result<Cow<'_, Schema>, RefError> {
        self.resolve_with(&RefIndex::new(self), reference)
    }

    /// Resolves a local reference using a prebuilt [`RefIndex`] of this schema.
    pub fn resolve_with(
        &self,
        index: &RefIndex,
        reference: &str,
    ) -> Result<Cow<'_, Schema>, RefError> {
        self.resolve_in(index, index.locate(reference)?, reference)
    }

    /// The subschema at `full`, a pointer a [`RefIndex`] located for `reference`.
    pub(crate) fn resolve_in(
        &self,
        _index: &RefIndex,
        full: String,
        reference: &str,
    ) -> Result<Cow<'_, Schema>, RefError> {
        let segs =
            pointer::segments(&full).ok_or_else(|| RefError::Malformed(reference.to_owned()))?;
        self.pointer_get(&segs)
            .ok_or_else(|| RefError::NotFound(reference.to_owned()))
    }

    /// The subschema at a JSON pointer given as unescaped segments. A pointer that leads into
    /// an unknown keyword (`#/components/schemas/X`) parses that part on the way.
    pub fn pointer_get(&self, segments: &[String]) -> Option<Cow<'_, Schema>> {
        let mut cur: Cow<'_, Schema> = Cow::Borrowed(self);
        let mut i = 0;
        while i < segments.len() {
            let next = match cur {
                Cow::Borrowed(s) => step(s, segments, &mut i)?,
                Cow::Owned(ref s) => Cow::Owned(step(s, segments, &mut i)?.into_owned()),
            };
            cur = next;
        }
        Some(cur)
    }
}

/// One step of pointer navigation from `s`: consumes one or two segments.
fn step<'a>(s: &'a Schema, segs: &[String], i: &mut usize) -> Option<Cow<'a, Schema>> {
    let o = s.as_object()?;
    let name = &segs[*i];
    *i += 1;
    let value = o.get_by_name(name)?;
    match value {
        Value::Schema(x) => Some(Cow::Borrowed(x)),
        Value::Schemas(list) => {
            let idx: usize = segs.get(*i)?.parse().ok()?;
            *i += 1;
            list.get(idx).map(Cow::Borrowed)
        }
        Value::SchemaMap(m) => {
            let x = m.get(segs.get(*i)?)?;
            *i += 1;
            Some(Cow::Borrowed(x))
        }
        Value::Dependencies(m) => {
            let d = m.get(segs.get(*i)?)?;
            *i += 1;
            match d {
                crate::schema::Dependency::Schema(x) => Some(Cow::Borrowed(x)),
                crate::schema::Dependency::Required(_) => None,
            }
        }
        Value::Raw(raw) | Value::Instance(raw) => {
            // Unknown container (`components`, `x-defs`...): read it as a schema-shaped object
            // and go on; its keys are then unknown keys again, or the target itself. An array
            // takes the next segment as its index.
            let text = raw.as_json();
            if text.starts_with('[') {
                let items: Vec<&serde_json::value::RawValue> = serde_json::from_str(text).ok()?;
                let idx: usize = segs.get(*i)?.parse().ok()?;
                *i += 1;
                return Schema::from_str(items.get(idx)?.get()).ok().map(Cow::Owned);
            }
            Schema::from_str(text).ok().map(Cow::Owned)
        }
        Value::Instances(list) => {
            let idx: usize = segs.get(*i)?.parse().ok()?;
            *i += 1;
            Schema::from_str(list.get(idx)?.as_json())
                .ok()
                .map(Cow::Owned)
        }
        _ => None,
    }
}
