//! `toolschema sanitize`: the same kind of document, its schemas rewritten for a provider, on
//! standard output; `--report FILE` writes what changed as JSON.

use super::error::{CliError, CliResult, EXIT_OK};
use super::input::Document;
use super::output::emit;
use super::output::emit_parts;
use super::profile::Choice;
use super::slots::{Applied, SlotResult, apply_with, body_config_with, write_applied};

use super::read::read_body;
use super::{InputArgs, ProfileArgs};
use clap::Args;
use provider_rules::Change;
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};
use tower_toolschema::report::Outcome;
use tower_toolschema::shapes::Api;

/// Arguments of `toolschema sanitize`.
#[derive(Debug, Clone, Args)]
pub struct SanitizeArgs {
    /// The profile.
    #[command(flatten)]
    pub profile: ProfileArgs,
    /// The input.
    #[command(flatten)]
    pub input: InputArgs,
    /// Write the report (every change per tool and slot: pointer, rule, message, lossy;
    /// strict_compatible) as JSON to this file (`-`: standard error).
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
    /// Use the profile's lossless encodings (maps as key/value entries, any values as JSON
    /// text, numeric enums as strings, tuples as objects): only for a caller that decodes the
    /// model's values (`toolschema decode`, the layer). In a request body, the history's
    /// earlier tool calls are encoded too, as the layer does.
    #[arg(long)]
    pub encode: bool,

    /// Batch mode: one schema per input line, one result per output line, in order (`null`,
    /// and a line on standard error, for a line that is not a readable schema).
    #[arg(long, conflicts_with_all = ["report", "api", "encode"])]
    pub ndjson: bool,
}

/// Runs `toolschema sanitize`.
pub fn run(args: &SanitizeArgs) -> CliResult {
    let choice = args.profile.choice()?;
    if args.ndjson {
        let Some(file) = args.input.single_file() else {
            return Err(CliError::usage(
                "--ndjson reads one file or standard input, not several files or an MCP server",
            ));
        };
        let slot = args
            .input
            .hints()?
            .as_slot
            .unwrap_or(provider_rules::Slot::Parameters);
        return super::ndjson::run(file, choice.rules(), slot);
    }
    if args.report.is_none()
        && let Some(api) = args.input.hints()?.api
        && let Some(file) = args.input.single_file()
    {
        return run_body(file, &choice, api, args.encode);
    }
    let doc = args.input.load_one("sanitize")?;
    let options = provider_rules::SanitizeOptions {
        encode: args.encode,
    };
    if args.report.is_none() && doc.kind != super::input::Kind::Body {
        // Written as it is sanitized: the output is never held whole.
        let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
        let mut failed = false;
        let slots = write_applied(&doc, &choice, &options, false, &mut |piece| {
            // A closed pipe (`... | head`): the rest is dropped quietly, as `emit` does.
            if !failed && out.write_all(piece.as_bytes()).is_err() {
                failed = true;
            }
        });
        let _ = out.flush();
        drop(out);
        warn_left_unchanged(&doc, &slots);
        return Ok(EXIT_OK);
    }
    let applied = apply_with(&doc, &choice, &options)?;
    if let Some(path) = &args.report {
        let text = serde_json::to_string_pretty(&report_json(&doc, &applied, choice.name()))
            .unwrap_or_default();
        if path.as_os_str() == "-" {
            eprintln!("{text}");
        } else {
            std::fs::write(path, format!("{text}\n")).map_err(|e| {
                CliError::usage(format!(
                    "cannot write the report to {}: {e} (check that its directory exists and is writable)",
                    path.display()
                ))
            })?;
        }
    }
    emit(&applied.output);
    warn_left_unchanged(&doc, &applied.slots);
    Ok(EXIT_OK)
}

/// A warning on standard error for each slot that could not be sanitized.
fn warn_left_unchanged(doc: &Document, slots: &[SlotResult]) {
    for slot in slots {
        if let Some(e) = &slot.error {
            let item = &doc.items[slot.item];
            eprintln!(
                "warning: {}: {} {}: left unchanged: {e}",
                doc.source.name,
                item.display_name(),
                item.pointer
            );
        }
    }
}

/// A request body of a known API, with no report asked for: the layer's own pass, which reads
/// the body once, sanitizes only its slots and splices them back, renaming refused tool names
/// as the layer does (no document model, no second scan), so the command costs about what the
/// layer costs.
fn run_body(file: Option<&Path>, choice: &Choice, api: Api, encode: bool) -> CliResult {
    // Bytes as read: the layer's scan checks the JSON (and its strings' UTF-8) itself.
    let (name, bytes) = read_body(file)?;
    let (parts, report, _) = tower_toolschema::restore::prepare_request_parts(
        &body_config_with(choice, encode),
        Some(api),
        bytes,
    );
    if let Outcome::Skipped(reason) = &report.outcome {
        return Err(CliError::usage(format!(
            "{name}: cannot read the request body: {reason}"
        )));
    }
    // The unchanged conversation is written from the input's own bytes.
    emit_parts(&parts);
    for slot in &report.slots {
        if let Some(e) = &slot.error {
            eprintln!("warning: {name}: {}: left unchanged: {e}", slot.pointer);
        }
    }
    Ok(EXIT_OK)
}

