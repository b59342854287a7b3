//! Profiles as configuration: [`Rules`] to and from TOML or JSON, derived from a built-in
//! with `extends = "gemini"` plus overrides — providers change their minds.

use crate::providers::{profile, profile_names};
use crate::rules::{AdditionalProperties, NullStyle, Refs, Rules, Unions};
use schema_core::Keyword as K;

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
    /// Two fields say contradictory things, or a field's value is not what it must be
    /// (`any-value` that is not a JSON Schema).
    #[error("contradictory profile {0:?}: {1}")]
    Contradiction(String, String),
    /// The profile cannot be written in the format (a TOML limitation).
    #[error("cannot write the profile: {0}")]
    Write(String),
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
                    profile_names().collect::<Vec<_>>().join(", "),
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
                // The loaded profile keeps its family: the built-in at the root of the chain.
                if let Some(o) = b.as_object_mut() {
                    o.insert("extends".to_owned(), base.base().into());
                }
                merge(&mut b, v);
                b
            }
        };
        let rules: Rules =
            serde_json::from_value(merged).map_err(|e| RulesError::Invalid(e.to_string()))?;
        rules.validate()?;
        Ok(rules)
    }

    /// Checks that no two fields contradict each other and that `any-value` is a JSON
    /// Schema (what [`Rules::from_toml`] and [`Rules::from_json`] run on what they load).
    ///
    /// ```
    /// use provider_rules::{Rules, RulesError};
    /// assert!(Rules::GEMINI.validate().is_ok());
    /// // Vertex's anyOf-alone rule on a profile without anyOf.
    /// let err = Rules::from_toml(r#"
    ///     extends = "gemini-code-assist"
    ///     unions = "alone"
    /// "#).unwrap_err();
    /// assert!(matches!(err, RulesError::Contradiction(..)));
    /// assert!(err.to_string().contains("anyOf"));
    /// let err = Rules::from_toml(r#"
    ///     extends = "gemini"
    ///     any-value = "{not json"
    /// "#).unwrap_err();
    /// assert!(err.to_string().contains("any-value"));
    /// ```
    pub fn validate(&self) -> Result<(), RulesError> {
        let bad = |why: String| Err(RulesError::Contradiction(self.name().to_owned(), why));
        let needs = |kw: K| self.keywords.contains(kw);
        if let Some(text) = self.any_value.as_deref()
            && let Err(e) = schema_core::Schema::from_str(text)
        {
            return bad(format!("any-value is not a JSON Schema: {e}"));
        }
        if self.unions == Unions::Alone && !needs(K::AnyOf) {
            return bad(
                "unions = \"alone\" but anyOf is not in keywords (without anyOf, unions collapse)"
                    .to_owned(),
            );
        }
        match self.null_style {
            NullStyle::Nullable if !needs(K::Nullable) => {
                return bad("null-style = \"nullable\" but nullable is not in keywords".to_owned());
            }
            NullStyle::AnyOf if !needs(K::AnyOf) => {
                return bad("null-style = \"any-of\" but anyOf is not in keywords".to_owned());
            }
            _ => {}
        }
        if self.refs != Refs::Inline && !needs(K::Ref) {
            return bad(
                "refs are kept but $ref is not in keywords (use refs = \"inline\")".to_owned(),
            );
        }
        if self.strict && self.additional_properties != AdditionalProperties::ForceFalse {
            return bad(
                "strict = true needs additional-properties = \"force-false\" (strict modes close every object)"
                    .to_owned(),
            );
        }
        Ok(())
    }

    /// The profile as TOML.
    ///
    /// ```
    /// let text = provider_rules::Rules::GEMINI.to_toml()?;
    /// assert!(text.contains("name = \"gemini\""));
    /// assert_eq!(provider_rules::Rules::from_toml(&text)?, provider_rules::Rules::GEMINI);
    /// # Ok::<(), provider_rules::RulesError>(())
    /// ```
    pub fn to_toml(&self) -> Result<String, RulesError> {
        toml::to_string(self).map_err(|e| RulesError::Write(e.to_string()))
    }

    /// The profile as pretty JSON.
    ///
    /// ```
    /// let text = provider_rules::Rules::OPENAI.to_json()?;
    /// assert_eq!(provider_rules::Rules::from_json(&text)?, provider_rules::Rules::OPENAI);
    /// # Ok::<(), provider_rules::RulesError>(())
    /// ```
    pub fn to_json(&self) -> Result<String, RulesError> {
        serde_json::to_string_pretty(self).map_err(|e| RulesError::Write(e.to_string()))
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
