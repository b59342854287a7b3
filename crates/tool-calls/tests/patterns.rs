//! Issue 19: `toolschema validate` treated a `pattern` the `regex` crate cannot compile
//! (look-around, back-references) as matched: `^(?=.*[0-9]).{8,}$` accepted `"abc"`. Such a
//! pattern is now evaluated by `fancy-regex` with a backtrack limit; one that cannot be
//! evaluated is reported as not checked, never as matched.
//!
//! `cargo test -p tool-calls --test patterns -- --nocapture` prints how the corpus's patterns
//! are evaluated.

use serde_json::{Value, json};
use std::path::Path;
use tool_calls::{ProblemKind, validate};

#[test]
fn look_ahead_password_rule_rejects_abc() {
    let schema = json!({"type": "object", "properties": {"password": {"type": "string", "pattern": "^(?=.*[0-9]).{8,}$"}}});
    let err = validate(&schema, &json!({"password": "abc"})).expect_err("abc breaks the rule");
    assert!(
        matches!(err.problems()[0].kind, ProblemKind::PatternMismatch { .. }),
        "{err}"
    );
    assert!(validate(&schema, &json!({"password": "abcdefg1"})).is_ok());
    // A back-reference.
    let schema = json!({"type": "string", "pattern": "^(\\w+)-\\1$"});
    assert!(validate(&schema, &json!("ab-ab")).is_ok());
    assert!(validate(&schema, &json!("ab-cd")).is_err());
}

#[test]
fn a_pattern_too_costly_to_evaluate_is_not_checked_not_matched() {
    let schema = json!({"type": "string", "pattern": "^(a+)+\\1x$"});
    let sent = format!("{}!", "a".repeat(40));
    let err = validate(&schema, &json!(sent)).expect_err("not taken as matched");
    assert!(
        matches!(
            err.problems()[0].kind,
            ProblemKind::PatternNotChecked { .. }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("could not be checked"), "{err}");
}

/// Every `pattern` string in the corpus (MCP servers and the JSON-Schema-Test-Suite): how many
/// the linear engine compiles, how many need backtracking, how many neither reads. Each must
/// be evaluated one way or the other, or be known ECMA-only syntax.
#[test]
fn corpus_patterns_are_evaluated() {
    fn collect(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::Object(m) => {
                for (k, x) in m {
                    if k == "pattern"
                        && let Value::String(s) = x
                    {
                        out.push(s.clone());
                    }
                    collect(x, out);
                }
            }
            Value::Array(a) => a.iter().for_each(|x| collect(x, out)),
            _ => {}
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/corpus");
    let mut patterns = Vec::new();
    let mut stack = vec![root];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).expect("dir").flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "json")
                && let Ok(v) = serde_json::from_slice::<Value>(&std::fs::read(&p).expect("read"))
            {
                collect(&v, &mut patterns);
            }
        }
    }
    patterns.sort();
    patterns.dedup();
    let linear = patterns
        .iter()
        .filter(|p| regex::Regex::new(p).is_ok())
        .count();
    let fancy: Vec<&String> = patterns
        .iter()
        .filter(|p| regex::Regex::new(p).is_err() && fancy_regex::Regex::new(p).is_ok())
        .collect();
    let neither: Vec<&String> = patterns
        .iter()
        .filter(|p| regex::Regex::new(p).is_err() && fancy_regex::Regex::new(p).is_err())
        .collect();
    println!(
        "{} distinct patterns: {linear} linear, {} backtracking ({fancy:?}), {} neither ({neither:?})",
        patterns.len(),
        fancy.len(),
        neither.len()
    );
    assert!(patterns.len() > 20);
    // What neither engine reads as written: ECMA-262 control escapes, which the validator
    // translates (`\cC` is U+0003).
    assert!(neither.iter().all(|p| p.contains("\\c")), "{neither:?}");
    let schema = json!({"type": "string", "pattern": "^\\cC$"});
    assert!(validate(&schema, &json!("\u{3}")).is_ok());
    assert!(validate(&schema, &json!("C")).is_err());
}
