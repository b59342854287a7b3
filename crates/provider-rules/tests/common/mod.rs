//! Shared assertions for the per-provider case files.
#![allow(dead_code)]

use provider_rules::{Rules, Sanitized, Slot, check, check_schema, sanitize};
use schema_core::Schema;
use serde_json::Value;

/// Sanitizes `input`, asserts the invariants every test shares (check-clean, idempotent,
/// deterministic) and returns the result.
pub fn run(rules: &Rules, slot: Slot, input: &Value) -> Sanitized {
    let schema = Schema::from_value(input);
    let out = sanitize(&schema, rules, slot);
    if out.report.strict_compatible {
        // Property keys needing renaming are reported in `unfixable`, not fixed.
        let v: Vec<_> = check_schema(&out.schema, rules, slot)
            .into_iter()
            .filter(|v| !out.report.is_unfixable(v))
            .collect();
        assert!(
            v.is_empty(),
            "{}: check(sanitize(x)) not empty: {v:?}\n out: {}",
            rules.name(),
            out.schema
        );
    }
    let again = sanitize(&out.schema, rules, slot);
    assert_eq!(again.schema, out.schema, "{}: not idempotent", rules.name());
    assert!(
        again.report.is_empty(),
        "{}: second run reported {:?}",
        rules.name(),
        again.report.changes
    );
    let det = sanitize(&schema, rules, slot);
    assert_eq!(
        det.schema,
        out.schema,
        "{}: not deterministic",
        rules.name()
    );
    out
}

/// `input` → exactly `expected`.
pub fn rewrites(rules: &Rules, slot: Slot, input: Value, expected: Value) -> Sanitized {
    let out = run(rules, slot, &input);
    assert_eq!(out.schema.to_value(), expected, "{}", rules.name());
    out
}

/// `check` on `input` names `rule` (with the provider's own text when `provider_error`).
pub fn rejects(rules: &Rules, slot: Slot, input: &Value, rule: &str, provider_error: bool) {
    let v = check(input, rules, slot);
    let hit = v.iter().find(|x| x.rule == rule);
    let hit = hit.unwrap_or_else(|| panic!("{}: check did not name {rule}: {v:?}", rules.name()));
    if provider_error {
        assert!(
            hit.provider_error.is_some(),
            "{}: no provider error for {rule}",
            rules.name()
        );
    }
}

/// The regression shape: `check` names the rule on the input, the output passes.
pub fn prevents(
    rules: &Rules,
    slot: Slot,
    input: Value,
    rule: &str,
    provider_error: bool,
) -> Sanitized {
    rejects(rules, slot, &input, rule, provider_error);
    run(rules, slot, &input)
}

/// `open` `depth` times, then `inner`, then `close` `depth` times: a schema nested that deep,
/// built without recursion.
pub fn nested(open: &str, close: &str, depth: usize, inner: &str) -> String {
    let mut text = String::with_capacity(depth * (open.len() + close.len()) + inner.len());
    for _ in 0..depth {
        text.push_str(open);
    }
    text.push_str(inner);
    for _ in 0..depth {
        text.push_str(close);
    }
    text
}

/// Sanitizes `schema` twice and asserts the second pass changes and reports nothing; returns
/// the first result.
pub fn twice(rules: &Rules, slot: Slot, schema: &Schema) -> Sanitized {
    let once = sanitize(schema, rules, slot);
    let again = sanitize(&once.schema, rules, slot);
    assert_eq!(
        again.schema,
        once.schema,
        "{}: not idempotent",
        rules.name()
    );
    assert!(
        again.report.is_empty(),
        "{}: second pass reported {:?}",
        rules.name(),
        again.report.changes
    );
    once
}
