//! A whole LLM request body: its schema slots as the shape table locates them
//! ([`tower_toolschema::locate`]), sanitized and its refused tool names renamed as the layer
//! does ([`tower_toolschema::restore::prepare_request`], one splice; the slot reports carry each
//! sanitized schema), and checked against the profile the
//! layer's [`plan`](tower_toolschema::plan) gives each slot.

use super::error::CliError;
use super::input::{Document, Item, Kind};
use super::profile::Choice;
use super::read::Source;
use super::slots::{
    Applied, Finding, SlotResult, body_config, body_config_with, check_item, check_name,
};
use bytes::Bytes;
use std::collections::HashMap;
use tower_toolschema::locate::{LocateError, Located, locate};
use tower_toolschema::report::SlotReport;
use tower_toolschema::shapes::Api;
use tower_toolschema::{SlotPlan, plan};

/// What stands in for "cannot read the request body: ..." (the layer's words).
fn unreadable(source: &Source, e: &LocateError) -> CliError {
    let reason = match e {
        LocateError::Invalid(e) => e.clone(),
        other => other.to_string(),
    };
    CliError::usage(format!(
        "{}: cannot read the request body: {reason}",
        source.name
    ))
}

/// A request body: its slots, located by the shape table (`api`: the shape to use; `None`:
/// recognised by its shape).
pub fn document(source: Source, api: Option<Api>) -> Result<Document, CliError> {
    let located = locate(source.text.as_bytes(), api).map_err(|e| unreadable(&source, &e))?;
    let found_api = located.slots.first().map(|f| f.api);
    let mut items = Vec::new();
    let mut tools: Vec<String> = Vec::new();
    for found in &located.slots {
        let Some(range) = found.range(source.text.as_bytes()) else {
            continue;
        };
        // A JSON string holds the schema's text (Bedrock's structured output); any other
        // slot is read where it stands in the text.
        let raw = found.raw.get();
        let own = if raw.starts_with('"') {
            match serde_json::from_str::<String>(raw) {
                Ok(s) => Some(s),
                Err(_) => continue,
            }
        } else if source.text.get(range.clone()) == Some(raw) {
            None
        } else {
            Some(raw.to_owned())
        };
        let tool = found.tool();
        let key = tool.clone().unwrap_or_else(|| found.pointer.clone());
        let tool_index = match tools.iter().position(|t| *t == key) {
            Some(i) => i,
            None => {
                tools.push(key);
                tools.len() - 1
            }
        };
        items.push(Item {
            tool,
            tool_index,
            label: found
                .pointer
                .rsplit('/')
                .next()
                .unwrap_or("schema")
                .to_owned(),
            pointer: found.pointer.clone(),
            slot: found.spec.role.engine_slot(),
            range,
            own,
        });
    }
    Ok(Document {
        source,
        kind: Kind::Body,
        api: api.or(found_api),
        items,
    })
}

/// Sanitizes a request body with the layer's own machinery: only slots change (and with
/// `encode`, the history's earlier tool calls, encoded as the layer encodes them).
pub fn apply(doc: &Document, choice: &Choice, encode: bool) -> Result<Applied, CliError> {
    let text = &doc.source.text;
    // As the layer sends it: slots sanitized, refused tool names renamed.
    let (out, report, _) = tower_toolschema::restore::prepare_request(
        &body_config_with(choice, encode),
        doc.api,
        Bytes::copy_from_slice(text.as_bytes()),
    );
    let output = String::from_utf8(out.to_vec()).map_err(|_| {
        CliError::usage(format!(
            "{}: the sanitized body is not UTF-8 (this is a bug; please report it)",
            doc.source.name
        ))
    })?;
    let by_pointer: HashMap<&str, &SlotReport> = report
        .slots
        .iter()
        .map(|s| (s.pointer.as_str(), s))
        .collect();
    let mut slots = Vec::new();
    for (i, item) in doc.items.iter().enumerate() {
        let Some(slot) = by_pointer.get(item.pointer.as_str()).copied() else {
            continue;
        };
        // Only strict profiles can make a schema strict-incompatible; a downgraded tool is not
        // strict-compatible as it asked.
        let strict_rules = choice.rules_named(&slot.profile).is_some_and(|r| r.strict);
        let strict_compatible =
            !slot.strict_downgraded && (!strict_rules || slot.strict_compatible);
        let after = if slot.changes.is_empty() {
            None
        } else {
            slot.schema
                .as_ref()
                .and_then(|s| String::from_utf8(s.to_vec()).ok())
        };
        slots.push(SlotResult {
            item: i,
            profile: slot.profile.to_string(),
            changes: slot.changes.to_vec(),
            strict_compatible,
            after,
            error: slot.error.clone(),
            strict_downgraded: slot.strict_downgraded,
        });
    }
    Ok(Applied {
        output,
        slots,
        renames: report.renames,
    })
}

