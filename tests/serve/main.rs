//! `toolschema serve` in process: a gateway on a loopback port in front of a loopback upstream
//! (plain or TLS), a reqwest client through it. Every wait is bounded.

#[path = "../fixtures/serve_upstream.rs"]
mod upstream;

mod bodies;
mod gateway;
mod streams;
mod support;
