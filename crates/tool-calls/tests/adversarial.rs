//! Adversarial inputs for tool-call validation. Tool schemas come from third parties, and
//! `pattern` / `patternProperties` are the one place where validation runs a regex: patterns
//! that are catastrophic for backtracking engines (`^(a+)+$` against `aaaa…!`) must cost linear
//! time here (the `regex` crate is a finite-automaton engine, no backtracking). Each test runs on
//! a thread and fails if it gives no answer within a generous bound (a hang guard, not a timing
//! assertion).

use hang_guard::bounded;
use serde_json::{Value, json};

/// Patterns that take exponential time in a backtracking engine on a near-miss input.
const EVIL: &[&str] = &[
    r"^(a+)+$",
    r"^(a|aa)+$",
    r"^(a|a?)+$",
    r"^(.*a){25}$",
    r"^(\w+\s?)*$",
    r"^([a-zA-Z0-9])(([\-.]|[_]+)?([a-zA-Z0-9]+))*(@){1}[a-z0-9]+[.]{1}(([a-z]{2,3})|([a-z]{2,3}[.]{1}[a-z]{2,3}))$",
];

#[test]
fn catastrophic_patterns_validate_in_linear_time() {
    bounded("evil-patterns", 60, || {
        // 100,000 `a`s and a character that makes every pattern fail at the very end.
        let near_miss = format!("{}!", "a".repeat(100_000));
        for p in EVIL {
            let schema = json!({
                "type": "object",
                "properties": {"s": {"type": "string", "pattern": p}},
                "patternProperties": {*p: {"type": "string"}},
            });
            let args = json!({"s": near_miss, near_miss.clone(): 1});
            // Rejected (the pattern does not match) — and answered.
            let err = tool_calls::validate(&schema, &args).expect_err(p);
            assert!(!err.to_string().is_empty());
            // A matching value is accepted where the pattern can match `a…a`.
            if p.starts_with(r"^(a") {
                let ok = json!({"s": "a".repeat(100_000)});
                let schema = json!({"type": "object", "properties": {"s": {"type": "string", "pattern": p}}});
                tool_calls::validate(&schema, &ok).expect(p);
            }
        }
    });
}

#[test]
fn patterns_a_linear_engine_cannot_compile_do_not_panic() {
    // Backreferences and lookaround are refused by the `regex` crate: the validator must not
    // panic or fall back to a backtracking engine; whatever it decides, it answers.
    bounded("unsupported-patterns", 30, || {
        for p in [
            r"(a)\1",
            r"(?=a)a",
            r"(?<!b)a",
            "[",
            "(",
            r"\",
            "a{99999999}",
        ] {
            let schema =
                json!({"type": "object", "properties": {"s": {"type": "string", "pattern": p}}});
            let _ = tool_calls::validate(&schema, &json!({"s": "aa"}));
            let _ =
                tool_calls::validate(&json!({"patternProperties": {p: false}}), &json!({"aa": 1}));
        }
    });
}

#[test]
fn deepest_parsable_arguments_and_schemas() {
    // Arguments and schemas reach the validator as `serde_json::Value`s, which serde_json's
    // parser bounds at 128 levels (a hand-built 100,000-deep `Value` overflows the stack in
    // serde_json's own `Drop`): the deepest parsable ones validate, with bounded messages.
    bounded("deep", 60, || {
        let depth = 127;
        let deep: Value =
            serde_json::from_str(&format!("{}{}", "[".repeat(depth), "]".repeat(depth)))
                .expect("parses");
        let schema_text = format!(
            "{}{}{}",
            r#"{"type":"array","items":"#.repeat(depth / 2),
            r#"{"type":"string"}"#,
            "}".repeat(depth / 2)
        );
        let schema: Value = serde_json::from_str(&schema_text).expect("parses");
        for (s, a) in [
            (&schema, &deep),
            (&json!({"type": "object"}), &deep),
            (&schema, &json!([[1]])),
        ] {
            let err = tool_calls::validate(s, a).expect_err("invalid");
            assert!(err.to_string().len() < 64 * 1024);
        }
    });
}
