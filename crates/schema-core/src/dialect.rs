//! Which JSON Schema dialect a schema is written in.

use crate::keyword::Keyword;
use crate::schema::{Schema, Value};
use crate::walk::Visit;

/// A JSON Schema dialect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Dialect {
    /// draft-04 (boolean `exclusiveMinimum`, `id`).
    Draft4,
    /// draft-06.
    Draft6,
    /// draft-07 (tuple `items` arrays, `definitions`, `dependencies`).
    Draft7,
    /// 2019-09 (`$defs`, `$recursiveRef`, `dependentSchemas`).
    Draft2019_09,
    /// 2020-12 (`prefixItems`, `$dynamicRef`).
    Draft2020_12,
    /// OpenAPI 3.0's schema object (`nullable`, `example`, `discriminator`).
    OpenApi30,
}

impl Dialect {
    /// The dialect a schema declares with `$schema`, or else the one its keywords imply
    /// (2020-12 when nothing tells).
    ///
    /// ```
    /// use schema_core::{Dialect, Schema};
    /// let d7 = Schema::from_str(r#"{"type": "array", "items": [{"type": "string"}]}"#)?;
    /// assert_eq!(Dialect::detect(&d7), Dialect::Draft7);
    /// let d = Schema::from_str(r#"{"$schema": "http://json-schema.org/draft-04/schema#"}"#)?;
    /// assert_eq!(Dialect::detect(&d), Dialect::Draft4);
    /// assert_eq!(Dialect::detect(&Schema::from_str(r#"{"prefixItems": []}"#)?), Dialect::Draft2020_12);
    /// # Ok::<(), schema_core::SchemaError>(())
    /// ```
    pub fn detect(schema: &Schema) -> Dialect {
        if let Some(d) = schema
            .as_object()
            .and_then(|o| o.string(Keyword::SchemaUri))
            .and_then(Dialect::from_uri)
        {
            return d;
        }
        Dialect::infer(schema)
    }

    /// The dialect a `$schema` URI names.
    pub fn from_uri(uri: &str) -> Option<Dialect> {
        let u = uri.trim_end_matches('#');
        Some(if u.contains("draft-04") {
            Dialect::Draft4
        } else if u.contains("draft-06") {
            Dialect::Draft6
        } else if u.contains("draft-07") {
            Dialect::Draft7
        } else if u.contains("2019-09") {
            Dialect::Draft2019_09
        } else if u.contains("2020-12") {
            Dialect::Draft2020_12
        } else if u.contains("oas/3.1") || u.contains("openapi-3.1") {
            // OpenAPI 3.1's schema object is 2020-12 plus a vocabulary.
            Dialect::Draft2020_12
        } else if u.contains("openapi") || u.contains("oas/3.0") {
            Dialect::OpenApi30
        } else {
            return None;
        })
    }

    /// The dialect implied by the keywords used anywhere in the schema.
    pub fn infer(schema: &Schema) -> Dialect {
        #[derive(Default)]
        struct Seen {
            bool_exclusive: bool,
            tuple_items: bool,
            draft7: bool,
            d2019: bool,
            d2020: bool,
            openapi: bool,
        }
        impl Visit for Seen {
            fn pointers(&self) -> bool {
                false
            }
            fn enter(&mut self, _: &str, s: &Schema) -> bool {
                let Some(o) = s.as_object() else { return true };
                for kw in [Keyword::ExclusiveMinimum, Keyword::ExclusiveMaximum] {
                    if matches!(o.get(kw), Some(Value::Bool(_))) {
                        self.bool_exclusive = true;
                    }
                }
                if matches!(o.get(Keyword::Items), Some(Value::Schemas(_))) {
                    self.tuple_items = true;
                }
                self.draft7 |= o.contains(Keyword::Definitions)
                    || o.contains(Keyword::Dependencies)
                    || o.contains(Keyword::AdditionalItems);
                self.d2019 |=
                    o.contains(Keyword::RecursiveRef) || o.contains(Keyword::RecursiveAnchor);
                self.d2020 |= o.contains(Keyword::PrefixItems)
                    || o.contains(Keyword::DynamicRef)
                    || o.contains(Keyword::DynamicAnchor);
                self.openapi |= o.contains(Keyword::Nullable)
                    || o.contains(Keyword::Discriminator)
                    || o.contains(Keyword::Example);
                true
            }
        }
        let mut seen = Seen::default();
        schema.walk(&mut seen);
        if seen.bool_exclusive {
            Dialect::Draft4
        } else if seen.d2020 {
            Dialect::Draft2020_12
        } else if seen.tuple_items || seen.draft7 {
            Dialect::Draft7
        } else if seen.d2019 {
            Dialect::Draft2019_09
        } else if seen.openapi {
            Dialect::OpenApi30
        } else {
            Dialect::Draft2020_12
        }
    }

    /// Whether `items` given as an array is a tuple in this dialect (every draft before 2020-12).
    pub fn items_array_is_tuple(self) -> bool {
        !matches!(self, Dialect::Draft2020_12)
    }
}
