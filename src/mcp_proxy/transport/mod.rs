//! The server side: a child speaking MCP on its stdio ([`stdio`]) or a Streamable HTTP endpoint
//! ([`http`]). Both deliver what the server says as [`Event`]s on one channel.

pub mod http;
pub mod sse;
pub mod stdio;

use super::session::Outgoing;

/// What the server side reports.
#[derive(Debug)]
pub enum Event {
    /// A message (or batch) from the server, on one line.
    Message(String),
    /// Requests that could not be delivered, and why (the proxy answers them with an error).
    Undelivered {
        /// The requests' ids (JSON text).
        ids: Vec<String>,
        /// Why, for a person.
        reason: String,
    },
    /// The server is gone; the proxy ends with this exit status.
    Closed(u8),
}

/// The server the proxy fronts.
pub enum Upstream {
    /// A child process.
    Stdio(stdio::Stdio),
    /// A Streamable HTTP endpoint.
    Http(http::Http),
}

impl Upstream {
    /// Sends one line to the server.
    pub async fn send(&mut self, out: Outgoing) {
        match self {
            Upstream::Stdio(s) => s.send(out).await,
            Upstream::Http(h) => h.send(out).await,
        }
    }

    /// The protocol version the server chose (sent on every later HTTP request).
    pub fn set_protocol_version(&mut self, version: String) {
        if let Upstream::Http(h) = self {
            h.set_protocol_version(version);
        }
    }

    /// The client is gone: close the server's input (stdio) or end the session (HTTP).
    pub async fn close(&mut self) {
        match self {
            Upstream::Stdio(s) => s.close(),
            Upstream::Http(h) => h.close().await,
        }
    }

    /// Resolves once the answers to everything sent have been read (HTTP); never for stdio,
    /// whose end is the child's exit ([`Event::Closed`]).
    pub fn idle(&self) -> std::pin::Pin<Box<dyn Future<Output = ()> + Send>> {
        match self {
            Upstream::Stdio(_) => Box::pin(std::future::pending()),
            Upstream::Http(h) => Box::pin(h.idle()),
        }
    }

    /// The server did not end in time after [`close`](Self::close): stop it.
    pub fn kill(&mut self) {
        if let Upstream::Stdio(s) = self {
            s.kill();
        }
    }
}
