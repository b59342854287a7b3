//! `toolschema check`: exit 0 if the provider would accept every input; otherwise exit 1 with
//! one line per violation (file, tool, JSON pointer, rule, message, the provider's own error
//! text), or with `--format json` one JSON object per violation.

use super::error::{CliResult, EXIT_OK, EXIT_VIOLATIONS};
use super::input::Document;
use super::output::emit;
use super::slots::{Finding, check_document};
use super::{InputArgs, ProfileArgs};
use clap::{Args, ValueEnum};
use serde::Serialize;

/// The output format of `check`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CheckFormat {
    /// One line per problem, a summary on standard error.
    Text,
    /// A JSON array, one object per problem (`[]` when there is none).
    Json,
}

/// Arguments of `toolschema check`.
#[derive(Debug, Clone, Args)]
pub struct CheckArgs {
    /// The profile.
    #[command(flatten)]
    pub profile: ProfileArgs,
    /// The output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: CheckFormat,
    /// The input.
    #[command(flatten)]
    pub input: InputArgs,
}

/// One problem in the `--format json` output.
#[derive(Debug, Serialize)]
pub struct ProblemJson<'a> {
    /// The input file (`<stdin>`, or `mcp: COMMAND` for a server).
    pub file: &'a str,
    /// The tool's name, if the schema belongs to one.
    pub tool: Option<&'a str>,
    /// JSON pointer of the problem in the document.
    pub pointer: String,
    /// The rule broken (`type-list`, `enum-values`, `tool-name`, ...).
    pub rule: &'a str,
    /// What is wrong.
    pub message: &'a str,
    /// The error text the provider answers with, when known.
    pub provider_error: Option<&'a str>,
}

/// Runs `toolschema check`.
pub fn run(args: &CheckArgs) -> CliResult {
    let choice = args.profile.choice()?;
    let docs = args.input.load_all("check")?;
    let mut checked = Vec::with_capacity(docs.len());
    for doc in &docs {
        checked.push((doc, check_document(doc, &choice)?));
    }
    // A request body over the provider's tool-count limit (issue 19): a problem of the
    // request, not of one tool.
    let requests: Vec<(&Document, provider_rules::Violation)> = docs
        .iter()
        .flat_map(|doc| {
            [tool_count(doc, &choice), field_count(doc, &choice)]
                .into_iter()
                .flatten()
                .map(move |v| (doc, v))
        })
        .collect();
    let total: usize = checked.iter().map(|(_, f)| f.len()).sum();
    if args.format == CheckFormat::Json {
        let mut problems: Vec<ProblemJson> = requests
            .iter()
            .map(|(doc, v)| ProblemJson {
                file: &doc.source.name,
                tool: None,
                pointer: String::new(),
                rule: v.rule.as_str(),
                message: &v.message,
                provider_error: v.provider_error,
            })
            .collect();
        problems.extend(
            checked
                .iter()
                .flat_map(|(doc, found)| found.iter().map(|f| problem(doc, f))),
        );
        emit(&(serde_json::to_string_pretty(&problems).unwrap_or_default() + "\n"));
    } else if total + requests.len() > 0 {
        let mut out = String::new();
        for (doc, v) in &requests {
            out.push_str(&format!(
                "{}: (request): [{}] {}\n",
                doc.source.name, v.rule, v.message
            ));
        }
        for (doc, found) in &checked {
            for f in found {
                out.push_str(&line(doc, f));
                out.push('\n');
            }
        }
        emit(&out);
        if total > 0 {
            eprintln!("{}", closing(args, &checked, total));
        }
    }
    Ok(if total + requests.len() == 0 {
        EXIT_OK
    } else {
        EXIT_VIOLATIONS
    })
}

/// A request body's tools over the provider's documented maximum per request.
fn tool_count(
    doc: &Document,
    choice: &super::profile::Choice,
) -> Option<provider_rules::Violation> {
    if doc.kind != super::input::Kind::Body {
        return None;
    }
    let mut tools: Vec<usize> = doc
        .items
        .iter()
        .filter(|i| i.slot == provider_rules::Slot::Parameters)
        .map(|i| i.tool_index)
        .collect();
    tools.dedup();
    provider_rules::check_tool_count(tools.len(), choice.rules())
}

