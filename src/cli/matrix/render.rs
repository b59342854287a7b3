//! Drawing the matrix: the text table with its per-provider summaries, Markdown, and JSON.

use super::{Column, Row, Status, Tally, tally};
use crate::cli::input::Document;
use crate::cli::output::{Cell, Color, Style};
use crate::cli::width::{Grid, fit_table, wrap};
use serde_json::json;

pub(super) fn cell(t: &Tally) -> Cell {
    match t.status() {
        Status::Ok if t.lossy == 0 => Cell::colored("ok", Color::Green),
        Status::Ok => Cell::colored(format!("ok ({})", t.lossy), Color::Green),
        Status::Fixed if t.lossy == 0 => Cell::colored("fixed", Color::Yellow),
        Status::Fixed => Cell::colored(format!("fixed ({})", t.lossy), Color::Yellow),
        Status::Fail => Cell::colored("FAIL", Color::Red),
    }
}

const LEGEND: &str = "ok: accepted as it stands; fixed: rejected as it stands, accepted after sanitizing; FAIL: still rejected after sanitizing (see --explain TOOL); (n): constraints sanitizing moves into descriptions";

pub(super) fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `gemini: 41 of 50 tools would fail; all pass after sanitizing; 12 constraints moved to descriptions`.
fn summary(col: &Column, c: usize, rows: &[Row]) -> String {
    let tallies: Vec<Tally> = rows.iter().map(|r| tally(&r.evals[c])).collect();
    let total = tallies.len();
    let fail = tallies.iter().filter(|t| t.before > 0).count();
    let fail_after = tallies.iter().filter(|t| t.after > 0).count();
    let lossy: usize = tallies.iter().map(|t| t.lossy).sum();
    let mut s = format!("{}: ", col.name);
    if fail == 0 {
        s.push_str(&match total {
            1 => "the tool passes as it stands".to_owned(),
            2 => "both tools pass as they stand".to_owned(),
            n => format!("all {n} tools pass as they stand"),
        });
    } else {
        s.push_str(&format!(
            "{fail} of {} would fail; ",
            plural(total, "tool", "tools")
        ));
        if fail_after == 0 {
            s.push_str(if fail == 1 {
                "it passes after sanitizing"
            } else {
                "all pass after sanitizing"
            });
        } else {
            s.push_str(&format!(
                "{fail_after} still {} after sanitizing (see --explain TOOL)",
                if fail_after == 1 { "fails" } else { "fail" }
            ));
        }
    }
    if lossy > 0 {
        s.push_str(&format!(
            "; {} moved to descriptions",
            plural(lossy, "constraint", "constraints")
        ));
    }
    s
}

pub(super) fn text(
    columns: &[Column],
    rows: &[Row],
    docs: &[Document],
    style: Style,
    width: Option<usize>,
) -> String {
    let mut out = String::new();
    let counts = format!(
        "{} × {}",
        plural(rows.len(), "tool", "tools"),
        plural(columns.len(), "provider", "providers")
    );
    out.push_str(&style.paint(&heading(docs, &counts, width), Color::Bold));
    out.push_str("\n\n");
    let grid = Grid {
        header: std::iter::once(Cell::colored("tool", Color::Bold))
            .chain(
                columns
                    .iter()
                    .map(|c| Cell::colored(c.name.clone(), Color::Bold)),
            )
            .collect(),
        rows: rows
            .iter()
            .map(|row| {
                std::iter::once(Cell::plain(row.shown()))
                    .chain(row.evals.iter().map(|e| cell(&tally(e))))
                    .collect()
            })
            .collect(),
    };
    out.push_str(&fit_table(&grid, width, style));
    out.push('\n');
    out.push_str(&style.paint(&wrap(LEGEND, width, "  "), Color::Dim));
    out.push_str("\n\n");
    for (c, col) in columns.iter().enumerate() {
        out.push_str(&wrap(&summary(col, c, rows), width, "  "));
        out.push('\n');
    }
    out
}

