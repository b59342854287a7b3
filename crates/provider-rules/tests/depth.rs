//! Schemas nested past the parser's depth limit (64 schema levels): the cut is reported (lossy,
//! rule `depth`) and hinted in the description, the output stays within the limit, passes
//! `check` for every profile, and a second pass is a no-op (peers.md §3 case #54).

mod common;
use common::nested;
use hang_guard::bounded;
use provider_rules::{
    PROFILES, Rules, Sanitized, Slot, check, check_slice, sanitize, sanitize_slice,
};
use schema_core::{DiagnosticKind, ParseOptions, Schema};

const HINT: &str = "Nested deeper than 64 levels; not described.";

/// `levels` objects, each holding the next as property `a`, around a string.
fn nested_objects(levels: usize) -> String {
    let mut text = String::with_capacity(levels * 48 + 20);
    for _ in 0..levels {
        text.push_str(r#"{"type":"object","properties":{"a":"#);
    }
    text.push_str(r#"{"type":"string"}"#);
    for _ in 0..levels {
        text.push_str("}}");
    }
    text
}

/// `levels` arrays, each the `items` of the one above, around a string.
fn nested_arrays(levels: usize) -> String {
    format!(
        "{}{}{}",
        r#"{"type":"array","items":"#.repeat(levels),
        r#"{"type":"string"}"#,
        "}".repeat(levels)
    )
}

/// Whether the parser (default options, as `check` uses) cuts something of `text`.
fn depth_cut(text: &str) -> bool {
    Schema::parse(text.as_bytes(), &ParseOptions::default())
        .expect("parses")
        .diagnostics
        .iter()
        .any(|d| matches!(d.kind, DiagnosticKind::DepthLimit { .. }))
}

/// The invariants for one profile and slot: the output passes `check` (unless the report says
/// it is not strict-compatible, or names the problem as unfixable), is within the depth limit,
/// and sanitizing it again (bytes or parsed) changes nothing. Returns the result.
fn invariants(name: &str, text: &str, rules: &Rules, slot: Slot) -> Sanitized {
    let out = sanitize_slice(text.as_bytes(), rules, slot).expect("valid JSON");
    let json = out.schema.to_json_string();
    let who = format!("{name}: {} {slot:?}", rules.name());
    assert!(
        !depth_cut(&json),
        "{who}: the output is deeper than the limit"
    );
    if out.report.strict_compatible {
        for found in [
            check(&out.schema.to_value(), rules, slot),
            check_slice(json.as_bytes(), rules, slot).expect("valid JSON"),
        ] {
            let v: Vec<_> = found
                .into_iter()
                .filter(|v| !out.report.is_unfixable(v))
                .collect();
            assert!(
                v.is_empty(),
                "{who}: check after sanitize: {}",
                v.iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join("; ")
            );
        }
    }
    let again = sanitize_slice(json.as_bytes(), rules, slot).expect("valid JSON");
    assert_eq!(again.schema, out.schema, "{who}: not idempotent");
    assert!(
        again.report.is_empty(),
        "{who}: second pass reported {:?}",
        again.report.changes
    );
    let parsed_again = sanitize(&out.schema, rules, slot);
    assert!(
        parsed_again.report.is_empty(),
        "{who}: sanitize(out) not a no-op"
    );
    let det = sanitize_slice(text.as_bytes(), rules, slot).expect("valid JSON");
    assert_eq!(det.schema, out.schema, "{who}: not deterministic");
    assert_eq!(det.report, out.report, "{who}: report not deterministic");
    out
}

/// The lossy depth changes of a report.
fn depth_changes(out: &Sanitized) -> Vec<&provider_rules::Change> {
    out.report
        .changes
        .iter()
        .filter(|c| c.rule == "depth")
        .collect()
}

#[test]
fn seventy_levels_are_cut_reported_and_hinted_for_every_profile() {
    let text = nested_objects(70);
    for rules in PROFILES {
        for slot in [Slot::Parameters, Slot::Schema] {
            let out = invariants("70 levels", &text, rules, slot);
            let who = format!("{} {slot:?}", rules.name());
            let cuts = depth_changes(&out);
            assert_eq!(cuts.len(), 1, "{who}: {:?}", out.report.changes);
            let cut = cuts[0];
            assert!(cut.lossy, "{who}");
            assert!(cut.message.contains("64"), "{who}: {}", cut.message);
            // At a level of the chain, and the output has a node there.
            let levels = cut.pointer.matches("/properties/a").count();
            assert_eq!(cut.pointer, "/properties/a".repeat(levels), "{who}");
            assert!((50..=65).contains(&levels), "{who}: cut at level {levels}");
            let value = out.schema.to_value();
            let node = value.pointer(&cut.pointer);
            assert!(node.is_some(), "{who}: nothing at {}", cut.pointer);
            if rules.hints {
                let node_text = node.map(|n| n.to_string()).unwrap_or_default();
                assert!(node_text.contains(HINT), "{who}: no hint in {node_text}");
            }
        }
    }
}

#[test]
fn the_cut_sits_where_the_profile_rewrite_fits() {
    let text = nested_objects(70);
    // OpenAI keeps `{}`: the deepest level kept holds the hint.
    let out = sanitize_slice(text.as_bytes(), &Rules::OPENAI, Slot::Parameters).expect("json");
    let cut = depth_changes(&out)[0];
    assert_eq!(cut.pointer, "/properties/a".repeat(64));
    let value = out.schema.to_value();
    assert_eq!(
        value.pointer(&cut.pointer),
        Some(&serde_json::json!({"description": HINT}))
    );
    // Gemini types an any-value as 6 levels of alternatives: the cut moves up by 6.
    let out = sanitize_slice(text.as_bytes(), &Rules::GEMINI, Slot::Parameters).expect("json");
    let cut = depth_changes(&out)[0];
    assert_eq!(cut.pointer, "/properties/a".repeat(58));
    let value = out.schema.to_value();
    let node = value.pointer(&cut.pointer).expect("node");
    assert_eq!(node["description"], HINT);
    assert!(node.get("anyOf").is_some(), "{node}");
}

#[test]
fn a_description_at_the_cut_is_kept() {
    // The node replaced by the stand-in had a description: it stays, with the hint after it.
    let mut text = String::from(r#"{"type":"string"}"#);
    for i in (0..70).rev() {
        text = format!(
            r#"{{"type":"object","description":"Level {i}.","properties":{{"a":{text}}}}}"#
        );
    }
    let out = sanitize_slice(text.as_bytes(), &Rules::OPENAI, Slot::Parameters).expect("json");
    let value = out.schema.to_value();
    let node = value.pointer(&"/properties/a".repeat(64)).expect("node");
    assert_eq!(node["description"], format!("Level 64. ({HINT})"), "{node}");
}

#[test]
fn within_the_limit_nothing_is_cut() {
    for text in [nested_objects(60), nested_arrays(60)] {
        for rules in PROFILES {
            for slot in [Slot::Parameters, Slot::Schema] {
                let out = invariants("60 levels", &text, rules, slot);
                assert!(
                    depth_changes(&out).is_empty(),
                    "{} {slot:?}: {:?}",
                    rules.name(),
                    out.report.changes
                );
            }
        }
    }
}

/// A schema the parser keeps whole, with its deepest node at the limit: a profile that
/// changes nothing in it leaves it as it is (the cap, skipped where nothing changed, has
/// nothing to cut), and one whose rewriting grows levels below the limit is still capped.
#[test]
fn a_whole_parse_at_the_limit_is_capped_only_where_the_engine_grew_it() {
    let text = nested_objects(64);
    assert!(!depth_cut(&text));
    for rules in PROFILES {
        for slot in [Slot::Parameters, Slot::Schema] {
            let out = invariants("64 levels", &text, rules, slot);
            assert!(depth_changes(&out).is_empty(), "{}", rules.name());
        }
    }
    let out = sanitize_slice(text.as_bytes(), &Rules::OPENAI, Slot::Parameters).expect("json");
    assert!(out.report.is_empty(), "{:?}", out.report.changes);
    // `{}` at level 64: Gemini types an any-value as 6 levels of alternatives, past the limit.
    let grown = text.replacen(r#"{"type":"string"}"#, "{}", 1);
    assert!(!depth_cut(&grown));
    let out = invariants(
        "64 levels, any value",
        &grown,
        &Rules::GEMINI,
        Slot::Parameters,
    );
    assert_eq!(depth_changes(&out).len(), 1, "{:?}", out.report.changes);
}

#[test]
fn every_deep_shape_keeps_the_invariants() {
    let any_of = format!(
        "{}{}{}",
        r#"{"anyOf":[{"type":"null"},"#.repeat(70),
        r#"{"type":"string"}"#,
        "]}".repeat(70)
    );
    let all_of = format!(
        "{}{}{}",
        r#"{"allOf":[{"description":"x"},"#.repeat(70),
        r#"{"type":"string"}"#,
        "]}".repeat(70)
    );
    let type_lists = format!(
        "{}{}{}",
        r#"{"type":["object","null"],"properties":{"a":"#.repeat(70),
        r#"{"type":["string","integer"]}"#,
        "}}".repeat(70)
    );
    // Within the limit as written, but rewritten deeper: a type list split into alternatives
    // at the deepest level kept, typeless leaves that become any-values.
    let grows = format!(
        "{}{}{}",
        r#"{"type":"object","properties":{"a":"#.repeat(63),
        r#"{"type":["string","integer","null"]}"#,
        "}}".repeat(63)
    );
    let typeless = format!(
        "{}{}{}",
        r#"{"type":"object","properties":{"a":"#.repeat(64),
        r#"{"description":"anything"}"#,
        "}}".repeat(64)
    );
    // `$ref`s inlined into a chain longer than the limit.
    let mut defs = Vec::new();
    for i in 0..70 {
        defs.push(format!(
            r##""d{i}":{{"type":"object","properties":{{"n":{{"$ref":"#/$defs/d{}"}}}}}}"##,
            i + 1
        ));
    }
    defs.push(r#""d70":{"type":"string"}"#.to_owned());
    let refs = format!(
        r##"{{"type":"object","properties":{{"root":{{"$ref":"#/$defs/d0"}}}},"$defs":{{{}}}}}"##,
        defs.join(",")
    );
    // Wide: many siblings cut at once.
    let wide_leaf = format!(
        r#"{{"type":"object","properties":{{{}}}}}"#,
        (0..500)
            .map(|i| format!(r#""p{i}":{}"#, nested_objects(3)))
            .collect::<Vec<_>>()
            .join(",")
    );
    let wide = format!(
        "{}{}{}",
        r#"{"type":"object","properties":{"a":"#.repeat(62),
        wide_leaf,
        "}}".repeat(62)
    );
    for (name, text) in [
        ("objects", nested_objects(200)),
        ("arrays", nested_arrays(200)),
        ("anyOf", any_of),
        ("allOf", all_of),
        ("type lists", type_lists),
        ("grows", grows),
        ("typeless", typeless),
        ("refs", refs),
        ("wide", wide),
    ] {
        for rules in PROFILES {
            for slot in [Slot::Parameters, Slot::Schema] {
                let out = invariants(name, &text, rules, slot);
                // Whatever went past the limit is reported as lost.
                if depth_cut(&text) {
                    assert!(
                        depth_changes(&out).iter().all(|c| c.lossy)
                            && !depth_changes(&out).is_empty(),
                        "{name}: {} {slot:?}: the cut is not reported",
                        rules.name()
                    );
                }
            }
        }
    }
}

#[test]
fn a_million_levels_are_cut_without_recursion() {
    bounded("million-deep-slice", 120, || {
        const DEPTH: usize = 1_000_000;
        for (open, close) in [
            (r#"{"items":"#, "}"),
            (r#"{"type":"object","properties":{"a":"#, "}}"),
            (r#"{"anyOf":["#, "]}"),
        ] {
            let text = nested(open, close, DEPTH, "{}");
            for rules in [&Rules::GEMINI, &Rules::OPENAI, &Rules::ANTHROPIC] {
                let out = sanitize_slice(text.as_bytes(), rules, Slot::Schema).expect("json");
                assert!(!depth_changes(&out).is_empty(), "{open}: not reported");
                assert!(out.schema.to_json_string().len() < 64 * 1024);
                let found = check_slice(text.as_bytes(), rules, Slot::Schema).expect("json");
                assert!(found.iter().any(|v| v.rule == "depth"), "{open}");
            }
        }
    });
}

#[test]
fn invalid_json_is_an_error_not_a_panic() {
    for text in ["", "{", r#"{"type": }"#, "[1,", "\u{0}"] {
        assert!(sanitize_slice(text.as_bytes(), &Rules::GEMINI, Slot::Parameters).is_err());
        assert!(check_slice(text.as_bytes(), &Rules::GEMINI, Slot::Parameters).is_err());
    }
}

#[test]
fn check_reads_deep_bytes_and_names_only_the_cut() {
    let text = nested_objects(70);
    let at = "/properties/a".repeat(65);
    for rules in PROFILES {
        for slot in [Slot::Parameters, Slot::Schema] {
            let found = check_slice(text.as_bytes(), rules, slot).expect("valid JSON");
            let here: Vec<_> = found.iter().filter(|v| v.pointer == at).collect();
            assert_eq!(here.len(), 1, "{} {slot:?}: {here:?}", rules.name());
            assert_eq!(here[0].rule, "depth");
            assert!(here[0].message.contains("64"), "{}", here[0].message);
        }
    }
    let found = check_slice(text.as_bytes(), &Rules::GEMINI, Slot::Parameters).expect("json");
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(
        found[0].provider_error,
        Some("maximum schema depth exceeded")
    );
}
