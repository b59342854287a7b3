//! Where the schema slots sit in each API's bodies and how they are rewritten: the
//! [shape table](shapes), [`locate`](locate::locate), the [`plan`](plan::plan) of each slot,
//! the splice of the changed ones into the original bytes, and the [cache](cache).
//!
//! Nothing here knows HTTP (no `http`, `http_body`, `hyper` or `tower` types: the test
//! `slots_know_no_http` in `tests/layout.rs` checks it): the middleware in the request
//! folder and the way back hand it bytes.

pub(crate) mod bounded;
pub mod cache;
pub mod locate;
pub mod plan;
pub(crate) mod request_cache;
pub(crate) mod rewrite;
pub mod shapes;
pub mod shapes_response;
pub(crate) mod splice;
