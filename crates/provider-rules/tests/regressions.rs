//! Inputs the fuzz target `sanitize` (fuzz/fuzz_targets/sanitize.rs) found, minimized, each
//! with the invariants it broke: for every profile and slot, `check_schema(sanitize(x))` empty
//! (unless not strict-compatible), idempotent, report empty exactly when unchanged.

mod common;
use common::twice;
use provider_rules::{PROFILES, Rules, Slot, check_schema, sanitize};
use schema_core::Schema;

fn holds(text: &str) {
    let schema = Schema::from_str(text).expect("parses");
    let mut failures = Vec::new();
    for rules in PROFILES {
        for slot in [Slot::Parameters, Slot::Schema] {
            let out = sanitize(&schema, rules, slot);
            if out.report.strict_compatible {
                let v: Vec<_> = check_schema(&out.schema, rules, slot)
                    .into_iter()
                    .filter(|v| !out.report.is_unfixable(v))
                    .collect();
                if !v.is_empty() {
                    failures.push(format!(
                        "{} {slot:?}: check: {} → {}",
                        rules.name(),
                        v[0],
                        out.schema
                    ));
                }
            }
            let again = sanitize(&out.schema, rules, slot);
            if again.schema != out.schema {
                failures.push(format!(
                    "{} {slot:?}: not idempotent: {} → {}",
                    rules.name(),
                    out.schema,
                    again.schema
                ));
            }
            if out.report.is_empty() != (out.schema == schema) {
                failures.push(format!("{} {slot:?}: report vs change", rules.name()));
            }
        }
    }
    assert!(failures.is_empty(), "{text}\n{}", failures.join("\n"));
}

