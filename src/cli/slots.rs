//! What is done to a [`Document`]'s schema slots: sanitizing them (spliced back into the
//! original text), checking them, and evaluating one slot against one profile (for `matrix`).
//! A request body goes through tower-toolschema's own machinery ([`super::body`]).

use super::body;
use super::error::CliError;
use super::input::{Document, Item, Kind, render_like};
use super::profile::Choice;
use provider_rules::{
    Change, Rules, Slot, Violation, check_slice, check_tool_name, sanitize_slice_with,
};
use tower_toolschema::{Config, Target};

/// What sanitizing did to one slot.
#[derive(Debug, Clone)]
pub struct SlotResult {
    /// Index into [`Document::items`].
    pub item: usize,
    /// The profile applied.
    pub profile: String,
    /// The changes made.
    pub changes: Vec<Change>,
    /// Whether the result can be sent in strict mode without changing what it accepts.
    pub strict_compatible: bool,
    /// The sanitized schema's JSON text, when it changed.
    pub after: Option<String>,
    /// Why the slot could not be sanitized (it stays as it was).
    pub error: Option<String>,
    /// A request-body tool asked for strict mode, its schema cannot be made strict-compatible,
    /// so it is sent with `strict: false` under the non-strict profile.
    pub strict_downgraded: bool,
}

impl SlotResult {
    /// How many changes lost meaning.
    pub fn lossy(&self) -> usize {
        self.changes.iter().filter(|c| c.lossy).count()
    }
}

/// Where output goes, piece by piece.
type Write<'a> = &'a mut dyn FnMut(&str);

/// A sanitized document: the output text and what was done to each slot.
#[derive(Debug, Clone)]
pub struct Applied {
    /// The document with its slots sanitized; byte-identical elsewhere.
    pub output: String,
    /// One result per slot, in document order.
    pub slots: Vec<SlotResult>,
    /// The tool names renamed for the provider (request bodies, as the layer renames them).
    pub renames: Vec<tower_toolschema::report::Rename>,
}

/// Sanitizes one slot (of the document whose text is `text`) with `rules`: the result, and the
/// new schema text when it changed. The schema text is read by schema-core's streaming parser
/// (any nesting depth; what it cuts at its depth limit is in the report), as the layer does for
/// request bodies.
pub fn sanitize_item(
    text: &str,
    item: &Item,
    rules: &Rules,
) -> Result<(provider_rules::Sanitized, Option<String>), String> {
    sanitize_item_with(
        text,
        item,
        rules,
        &provider_rules::SanitizeOptions::default(),
    )
}

/// [`sanitize_item`] with options (`sanitize --encode`: the profile's encodings).
pub fn sanitize_item_with(
    text: &str,
    item: &Item,
    rules: &Rules,
    options: &provider_rules::SanitizeOptions,
) -> Result<(provider_rules::Sanitized, Option<String>), String> {
    let out = sanitize_slice_with(item.schema(text).as_bytes(), rules, item.slot, options)
        .map_err(unreadable)?;
    let after = (!out.report.is_empty()).then(|| out.schema.to_json_string());
    Ok((out, after))
}

/// The largest buffer kept for the next slot's text: a larger one (a rare large schema) is
/// freed, not held to the end beside everything else.
const REUSED: usize = 64 << 10;

/// Why a slot's schema could not be sanitized.
fn unreadable(e: impl std::fmt::Display) -> String {
    format!("not a readable schema: {e}")
}

/// Sanitizes every slot of `doc` with `choice`.
pub fn apply(doc: &Document, choice: &Choice) -> Result<Applied, CliError> {
    apply_with(doc, choice, &provider_rules::SanitizeOptions::default())
}

/// [`apply`] with options (`sanitize --encode`); a request body takes the layer's options.
pub fn apply_with(
    doc: &Document,
    choice: &Choice,
    options: &provider_rules::SanitizeOptions,
) -> Result<Applied, CliError> {
    if doc.kind == Kind::Body {
        return body::apply(doc, choice, options.encode);
    }
    let mut output = String::with_capacity(doc.source.text.len() + doc.source.text.len() / 8);
    let slots = write_applied(doc, choice, options, true, &mut |piece| {
        output.push_str(piece)
    });
    Ok(Applied {
        output,
        slots,
        renames: Vec::new(),
    })
}