/// At most this many file names are listed in the heading; more are summarised.
const HEADING_FILES: usize = 3;

/// `FILE: 12 tools × 9 providers`; over many files (or names too long for the width)
/// `40 files (a.json, b.json, …): ...`.
fn heading(docs: &[Document], counts: &str, width: Option<usize>) -> String {
    let names: Vec<&str> = docs.iter().map(|d| d.source.name.as_str()).collect();
    let full = format!("{}: {counts}", names.join(", "));
    let fits = |s: &str| width.is_none_or(|w| s.chars().count() <= w);
    if names.len() <= HEADING_FILES && fits(&full) {
        return full;
    }
    let mut best = format!("{} files: {counts}", names.len());
    for k in 1..=names.len().min(HEADING_FILES) {
        let listed = names[..k].join(", ");
        let more = if k < names.len() { ", …" } else { "" };
        let s = format!("{} files ({listed}{more}): {counts}", names.len());
        if !fits(&s) {
            break;
        }
        best = s;
    }
    best
}

fn md_escape(s: &str) -> String {
    s.replace('|', "\\|")
}

pub(super) fn markdown(columns: &[Column], rows: &[Row]) -> String {
    let mut out = String::from("| tool |");
    for c in columns {
        out.push_str(&format!(" {} |", md_escape(&c.name)));
    }
    out.push_str("\n|---|");
    out.push_str(&"---|".repeat(columns.len()));
    out.push('\n');
    for row in rows {
        out.push_str(&format!("| `{}` |", md_escape(&row.tool)));
        for e in &row.evals {
            let t = tally(e);
            let text = cell(&t).text;
            let text = if t.status() == Status::Fail {
                format!("**{text}**")
            } else {
                text
            };
            out.push_str(&format!(" {text} |"));
        }
        out.push('\n');
    }
    out.push_str(&format!("\n{LEGEND}\n\n"));
    for (c, col) in columns.iter().enumerate() {
        out.push_str(&format!("- {}\n", summary(col, c, rows)));
    }
    out
}

pub(super) fn status_name(s: Status) -> &'static str {
    match s {
        Status::Ok => "ok",
        Status::Fixed => "fixed",
        Status::Fail => "fail",
    }
}

pub(super) fn json_matrix(
    columns: &[Column],
    rows: &[Row],
    docs: &[Document],
) -> serde_json::Value {
    let tools: Vec<serde_json::Value> = rows
        .iter()
        .map(|row| {
            let results: Vec<serde_json::Value> = columns
                .iter()
                .zip(&row.evals)
                .map(|(col, e)| {
                    let t = tally(e);
                    json!({
                        "provider": col.name,
                        "status": status_name(t.status()),
                        "accepted": t.before == 0,
                        "accepted_after_sanitizing": t.after == 0,
                        "violations": t.before,
                        "violations_after_sanitizing": t.after,
                        "changes": t.changes,
                        "lossy": t.lossy,
                    })
                })
                .collect();
            json!({"file": row.file, "tool": row.tool, "results": results})
        })
        .collect();
    let summary: Vec<serde_json::Value> = columns
        .iter()
        .enumerate()
        .map(|(c, col)| {
            let tallies: Vec<Tally> = rows.iter().map(|r| tally(&r.evals[c])).collect();
            json!({
                "provider": col.name,
                "tools": tallies.len(),
                "fail": tallies.iter().filter(|t| t.before > 0).count(),
                "fail_after_sanitizing": tallies.iter().filter(|t| t.after > 0).count(),
                "lossy": tallies.iter().map(|t| t.lossy).sum::<usize>(),
                "line": summary(col, c, rows),
            })
        })
        .collect();
    json!({
        "files": docs.iter().map(|d| d.source.name.clone()).collect::<Vec<_>>(),
        "providers": columns.iter().map(|c| c.name.clone()).collect::<Vec<_>>(),
        "tools": tools,
        "summary": summary,
    })
}
