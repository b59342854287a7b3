//! `toolschema diff --provider NAME FILE`: for each schema sanitizing changes, a line diff of
//! the pretty-printed schema before and after, tool by tool, with the changes listed.

use super::error::{CliResult, EXIT_OK};
use super::output::{Color, Style, emit};
use super::slots::apply;
use super::textdiff::{diff_lines, unified};
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
    let doc = args.input.load()?;
    let applied = apply(&doc, &choice)?;
    let style = Style::for_stdout();
    let mut out = String::new();
    let mut changed = 0;
    for slot in &applied.slots {
        let Some(after) = &slot.after else { continue };
        changed += 1;
        let item = &doc.items[slot.item];
        let before = schema_core::pretty(&compact(&item.schema));
        let after = schema_core::pretty(after);
        let name = item.display_name();
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
        for line in unified(&diff_lines(&before, &after), args.context) {
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
    let total = applied.slots.len();
    out.push_str(&format!(
        "{changed} of {total} schema{} changed for {}\n",
        if total == 1 { "" } else { "s" },
        choice.name()
    ));
    emit(&out);
    Ok(EXIT_OK)
}

/// Compacts JSON text through the order-preserving model (so both sides print alike).
fn compact(text: &str) -> String {
    match schema_core::Schema::from_str(text) {
        Ok(s) => s.to_json_string(),
        Err(_) => text.to_owned(),
    }
}