/// [`apply_with`] for a document that is not a request body, its output handed to `write` in
/// pieces as the slots are sanitized (`sanitize` without `--report` writes them straight out:
/// the output is never held whole). `keep_after`: whether each [`SlotResult::after`] keeps the
/// sanitized schema's text (else it stays `None`).
pub fn write_applied(
    doc: &Document,
    choice: &Choice,
    options: &provider_rules::SanitizeOptions,
    keep_after: bool,
    write: &mut dyn FnMut(&str),
) -> Vec<SlotResult> {
    let rules = choice.rules();
    let text = &doc.source.text;
    // Slots in document order (items are in tool order, a tool's slots in slot order): the
    // output is written as they are sanitized, with no list of edits spliced in afterwards.
    let mut order: Vec<usize> = (0..doc.items.len()).collect();
    order.sort_by_key(|&i| doc.items[i].range.start);
    let mut results: Vec<Option<SlotResult>> = vec![None; doc.items.len()];
    let mut compact = String::new();
    let mut at = 0;
    let mut edited = false;
    // Whether the last non-empty piece written ended with a newline.
    let ends_with_newline = std::cell::Cell::new(false);
    let mut write = |piece: &str| {
        if !piece.is_empty() {
            ends_with_newline.set(piece.ends_with('\n'));
            write(piece);
        }
    };
    // Writes `text[at..range.start]`, then the new text as `new` writes it, each piece as it
    // comes (a pretty-printed slot is not gathered first); an edit overlapping the last is
    // dropped.
    let mut edit = |range: std::ops::Range<usize>, new: &mut dyn FnMut(Write<'_>)| {
        if range.start < at || range.end > text.len() {
            return;
        }
        write(&text[at..range.start]);
        new(&mut write);
        at = range.end;
        edited = true;
    };
    for i in order {
        let item = &doc.items[i];
        let mut result = SlotResult {
            item: i,
            profile: choice.name().to_owned(),
            changes: Vec::new(),
            strict_compatible: true,
            after: None,
            error: None,
            strict_downgraded: false,
        };
        match sanitize_slice_with(item.schema(text).as_bytes(), rules, item.slot, options) {
            Err(e) => result.error = Some(unreadable(e)),
            Ok(mut out) => {
                // A changed schema's text, in one buffer reused from slot to slot (unless it
                // is kept); the tree is dropped as soon as its text is made.
                let after = (!out.report.is_empty()).then(|| {
                    let mut buf = if keep_after {
                        String::new()
                    } else {
                        std::mem::take(&mut compact)
                    };
                    buf.clear();
                    out.schema.write_json(&mut buf);
                    buf
                });
                result.changes = std::mem::take(&mut out.report.changes);
                result.strict_compatible = out.report.strict_compatible;
                drop(out);
                if item.range.is_empty() {
                    // A tools/list entry without an `inputSchema` (issue 19): the schema it
                    // stands for goes in before the entry's closing brace.
                    if let Some(before) = item
                        .range
                        .start
                        .checked_sub(1)
                        .filter(|&i| text.as_bytes().get(i) == Some(&b'}'))
                    {
                        let schema = after.unwrap_or_else(|| item.schema(text).to_owned());
                        edit(before..before, &mut |w| {
                            w(",\"inputSchema\":");
                            w(&schema);
                        });
                        result.after = keep_after.then_some(schema);
                    }
                } else if let Some(after) = after {
                    edit(item.range.clone(), &mut |w| {
                        render_like(text, &item.range, &after, w)
                    });
                    if keep_after {
                        result.after = Some(after);
                    } else if after.capacity() <= REUSED {
                        compact = after;
                    }
                }
            }
        }
        results[i] = Some(result);
    }
    let rest = &text[at.min(text.len())..];
    write(rest);
    if edited && doc.kind == Kind::Schema && text.ends_with('\n') && !ends_with_newline.get() {
        // A lone schema: the whole output is the schema (pretty if the input was).
        write("\n");
    }
    results.into_iter().flatten().collect()
}

