//! `toolschema serve`: a gateway any client points its base URL at. Each request goes to an
//! upstream by its path prefix, its tool schemas rewritten for the provider on the way
//! (request decompression first, then [`tower_toolschema::ToolSchemaLayer`]); everything else,
//! bodies and headers both ways, goes on as it came, streamed.
//!
//! - Routes: built-in ones per provider ([`BUILTIN_ROUTES`]: `/openai/…` to
//!   `https://api.openai.com/…`, ...), everything to one upstream ([`Settings::single`]), or a
//!   TOML file (prefix → upstream, an optional fixed profile, limits per route).
//! - Upstreams over rustls (ring) with the platform's trust store and extra roots; HTTP/1.1 and
//!   HTTP/2 by ALPN.
//! - Limits: body size, connect and idle timeouts, concurrency ([`Limits`]). Failures to reach
//!   the upstream are answered 502/504 with a JSON body naming the upstream and the cause; the
//!   upstream's own errors go through unchanged.
//! - One log line per request, warnings once per distinct schema problem, `GET /healthz`,
//!   `GET /metrics` (Prometheus text).
//! - Graceful shutdown: the listener closes, requests in flight run to their end.
//!
//! Stateless: the sanitized-slot cache is per process, so run as many replicas as needed behind
//! any load balancer.
//!
//! ```
//! use toolschema::serve::{Server, Settings};
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let settings = Settings::single("127.0.0.1:0".parse()?, "http://127.0.0.1:11434")?;
//! let server = Server::bind(settings).await?;
//! println!("listening on {}", server.local_addr());
//! // Stops at once here; `toolschema::serve::shutdown_signal()` waits for Ctrl-C / SIGTERM.
//! server.run(async {}).await?;
//! # Ok(())
//! # }
//! ```

mod config;
mod decompress;
mod errors;
mod exchange;
mod headers;
mod limits;
mod logging;
mod metrics;
mod profiles;
mod proxy;
mod report;
mod shutdown;
mod upstream;

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpListener;

pub use config::{BUILTIN_ROUTES, DEFAULT_LISTEN, Limits, Route, Settings};
pub use errors::ServeError;
pub use logging::{DEFAULT_FILTER, LogFormat, init_logging};
pub use shutdown::shutdown_signal;

/// How long a client may take to send its request headers.
const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(30);

/// A bound gateway, ready to [`run`](Server::run).
///
/// See the [module docs](crate::serve) for an example.
pub struct Server {
    listener: TcpListener,
    shared: Arc<proxy::Shared>,
}

impl Server {
    /// Binds the listen address and prepares the routes (TLS roots, clients).
    ///
    /// See the [module docs](crate::serve) for an example.
    pub async fn bind(settings: Settings) -> Result<Server, ServeError> {
        let listener = TcpListener::bind(settings.listen)
            .await
            .map_err(|e| ServeError::Bind(format!("{}: {e}", settings.listen)))?;
        let shared = Arc::new(proxy::Shared::new(settings)?);
        Ok(Server { listener, shared })
    }

    /// The address it listens on (the port chosen, for port 0).
    ///
    /// See the [module docs](crate::serve) for an example.
    pub fn local_addr(&self) -> SocketAddr {
        self.listener
            .local_addr()
            .unwrap_or(self.shared.settings.listen)
    }

    /// Serves until `shutdown` resolves; then refuses new connections, lets the requests in
    /// flight finish (up to [`Settings::shutdown_grace`]) and returns.
    ///
    /// See the [module docs](crate::serve) for an example.
    pub async fn run(self, shutdown: impl Future<Output = ()>) -> Result<(), ServeError> {
        let Server { listener, shared } = self;
        let graceful = GracefulShutdown::new();
        let mut builder = auto::Builder::new(TokioExecutor::new());
        builder
            .http1()
            .timer(TokioTimer::new())
            .header_read_timeout(HEADER_READ_TIMEOUT);
        builder.http2().timer(TokioTimer::new());
        tracing::info!(
            target: "toolschema::serve",
            listen = %listener.local_addr().map_or_else(|_| "?".to_owned(), |a| a.to_string()),
            routes = %shared.settings.routes.iter().map(|r| format!("{} -> {}", r.prefix, r.upstream)).collect::<Vec<_>>().join(", "),
            "toolschema serve listening"
        );
        tokio::pin!(shutdown);
        loop {
            tokio::select! {
                accepted = listener.accept() => match accepted {
                    Ok((stream, _peer)) => {
                        let _ = stream.set_nodelay(true);
                        let shared = Arc::clone(&shared);
                        let svc = hyper::service::service_fn(move |req| {
                            proxy::handle(Arc::clone(&shared), req)
                        });
                        let conn = builder.serve_connection(TokioIo::new(stream), svc).into_owned();
                        let conn = graceful.watch(conn);
                        tokio::spawn(async move {
                            if let Err(e) = conn.await {
                                tracing::debug!(target: "toolschema::serve", "connection: {e}");
                            }
                        });
                    }
                    Err(e) => {
                        // Out of file descriptors and the like: wait a little, keep serving.
                        tracing::warn!(target: "toolschema::serve", "accept: {e}");
                        tokio::time::sleep(Duration::from_millis(50)).await;
                    }
                },
                _ = &mut shutdown => break,
            }
        }
        drop(listener);
        let grace = shared.settings.shutdown_grace;
        tracing::info!(target: "toolschema::serve", grace_secs = grace.as_secs_f64(), "shutting down: no new connections; letting requests in flight finish");
        tokio::select! {
            _ = graceful.shutdown() => {
                tracing::info!(target: "toolschema::serve", "shut down cleanly");
            }
            _ = tokio::time::sleep(grace) => {
                tracing::warn!(target: "toolschema::serve", "grace period over: closing the connections still open");
            }
        }
        Ok(())
    }
}