/// fuzz `sanitize`, crash-7389d965 (an MCP chart tool's `data` with `"type": "ctring"` and an
/// `enum`): the malformed type was ignored, the enum judged typeless (fine on Gemini), then
/// `type: array` inferred from `items` after it: Gemini refuses an enum on an array, and a
/// second pass moved it into the description.
#[test]
fn enum_on_a_node_whose_type_is_inferred_later() {
    holds(r#"{"type":"ctring","items":{"type":"object"},"enum":["a","b"]}"#);
    holds(
        r#"{"type":"object","properties":{"data":{"minItems":1,"type":"ctring","items":{"type":"object","properties":{"category":{"type":"string"}}},"enum":["default","academy","dark"]}}}"#,
    );
    holds(r#"{"items":{"type":"string"},"enum":["a"]}"#);
    holds(r#"{"properties":{"a":{}},"enum":["a"]}"#);
}

/// fuzz `sanitize`, crash-e6c63f9b (a JSON-Schema-Test-Suite `$dynamicRef` case, mutated so
/// that `anyOf` is an object): the malformed `anyOf` kept the type from being inferred (as if
/// it stood for the alternatives), then was dropped as malformed: Gemini got a schema without
/// `type`, and a second pass typed it.
#[test]
fn malformed_composition_does_not_stand_for_a_type() {
    holds(r#"{"anyOf":1}"#);
    holds(r#"{"oneOf":{"a":{}},"allOf":"x"}"#);
    holds(r#"{"$ref":"list","anyOf":{"a":{}}}"#);
    holds(r#"{"items":{},"anyOf":null,"enum":["a"]}"#);
}

/// fuzz `body`, 24 crashes (an MCP kubernetes tool with `"type": "[]ring"` on a property, sent
/// with `strict: true`): the malformed `type` counted as a type when judging strict mode, then
/// was dropped, so the result (`{}`, any value) was called strict-compatible; a second pass
/// said it was not, and the layer flipped `strict` to `false` on the second pass only.
#[test]
fn a_malformed_type_does_not_make_a_node_strict() {
    let text = r#"{"type":"object","properties":{"a":{"type":"[]ring"},"b":{"$ref":7},"c":{"type":"string"}},"required":["a"]}"#;
    holds(text);
    let schema = Schema::from_str(text).expect("parses");
    for name in ["openai-strict", "anthropic-strict"] {
        let rules = provider_rules::profile(name).expect("profile");
        let once = sanitize(&schema, rules, Slot::Parameters);
        let twice = sanitize(&once.schema, rules, Slot::Parameters);
        assert!(!once.report.strict_compatible, "{name}: {}", once.schema);
        assert_eq!(
            once.report.strict_compatible, twice.report.strict_compatible,
            "{name}"
        );
    }
}

/// Fuzz (sanitize target, anthropic): a root `allOf` of a `$ref` merged beside `properties` in a
/// document that reads as draft-07 (`definitions`) lost its `properties` on a second pass (a
/// draft-07 `$ref` ignores its siblings). The result now declares 2020-12.
#[test]
fn a_merged_ref_beside_properties_declares_2020_12_and_stays_put() {
    let input =
        r##"{"definitions":{"d":{}},"properties":{"a":{}},"allOf":[{"$ref":"#/definitions/d"}]}"##;
    let schema = Schema::from_str(input).unwrap();
    for rules in [&Rules::ANTHROPIC, &Rules::BEDROCK] {
        let once = twice(rules, Slot::Parameters, &schema);
        let v = once.schema.to_value();
        assert!(v["properties"].get("a").is_some(), "{}: {v}", rules.name());
        if rules.refs == provider_rules::Refs::Keep {
            // Anthropic keeps the ref; Bedrock inlines it (and needs no declaration).
            assert_eq!(v["$schema"], "https://json-schema.org/draft/2020-12/schema");
        }
    }
}

/// A root that is not a schema (`[1]`, `"x"`, `3`) was read as `{}` and, where `{}` needed no
/// change, went on as it was with an empty report, while `check` names it: sanitize's output
/// must pass check. Now it is replaced and reported as a lossy `root` change.
#[test]
fn a_non_schema_root_is_replaced_and_reported() {
    for text in ["[1]", "\"x\"", "3", "null"] {
        for rules in provider_rules::PROFILES {
            for slot in [Slot::Schema, Slot::Parameters] {
                let out = provider_rules::sanitize_slice(text.as_bytes(), rules, slot)
                    .expect("valid JSON");
                assert!(
                    out.report
                        .changes
                        .iter()
                        .any(|c| c.rule == "root" && c.lossy && c.pointer.is_empty()),
                    "{} {slot:?} {text}: {:?}",
                    rules.name(),
                    out.report.changes
                );
                let v = out.schema.to_value();
                assert!(v.is_object(), "{} {text}: {v}", rules.name());
                let found: Vec<_> = provider_rules::check(&v, rules, slot)
                    .into_iter()
                    .filter(|x| !out.report.is_unfixable(x))
                    .collect();
                assert!(
                    !out.report.strict_compatible || found.is_empty(),
                    "{} {slot:?} {text}: {found:?}",
                    rules.name()
                );
            }
        }
    }
}

/// Fuzz (sanitize target, xai): a node with both `$ref` and `$dynamicRef` that could not be
/// inlined lost only `$ref` on the first pass, so a second pass changed the output.
#[test]
fn every_reference_keyword_of_an_uninlined_node_goes_at_once() {
    let input = serde_json::json!({
        "$ref": "list",
        "$defs": {"list": {"$id": "list", "type": "array",
            "items": {"$dynamicRef": "#nowhere", "$ref": "missing)"}}}
    });
    for rules in PROFILES {
        twice(rules, Slot::Schema, &Schema::from_value(&input));
    }
}

/// Property test (`props.rs` at `PROPTEST_CASES=2000`; openai-strict, azure-openai-strict): a
/// recursive `$ref` with siblings (`"#"` beside a `description`, or an `allOf` member) was
/// inlined at its node, whose copy of the target held the same `$ref` with siblings, inlined
/// again, ... down to the walk's 1,024 levels: the later passes hung (CLI) or overflowed the
/// stack (a test thread). Such a schema's references are now inlined whole, recursion unrolled
/// once and described (as a schema whose references cannot be kept).
#[test]
fn a_recursive_ref_with_siblings_is_inlined_once_not_without_end() {
    for text in [
        r##"{"type":"object","properties":{"p":{"$ref":"#","description":"d"}}}"##,
        r##"{"type":"object","properties":{"p":{"$ref":"#","minLength":1}}}"##,
        r##"{"type":"object","properties":{"p":{"allOf":[{"$ref":"#"}]}}}"##,
        r##"{"$defs":{"n":{"type":"object","properties":{"p":{"$ref":"#/$defs/n","title":"t"}}}},"type":"object","properties":{"n":{"$ref":"#/$defs/n","description":"d"}}}"##,
        r##"{"additionalProperties":{"items":{"type":"array"},"minItems":2,"type":"array","uniqueItems":true},"properties":{"properties":{"allOf":[{"$ref":"#"},{"$ref":"#"}]}},"required":["$ref"],"type":"object"}"##,
    ] {
        hang_guard::bounded("recursive-ref-siblings", 120, move || holds(text));
    }
    let text = r##"{"type":"object","properties":{"p":{"$ref":"#","description":"d"}}}"##;
    let out = sanitize(
        &Schema::from_str(text).expect("parses"),
        &Rules::OPENAI_STRICT,
        Slot::Parameters,
    );
    // Unrolled a few levels, not a thousand: the result is small.
    let wire = out.schema.to_json_string();
    assert!(wire.len() < 2_000, "{} bytes: {wire}", wire.len());
    assert!(!out.report.strict_compatible, "{:?}", out.report.changes);
}

/// Fuzz (`batch`, crash-95f616f9, gemini-jsonschema, `Slot::Schema`): a root that is not a
/// schema (`"}?"`) is read as `{}`, which that slot keeps: the no-change proof held, so
/// `sanitize_into` said "unchanged" (the input bytes are the result) and the non-schema went
/// on, while `sanitize_slice` replaces it by `{}` and says so.
#[test]
fn a_root_that_is_not_a_schema_is_never_proven_unchanged() {
    for text in [r#""}?""#, "[1]", "3", "null", r#""x""#] {
        for rules in PROFILES {
            for slot in [Slot::Parameters, Slot::Schema] {
                let full =
                    provider_rules::sanitize_slice(text.as_bytes(), rules, slot).expect("JSON");
                assert!(!full.report.is_empty(), "{} {slot:?} {text}", rules.name());
                let mut out = String::new();
                let changed = provider_rules::sanitize_into(text.as_bytes(), rules, slot, &mut out)
                    .expect("JSON");
                assert!(
                    changed,
                    "{} {slot:?} {text}: proven unchanged",
                    rules.name()
                );
                assert_eq!(
                    out,
                    full.schema.to_json_string(),
                    "{} {slot:?}",
                    rules.name()
                );
            }
        }
    }
}
