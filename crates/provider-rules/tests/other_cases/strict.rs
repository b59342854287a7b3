//! Strict profiles: what is not `strict_compatible`, and what strict mode closes and keeps.

use crate::common::run;
use provider_rules::{Rules, Slot};
use serde_json::json;

#[test]
fn strict_open_map_is_not_strict_compatible__additional_properties_must_be_false() {
    for rules in [&Rules::OPENAI_STRICT, &Rules::ANTHROPIC_STRICT] {
        let out = run(
            rules,
            Slot::Parameters,
            &json!({"type": "object", "properties": {"m": {"type": "object", "additionalProperties": {"type": "string"}}}, "required": ["m"]}),
        );
        assert!(!out.report.strict_compatible, "{}", rules.name());
    }
}

#[test]
fn strict_free_form_object_is_not_strict_compatible() {
    let out = run(
        &Rules::OPENAI_STRICT,
        Slot::Parameters,
        &json!({"type": "object", "properties": {"o": {"type": "object"}}, "required": ["o"]}),
    );
    assert!(!out.report.strict_compatible);
}

#[test]
fn strict_untyped_array_is_not_strict_compatible() {
    // peers §3 #42 (PAI test_transformer_untyped_array_not_strict_compatible).
    let out = run(
        &Rules::OPENAI_STRICT,
        Slot::Parameters,
        &json!({"type": "object", "properties": {"a": {"type": "array"}}, "required": ["a"]}),
    );
    assert!(!out.report.strict_compatible);
    let out = run(
        &Rules::OPENAI_STRICT,
        Slot::Parameters,
        &json!({"type": "object", "properties": {"v": {}}, "required": ["v"]}),
    );
    assert!(!out.report.strict_compatible);
}

#[test]
fn strict_depth_and_size_over_limits_are_not_strict_compatible() {
    let mut deep = json!({"type": "string"});
    for _ in 0..12 {
        deep = json!({"type": "object", "properties": {"x": deep}, "required": ["x"], "additionalProperties": false});
    }
    assert!(
        !run(&Rules::OPENAI_STRICT, Slot::Parameters, &deep)
            .report
            .strict_compatible
    );
    let values: Vec<String> = (0..1001).map(|i| format!("v{i}")).collect();
    let big = json!({"type": "object", "properties": {"e": {"type": "string", "enum": values}}, "required": ["e"], "additionalProperties": false});
    assert!(
        !run(&Rules::OPENAI_STRICT, Slot::Parameters, &big)
            .report
            .strict_compatible
    );
}

#[test]
fn strict_recursion_is_kept_by_openai_strict_and_gives_anthropic_strict_up() {
    let input = json!({"type": "object", "properties": {"n": {"$ref": "#/$defs/N"}}, "required": ["n"],
        "$defs": {"N": {"type": "object", "properties": {"c": {"$ref": "#/$defs/N"}}, "required": ["c"]}}});
    // "Recursive schemas are supported" (OpenAI); "recursive schemas" are not (Anthropic).
    for (rules, strict) in [
        (&Rules::OPENAI_STRICT, true),
        (&Rules::ANTHROPIC_STRICT, false),
    ] {
        assert_eq!(
            run(rules, Slot::Parameters, &input)
                .report
                .strict_compatible,
            strict,
            "{}",
            rules.name()
        );
    }
}

#[test]
fn strict_response_format_with_a_scalar_root_is_not_strict_compatible() {
    assert!(
        !run(
            &Rules::OPENAI_STRICT,
            Slot::Schema,
            &json!({"type": "string"})
        )
        .report
        .strict_compatible
    );
}

#[test]
fn strict_bare_property_map_wrapped_then_closed__additional_properties_required() {
    let out = run(
        &Rules::OPENAI_STRICT,
        Slot::Parameters,
        &json!({"foo": {"type": "string", "required": true}}),
    );
    assert_eq!(
        out.schema.to_value(),
        json!({"type": "object", "properties": {"foo": {"type": "string"}}, "required": ["foo"], "additionalProperties": false})
    );
}
