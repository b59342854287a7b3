//! Soundness and precision of a profile over the cases: the tally and how it is read.

use crate::plain::*;
use crate::suite::*;
use jsonschema::Draft;
use provider_rules::{Rules, SanitizeOptions, Slot, sanitize_with};
use schema_core::Schema;

/// Minimum soundness per profile, in percent.
pub(crate) fn target(rules: &Rules) -> f64 {
    if rules.name() == "gemini-code-assist" {
        97.0
    } else {
        99.0
    }
}

#[derive(Default)]
pub(crate) struct Tally {
    pub(crate) schemas: usize,
    pub(crate) skipped: usize,
    pub(crate) not_strict: usize,
    pub(crate) counted: usize,
    pub(crate) kept: usize,
    pub(crate) rejected: usize,
    pub(crate) still_rejected: usize,
    pub(crate) exceptions: Vec<String>,
    /// Of the exceptions, those with no lossy change reported (or a result that does not
    /// compile).
    pub(crate) unreported: usize,
    /// Per suite file: (invalid instances, of which the result still accepts).
    pub(crate) escapes: std::collections::BTreeMap<String, (usize, usize)>,
    /// The invalid instances the result still accepts: case, instance, schema in and out.
    pub(crate) escaped: Vec<String>,
}

pub(crate) fn run(rules: &Rules, cases: &[Case], encode: bool) -> Tally {
    run_where(
        rules,
        cases,
        Reading {
            encode,
            closed: false,
        },
        |_| true,
    )
}

/// How a result is measured.
#[derive(Clone, Copy)]
pub(crate) struct Reading {
    /// Sanitized with the profile's encodings, instances encoded.
    pub(crate) encode: bool,
    /// The result's objects read as closed to undeclared properties ([`close_objects`]).
    pub(crate) closed: bool,
}

/// [`run`] over the cases `keep` accepts. With `encode`, the schema is sanitized with the
/// profile's encodings and each instance is encoded (`Decoder::encode_value`) before the
/// result validates it.
pub(crate) fn run_where(
    rules: &Rules,
    cases: &[Case],
    reading: Reading,
    keep: impl Fn(&Case) -> bool,
) -> Tally {
    let options = if reading.encode {
        SanitizeOptions::ENCODE
    } else {
        SanitizeOptions::default()
    };
    let mut t = Tally::default();
    for case in cases.iter().filter(|c| keep(c)) {
        if case.schema.to_string().contains("localhost:1234") {
            t.skipped += 1;
            continue;
        }
        let Some(original) = validator(&case.schema, case.draft) else {
            t.skipped += 1;
            continue;
        };
        t.schemas += 1;
        let input = Schema::from_value(&case.schema);
        let out = sanitize_with(&input, rules, Slot::Schema, &options);
        if rules.strict && !out.report.strict_compatible {
            t.not_strict += 1;
            continue;
        }
        let mut plain = to_plain(&out.schema.to_value());
        if reading.closed {
            plain = close_objects(&plain);
        }
        let draft = if rules.draft_2020 || case.draft == Draft::Draft202012 {
            Draft::Draft202012
        } else {
            case.draft
        };
        let result = validator(&plain, draft);
        let types = spoken_types(&case.schema);
        for (desc, data, valid) in &case.tests {
            if !speaks_of(&types, data) {
                continue;
            }
            let accepted = original.is_valid(data);
            let encoded = out.decoder.encode_value(data);
            let sent = if rules.strict {
                fill_nulls(&encoded, &plain)
            } else {
                encoded
            };
            let now = result.as_ref().is_some_and(|v| v.is_valid(&sent));
            if *valid && accepted {
                t.counted += 1;
                if now {
                    t.kept += 1;
                } else {
                    let why: Vec<String> = out
                        .report
                        .changes
                        .iter()
                        .filter(|c| c.lossy)
                        .map(|c| format!("{} [{}]: {}", c.pointer, c.rule, c.message))
                        .collect();
                    if result.is_none() || why.is_empty() {
                        t.unreported += 1;
                    }
                    t.exceptions.push(format!(
                        "{} / {desc}\n      instance: {data}\n      in:  {}\n      out: {}\n      why: {}",
                        case.name,
                        case.schema,
                        plain,
                        if result.is_none() {
                            "the result does not compile".to_owned()
                        } else if why.is_empty() {
                            "(no lossy change reported)".to_owned()
                        } else {
                            why.join("; ")
                        }
                    ));
                }
            } else if !accepted {
                t.rejected += 1;
                let e = t.escapes.entry(case.file.clone()).or_default();
                e.0 += 1;
                if !now && result.is_some() {
                    t.still_rejected += 1;
                } else {
                    e.1 += 1;
                    t.escaped.push(format!(
                        "{} / {desc}\n      instance: {data} (sent {sent})\n      in:  {}\n      out: {plain}",
                        case.name, case.schema
                    ));
                }
            }
        }
    }
    t
}

pub(crate) fn pct(a: usize, b: usize) -> f64 {
    if b == 0 {
        100.0
    } else {
        a as f64 * 100.0 / b as f64
    }
}
