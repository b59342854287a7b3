//! Validation options.

/// How [`validate_with`](crate::validate_with) behaves.
///
/// ```
/// use tool_calls::ValidateOptions;
/// let strict = ValidateOptions::default();
/// assert!(!strict.lenient_json_text);
/// assert!(ValidateOptions::lenient().lenient_json_text);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidateOptions {
    /// Accept a string of JSON text where an object or array is expected, when the text parses
    /// and the parsed value validates; the repair is reported as a [`Coercion`](crate::Coercion)
    /// and applied to [`Validated::arguments`](crate::Validated). Off by default: the model is
    /// told to send the value itself.
    pub lenient_json_text: bool,
    /// How deep the arguments may nest (levels of objects and arrays) before the validator stops
    /// with a [`ProblemKind::TooDeep`](crate::ProblemKind::TooDeep). Default 64.
    pub max_depth: usize,
    /// The length budget of the worked example, in characters. Default 400.
    pub example_budget: usize,
}

impl Default for ValidateOptions {
    fn default() -> Self {
        Self {
            lenient_json_text: false,
            max_depth: 64,
            example_budget: crate::example::EXAMPLE_BUDGET,
        }
    }
}

impl ValidateOptions {
    /// The defaults with [`lenient_json_text`](Self::lenient_json_text) on.
    ///
    /// ```
    /// assert!(tool_calls::ValidateOptions::lenient().lenient_json_text);
    /// ```
    pub fn lenient() -> Self {
        Self {
            lenient_json_text: true,
            ..Self::default()
        }
    }
}
