//! Tool-call validation with errors a model can act on.
#![forbid(unsafe_code)]

mod aliases;
mod catalog;
mod check;
mod disclosure;
mod error;
mod example;
mod format;
mod json_type;
mod message;
mod options;
mod outcome;
mod resolve;
mod validate;

pub use check::{validate, validate_with, Validated};
pub use error::{CallError, Coercion, Problem, ProblemKind};
pub use example::{example_arguments, worked_example, EXAMPLE_BUDGET};
pub use json_type::JsonType;
pub use message::field_name;
pub use options::ValidateOptions;
pub use outcome::{input_schema_of, validate_tool_input, Outcome, EXIT_BAD_INPUT};
pub use catalog::{
    DispatchError, LookupError, Tool, ToolCatalog, ToolDescription, ToolError, ToolHandler, DEFAULT_NAMESPACE,
};
pub use disclosure::{MetaTool, PreparedCall, CALL_DYNAMIC_TOOL, GET_DYNAMIC_TOOLS};
