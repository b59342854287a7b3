//! What a strict schema spends of a request-wide budget ([`RequestLimits`]): Anthropic counts
//! optional and union-typed parameters "combined across all strict schemas" of a request.

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
/// assert_eq!((cost.optional_parameters, cost.union_parameters), (1, 2));
/// # Ok::<(), schema_core::SchemaError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct StrictCost {
    /// Properties, at any depth, that their object does not require.
    pub optional_parameters: u32,
    /// Properties, at any depth, whose schema is a union (`anyOf`, `oneOf` or a type list).
    pub union_parameters: u32,
}

impl StrictCost {
    /// Both counts added.
    ///
    /// ```
    /// use provider_rules::StrictCost;
    /// let a = StrictCost { optional_parameters: 1, union_parameters: 2 };
    /// assert_eq!(a.plus(a), StrictCost { optional_parameters: 2, union_parameters: 4 });
    /// ```
    pub fn plus(self, other: StrictCost) -> StrictCost {
        StrictCost {
            optional_parameters: self
                .optional_parameters
                .saturating_add(other.optional_parameters),
            union_parameters: self.union_parameters.saturating_add(other.union_parameters),
        }
    }
}

/// Counts the optional and the union-typed parameters of `schema` (every object's properties,
/// nested ones included).
pub fn strict_cost(schema: &Schema) -> StrictCost {
    struct Count(StrictCost);
    impl Visit for Count {
        fn enter(&mut self, _: &str, s: &Schema) -> bool {
            let Some(o) = s.as_object() else { return true };
            let Some(props) = o.properties() else {
                return true;
            };
            let required = o.required().unwrap_or(&[]);
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
    /// Whether a request whose strict schemas number `tools` and cost `cost` in all stays
    /// within these limits.
    ///
    /// ```
    /// use provider_rules::{Rules, StrictCost};
    /// let l = Rules::ANTHROPIC_STRICT.request_limits;
    /// assert!(l.admits(20, StrictCost { optional_parameters: 24, union_parameters: 16 }));
    /// assert!(!l.admits(21, StrictCost::default()));
    /// assert!(!l.admits(1, StrictCost { optional_parameters: 25, union_parameters: 0 }));
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
    /// assert!(!RequestLimits::default().is_limited());
    /// ```
    pub fn is_limited(&self) -> bool {
        self.strict_tools.is_some()
            || self.optional_parameters.is_some()
            || self.union_parameters.is_some()
    }
}
