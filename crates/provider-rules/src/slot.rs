//! [`Slot`]: where a schema sits.

/// Where a schema sits, which decides whether the root rules apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Slot {
    /// A tool's input schema: the root must be what the provider wants of parameters
    /// (usually an object).
    Parameters,
    /// A standalone schema: a tool's output or a structured-output response format.
    Schema,
}
