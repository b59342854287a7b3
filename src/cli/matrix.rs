//! `toolschema matrix`: tools × provider profiles — accepted as they stand, accepted after
//! sanitizing, and how much meaning sanitizing moved into descriptions — with a summary line per
//! provider; `--explain TOOL` lists every problem and change for one tool.

use super::error::{CliError, CliResult, EXIT_OK};
use super::input::{Document, Hints, api_by_name};
use super::input_args::SourceArgs;
use super::output::{Cell, Color, Style, emit};
use super::profile::{builtin, load_rules, matrix_default};
use super::slots::{Eval, evaluate};

use super::progress::Progress;
use super::width::{Grid, fit_table, stdout_width, wrap};
use clap::{Args, ValueEnum};
use provider_rules::Rules;
use serde_json::json;
use std::borrow::Cow;
use std::path::PathBuf;

/// The output format of `matrix`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MatrixFormat {
    /// Aligned columns (coloured on a terminal).
    Text,
    /// A Markdown table.
    Markdown,
    /// JSON.
    Json,
}

/// Arguments of `toolschema matrix`.
#[derive(Debug, Clone, Args)]
pub struct MatrixArgs {
    /// The output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: MatrixFormat,
    /// List every problem and change for this tool, per provider, instead of the table.
    #[arg(long, value_name = "TOOL")]
    pub explain: Option<String>,
    /// The profiles to show, comma-separated (default: every non-strict built-in).
    #[arg(long, value_delimiter = ',', value_name = "NAMES")]
    pub providers: Option<Vec<String>>,
    /// Add a custom profile (TOML or JSON, e.g. `extends = "gemini"` plus overrides) as a column.
    #[arg(long, value_name = "FILE")]
    pub rules: Option<PathBuf>,
    /// Read the files as request bodies of this API (default: detected by their shape).
    #[arg(long, value_name = "NAME")]
    pub api: Option<String>,
    /// Files or an MCP server.
    #[command(flatten)]
    pub source: SourceArgs,
}

/// One column: a profile.
struct Column {
    name: String,
    rules: Cow<'static, Rules>,
}

/// One row: a tool and its results per column.
struct Row {
    file: String,
    tool: String,
    /// The names it can be asked for with `--explain`.
    names: Vec<String>,
    /// Per column, per slot of the tool: `(slot label, eval)`.
    evals: Vec<Vec<(String, Eval)>>,
}

impl Row {
    /// The tool's name as the table shows it: with `(no input schema)` where the tools/list
    /// entry had none (issue 19: said, not silently counted).
    fn shown(&self) -> String {
        let no_input = self.evals.first().is_some_and(|e| {
            e.iter()
                .any(|(label, _)| label == super::input::NO_INPUT_SCHEMA)
        });
        if no_input {
            format!("{} ({})", self.tool, super::input::NO_INPUT_SCHEMA)
        } else {
            self.tool.clone()
        }
    }
}

/// A tool × profile verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Status {
    Ok,
    Fixed,
    Fail,
}

struct Tally {
    before: usize,
    after: usize,
    changes: usize,
    lossy: usize,
}

fn tally(evals: &[(String, Eval)]) -> Tally {
    Tally {
        before: evals.iter().map(|(_, e)| e.before.len()).sum(),
        after: evals.iter().map(|(_, e)| e.after.len()).sum(),
        changes: evals.iter().map(|(_, e)| e.changes.len()).sum(),
        lossy: evals.iter().map(|(_, e)| e.lossy()).sum(),
    }
}

impl Tally {
    fn status(&self) -> Status {
        if self.before == 0 {
            Status::Ok
        } else if self.after == 0 {
            Status::Fixed
        } else {
            Status::Fail
        }
    }
}

/// Runs `toolschema matrix`.
pub fn run(args: &MatrixArgs) -> CliResult {
    let columns = columns(args)?;
    let docs = documents(args)?;
    let multi = docs.len() > 1;
    let mut rows = Vec::new();
    let progress = Progress::new(docs.iter().map(|d| d.items.len()).sum());
    let mut done = 0;
    for doc in &docs {
        rows.extend(rows_of(doc, &columns, multi, &progress, &mut done));
    }
    drop(progress);
    if let Some(tool) = &args.explain {
        return explain(args, &columns, &rows, tool);
    }
    let text = match args.format {
        MatrixFormat::Text => text(&columns, &rows, &docs, Style::for_stdout(), stdout_width()),
        MatrixFormat::Markdown => markdown(&columns, &rows),
        MatrixFormat::Json => {
            serde_json::to_string_pretty(&json_matrix(&columns, &rows, &docs)).unwrap_or_default()
                + "\n"
        }
    };
    emit(&text);
    Ok(EXIT_OK)
}

