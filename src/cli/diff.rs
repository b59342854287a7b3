//! `toolschema diff --provider NAME FILE...`: for each schema sanitizing changes, a line diff of
//! the pretty-printed schema before and after, tool by tool, with the changes listed. Like
//! diff(1) and `git diff --exit-code`: exit 0 when nothing changes, 1 when something does.

use super::error::{CliResult, EXIT_OK, EXIT_VIOLATIONS};
use super::input::Document;
use super::output::{Color, Style, emit};
use super::slots::{Applied, apply};
use super::textdiff::unified;
use super::{InputArgs, ProfileArgs};
use clap::Args;

/// Arguments of `toolschema diff`.
#[derive(Debug, Clone, Args)]
pub struct DiffArgs {
    /// The profile.
    #[command(flatten)]
    pub profile: ProfileArgs,
    /// The input.
    #[command(flatten)]
    pub input: InputArgs,
    /// Unchanged lines shown around each change.
    #[arg(long, default_value_t = 3, value_name = "LINES")]
    pub context: usize,
}

/// Runs `toolschema diff`.
pub fn run(args: &DiffArgs) -> CliResult {
    let choice = args.profile.choice()?;
    let docs = args.input.load_all("diff")?;
    let style = Style::for_stdout();
    let mut out = String::new();
    let (mut changed, mut total) = (0, 0);
    for doc in &docs {
        let applied = apply(doc, &choice)?;
        total += applied.slots.len();
        let file = (docs.len() > 1).then_some(doc.source.name.as_str());
        changed += diff_document(doc, &applied, file, args.context, style, &mut out);
    }
    out.push_str(&format!(
        "{changed} of {total} schema{} changed for {}\n",
        if total == 1 { "" } else { "s" },
        choice.name()
    ));
    emit(&out);
    Ok(if changed == 0 {
        EXIT_OK
    } else {
        EXIT_VIOLATIONS
    })
}

/// Appends the diffs of `doc`'s changed schemas to `out` (headed by `file`, when given); how
/// many changed.
fn diff_document(
    doc: &Document,
    applied: &Applied,
    file: Option<&str>,
    context: usize,
    style: Style,
    out: &mut String,
) -> usize {
    let mut changed = 0;
    for slot in &applied.slots {
        let Some(after) = &slot.after else { continue };
        changed += 1;
        let item = &doc.items[slot.item];
        let before = schema_core::pretty(&compact(item.schema(&doc.source.text)));
        let after = schema_core::pretty(after);
        let name = match file {
            Some(f) => format!("{f}: {}", item.display_name()),
            None => item.display_name(),
        };
        let at = if item.pointer.is_empty() {
            String::new()
        } else {
            format!(" ({})", item.pointer)
        };
        out.push_str(&style.paint(
            &format!("--- {name} {}{at}, as it stands\n", item.label),
            Color::Bold,
        ));
        out.push_str(&style.paint(
            &format!(
                "+++ {name} {}{at}, sanitized for {}\n",
                item.label, slot.profile
            ),
            Color::Bold,
        ));
        for line in unified(&before, &after, context) {
            let color = match line.as_bytes().first() {
                Some(b'-') => Some(Color::Red),
                Some(b'+') => Some(Color::Green),
                Some(b'@') => Some(Color::Dim),
                _ => None,
            };
            match color {
                Some(c) => out.push_str(&style.paint(&line, c)),
                None => out.push_str(&line),
            }
            out.push('\n');
        }
        for c in &slot.changes {
            let at = if c.pointer.is_empty() {
                "(root)"
            } else {
                &c.pointer
            };
            out.push_str(&format!(
                "  {at}: [{}] {}{}\n",
                c.rule,
                c.message,
                if c.lossy { " (meaning lost)" } else { "" }
            ));
        }
        out.push('\n');
    }
    changed
}

/// Compacts JSON text through the order-preserving model (so both sides print alike).
fn compact(text: &str) -> String {
    match schema_core::Schema::from_str(text) {
        Ok(s) => s.to_json_string(),
        Err(_) => text.to_owned(),
    }
}
