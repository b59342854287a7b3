//! `toolschema serve`: the flags, then [`toolschema::serve`] does the work.

use std::path::PathBuf;

use clap::Args;
use toolschema::serve::{LogFormat, Server, Settings};

use super::error::{CliError, CliResult, EXIT_OK};

/// `toolschema serve [--listen ADDR] [--upstream URL] [--config FILE] [--ca-cert FILE]... [--encode]`
#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    /// The address to listen on [default: 127.0.0.1:8787, or the config's `listen`].
    #[arg(long, value_name = "ADDR")]
    pub listen: Option<String>,
    /// Send every request to this upstream (`https://api.openai.com`, `http://127.0.0.1:11434`)
    /// instead of the built-in routes (`/openai/...`, `/anthropic/...`, `/gemini/...`, ...).
    #[arg(long, value_name = "URL")]
    pub upstream: Option<String>,
    /// A TOML file: routes (prefix, upstream, optional profile, limits), limits, listen.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// A PEM file of extra root certificates to trust for upstreams (repeatable).
    #[arg(long = "ca-cert", value_name = "FILE")]
    pub ca_cert: Vec<PathBuf>,
    /// Turn the profiles' lossless encodings on for every route (the config's `encode = true`
    /// does it per file or per route): maps go out as key/value entries, any values as JSON
    /// text, numeric enums as strings, tuples as objects, so strict tools stay strict and
    /// Gemini keeps what its proto cannot say; the calls in the responses are decoded back and
    /// the history's earlier calls encoded. Off by default: a response the gateway cannot read
    /// (compressed in an unknown encoding, Bedrock's binary event stream) would reach the client
    /// in the encoded form, and a gateway should not change what the client gets unasked.
    #[arg(long)]
    pub encode: bool,
    /// Log lines as `text` or `json` (on standard error; filter with RUST_LOG).
    #[arg(long, value_name = "FORMAT", default_value = "text")]
    pub log_format: String,
}

/// Runs the gateway until Ctrl-C or SIGTERM.
pub fn run(args: &ServeArgs) -> CliResult {
    let format: LogFormat = args.log_format.parse().map_err(CliError::usage)?;
    let settings = Settings::load(
        args.listen.as_deref(),
        args.upstream.as_deref(),
        args.config.as_deref(),
        &args.ca_cert,
    )
    .map_err(|e| CliError::usage(e.to_string()))?
    .encode_all(args.encode);
    toolschema::serve::init_logging(format);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::usage(format!("cannot start the runtime: {e}")))?;
    runtime.block_on(async {
        let server = Server::bind(settings)
            .await
            .map_err(|e| CliError::usage(e.to_string()))?;
        eprintln!(
            "toolschema serve: listening on http://{}",
            server.local_addr()
        );
        server
            .run(toolschema::serve::shutdown_signal())
            .await
            .map_err(|e| CliError::usage(e.to_string()))?;
        Ok(EXIT_OK)
    })
}