/// What the provider would reject in a request body: each slot against the profile the layer
/// plans for it (a strict tool against the strict profile, as it was asked for).
pub fn check(doc: &Document, choice: &Choice) -> Result<Vec<Finding>, CliError> {
    let located: Located<'_> =
        locate(doc.source.text.as_bytes(), doc.api).map_err(|e| unreadable(&doc.source, &e))?;
    let plans: Vec<SlotPlan> = plan(&body_config(choice), &located, None);
    let by_pointer: HashMap<&str, &SlotPlan> = located
        .slots
        .iter()
        .zip(&plans)
        .map(|(f, p)| (f.pointer.as_str(), p))
        .collect();
    let mut out = Vec::new();
    for (i, item) in doc.items.iter().enumerate() {
        let Some(plan) = by_pointer.get(item.pointer.as_str()) else {
            continue;
        };
        let rules = plan.profile.rules();
        for violation in check_item(&doc.source.text, item, rules) {
            out.push(Finding { item: i, violation });
        }
        if let Some(v) = check_name(item, rules) {
            out.push(Finding {
                item: i,
                violation: v,
            });
        }
    }
    Ok(out)
}

/// Items by index, for tests.
#[cfg(test)]
fn pointers(doc: &Document) -> Vec<&str> {
    doc.items.iter().map(|i| i.pointer.as_str()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str) -> Document {
        let source = Source {
            name: "t".into(),
            text: text.into(),
        };
        document(source, None).unwrap()
    }

    #[test]
    fn a_google_genai_python_body_has_its_slots() {
        // As google-genai 3.x for Python serializes `parameters_json_schema=`: camelCase lists,
        // the declaration dumped with its field names, `json.dumps` separators.
        let d = doc(
            r#"{"contents": [{"parts": [{"text": "hi"}], "role": "user"}], "tools": [{"functionDeclarations": [{"name": "f", "parameters_json_schema": {"type": ["string", "null"]}}]}], "generationConfig": {"responseJsonSchema": {"type": "object"}}}"#,
        );
        assert_eq!(d.api, Some(Api::Gemini));
        assert_eq!(
            pointers(&d),
            [
                "/tools/0/functionDeclarations/0/parameters_json_schema",
                "/generationConfig/responseJsonSchema"
            ]
        );
        assert_eq!(d.items[0].tool.as_deref(), Some("f"));
        // Read where it stands in the text, not copied.
        assert_eq!(d.items[0].own, None);
        assert_eq!(
            d.items[0].schema(&d.source.text),
            r#"{"type": ["string", "null"]}"#
        );
    }

    #[test]
    fn a_google_genai_python_body_is_checked_and_sanitized() {
        let d = doc(
            r#"{"contents": [], "tools": [{"functionDeclarations": [{"name": "f", "parameters_json_schema": {"type": "object", "properties": {"city": {"type": "string", "minLength": 1}}}}]}]}"#,
        );
        let choice = Choice::from_args(Some("gemini"), None).unwrap();
        let findings = check(&d, &choice).unwrap();
        assert!(
            findings
                .iter()
                .any(|f| f.item == 0 && f.violation.rule == "unsupported-keyword"),
            "{findings:?}"
        );
        let applied = apply(&d, &choice, false).unwrap();
        assert_eq!(applied.slots[0].profile, "gemini-jsonschema");
        let after = applied.slots[0].after.as_deref().unwrap();
        assert!(!after.contains("minLength") && applied.output.contains(after));
        assert!(applied.slots[0].strict_compatible);
    }
}
