//! Profiles as configuration: [`Rules`] to and from TOML or JSON, derived from a built-in
//! with `extends = "gemini"` plus overrides — providers change their minds.

use crate::profiles::profile;
use crate::rules::Rules;

/// Why a profile could not be loaded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RulesError {
    /// The text is not valid TOML.
    #[error("invalid TOML: {0}")]
    Toml(String),
    /// The text is not valid JSON.
    #[error("invalid JSON: {0}")]
    Json(String),
    /// `extends` names no built-in profile.
    #[error("extends = {0:?} names no built-in profile (try one of: {1})")]
    UnknownBase(String, String),
    /// A field has the wrong name or value.
    #[error("invalid profile: {0}")]
    Invalid(String),
}

impl Rules {
    /// Loads a profile from TOML: a built-in named by `extends` with the given fields
    /// overridden (nested tables such as `limits` are merged field by field), or a complete
    /// profile without `extends`.
    ///
    /// ```
    /// use provider_rules::{AdditionalProperties, Rules};
    /// let r = Rules::from_toml(r#"
    ///     extends = "gemini"
    ///     name = "gemini-enterprise"
    ///     additional-properties = "keep"
    ///     keywords = ["type", "properties", "additionalProperties", "items", "required", "description", "anyOf", "enum", "nullable"]
    /// "#)?;
    /// assert_eq!(r.name(), "gemini-enterprise");
    /// assert_eq!(r.additional_properties, AdditionalProperties::Keep);
    /// assert_eq!(r.type_lists, Rules::GEMINI.type_lists);
    /// # Ok::<(), provider_rules::RulesError>(())
    /// ```
    pub fn from_toml(text: &str) -> Result<Rules, RulesError> {
        let v: serde_json::Value =
            toml::from_str(text).map_err(|e| RulesError::Toml(e.to_string()))?;
        Rules::from_value(v)
    }

    /// Loads a profile from JSON (same shape as [`Rules::from_toml`]).
    pub fn from_json(text: &str) -> Result<Rules, RulesError> {
        let v: serde_json::Value =
            serde_json::from_str(text).map_err(|e| RulesError::Json(e.to_string()))?;
        Rules::from_value(v)
    }

    fn from_value(mut v: serde_json::Value) -> Result<Rules, RulesError> {
        let Some(obj) = v.as_object_mut() else {
            return Err(RulesError::Invalid(
                "a profile must be a table / object".to_owned(),
            ));
        };
        let base = match obj.remove("extends") {
            None => None,
            Some(serde_json::Value::String(name)) => Some(profile(&name).ok_or_else(|| {
                RulesError::UnknownBase(
                    name.clone(),
                    crate::profiles::profile_names()
                        .collect::<Vec<_>>()
                        .join(", "),
                )
            })?),
            Some(_) => {
                return Err(RulesError::Invalid(
                    "extends must be a profile name".to_owned(),
                ));
            }
        };
        let merged = match base {
            None => v,
            Some(base) => {
                let mut b =
                    serde_json::to_value(base).map_err(|e| RulesError::Invalid(e.to_string()))?;
                merge(&mut b, v);
                b
            }
        };
        serde_json::from_value(merged).map_err(|e| RulesError::Invalid(e.to_string()))
    }

    /// The profile as TOML.
    ///
    /// ```
    /// let text = provider_rules::Rules::GEMINI.to_toml();
    /// assert!(text.contains("name = \"gemini\""));
    /// assert_eq!(provider_rules::Rules::from_toml(&text).unwrap(), provider_rules::Rules::GEMINI);
    /// ```
    pub fn to_toml(&self) -> String {
        toml::to_string(self).unwrap_or_default()
    }

    /// The profile as pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

fn merge(base: &mut serde_json::Value, over: serde_json::Value) {
    match (base, over) {
        (serde_json::Value::Object(b), serde_json::Value::Object(o)) => {
            for (k, v) in o {
                match b.get_mut(&k) {
                    Some(slot) if slot.is_object() && v.is_object() => merge(slot, v),
                    _ => {
                        b.insert(k, v);
                    }
                }
            }
        }
        (b, o) => *b = o,
    }
}
