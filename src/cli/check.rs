//! `toolschema check`: exit 0 if the provider would accept the input; otherwise exit 1 with one
//! line per violation (file, tool, JSON pointer, rule, message, the provider's own error text).

use super::engine::{Finding, check_document};
use super::error::{CliResult, EXIT_OK, EXIT_VIOLATIONS};
use super::input::Document;
use super::output::emit;
use super::{InputArgs, ProfileArgs};
use clap::Args;

/// Arguments of `toolschema check`.
#[derive(Debug, Clone, Args)]
pub struct CheckArgs {
    /// The profile.
    #[command(flatten)]
    pub profile: ProfileArgs,
    /// The input.
    #[command(flatten)]
    pub input: InputArgs,
}

/// Runs `toolschema check`.
pub fn run(args: &CheckArgs) -> CliResult {
    let choice = args.profile.choice()?;
    let doc = args.input.load()?;
    let findings = check_document(&doc, &choice)?;
    // A request body: the provider's tool-count limit (issue 19).
    let over = (doc.kind == super::input::Kind::Body)
        .then(|| {
            let mut tools: Vec<usize> = doc
                .items
                .iter()
                .filter(|i| i.slot == provider_rules::Slot::Parameters)
                .map(|i| i.tool_index)
                .collect();
            tools.dedup();
            provider_rules::check_tool_count(tools.len(), choice.rules())
        })
        .flatten();
    if let Some(v) = &over {
        emit(&format!(
            "{}: (request): [{}] {}\n",
            doc.source.name, v.rule, v.message
        ));
    }
    if findings.is_empty() {
        return Ok(if over.is_some() {
            EXIT_VIOLATIONS
        } else {
            EXIT_OK
        });
    }
    let mut out = String::new();
    for f in &findings {
        out.push_str(&line(&doc, f));
        out.push('\n');
    }
    emit(&out);
    let mut tools: Vec<usize> = findings
        .iter()
        .map(|f| doc.items[f.item].tool_index)
        .collect();
    tools.dedup();
    let fix = match (&args.profile.provider, &args.profile.rules) {
        (_, Some(r)) => format!("--rules {}", r.display()),
        (Some(p), None) => format!("--provider {p}"),
        (None, None) => String::new(),
    };
    eprintln!(
        "{} problem{} in {} {}; `toolschema sanitize {fix} {}` rewrites the schemas (tool names must be renamed by hand)",
        findings.len(),
        if findings.len() == 1 { "" } else { "s" },
        tools.len(),
        if doc.items.iter().any(|i| i.tool.is_some()) {
            if tools.len() == 1 { "tool" } else { "tools" }
        } else if tools.len() == 1 {
            "schema"
        } else {
            "schemas"
        },
        args.input
            .file
            .as_ref()
            .map_or_else(|| "-".to_owned(), |f| f.display().to_string())
    );
    Ok(EXIT_VIOLATIONS)
}

/// `FILE: tool NAME: POINTER: [rule] message (provider says: ...)`.
pub fn line(doc: &Document, f: &Finding) -> String {
    let item = &doc.items[f.item];
    let v = &f.violation;
    let mut s = format!("{}: ", doc.source.name);
    if let Some(t) = &item.tool {
        s.push_str(&format!("tool {t}: "));
    }
    let pointer = if v.rule == "tool-name" {
        format!(
            "{}/name",
            item.pointer.rsplit_once('/').map_or("", |(a, _)| a)
        )
    } else {
        format!("{}{}", item.pointer, v.pointer)
    };
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
