//! Adversarial schemas, for every built-in profile and both slots: each test runs its work on a
//! thread with the default 2 MiB stack and fails if no answer comes within a generous bound
//! (a hang guard, not a timing assertion), and bounds the output's size where it could blow up.
//!
//! Invariants checked on each: no panic, `check_schema(sanitize(x))` empty unless the report
//! says not strict-compatible, idempotent.

mod common;
use common::nested;
use hang_guard::bounded;
use provider_rules::{PROFILES, Refs, Rules, Slot, check_schema, sanitize};
use schema_core::{ParseOptions, Schema};

/// Every profile × slot: the invariants; returns the largest output (serialized) seen.
fn invariants(name: &str, schema: &Schema) -> usize {
    let mut largest = 0;
    for rules in PROFILES {
        for slot in [Slot::Parameters, Slot::Schema] {
            let out = sanitize(schema, rules, slot);
            let text = out.schema.to_json_string();
            largest = largest.max(text.len());
            if out.report.strict_compatible {
                // Property keys needing renaming are reported in `unfixable`, not fixed.
                let v: Vec<_> = check_schema(&out.schema, rules, slot)
                    .into_iter()
                    .filter(|v| !out.report.is_unfixable(v))
                    .collect();
                assert!(
                    v.is_empty(),
                    "{name}: {} {slot:?}: check after sanitize: {}",
                    rules.name(),
                    v.iter()
                        .map(|x| x.to_string())
                        .collect::<Vec<_>>()
                        .join("; ")
                );
            }
            let again = sanitize(&out.schema, rules, slot);
            assert!(
                again.schema == out.schema,
                "{name}: {} {slot:?}: not idempotent",
                rules.name()
            );
            assert_eq!(
                out.report.is_empty(),
                out.schema == *schema,
                "{name}: {} {slot:?}: report vs change",
                rules.name()
            );
        }
    }
    largest
}

fn parse(text: &str) -> Schema {
    Schema::from_str(text).expect("parses")
}

