//! The registry's own promises: every built-in profile is consistent, every claim a
//! profile's description makes (`Rules::traits`) is what sanitizing does, and a custom profile
//! keeps its provider's error texts through `extends`.

use provider_rules::{PROFILES, PROVIDERS, Rules, RulesError, Slot, check, family, sanitize};
use schema_core::Schema;
use serde_json::{Value, json};

/// For each claim: a probe schema, its slot, and what must hold of the sanitized output.
type Probe = (&'static str, Value, fn(&Value) -> bool);

fn anywhere(v: &Value, f: &dyn Fn(&serde_json::Map<String, Value>) -> bool) -> bool {
    match v {
        Value::Object(o) => f(o) || o.values().any(|c| anywhere(c, f)),
        Value::Array(a) => a.iter().any(|c| anywhere(c, f)),
        _ => false,
    }
}

fn probes() -> Vec<Probe> {
    vec![
        (
            "one type per node",
            json!({"type":"object","properties":{"a":{"type":["string","integer"]}}}),
            |out| !anywhere(out, &|o| o.get("type").is_some_and(Value::is_array)),
        ),
        (
            "nullable for null",
            json!({"type":"object","properties":{"a":{"type":["string","null"]}}}),
            |out| out["properties"]["a"]["nullable"] == json!(true),
        ),
        (
            "string-only enums",
            json!({"type":"object","properties":{"a":{"type":"integer","enum":[1,2]}}}),
            |out| {
                !anywhere(out, &|o| {
                    o.get("enum")
                        .and_then(Value::as_array)
                        .is_some_and(|e| e.iter().any(|x| !x.is_string()))
                })
            },
        ),
        (
            "a type on every node",
            json!({"type":"object","properties":{"a":{"description":"anything"}}}),
            |out| {
                let a = &out["properties"]["a"];
                a.get("type").is_some() || a.get("anyOf").is_some()
            },
        ),
        (
            "items on every array",
            json!({"type":"object","properties":{"a":{"type":"array"}}}),
            |out| out["properties"]["a"].get("items").is_some(),
        ),
        (
            "$ref inlined",
            json!({"type":"object","properties":{"a":{"$ref":"#/$defs/x"}},"$defs":{"x":{"type":"string"}}}),
            |out| !anywhere(out, &|o| o.contains_key("$ref")),
        ),
        (
            "recursive $ref kept",
            json!({"type":"object","properties":{"n":{"$ref":"#/$defs/node"}},"required":["n"],
                "$defs":{"node":{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#/$defs/node"}}},"required":["kids"]}}}),
            |out| out["$defs"]["node"]["properties"]["kids"]["items"]["$ref"] == "#/$defs/node",
        ),
        (
            "allOf merged",
            json!({"type":"object","properties":{"a":{"allOf":[{"type":"string"},{"minLength":1}]}}}),
            |out| !anywhere(out, &|o| o.contains_key("allOf")),
        ),
        (
            "unions collapsed to one branch",
            json!({"type":"object","properties":{"a":{"anyOf":[{"type":"string"},{"type":"integer"}]}}}),
            |out| !anywhere(out, &|o| o.contains_key("anyOf") || o.contains_key("oneOf")),
        ),
        (
            "anyOf standing alone",
            json!({"type":"object","properties":{"a":{"description":"d","anyOf":[{"type":"string"},{"type":"integer"}]}}}),
            |out| !anywhere(out, &|o| o.contains_key("anyOf") && o.len() > 1),
        ),
        (
            "additionalProperties dropped",
            json!({"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"string"}},"additionalProperties":false}}}),
            |out| !anywhere(out, &|o| o.contains_key("additionalProperties")),
        ),
        (
            "additionalProperties false on every object",
            json!({"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"string"}}}}}),
            |out| {
                !anywhere(out, &|o| {
                    o.get("type") == Some(&json!("object"))
                        && o.get("additionalProperties") != Some(&json!(false))
                })
            },
        ),
        (
            "every property required",
            json!({"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}},"required":["a"]}),
            |out| out["required"] == json!(["a", "b"]),
        ),
        (
            "properties on the root object",
            json!({"type":"object"}),
            |out| out.get("properties").is_some(),
        ),
        (
            "no root union",
            json!({"anyOf":[{"type":"object","properties":{"a":{"type":"string"}}},{"type":"object","properties":{"b":{"type":"string"}}}]}),
            |out| {
                ["anyOf", "oneOf", "allOf"]
                    .iter()
                    .all(|k| out.get(k).is_none())
            },
        ),
        (
            "draft 2020-12",
            json!({"type":"object","properties":{"a":{"type":"number","minimum":0,"exclusiveMinimum":true},"t":{"type":"array","items":[{"type":"string"}]}}}),
            |out| {
                !anywhere(out, &|o| {
                    o.get("exclusiveMinimum").is_some_and(Value::is_boolean)
                        || o.get("items").is_some_and(Value::is_array)
                })
            },
        ),
        (
            "unknown keywords dropped",
            json!({"type":"object","properties":{"a":{"type":"string","x-foo":1}}}),
            |out| !anywhere(out, &|o| o.contains_key("x-foo")),
        ),
    ]
}

#[test]
fn every_claim_of_every_profile_is_what_sanitizing_does() {
    let probes = probes();
    for rules in PROFILES {
        for claim in rules.traits() {
            let (_, input, holds) = probes
                .iter()
                .find(|(c, _, _)| *c == claim)
                .unwrap_or_else(|| panic!("no probe for the claim {claim:?}"));
            let out = sanitize(&Schema::from_value(input), rules, Slot::Parameters);
            let out = out.schema.to_value();
            assert!(
                holds(&out),
                "{}: claims {claim:?}, but gives {out}",
                rules.name()
            );
        }
    }
}

#[test]
fn every_builtin_profile_is_consistent_and_round_trips() {
    for rules in PROFILES {
        rules.validate().unwrap_or_else(|e| panic!("{e}"));
        let text = rules.to_toml().expect("TOML");
        assert_eq!(&Rules::from_toml(&text).expect("loads"), *rules);
        let (p, _) = family(rules).expect("every built-in has a provider");
        assert!(p.profiles().any(|(_, r)| r.name() == rules.name()));
    }
    for p in PROVIDERS {
        assert!(p.description.len() > 20, "{}", p.name);
    }
}

#[test]
fn contradictions_and_a_broken_any_value_are_errors() {
    for (toml, says) in [
        (
            "extends = \"gemini-code-assist\"\nunions = \"alone\"",
            "anyOf",
        ),
        (
            "extends = \"gemini\"\nnull-style = \"nullable\"\nkeywords = [\"type\"]",
            "nullable",
        ),
        (
            "extends = \"openai\"\nrefs = \"keep\"\nkeywords = [\"type\"]",
            "$ref",
        ),
        ("extends = \"openai\"\nstrict = true", "force-false"),
        ("extends = \"gemini\"\nany-value = \"[1,\"", "any-value"),
    ] {
        let err = Rules::from_toml(toml).unwrap_err();
        assert!(
            matches!(err, RulesError::Contradiction(..)),
            "{toml}: {err}"
        );
        assert!(err.to_string().contains(says), "{toml}: {err}");
    }
    // The fields that could contradict the keyword set are gone.
    for gone in ["all-of = \"merge\"", "unions = \"collapse\""] {
        assert!(
            Rules::from_toml(&format!("extends = \"gemini\"\n{gone}")).is_err(),
            "{gone}"
        );
    }
}

#[test]
fn a_custom_profile_extending_gemini_keeps_its_error_texts() {
    let corp = Rules::from_toml("extends = \"gemini\"\nname = \"corp\"").expect("loads");
    assert_eq!(corp.extends.as_deref(), Some("gemini"));
    let input = json!({"type":"object","properties":{"a":{"type":["string","integer"]}}});
    let found = check(&input, &corp, Slot::Parameters);
    let v = found
        .iter()
        .find(|v| v.rule == "type-list")
        .expect("a type list");
    assert_eq!(
        v.provider_error,
        Some("Proto field is not repeating, cannot start list.")
    );
    // ... and through a chain: a profile extending a dump of `corp`.
    let again = Rules::from_toml(&corp.to_toml().expect("TOML")).expect("loads");
    assert_eq!(again, corp);
    // A profile extending nothing has no provider, and no texts.
    let mut bare = Rules::GEMINI.clone();
    bare.name = "bare".into();
    assert!(family(&bare).is_none());
    assert!(
        check(&input, &bare, Slot::Parameters)
            .iter()
            .all(|v| v.provider_error.is_none())
    );
}