fn columns(args: &MatrixArgs) -> Result<Vec<Column>, CliError> {
    let mut columns = Vec::new();
    let names: Vec<String> = match (&args.providers, &args.rules) {
        (Some(list), _) => list
            .iter()
            .map(|s| s.trim().to_owned())
            .filter(|s| !s.is_empty())
            .collect(),
        (None, Some(_)) => Vec::new(),
        (None, None) => matrix_default().into_iter().map(str::to_owned).collect(),
    };
    for typed in names {
        let rules = builtin(&typed)?;
        // The profile's own spelling (`--providers GEMINI` shows `gemini`), once.
        let name = rules.name().to_owned();
        if !columns.iter().any(|c: &Column| c.name == name) {
            columns.push(Column {
                name,
                rules: Cow::Borrowed(rules),
            });
        }
    }
    if let Some(path) = &args.rules {
        let rules = load_rules(path)?;
        columns.push(Column {
            name: rules.name().to_owned(),
            rules: Cow::Owned(rules),
        });
    }
    if columns.is_empty() {
        return Err(CliError::usage(
            "no providers to show: pass --providers NAMES (e.g. gemini,openai) or --rules FILE",
        ));
    }
    Ok(columns)
}

fn documents(args: &MatrixArgs) -> Result<Vec<Document>, CliError> {
    let hints = Hints {
        as_slot: None,
        api: args.api.as_deref().map(api_by_name).transpose()?,
    };
    args.source.load(&hints, "matrix", true)
}

fn rows_of(
    doc: &Document,
    columns: &[Column],
    multi: bool,
    progress: &Progress,
    done: &mut usize,
) -> Vec<Row> {
    let stem = std::path::Path::new(&doc.source.name)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or(&doc.source.name)
        .to_owned();
    let mut rows: Vec<Row> = Vec::new();
    let mut index: Vec<usize> = Vec::new();
    for item in &doc.items {
        progress.step(*done, &item.display_name());
        *done += 1;
        let name = match (&item.tool, doc.items.len()) {
            (Some(t), _) => t.clone(),
            (None, 1) => stem.clone(),
            (None, _) => item.pointer.clone(),
        };
        let pos = match index.iter().position(|t| *t == item.tool_index) {
            Some(p) => p,
            None => {
                index.push(item.tool_index);
                rows.push(Row {
                    file: doc.source.name.clone(),
                    tool: if multi {
                        format!("{stem}/{name}")
                    } else {
                        name.clone()
                    },
                    names: vec![name.clone(), format!("{stem}/{name}")],
                    evals: columns.iter().map(|_| Vec::new()).collect(),
                });
                rows.len() - 1
            }
        };
        for (c, col) in columns.iter().enumerate() {
            rows[pos].evals[c].push((item.label.clone(), evaluate(item, &col.rules)));
        }
    }
    rows
}

fn cell(t: &Tally) -> Cell {
    match t.status() {
        Status::Ok if t.lossy == 0 => Cell::colored("ok", Color::Green),
        Status::Ok => Cell::colored(format!("ok ({})", t.lossy), Color::Green),
        Status::Fixed if t.lossy == 0 => Cell::colored("fixed", Color::Yellow),
        Status::Fixed => Cell::colored(format!("fixed ({})", t.lossy), Color::Yellow),
        Status::Fail => Cell::colored("FAIL", Color::Red),
    }
}

const LEGEND: &str = "ok: accepted as it stands; fixed: rejected as it stands, accepted after sanitizing; FAIL: still rejected after sanitizing (see --explain TOOL); (n): constraints sanitizing moves into descriptions";

fn plural(n: usize, one: &str, many: &str) -> String {
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

fn text(
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

fn markdown(columns: &[Column], rows: &[Row]) -> String {
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

fn status_name(s: Status) -> &'static str {
    match s {
        Status::Ok => "ok",
        Status::Fixed => "fixed",
        Status::Fail => "fail",
    }
}

fn json_matrix(columns: &[Column], rows: &[Row], docs: &[Document]) -> serde_json::Value {
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

fn explain(args: &MatrixArgs, columns: &[Column], rows: &[Row], tool: &str) -> CliResult {
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
