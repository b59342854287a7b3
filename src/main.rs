//! `toolschema`: rewrite LLM tool JSON Schemas into the dialect each provider accepts, from the
//! command line. The commands live in [`cli`]; this file only parses arguments and maps the
//! result to an exit code (0 ok, 1 violations / invalid, 2 bad usage or unreadable input).
#![forbid(unsafe_code)]

mod cli;
#[cfg(feature = "mcp")]
mod mcp_proxy;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(e.code())
        }
    }
}
