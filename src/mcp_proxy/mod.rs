//! `toolschema mcp`: an MCP proxy between a client (gemini-cli, Claude Code, Cursor, ...) on
//! standard input/output and a server (a child process on stdio, or a Streamable HTTP endpoint).
//!
//! The client gets each tool's `inputSchema` sanitized for one provider and names that provider
//! accepts; `tools/call` is mapped back to the server's names, its arguments checked against the
//! tool's original schema, and an invalid call answered with a tool error the model can act on
//! instead of being forwarded. Everything else passes through byte for byte.
//!
//! A hand-written JSON-RPC relay, not the `rmcp` SDK: a proxy must pass through what it does not
//! understand (ids, unknown methods and capabilities, batches, `_meta`) unchanged, and rmcp
//! terminates the protocol on each side into its typed model (its own ids, its own initialize).

pub mod call;
pub mod errors;
pub mod list;
pub mod message;
pub mod names;
pub mod proxy;
pub mod session;
pub mod transport;

use provider_rules::{Rules, SanitizeOptions};
use reqwest::header::HeaderMap;
use std::time::Duration;
use tokio::sync::mpsc;
use transport::{Upstream, http::Http, stdio::Stdio};

/// Where the server is.
#[derive(Debug, Clone)]
pub enum Server {
    /// A command speaking MCP on its stdio: the program and its arguments.
    Command(Vec<String>),
    /// A Streamable HTTP endpoint.
    Url(HttpOptions),
}

/// A Streamable HTTP endpoint and how to reach it.
#[derive(Debug, Clone)]
pub struct HttpOptions {
    /// The endpoint (`https://host/mcp`).
    pub url: String,
    /// Headers for every request (`Authorization`, ...).
    pub headers: HeaderMap,
    /// PEM certificates trusted besides the platform's roots (a corporate proxy, a test server).
    pub ca_certs: Vec<u8>,
    /// How long to wait for a connection.
    pub connect_timeout: Duration,
}

/// Runs the proxy for `rules` (with `options`: the profile's encodings on or off); the exit
/// code (the server's exit status for a command), or a message for a person when the server
/// cannot be started.
pub fn run(rules: Rules, options: SanitizeOptions, server: Server) -> Result<u8, String> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the proxy's runtime: {e}"))?;
    let result = rt.block_on(async move {
        let (tx, rx) = mpsc::channel(256);
        let upstream = match server {
            Server::Command(cmd) => {
                let Some((program, args)) = cmd.split_first() else {
                    return Err("no server command after --".to_owned());
                };
                let child = Stdio::spawn(program, args, tx).map_err(|e| {
                    format!(
                        "cannot start the MCP server `{}`: {e} (check the command after --)",
                        cmd.join(" ")
                    )
                })?;
                Upstream::Stdio(child)
            }
            Server::Url(opts) => Upstream::Http(Http::new(&opts, tx)?),
        };
        Ok(proxy::run(session::Session::new(rules).options(options), upstream, rx).await)
    });
    // Standard input is read on a blocking thread that may be waiting still: do not wait for it.
    rt.shutdown_background();
    result
}