/// The layer configuration that applies `choice` to request bodies.
pub fn body_config(choice: &Choice) -> Config {
    Config::new(Target::Fixed(choice.profiles()))
}

/// [`body_config`], with the profiles' encodings where `encode` (`sanitize --encode`): the
/// slots are encoded and the history's earlier tool calls with them, as the layer does.
pub fn body_config_with(choice: &Choice, encode: bool) -> Config {
    if encode {
        tower_toolschema::ToolSchemaLayer::new(body_config(choice))
            .sanitizer(tower_toolschema::encoding::EncodingSanitizer)
            .config()
            .clone()
    } else {
        body_config(choice)
    }
}

/// Something the provider would reject, located in the document.
#[derive(Debug, Clone)]
pub struct Finding {
    /// Index into [`Document::items`].
    pub item: usize,
    /// The violation (its pointer is inside the slot's schema; `""` for a tool name).
    pub violation: Violation,
}

/// Checks a slot's schema text (of the document whose text is `text`) against `rules` (read by
/// schema-core's streaming parser: any nesting depth, no `serde_json::Value` and its 128-level
/// limit).
pub fn check_item(text: &str, item: &Item, rules: &Rules) -> Vec<Violation> {
    check_text(item.schema(text), rules, item.slot)
}

/// Checks schema text against `rules`.
fn check_text(text: &str, rules: &Rules, slot: Slot) -> Vec<Violation> {
    match check_slice(text.as_bytes(), rules, slot) {
        Ok(found) => found,
        Err(e) => vec![Violation {
            pointer: String::new(),
            rule: provider_rules::RuleId::Malformed,
            message: format!("the schema is not readable: {e}"),
            provider_error: None,
        }],
    }
}

/// Checks a tool's name, once per tool (on its parameters slot).
pub fn check_name(item: &Item, rules: &Rules) -> Option<Violation> {
    if item.slot != Slot::Parameters {
        return None;
    }
    check_tool_name(item.tool.as_deref()?, rules)
}

/// What the provider would reject in `doc`, slot by slot.
pub fn check_document(doc: &Document, choice: &Choice) -> Result<Vec<Finding>, CliError> {
    if doc.kind == Kind::Body {
        return body::check(doc, choice);
    }
    let mut out = Vec::new();
    let rules = choice.rules();
    let text = &doc.source.text;
    for (i, item) in doc.items.iter().enumerate() {
        if let Some(v) = check_name(item, rules) {
            out.push(Finding {
                item: i,
                violation: v,
            });
        }
        for violation in check_item(text, item, rules) {
            out.push(Finding { item: i, violation });
        }
    }
    Ok(out)
}

/// One slot against one profile: rejected as it stands? after sanitizing? what was lost?
#[derive(Debug, Clone, Default)]
pub struct Eval {
    /// What the provider would reject as it stands (tool name included).
    pub before: Vec<Violation>,
    /// The changes sanitizing makes.
    pub changes: Vec<Change>,
    /// What the provider would still reject after sanitizing.
    pub after: Vec<Violation>,
    /// Why the slot could not be sanitized.
    pub error: Option<String>,
}

impl Eval {
    /// How many changes lost meaning.
    pub fn lossy(&self) -> usize {
        self.changes.iter().filter(|c| c.lossy).count()
    }
}

/// Evaluates one slot (of the document whose text is `text`) against `rules`.
pub fn evaluate(text: &str, item: &Item, rules: &Rules) -> Eval {
    let name = check_name(item, rules);
    let mut before = check_item(text, item, rules);
    before.extend(name.clone());
    let mut eval = Eval {
        before,
        ..Eval::default()
    };
    match sanitize_item(text, item, rules) {
        Err(e) => {
            eval.after = eval.before.clone();
            eval.error = Some(e);
        }
        Ok((out, _)) => {
            eval.changes = out.report.changes.clone();
            eval.after = check_text(&out.schema.to_json_string(), rules, item.slot);
            eval.after.extend(name);
        }
    }
    eval
}
