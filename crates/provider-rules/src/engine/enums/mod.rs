//! `const` and `enum`, in the forms the provider accepts: what the two rules share; each is a
//! file of its own ([`const_enum`], [`enum_values`]).

mod const_enum;
mod enum_values;

pub(crate) use const_enum::CONST;
pub(crate) use enum_values::{ENUM_VALUES, leaves as enum_leaves};

use schema_core::{Instance, InstanceType as T, JsonType, Keyword, Value};

/// Where numeric `enum`/`const` values go to the description, the range they span stays as
/// `minimum`/`maximum` (tightening bounds already there): `{"const": 5}` is exactly
/// `minimum: 5, maximum: 5` on integers, `{"enum": [1, 2, 3]}` keeps `1..=3`.
fn bound_numbers(o: &mut schema_core::SchemaObject, values: &[Instance], rules: &crate::Rules) {
    if !o
        .types()
        .is_some_and(|t| matches!(t.as_slice(), [T::Integer] | [T::Number]))
    {
        return;
    }
    let mut numbers: Vec<(f64, serde_json::Number)> = Vec::with_capacity(values.len());
    for v in values {
        match serde_json::from_str::<serde_json::Number>(v.as_json()) {
            Ok(n) => match n.as_f64() {
                Some(f) if f.is_finite() => numbers.push((f, n)),
                _ => return,
            },
            // A null member is said by `nullable`; anything else leaves the range open.
            Err(_) if v.json_type() == JsonType::Null => {}
            Err(_) => return,
        }
    }
    let lowest = numbers.iter().min_by(|a, b| a.0.total_cmp(&b.0)).cloned();
    let highest = numbers.iter().max_by(|a, b| a.0.total_cmp(&b.0)).cloned();
    for (kw, bound, tighter) in [
        (Keyword::Minimum, lowest, std::cmp::Ordering::Greater),
        (Keyword::Maximum, highest, std::cmp::Ordering::Less),
    ] {
        let Some((f, n)) = bound else { continue };
        if !rules.keywords.contains(kw) {
            continue;
        }
        let replace = match o.get(kw) {
            None => true,
            Some(Value::Number(e)) => e.as_f64().is_some_and(|e| f.total_cmp(&e) == tighter),
            Some(_) => false,
        };
        if replace {
            o.insert(kw, Value::Number(n));
        }
    }
}
