//! Applying a profile to a [`Document`]: sanitizing its slots (spliced back into the original
//! text), checking them, and evaluating one slot against one profile (for `matrix`).

use super::error::CliError;
use super::input::{Document, Encoding, Item, Kind, raw_ranges, render_like, splice};
use super::profile::Choice;
use bytes::Bytes;
use provider_rules::{Rules, Slot, Violation, check_slice, check_tool_name, sanitize_slice};
use serde::Serialize;
use tower_toolschema::{Config, Target};

/// One change made to a slot, as reported.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChangeOut {
    /// JSON pointer inside the slot's schema.
    pub pointer: String,
    /// The rule that made the change.
    pub rule: String,
    /// What was done.
    pub message: String,
    /// Whether meaning was lost.
    pub lossy: bool,
}

/// What sanitizing did to one slot.
#[derive(Debug, Clone)]
pub struct SlotResult {
    /// Index into [`Document::items`].
    pub item: usize,
    /// The profile applied.
    pub profile: String,
    /// The changes made.
    pub changes: Vec<ChangeOut>,
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

/// A sanitized document: the output text and what was done to each slot.
#[derive(Debug, Clone)]
pub struct Applied {
    /// The document with its slots sanitized; byte-identical elsewhere.
    pub output: String,
    /// One result per slot, in document order.
    pub slots: Vec<SlotResult>,
}

fn changes_of(report: &provider_rules::Report) -> Vec<ChangeOut> {
    report
        .changes
        .iter()
        .map(|c| ChangeOut {
            pointer: c.pointer.clone(),
            rule: c.rule.to_owned(),
            message: c.message.clone(),
            lossy: c.lossy,
        })
        .collect()
}

/// Sanitizes one slot with `rules`: the result, and the new schema text when it changed. The
/// schema text is read by schema-core's streaming parser (any nesting depth; what it cuts at
/// its depth limit is in the report), as the layer does for request bodies.
pub fn sanitize_item(
    item: &Item,
    rules: &Rules,
) -> Result<(provider_rules::Sanitized, Option<String>), String> {
    let out = sanitize_slice(item.schema.as_bytes(), rules, item.slot)
        .map_err(|e| format!("not a readable schema: {e}"))?;
    let after = (!out.report.is_empty()).then(|| out.schema.to_json_string());
    Ok((out, after))
}

/// Sanitizes every slot of `doc` with `choice`.
pub fn apply(doc: &Document, choice: &Choice) -> Result<Applied, CliError> {
    if doc.kind == Kind::Body {
        return apply_body(doc, choice);
    }
    let rules = choice.rules();
    let text = &doc.source.text;
    let mut edits = Vec::new();
    let mut slots = Vec::new();
    for (i, item) in doc.items.iter().enumerate() {
        let mut result = SlotResult {
            item: i,
            profile: choice.name().to_owned(),
            changes: Vec::new(),
            strict_compatible: true,
            after: None,
            error: None,
            strict_downgraded: false,
        };
        match sanitize_item(item, rules) {
            Err(e) => result.error = Some(e),
            Ok((out, after)) => {
                result.changes = changes_of(&out.report);
                result.strict_compatible = out.report.strict_compatible;
                if let Some(after) = after
                    && !item.range.is_empty()
                {
                    edits.push((item.range.clone(), render_like(text, &item.range, &after)));
                    result.after = Some(after);
                }
            }
        }
        slots.push(result);
    }
    let output = if edits.is_empty() {
        text.clone()
    } else if doc.kind == Kind::Schema {
        // A lone schema: the whole output is the schema (pretty if the input was).
        let mut out = splice(text, edits);
        if text.ends_with('\n') && !out.ends_with('\n') {
            out.push('\n');
        }
        out
    } else {
        splice(text, edits)
    };
    Ok(Applied { output, slots })
}

/// The layer configuration that applies `choice` to request bodies.
pub fn body_config(choice: &Choice) -> Config {
    Config::new(Target::Fixed(choice.profiles()))
}

/// A request body: the layer's own sanitizer does it (only slots change).
fn apply_body(doc: &Document, choice: &Choice) -> Result<Applied, CliError> {
    let text = &doc.source.text;
    let (out, report) = tower_toolschema::sanitize_body(
        &body_config(choice),
        doc.api,
        Bytes::copy_from_slice(text.as_bytes()),
    );
    let output = String::from_utf8(out.to_vec()).map_err(|_| {
        CliError::usage(format!(
            "{}: the sanitized body is not UTF-8 (this is a bug; please report it)",
            doc.source.name
        ))
    })?;
    let mut slots = Vec::new();
    let pointers: Vec<&str> = doc.items.iter().map(|i| i.pointer.as_str()).collect();
    let after_ranges = raw_ranges(&output, &pointers);
    let by_pointer: std::collections::HashMap<&str, &tower_toolschema::report::SlotReport> = report
        .slots
        .iter()
        .map(|s| (s.pointer.as_str(), s))
        .collect();
    for (i, item) in doc.items.iter().enumerate() {
        let Some(slot) = by_pointer.get(item.pointer.as_str()).copied() else {
            continue;
        };
        let changes: Vec<ChangeOut> = slot
            .changes
            .iter()
            .map(|c| ChangeOut {
                pointer: c.pointer.clone(),
                rule: c.rule.to_owned(),
                message: c.message.clone(),
                lossy: c.lossy,
            })
            .collect();
        // Only strict profiles can make a schema strict-incompatible.
        let strict_compatible = !slot.strict_downgraded
            && choice
                .rules_named(&slot.profile)
                .filter(|r| r.strict)
                .and_then(|r| sanitize_item(item, r).ok())
                .is_none_or(|(s, _)| s.report.strict_compatible);
        let after = if changes.is_empty() {
            None
        } else {
            after_ranges[i].clone().and_then(|r| {
                let raw = output.get(r)?;
                match item.encoding {
                    Encoding::Json => Some(raw.to_owned()),
                    Encoding::JsonString => serde_json::from_str::<String>(raw).ok(),
                }
            })
        };
        slots.push(SlotResult {
            item: i,
            profile: slot.profile.clone(),
            changes,
            strict_compatible,
            after,
            error: slot.error.clone(),
            strict_downgraded: slot.strict_downgraded,
        });
    }
    Ok(Applied { output, slots })
}

/// Something the provider would reject, located in the document.
#[derive(Debug, Clone)]
pub struct Finding {
    /// Index into [`Document::items`].
    pub item: usize,
    /// The violation (its pointer is inside the slot's schema; `""` for a tool name).
    pub violation: Violation,
}

/// Checks a slot's schema text against `rules` (read by schema-core's streaming parser: any
/// nesting depth, no `serde_json::Value` and its 128-level limit).
pub fn check_item(item: &Item, rules: &Rules) -> Vec<Violation> {
    check_text(&item.schema, rules, item.slot)
}

/// Checks schema text against `rules`.
fn check_text(text: &str, rules: &Rules, slot: Slot) -> Vec<Violation> {
    match check_slice(text.as_bytes(), rules, slot) {
        Ok(found) => found,
        Err(e) => vec![Violation {
            pointer: String::new(),
            rule: "malformed",
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
    let mut out = Vec::new();
    if doc.kind == Kind::Body {
        // The profile per slot is the one the layer would apply (strict tools, JSON-Schema slots).
        let profiles = choice.profiles();
        let (_, report) = tower_toolschema::sanitize_body(
            &body_config(choice),
            doc.api,
            Bytes::copy_from_slice(doc.source.text.as_bytes()),
        );
        for (i, item) in doc.items.iter().enumerate() {
            let Some(slot) = report.slots.iter().find(|s| s.pointer == item.pointer) else {
                continue;
            };
            // A strict tool that had to be downgraded is rejected as sent.
            let name = match (&profiles.strict, slot.strict_downgraded) {
                (Some(strict), true) => strict.name().to_owned(),
                _ => slot.profile.clone(),
            };
            let rules = choice.rules_named(&name).unwrap_or(choice.rules());
            for violation in check_item(item, rules) {
                out.push(Finding { item: i, violation });
            }
            if let Some(v) = check_name(item, rules) {
                out.push(Finding {
                    item: i,
                    violation: v,
                });
            }
        }
        return Ok(out);
    }
    let rules = choice.rules();
    for (i, item) in doc.items.iter().enumerate() {
        if let Some(v) = check_name(item, rules) {
            out.push(Finding {
                item: i,
                violation: v,
            });
        }
        for violation in check_item(item, rules) {
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
    pub changes: Vec<ChangeOut>,
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

/// Evaluates one slot against `rules`.
pub fn evaluate(item: &Item, rules: &Rules) -> Eval {
    let name = check_name(item, rules);
    let mut before = check_item(item, rules);
    before.extend(name.clone());
    let mut eval = Eval {
        before,
        ..Eval::default()
    };
    match sanitize_item(item, rules) {
        Err(e) => {
            eval.after = eval.before.clone();
            eval.error = Some(e);
        }
        Ok((out, _)) => {
            eval.changes = changes_of(&out.report);
            eval.after = check_text(&out.schema.to_json_string(), rules, item.slot);
            eval.after.extend(name);
        }
    }
    eval
}
