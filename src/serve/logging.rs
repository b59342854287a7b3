//! The log: `tracing-subscriber` on standard error, as text or one JSON object per line, filtered
//! by `RUST_LOG`. Without `RUST_LOG`, `info` and the layer's own per-request events off (the
//! gateway warns once per distinct schema problem itself).
//!
//! Nothing logs header values or queries: API keys (`Authorization`, `x-api-key`,
//! `x-goog-api-key`, `?key=`) never reach the log.

use tracing_subscriber::EnvFilter;

/// How log lines are written.
///
/// ```
/// use toolschema::serve::LogFormat;
/// assert_eq!("json".parse::<LogFormat>().unwrap(), LogFormat::Json);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object per line.
    Json,
}

impl std::str::FromStr for LogFormat {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "text" => Ok(LogFormat::Text),
            "json" => Ok(LogFormat::Json),
            _ => Err(format!("unknown log format {s:?}: text or json")),
        }
    }
}

/// The filter when `RUST_LOG` is not set.
pub const DEFAULT_FILTER: &str = "info,tower_toolschema=error";

/// Installs the global subscriber (once; later calls do nothing).
///
/// ```
/// toolschema::serve::init_logging(toolschema::serve::LogFormat::Text);
/// ```
pub fn init_logging(format: LogFormat) {
    let filter =
        EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(DEFAULT_FILTER));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    let _ = match format {
        LogFormat::Text => builder.with_ansi(false).try_init(),
        LogFormat::Json => builder.json().flatten_event(true).try_init(),
    };
}
