//! Shutdown: on Ctrl-C or SIGTERM the listener closes (new connections are refused), idle
//! connections close, and requests in flight, streams included, run to their end (up to the
//! grace period).

/// Resolves on Ctrl-C, or on Unix SIGTERM.
///
/// ```no_run
/// # async fn f() {
/// toolschema::serve::shutdown_signal().await;
/// # }
/// ```
pub async fn shutdown_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(e) => {
                tracing::warn!(target: "toolschema::serve", "cannot listen for SIGTERM ({e}); Ctrl-C still stops");
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
