//! The hang guard the workspace's adversarial tests share: a test that may hang or overflow its
//! stack runs on a fresh thread and fails instead of stalling the run. A bound, not a timing
//! assertion: the limit is generous and only a hang reaches it.
#![forbid(unsafe_code)]

use std::sync::mpsc;
use std::time::Duration;

/// Runs `f` on a fresh thread named `name` (default 2 MiB stack) and waits at most `secs`
/// seconds for its answer: a hang or a stack overflow fails the test instead of stalling the
/// run.
///
/// # Panics
///
/// When no answer comes within `secs` seconds (a hang), when `f` panics (a stack overflow
/// aborts the process, which fails the test too), or when no thread can be spawned.
///
/// ```
/// let n = hang_guard::bounded("sum", 10, || (1..=10).sum::<u32>());
/// assert_eq!(n, 55);
/// ```
pub fn bounded<T: Send + 'static>(
    name: &str,
    secs: u64,
    f: impl FnOnce() -> T + Send + 'static,
) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .name(name.to_owned())
        .spawn(move || {
            let _ = tx.send(f());
        })
        .expect("spawn");
    match rx.recv_timeout(Duration::from_secs(secs)) {
        Ok(v) => v,
        Err(mpsc::RecvTimeoutError::Timeout) => panic!("{name}: no answer within {secs} s (hang)"),
        Err(mpsc::RecvTimeoutError::Disconnected) => panic!("{name}: the worker panicked"),
    }
}