/// A request body's tools over the provider's request-wide field limit (Cohere: 200 "across
/// all tools"); the schemas are read only for a profile that has one.
fn field_count(
    doc: &Document,
    choice: &super::profile::Choice,
) -> Option<provider_rules::Violation> {
    if doc.kind != super::input::Kind::Body || choice.rules().request_limits.fields.is_none() {
        return None;
    }
    let fields = doc
        .items
        .iter()
        .filter(|i| i.slot == provider_rules::Slot::Parameters)
        .filter_map(|i| schema_core::Schema::from_str(i.schema(&doc.source.text)).ok())
        .fold(0u32, |n, s| {
            n.saturating_add(provider_rules::strict_cost(&s).fields)
        });
    provider_rules::check_field_count(fields, choice.rules())
}

/// `3 problems in 2 tools; `toolschema sanitize --provider gemini FILE` rewrites the schemas`,
/// plus the word on tool names when one is wrong.
fn closing(args: &CheckArgs, checked: &[(&Document, Vec<Finding>)], total: usize) -> String {
    let mut tools = 0;
    let mut named_tools = false;
    for (doc, found) in checked {
        let mut seen: Vec<usize> = found.iter().map(|f| doc.items[f.item].tool_index).collect();
        seen.dedup();
        tools += seen.len();
        named_tools |= doc.items.iter().any(|i| i.tool.is_some());
    }
    let fix = match (&args.profile.provider, &args.profile.rules) {
        (_, Some(r)) => format!("--rules {}", r.display()),
        (Some(p), None) => format!("--provider {p}"),
        (None, None) => String::new(),
    };
    let source = &args.input.source;
    let what = if source.mcp {
        format!("--mcp -- {}", source.command.join(" "))
    } else if source.files.is_empty() {
        "-".to_owned()
    } else {
        source
            .files
            .iter()
            .map(|f| f.display().to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let command = if checked.len() > 1 {
        format!("`toolschema sanitize {fix} FILE` (for each file)")
    } else {
        format!("`toolschema sanitize {fix} {what}`")
    };
    let names = checked
        .iter()
        .flat_map(|(_, f)| f)
        .filter(|f| f.violation.rule == "tool-name")
        .count();
    let rename = match names {
        0 => String::new(),
        1 => "; a tool name is invalid: the layer and `toolschema serve` rename it in the request and map it back in the response (`toolschema restore` shows how)".to_owned(),
        n => format!(
            "; {n} tool names are invalid: the layer and `toolschema serve` rename them in the request and map them back in the response (`toolschema restore` shows how)"
        ),
    };
    let noun = match (named_tools, tools) {
        (true, 1) => "tool",
        (true, _) => "tools",
        (false, 1) => "schema",
        (false, _) => "schemas",
    };
    format!(
        "{total} problem{} in {tools} {noun}; {command} rewrites the schemas{rename}",
        if total == 1 { "" } else { "s" },
    )
}

/// Where a finding is in its document: the tool's name for `tool-name`, else the slot's
/// pointer plus the pointer inside its schema.
fn pointer(doc: &Document, f: &Finding) -> String {
    let item = &doc.items[f.item];
    if f.violation.rule == "tool-name" {
        format!(
            "{}/name",
            item.pointer.rsplit_once('/').map_or("", |(a, _)| a)
        )
    } else {
        format!("{}{}", item.pointer, f.violation.pointer)
    }
}

fn problem<'a>(doc: &'a Document, f: &'a Finding) -> ProblemJson<'a> {
    let v = &f.violation;
    ProblemJson {
        file: &doc.source.name,
        tool: doc.items[f.item].tool.as_deref(),
        pointer: pointer(doc, f),
        rule: v.rule.as_str(),
        message: &v.message,
        provider_error: v.provider_error,
    }
}

/// `FILE: tool NAME: POINTER: [rule] message (provider says: ...)`.
pub fn line(doc: &Document, f: &Finding) -> String {
    let item = &doc.items[f.item];
    let v = &f.violation;
    let mut s = format!("{}: ", doc.source.name);
    if let Some(t) = &item.tool {
        s.push_str(&format!("tool {t}: "));
    }
    let pointer = pointer(doc, f);
    let pointer = if pointer.is_empty() {
        "(root)"
    } else {
        &pointer
    };
    s.push_str(&format!("{pointer}: [{}] {}", v.rule, v.message));
    if let Some(e) = v.provider_error {
        s.push_str(&format!(" (provider says: {e})"));
    }
    s
}
