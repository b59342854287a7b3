//! The response-side hook (feature `validate`, issue 9): tool calls of non-streaming responses
//! are validated against the original schemas of the request's tools; the findings go in the
//! response's extensions and the response bytes go on untouched (the very same `Bytes`).

mod axum;
mod findings;
mod passthrough;
mod shapes;
mod support;
