//! What a schema spends of a request-wide budget ([`RequestLimits`]): Anthropic counts
//! optional and union-typed parameters "combined across all strict schemas" of a request,
//! Cohere "fields across all tools".

use crate::rules::RequestLimits;
use schema_core::{Keyword, Schema, TypeSet, Value, Visit};

/// The parameters of one schema that count against a provider's request-wide strict limits.
///
/// ```
/// use provider_rules::strict_cost;
/// let s = schema_core::Schema::from_str(r#"{"type": "object",
///     "properties": {"a": {"type": "string"}, "b": {"type": ["integer", "null"]},
///                    "c": {"anyOf": [{"type": "string"}, {"type": "number"}]}},
///     "required": ["a", "c"]}"#)?;
/// let cost = strict_cost(&s);
/// assert_eq!((cost.optional_parameters, cost.union_parameters, cost.fields), (1, 2, 3));
/// # Ok::<(), schema_core::SchemaError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct StrictCost {
    /// Properties, at any depth, that their object does not require.
    pub optional_parameters: u32,
    /// Properties, at any depth, whose schema is a union (`anyOf`, `oneOf` or a type list).
    pub union_parameters: u32,
    /// Properties, at any depth (Cohere's "fields", counted over every tool, strict or not).
    pub fields: u32,
}

impl StrictCost {
    /// The counts added.
    ///
    /// ```
    /// use provider_rules::StrictCost;
    /// let a = StrictCost { optional_parameters: 1, union_parameters: 2, fields: 3 };
    /// assert_eq!(a.plus(a), StrictCost { optional_parameters: 2, union_parameters: 4, fields: 6 });
    /// ```
    pub fn plus(self, other: StrictCost) -> StrictCost {
        StrictCost {
            optional_parameters: self
                .optional_parameters
                .saturating_add(other.optional_parameters),
            union_parameters: self.union_parameters.saturating_add(other.union_parameters),
            fields: self.fields.saturating_add(other.fields),
        }
    }
}

/// Counts the optional, the union-typed and all the parameters of `schema` (every object's
/// properties, nested ones included).
pub fn strict_cost(schema: &Schema) -> StrictCost {
    struct Count(StrictCost);
    impl Visit for Count {
        fn enter(&mut self, _: &str, s: &Schema) -> bool {
            let Some(o) = s.as_object() else { return true };
            let Some(props) = o.properties() else {
                return true;
            };
            let required = o.required().unwrap_or(&[]);
            self.0.fields = self
                .0
                .fields
                .saturating_add(u32::try_from(props.len()).unwrap_or(u32::MAX));
            for (name, p) in props {
                if !required.contains(name) {
                    self.0.optional_parameters = self.0.optional_parameters.saturating_add(1);
                }
                if is_union(p) {
                    self.0.union_parameters = self.0.union_parameters.saturating_add(1);
                }
            }
            true
        }
    }
    let mut c = Count(StrictCost::default());
    schema.walk(&mut c);
    c.0
}

fn is_union(s: &Schema) -> bool {
    let Some(o) = s.as_object() else { return false };
    matches!(o.get(Keyword::AnyOf), Some(Value::Schemas(l)) if l.len() > 1)
        || matches!(o.get(Keyword::OneOf), Some(Value::Schemas(l)) if l.len() > 1)
        || matches!(o.types(), Some(TypeSet::List(l)) if l.len() > 1)
}

impl RequestLimits {
    /// No limit known.
    ///
    /// ```
    /// assert!(!provider_rules::RequestLimits::NONE.is_limited());
    /// ```
    pub const NONE: RequestLimits = RequestLimits {
        strict_tools: None,
        optional_parameters: None,
        union_parameters: None,
        fields: None,
    };

    /// Whether a request whose strict schemas number `tools` and cost `cost` in all stays
    /// within the strict limits (not [`fields`](RequestLimits::fields): that one counts every
    /// tool, see [`check_field_count`](crate::check_field_count)).
    ///
    /// ```
    /// use provider_rules::{Rules, StrictCost};
    /// let l = Rules::ANTHROPIC_STRICT.request_limits;
    /// assert!(l.admits(20, StrictCost { optional_parameters: 24, union_parameters: 16, fields: 99 }));
    /// assert!(!l.admits(21, StrictCost::default()));
    /// assert!(!l.admits(1, StrictCost { optional_parameters: 25, ..StrictCost::default() }));
    /// ```
    pub fn admits(&self, tools: u32, cost: StrictCost) -> bool {
        let within = |n: u32, max: Option<u32>| max.is_none_or(|m| n <= m);
        within(tools, self.strict_tools)
            && within(cost.optional_parameters, self.optional_parameters)
            && within(cost.union_parameters, self.union_parameters)
    }

    /// Whether any limit is set.
    ///
    /// ```
    /// use provider_rules::{RequestLimits, Rules};
    /// assert!(Rules::ANTHROPIC_STRICT.request_limits.is_limited());
    /// assert!(Rules::COHERE.request_limits.is_limited());
    /// assert!(!RequestLimits::default().is_limited());
    /// ```
    pub fn is_limited(&self) -> bool {
        self.strict_tools.is_some()
            || self.optional_parameters.is_some()
            || self.union_parameters.is_some()
            || self.fields.is_some()
    }
}
