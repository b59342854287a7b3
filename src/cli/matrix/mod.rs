//! `toolschema matrix`: tools × provider profiles — accepted as they stand, accepted after
//! sanitizing, and how much meaning sanitizing moved into descriptions — with a summary line per
//! provider; `--explain TOOL` lists every problem and change for one tool.

mod explain;
mod render;

use explain::explain;
use render::{json_matrix, markdown, text};

use super::error::{CliError, CliResult, EXIT_OK};
use super::input::{Document, Hints, api_by_name};
use super::input_args::SourceArgs;
use super::output::{Style, emit};
use super::profile::{builtin, load_rules, matrix_default};
use super::slots::{Eval, evaluate};

use super::progress::Progress;
use super::width::stdout_width;
use clap::{Args, ValueEnum};
use provider_rules::Rules;
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
            rows[pos].evals[c].push((
                item.label.clone(),
                evaluate(&doc.source.text, item, &col.rules),
            ));
        }
    }
    rows
}
