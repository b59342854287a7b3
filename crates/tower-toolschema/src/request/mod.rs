//! The request middleware: the [`ToolSchemaLayer`](layer::ToolSchemaLayer), its
//! [`ToolSchema`](service::ToolSchema) service, the response future that reads and rewrites the
//! request body, the body it sends on, and the [policy](policy) for bodies it cannot inspect.
//!
//! Where slots sit and how they are rewritten is not here: see the slots folder (no HTTP in it).

pub(crate) mod body;
pub(crate) mod future;
pub(crate) mod layer;
pub mod policy;
pub(crate) mod service;