#[test]
fn million_deep_nesting_in_a_schema() {
    bounded("million-deep", 60, || {
        const DEPTH: usize = 1_000_000;
        for (open, close) in [
            (r#"{"items":"#, "}"),
            (r#"{"properties":{"a":"#, "}}"),
            (r#"{"anyOf":["#, "]}"),
            (r#"{"not":"#, "}"),
        ] {
            let text = nested(open, close, DEPTH, "{}");
            // Cut at the depth limit and reported, never recursed on.
            let parsed = Schema::parse(text.as_bytes(), &ParseOptions::default()).expect("parses");
            assert!(
                !parsed.diagnostics.is_empty(),
                "{open}: the cut is reported"
            );
            let largest = invariants(open, &parsed.schema);
            assert!(largest < 64 * 1024, "{open}: output of {largest} bytes");
            drop(text);
            drop(parsed);
        }
    });
}

#[test]
fn million_deep_instance_values() {
    // `enum`, `const`, `default`, `examples` and unknown keywords are opaque instances: kept
    // verbatim, never walked as schemas; hints and checks must not recurse into them either.
    bounded("million-deep-instances", 60, || {
        const DEPTH: usize = 1_000_000;
        let deep = format!("{}{}", "[".repeat(DEPTH), "]".repeat(DEPTH));
        let deep_obj = format!("{}1{}", r#"{"a":"#.repeat(DEPTH), "}".repeat(DEPTH));
        for text in [
            format!(r#"{{"type":"object","properties":{{"x":{{"enum":[{deep},1]}}}}}}"#),
            format!(r#"{{"type":"object","properties":{{"x":{{"const":{deep_obj}}}}}}}"#),
            format!(r#"{{"type":"object","default":{deep},"examples":[{deep_obj}]}}"#),
            format!(r#"{{"type":"object","x-vendor":{deep}}}"#),
        ] {
            let schema = parse(&text);
            assert_eq!(schema.to_json_string(), text, "kept verbatim");
            invariants("deep-instance", &schema);
        }
    });
}

#[test]
fn ten_megabyte_enum() {
    // A hang detector, not a timing: the bound grows with the profiles it runs.
    bounded("10MB-enum", 20 * PROFILES.len() as u64, || {
        let values: Vec<String> = (0..1_000_000).map(|i| format!("\"v{i:07}\"")).collect();
        let text = format!(
            r#"{{"type":"object","properties":{{"e":{{"type":"string","enum":[{}]}},"n":{{"type":"integer","enum":[{}]}}}}}}"#,
            values.join(","),
            (0..1_000_000)
                .map(|i| i.to_string())
                .collect::<Vec<_>>()
                .join(",")
        );
        assert!(text.len() > 10_000_000);
        let schema = parse(&text);
        let largest = invariants("10MB-enum", &schema);
        // Folding an enum into a description must not multiply it.
        assert!(
            largest <= 2 * text.len() + 4096,
            "output of {largest} bytes for an input of {}",
            text.len()
        );
    });
}

/// `$defs` d0 → d1 → … → d(n-1) → d0, each through an object property (recursion a provider
/// without `$ref` cannot express) or directly (a cycle that means nothing).
fn ref_cycle(n: usize, through_object: bool) -> String {
    let defs: Vec<String> = (0..n)
        .map(|i| {
            let next = (i + 1) % n;
            if through_object {
                format!(
                    r##""d{i}":{{"type":"object","properties":{{"next":{{"$ref":"#/$defs/d{next}"}},"v{i}":{{"type":"string"}}}}}}"##
                )
            } else {
                format!(r##""d{i}":{{"$ref":"#/$defs/d{next}"}}"##)
            }
        })
        .collect();
    format!(
        r##"{{"type":"object","properties":{{"root":{{"$ref":"#/$defs/d0"}}}},"$defs":{{{}}}}}"##,
        defs.join(",")
    )
}

#[test]
fn ref_cycles_of_length_one_to_a_thousand() {
    bounded("ref-cycles", 120, || {
        for n in [1, 2, 3, 7, 64, 200, 1000] {
            for through in [false, true] {
                let text = ref_cycle(n, through);
                let schema = parse(&text);
                let largest = invariants(&format!("cycle {n} {through}"), &schema);
                assert!(
                    largest < 64 * text.len() + (1 << 20),
                    "cycle of {n}: output of {largest} bytes from {}",
                    text.len()
                );
            }
        }
    });
}

#[test]
fn forty_defs_each_referencing_the_previous_twice() {
    // Inlined naively this is 2^40 copies of d0: inlining must stop and keep or stub the ref,
    // with a report entry.
    bounded("ref-doubling", 120, || {
        let mut defs = vec![r#""d0":{"type":"string","description":"leaf"}"#.to_owned()];
        for i in 1..40 {
            defs.push(format!(
                r##""d{i}":{{"type":"object","properties":{{"a":{{"$ref":"#/$defs/d{p}"}},"b":{{"$ref":"#/$defs/d{p}"}}}}}}"##,
                p = i - 1
            ));
        }
        let text = format!(
            r##"{{"type":"object","properties":{{"x":{{"$ref":"#/$defs/d39"}}}},"$defs":{{{}}}}}"##,
            defs.join(",")
        );
        let schema = parse(&text);
        let largest = invariants("doubling", &schema);
        assert!(largest < 16 << 20, "output of {largest} bytes");
        for rules in PROFILES {
            let out = sanitize(&schema, rules, Slot::Parameters);
            let out_text = out.schema.to_json_string();
            if rules.refs != Refs::Keep && out_text.len() < text.len() * 4 {
                continue; // Fully inlined within bounds: nothing to report beyond the inlining.
            }
            if rules.refs != Refs::Keep {
                assert!(
                    out.report
                        .changes
                        .iter()
                        .any(|c| c.rule.as_str().contains("ref")),
                    "{}: refs inlined to {} bytes without a report entry",
                    rules.name(),
                    out_text.len()
                );
            }
        }
    });
}

#[test]
fn backtracking_catastrophic_patterns_are_only_copied() {
    // Nothing in schema-core or provider-rules compiles a `pattern`: no regex engine is a
    // dependency at all, so no backtracking engine can meet one. The patterns are copied
    // verbatim (or dropped / folded into the description by profiles that refuse `pattern`).
    for manifest in [
        include_str!("../Cargo.toml"),
        include_str!("../../schema-core/Cargo.toml"),
    ] {
        for engine in [
            "regex",
            "fancy-regex",
            "fancy_regex",
            "pcre2",
            "onig",
            "regress",
        ] {
            assert!(
                !manifest
                    .lines()
                    .any(|l| l.trim_start().starts_with(&format!("{engine} "))
                        || l.trim_start().starts_with(&format!("{engine}="))),
                "a regex engine ({engine}) became a dependency"
            );
        }
    }
    let patterns = [
        r"^(a+)+$",
        r"^(a|aa)+$",
        r"^(a|a?)+$",
        r"(.*a){25}",
        r"^(\w+\s?)*$",
        r"^([a-zA-Z0-9])(([\-.]|[_]+)?([a-zA-Z0-9]+))*(@){1}[a-z0-9]+[.]{1}(([a-z]{2,3})|([a-z]{2,3}[.]{1}[a-z]{2,3}))$",
        r"(?=a)*",
        r"\1(a)",
        r"[",
    ];
    bounded("patterns", 60, move || {
        for p in patterns {
            let mut text =
                String::from(r#"{"type":"object","properties":{"s":{"type":"string","pattern":"#);
            text.push_str(&serde_json::to_string(p).expect("string"));
            text.push_str("}}}");
            let schema = parse(&text);
            invariants(p, &schema);
            for rules in PROFILES {
                let out = sanitize(&schema, rules, Slot::Parameters).schema.to_value();
                let kept = &out["properties"]["s"]["pattern"];
                assert!(
                    kept.is_null() || kept == p,
                    "{}: pattern rewritten to {kept}",
                    rules.name()
                );
            }
        }
    });
}

/// Property names that need escaping in JSON (`"`, `\`, control characters), in JSON pointers
/// (`~`, `/`), that look like pointers or keywords, unicode, and the empty string.
const NAMES: &[&str] = &[
    "",
    "~",
    "/",
    "~0",
    "~1",
    "a/b~c",
    "\"",
    "\\",
    "\u{0}\u{1f}",
    "é",
    "日本",
    "😀",
    "#",
    "%25",
    "$ref",
    "properties",
    "required",
    " ",
];

#[test]
fn property_names_with_every_escape() {
    bounded("names", 60, || {
        let mut props = serde_json::Map::new();
        for (i, n) in NAMES.iter().enumerate() {
            let s = match i % 3 {
                0 => serde_json::json!({"type": ["string", "null"], "format": "uri"}),
                1 => {
                    serde_json::json!({"type": "object", "properties": {*n: {"const": 1}}, "additionalProperties": false})
                }
                _ => serde_json::json!({"anyOf": [{"type": "integer"}, {"type": "boolean"}]}),
            };
            props.insert((*n).to_owned(), s);
        }
        let v = serde_json::json!({"type": "object", "properties": props, "required": NAMES});
        let schema = Schema::from_value(&v);
        invariants("names", &schema);
        for rules in PROFILES {
            for slot in [Slot::Parameters, Slot::Schema] {
                let out = sanitize(&schema, rules, slot);
                let value = out.schema.to_value();
                // Names are kept (sorted compare: serde_json's map is not ordered here).
                let mut got: Vec<&String> = value["properties"]
                    .as_object()
                    .map(|m| m.keys().collect())
                    .unwrap_or_default();
                let mut want: Vec<String> = NAMES.iter().map(|s| (*s).to_owned()).collect();
                got.sort();
                want.sort();
                if !rules.property_named_properties {
                    continue; // Renames are the profile's business, and reported.
                }
                assert_eq!(got, want.iter().collect::<Vec<_>>(), "{}", rules.name());
                // Every reported pointer is a valid RFC 6901 pointer into the output.
                for c in &out.report.changes {
                    let parent = c.pointer.rsplit_once('/').map_or("", |(p, _)| p);
                    assert!(
                        value.pointer(&c.pointer).is_some() || value.pointer(parent).is_some(),
                        "{} {slot:?}: pointer {:?} ({}) not in the output",
                        rules.name(),
                        c.pointer,
                        c.rule
                    );
                }
            }
        }
    });
}

#[test]
fn a_schema_that_is_not_a_schema() {
    bounded("non-schemas", 30, || {
        for text in [
            r#""object""#,
            "3",
            "-0.5e-7",
            "null",
            "true",
            "false",
            "[]",
            r#"[{"type":"string"}]"#,
            "{}",
        ] {
            let schema = parse(text);
            invariants(text, &schema);
        }
    });
}

#[test]
fn custom_rules_never_panic_on_adversarial_input() {
    // A profile loaded from configuration, combining what no built-in profile combines
    // (Gemini's Schema proto with strict mode): no panic, no hang, bounded output. (Idempotence
    // is promised for the built-in profiles; this combination is not idempotent on a 5-cycle.)
    let rules = Rules {
        strict: true,
        ..Rules::GEMINI
    };
    bounded("custom", 60, move || {
        for text in [ref_cycle(5, true), ref_cycle(1, false)] {
            let schema = parse(&text);
            for slot in [Slot::Parameters, Slot::Schema] {
                let out = sanitize(&schema, &rules, slot);
                let again = sanitize(&out.schema, &rules, slot);
                let size = again.schema.to_json_string().len();
                assert!(size < 64 * text.len(), "{size} bytes from {text}");
            }
        }
    });
}