/// The `--report` JSON: the document, the profile, then every slot with its changes.
#[derive(Debug, Serialize)]
pub struct ReportJson<'a> {
    /// The input file (`<stdin>` for standard input).
    pub file: &'a str,
    /// What the input was (`schema`, `mcp-tools-list`, `mcp-tool-array`, `request-body`).
    pub kind: &'static str,
    /// For a request body: the API.
    pub api: Option<&'static str>,
    /// The profile chosen (`--provider` or the custom profile's name).
    pub provider: &'a str,
    /// One entry per schema slot, in document order.
    pub slots: Vec<SlotJson<'a>>,
    /// The tool names renamed for the provider (request bodies), in declaration order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub renames: Vec<RenameJson<'a>>,
    /// Totals.
    pub summary: SummaryJson,
}

/// One slot in the `--report` JSON.
#[derive(Debug, Serialize)]
pub struct SlotJson<'a> {
    /// The tool's name, if the slot belongs to one.
    pub tool: Option<&'a str>,
    /// The slot (`inputSchema`, `outputSchema`, `parameters`, `schema`, ...).
    pub slot: &'a str,
    /// JSON pointer of the slot in the document.
    pub pointer: &'a str,
    /// The profile applied to this slot.
    pub profile: &'a str,
    /// Whether the slot's schema changed.
    pub changed: bool,
    /// How many changes lost meaning.
    pub lossy: usize,
    /// Whether the result can be sent in strict mode without changing what it accepts.
    pub strict_compatible: bool,
    /// The changes: pointer (inside the slot's schema), rule, message, lossy.
    pub changes: &'a [Change],
    /// The tool asked for strict mode but its schema cannot be made strict-compatible: it is
    /// sent with `strict: false` under the non-strict profile (request bodies only).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub strict_downgraded: bool,
    /// Why the slot was left unchanged, if it could not be sanitized.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<&'a str>,
}

/// One renamed tool in the `--report` JSON.
#[derive(Debug, Serialize)]
pub struct RenameJson<'a> {
    /// The tool's own name.
    pub original: &'a str,
    /// The name sent instead (mapped back in the response).
    pub sent: &'a str,
    /// Why: `length`, `characters` (the provider's rule refuses them), `collision` (an
    /// earlier tool has the name).
    pub why: &'a [tower_toolschema::report::RenameReason],
}

/// Totals of the `--report` JSON.
#[derive(Debug, Serialize)]
pub struct SummaryJson {
    /// Schema slots found.
    pub slots: usize,
    /// Slots changed.
    pub changed: usize,
    /// Changes made.
    pub changes: usize,
    /// Changes that lost meaning.
    pub lossy: usize,
    /// Whether every slot is strict-compatible.
    pub strict_compatible: bool,
}

/// Builds the `--report` JSON.
pub fn report_json<'a>(
    doc: &'a Document,
    applied: &'a Applied,
    provider: &'a str,
) -> ReportJson<'a> {
    let slots = applied
        .slots
        .iter()
        .map(|s| {
            let item = &doc.items[s.item];
            SlotJson {
                tool: item.tool.as_deref(),
                slot: &item.label,
                pointer: &item.pointer,
                profile: &s.profile,
                changed: s.after.is_some(),
                lossy: s.lossy(),
                strict_compatible: s.strict_compatible,
                changes: &s.changes,
                strict_downgraded: s.strict_downgraded,
                error: s.error.as_deref(),
            }
        })
        .collect();
    ReportJson {
        file: &doc.source.name,
        kind: doc.kind.name(),
        api: doc.api.map(|a| a.name()),
        provider,
        slots,
        renames: applied
            .renames
            .iter()
            .map(|r| RenameJson {
                original: &r.original,
                sent: &r.sent,
                why: &r.why,
            })
            .collect(),
        summary: SummaryJson {
            slots: applied.slots.len(),
            changed: applied.slots.iter().filter(|s| s.after.is_some()).count(),
            changes: applied.slots.iter().map(|s| s.changes.len()).sum(),
            lossy: applied.slots.iter().map(|s| s.lossy()).sum(),
            strict_compatible: applied.slots.iter().all(|s| s.strict_compatible),
        },
    }
}
