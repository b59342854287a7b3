//! Property keys: the provider's rule for a tool's top-level property names, checked on
//! what the engine wrote and by the checker (keys are not renamed here: the response side
//! must map them back).

use crate::RuleId;
use crate::report::Violation;
use crate::rules::Rules;
use schema_core::{Schema, SchemaObject};

/// The top-level property keys that break the provider's key rule (Anthropic:
/// `Property keys should match pattern '^[a-zA-Z0-9_.-]{1,64}$'`).
pub(crate) fn property_keys(schema: &Schema, rules: &Rules) -> Vec<Violation> {
    let Some(rule) = &rules.property_keys else {
        return Vec::new();
    };
    let Some(props) = schema.as_object().and_then(SchemaObject::properties) else {
        return Vec::new();
    };
    let errors = crate::providers::ErrorTexts::new(rules);
    props
        .keys()
        .filter(|k| !rule.accepts(k))
        .map(|k| {
            let mut pointer = String::from("/properties");
            schema_core::pointer::push(&mut pointer, k);
            Violation {
                pointer,
                rule: RuleId::PropertyKey,
                message: format!(
                    "property key {k:?} must be 1 to {} letters, digits or {:?}; it needs renaming (and mapping back in tool calls)",
                    rule.max_len,
                    rule.extra.as_ref()
                ),
                provider_error: errors.get(RuleId::PropertyKey),
            }
        })
        .collect()
}
