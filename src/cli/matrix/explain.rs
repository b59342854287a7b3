//! `--explain TOOL`: every problem and change for one tool, per provider.

use super::render::{plural, status_name};
use super::{Column, MatrixArgs, MatrixFormat, Row, Status, tally};
use crate::cli::error::{CliError, CliResult, EXIT_OK};
use crate::cli::output::{Color, Style, emit};
use serde_json::json;

pub(super) fn explain(
    args: &MatrixArgs,
    columns: &[Column],
    rows: &[Row],
    tool: &str,
) -> CliResult {
    let found: Vec<&Row> = rows
        .iter()
        .filter(|r| r.tool == tool || r.names.iter().any(|n| n == tool))
        .collect();
    if found.is_empty() {
        let mut names: Vec<&str> = rows.iter().map(|r| r.tool.as_str()).collect();
        let total = names.len();
        names.truncate(40);
        let more = if total > 40 {
            format!(" … ({total} in total)")
        } else {
            String::new()
        };
        return Err(CliError::usage(format!(
            "no tool named {tool:?}; the tools are: {}{more}",
            names.join(", ")
        )));
    }
    if args.format == MatrixFormat::Json {
        let v: Vec<serde_json::Value> = found
            .iter()
            .map(|row| {
                let per: Vec<serde_json::Value> = columns
                    .iter()
                    .zip(&row.evals)
                    .map(|(col, evals)| {
                        let slots: Vec<serde_json::Value> = evals
                            .iter()
                            .map(|(label, e)| {
                                json!({
                                    "slot": label,
                                    "violations": e.before,
                                    "changes": e.changes,
                                    "violations_after_sanitizing": e.after,
                                    "error": e.error,
                                })
                            })
                            .collect();
                        json!({"provider": col.name, "status": status_name(tally(evals).status()), "slots": slots})
                    })
                    .collect();
                json!({"file": row.file, "tool": row.tool, "providers": per})
            })
            .collect();
        emit(&(serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"));
        return Ok(EXIT_OK);
    }
    let style = if args.format == MatrixFormat::Text {
        Style::for_stdout()
    } else {
        Style::plain()
    };
    let mut out = String::new();
    for row in found {
        for (col, evals) in columns.iter().zip(&row.evals) {
            let t = tally(evals);
            let verdict = match t.status() {
                Status::Ok => style.paint("accepted as it stands", Color::Green),
                Status::Fixed => style.paint(
                    &format!(
                        "rejected as it stands ({}); accepted after sanitizing",
                        plural(t.before, "problem", "problems")
                    ),
                    Color::Yellow,
                ),
                Status::Fail => style.paint(
                    &format!(
                        "rejected ({}); still rejected after sanitizing ({})",
                        plural(t.before, "problem", "problems"),
                        plural(t.after, "problem", "problems")
                    ),
                    Color::Red,
                ),
            };
            out.push_str(&format!(
                "{} × {}: {verdict}; {}, {} meaning\n",
                style.paint(&row.tool, Color::Bold),
                style.paint(&col.name, Color::Bold),
                plural(t.changes, "change", "changes"),
                if t.lossy == 1 {
                    "1 loses".to_owned()
                } else {
                    format!("{} lose", t.lossy)
                }
            ));
            for (label, e) in evals {
                let at = |p: &str| {
                    if p.is_empty() {
                        label.clone()
                    } else {
                        format!("{label}{p}")
                    }
                };
                for v in &e.before {
                    out.push_str(&format!(
                        "  {:<9} {}: [{}] {}",
                        "rejected",
                        at(&v.pointer),
                        v.rule,
                        v.message
                    ));
                    if let Some(pe) = v.provider_error {
                        out.push_str(&format!(" (provider says: {pe})"));
                    }
                    out.push('\n');
                }
                for c in &e.changes {
                    out.push_str(&format!(
                        "  {:<9} {}: [{}] {}\n",
                        if c.lossy { "lossy" } else { "changed" },
                        at(&c.pointer),
                        c.rule,
                        c.message
                    ));
                }
                for v in &e.after {
                    out.push_str(&format!(
                        "  {:<9} {}: [{}] {}\n",
                        "STILL",
                        at(&v.pointer),
                        v.rule,
                        v.message
                    ));
                }
                if let Some(err) = &e.error {
                    out.push_str(&format!("  {:<9} {label}: {err}\n", "error"));
                }
            }
            out.push('\n');
        }
    }
    emit(&out);
    Ok(EXIT_OK)
}
