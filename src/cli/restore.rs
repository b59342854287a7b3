//! `toolschema restore --provider NAME --request REQUEST.json RESPONSE.json`: the response as
//! the client of the layer sees it (tool names mapped back, strict nulls removed), for a JSON
//! response or an SSE capture. What was restored goes to standard error.

use super::ProfileArgs;
use super::error::{CliError, CliResult, EXIT_OK};
use super::input::api_by_name;
use super::output::{emit_bytes, emit_parts};
use super::read::read_bytes;
use super::slots::body_config;
use bytes::Bytes;
use clap::Args;
use std::path::PathBuf;
use tower_toolschema::report::Outcome;
use tower_toolschema::restore::{RestoredCall, prepare_request_parts};

/// Arguments of `toolschema restore`.
#[derive(Debug, Clone, Args)]
pub struct RestoreArgs {
    /// The profile the request was sent for.
    #[command(flatten)]
    pub profile: ProfileArgs,
    /// The request body as the client sent it (before the layer), whose tools decide what is
    /// restored.
    #[arg(long, value_name = "FILE")]
    pub request: PathBuf,
    /// The request's API (openai-chat, openai-responses, anthropic-messages, gemini,
    /// code-assist, bedrock-converse, ...; default: detected by its shape).
    #[arg(long, value_name = "NAME")]
    pub api: Option<String>,
    /// The provider's response: a JSON body or an SSE capture (`-` or nothing: standard input).
    #[arg(value_name = "RESPONSE")]
    pub response: Option<PathBuf>,
}

/// Whether `bytes` is an SSE capture rather than a JSON body.
fn is_sse(bytes: &[u8]) -> bool {
    !matches!(
        bytes.iter().find(|b| !b.is_ascii_whitespace()),
        Some(b'{' | b'[') | None
    )
}

/// Runs `toolschema restore`.
pub fn run(args: &RestoreArgs) -> CliResult {
    let choice = args.profile.choice()?;
    let api = args.api.as_deref().map(api_by_name).transpose()?;
    if args.request.as_os_str() == "-"
        && args.response.as_ref().is_none_or(|r| r.as_os_str() == "-")
    {
        return Err(CliError::usage(
            "the request and the response cannot both come from standard input: pass RESPONSE",
        ));
    }
    let (req_name, request) = read_bytes(Some(&args.request))?;
    let (res_name, response) = read_bytes(args.response.as_deref())?;
    // Only the plan is used: the request is not put back together.
    let (_, report, plan) = prepare_request_parts(&body_config(&choice), api, Bytes::from(request));
    if let Outcome::Skipped(reason) = &report.outcome {
        return Err(CliError::usage(format!(
            "{req_name}: cannot read the request body: {reason}"
        )));
    }
    if report.api.is_none() {
        return Err(CliError::usage(format!(
            "{req_name}: not a request body of a known API (pass --api)"
        )));
    }
    for (original, sent) in plan.names().pairs() {
        eprintln!("renamed: {sent} -> {original}");
    }
    let calls: Vec<RestoredCall> = if is_sse(&response) {
        let mut stream = plan.stream();
        let mut out = stream.push(&response);
        out.extend(stream.finish(false));
        emit_parts(&out);
        stream.take_calls()
    } else {
        let (out, calls) = plan
            .restore_json(&response)
            .map_err(|e| CliError::usage(format!("{res_name}: {e}")))?;
        emit_bytes(out.as_deref().unwrap_or(&response));
        calls
    };
    for c in &calls {
        let mut what = Vec::new();
        if c.renamed() {
            what.push(format!("name {} -> {}", c.sent, c.tool));
        }
        if c.decoded {
            what.push("strict nulls removed".to_owned());
        }
        if let Some(e) = &c.error {
            what.push(format!("arguments left as they came: {e}"));
        }
        eprintln!("call {}: {}", c.tool, what.join("; "));
    }
    Ok(EXIT_OK)
}
