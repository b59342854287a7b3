//! `toolschema mcp`: the MCP proxy's command line (the proxy itself is `crate::mcp_proxy`).

use super::ProfileArgs;
use super::error::{CliError, CliResult};
use crate::mcp_proxy::{self, HttpOptions, Server};
use clap::Args;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use std::path::PathBuf;
use std::time::Duration;

/// `toolschema mcp --provider NAME -- CMD ARGS…` or `toolschema mcp --provider NAME --url URL`.
#[derive(Debug, Clone, Args)]
pub struct McpArgs {
    /// The provider the client's model runs on.
    #[command(flatten)]
    pub profile: ProfileArgs,
    /// A Streamable HTTP MCP server's endpoint (instead of a command after --).
    #[arg(long, value_name = "URL", conflicts_with = "command")]
    pub url: Option<String>,
    /// A header for every request to --url (repeatable), e.g. "Authorization: Bearer TOKEN".
    #[arg(
        long = "header",
        short = 'H',
        value_name = "NAME: VALUE",
        requires = "url"
    )]
    pub headers: Vec<String>,
    /// Extra trusted root certificates (PEM) for --url, besides the platform's.
    #[arg(long, value_name = "FILE", requires = "url")]
    pub ca_cert: Option<PathBuf>,
    /// Seconds to wait for a connection to --url.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    pub connect_timeout: f64,
    /// Turn the profile's lossless encodings on (gemini, vertex and the strict profiles have
    /// them): `tools/list` gives maps as key/value entries, any values as JSON text, numeric
    /// enums as strings, tuples as objects, and each `tools/call`'s arguments are decoded back
    /// before they reach the server. Off by default: the client, not the proxy, receives the
    /// model's calls, and it shows and keeps them in the encoded form.
    #[arg(long)]
    pub encode: bool,
    /// The stdio MCP server's command and arguments, after --.
    #[arg(last = true, value_name = "CMD")]
    pub command: Vec<String>,
}

/// Runs the proxy; the server's exit status.
pub fn run(args: &McpArgs) -> CliResult {
    let choice = args.profile.choice()?;
    if !(args.connect_timeout.is_finite() && args.connect_timeout > 0.0) {
        return Err(CliError::usage(
            "--connect-timeout must be a positive number of seconds",
        ));
    }
    let server = match (&args.url, args.command.is_empty()) {
        (Some(url), true) => Server::Url(HttpOptions {
            url: url.clone(),
            headers: headers(&args.headers)?,
            ca_certs: match &args.ca_cert {
                Some(path) => std::fs::read(path).map_err(|e| {
                    CliError::usage(format!("cannot read --ca-cert {}: {e}", path.display()))
                })?,
                None => Vec::new(),
            },
            connect_timeout: Duration::from_secs_f64(args.connect_timeout),
        }),
        (None, false) => Server::Command(args.command.clone()),
        _ => {
            return Err(CliError::usage(
                "toolschema mcp needs a server: a command after -- (`toolschema mcp --provider gemini -- npx -y @modelcontextprotocol/server-everything`) or --url URL",
            ));
        }
    };
    let options = provider_rules::SanitizeOptions {
        encode: args.encode,
    };
    mcp_proxy::run(choice.rules().clone(), options, server).map_err(CliError::usage)
}

fn headers(lines: &[String]) -> Result<HeaderMap, CliError> {
    let mut map = HeaderMap::new();
    for line in lines {
        let bad = || CliError::usage(format!("--header {line:?}: write it as \"Name: value\""));
        let (name, value) = line.split_once(':').ok_or_else(bad)?;
        let name = HeaderName::from_bytes(name.trim().as_bytes()).map_err(|_| bad())?;
        let value = HeaderValue::from_str(value.trim()).map_err(|_| bad())?;
        map.append(name, value);
    }
    Ok(map)
}
