//! `toolschema sanitize`: the same kind of document, its schemas rewritten for a provider, on
//! standard output; `--report FILE` writes what changed as JSON.

use super::engine::{Applied, apply};
use super::error::{CliError, CliResult, EXIT_OK};
use super::input::Document;
use super::output::emit;
use super::{InputArgs, ProfileArgs};
use clap::Args;
use serde_json::json;
use std::path::PathBuf;

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
}

/// Runs `toolschema sanitize`.
pub fn run(args: &SanitizeArgs) -> CliResult {
    let choice = args.profile.choice()?;
    let doc = args.input.load()?;
    let applied = apply(&doc, &choice)?;
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
    for slot in &applied.slots {
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
    Ok(EXIT_OK)
}

/// The `--report` JSON.
pub fn report_json(doc: &Document, applied: &Applied, provider: &str) -> serde_json::Value {
    let slots: Vec<serde_json::Value> = applied
        .slots
        .iter()
        .map(|s| {
            let item = &doc.items[s.item];
            let mut v = json!({
                "tool": item.tool,
                "slot": item.label,
                "pointer": item.pointer,
                "profile": s.profile,
                "changed": s.after.is_some(),
                "lossy": s.lossy(),
                "strict_compatible": s.strict_compatible,
                "changes": s.changes,
            });
            if let (Some(e), Some(o)) = (&s.error, v.as_object_mut()) {
                o.insert("error".to_owned(), json!(e));
            }
            v
        })
        .collect();
    let changes: usize = applied.slots.iter().map(|s| s.changes.len()).sum();
    let lossy: usize = applied.slots.iter().map(|s| s.lossy()).sum();
    json!({
        "file": doc.source.name,
        "kind": doc.kind.name(),
        "api": doc.api.map(|a| a.name()),
        "provider": provider,
        "slots": slots,
        "summary": {
            "slots": applied.slots.len(),
            "changed": applied.slots.iter().filter(|s| s.after.is_some()).count(),
            "changes": changes,
            "lossy": lossy,
            "strict_compatible": applied.slots.iter().all(|s| s.strict_compatible),
        },
    })
}
