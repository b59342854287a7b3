//! The provider registry is the one home of every provider fact: walking
//! `provider_rules::PROVIDERS` proves each provider is known to the layer (its constructor),
//! `auto` (its APIs, hosts, model prefixes and vendors), the checker's error texts, the CLI
//! (`--provider`) and `toolschema providers`.

#[path = "fixtures/cli_util.rs"]
mod util;

use provider_rules::{PROVIDERS, Provider, Role, Rules, family};
use tower_toolschema::shapes::{Api, SHAPES};
use tower_toolschema::{Target, ToolSchemaLayer, auto_provider};
use util::*;

fn names(p: &Provider) -> (String, String, Option<String>) {
    (
        p.native.name().to_owned(),
        p.json_schema().name().to_owned(),
        p.strict.map(|r| r.name().to_owned()),
    )
}

#[test]
fn every_provider_has_a_layer_constructor_with_its_profiles() {
    for p in PROVIDERS {
        let layer = ToolSchemaLayer::for_provider(p.name).expect(p.name);
        let Target::Fixed(set) = layer.config().target() else {
            panic!("{}: not a fixed target", p.name)
        };
        let got = (
            set.native.name().to_owned(),
            set.json_schema.name().to_owned(),
            set.strict.as_ref().map(|s| s.name().to_owned()),
        );
        assert_eq!(got, names(p), "{}", p.name);
        // The profiles are the registry's own rules.
        assert_eq!(set.native.rules(), p.native, "{}", p.name);
    }
    assert!(ToolSchemaLayer::for_provider("gemnii").is_err());
}

#[test]
fn auto_reaches_every_provider_by_its_apis_hosts_models_and_vendors() {
    for p in PROVIDERS {
        for api in p.apis {
            let api = Api::from_name(api).unwrap_or_else(|| panic!("{}: no API {api}", p.name));
            assert_eq!(auto_provider(api, None, None).name, p.name, "{api}");
        }
        for host in p.hosts {
            for h in [host.to_string(), format!("api.{host}")] {
                let got = auto_provider(Api::OpenAiChat, Some("some-model"), Some(&h));
                assert_eq!(got.name, p.name, "host {h}");
            }
        }
        for model in p.models {
            let got = auto_provider(Api::OpenAiChat, Some(&format!("{model}-x")), None);
            assert_eq!(got.name, p.name, "model {model}-x");
        }
        for vendor in p.vendors {
            let got = auto_provider(Api::OpenAiChat, Some(&format!("{vendor}/x")), None);
            assert_eq!(got.name, p.name, "vendor {vendor}/x");
        }
    }
}

#[test]
fn every_api_of_the_shape_table_belongs_to_exactly_one_provider() {
    for shape in SHAPES {
        let owners: Vec<&str> = PROVIDERS
            .iter()
            .filter(|p| p.apis.contains(&shape.api.name()))
            .map(|p| p.name)
            .collect();
        assert_eq!(owners.len(), 1, "{}: {owners:?}", shape.api.name());
    }
}

#[test]
fn every_providers_error_texts_reach_the_checker_through_its_profiles() {
    for p in PROVIDERS {
        if p.errors.is_empty() {
            continue;
        }
        // The checker picks texts by the profile's family: the provider must own one of its
        // profiles, and a custom profile extending it gets the same texts.
        let owned: Vec<&Rules> = p
            .profiles()
            .map(|(_, r)| r)
            .filter(|r| family(r).is_some_and(|(f, _)| f.name == p.name))
            .collect();
        assert!(!owned.is_empty(), "{}: its texts are unreachable", p.name);
        for rules in owned {
            let corp = Rules::from_toml(&format!("extends = {:?}\nname = \"corp\"", rules.name()))
                .expect("a custom profile");
            let (f, _) = family(&corp).expect("a family");
            assert_eq!(f.name, p.name);
            for e in p.errors {
                for rule in e.rules {
                    assert_eq!(f.error_text(rule), Some(e.text), "{} {rule}", p.name);
                }
            }
        }
    }
}

#[test]
fn every_provider_is_in_toolschema_providers_and_takes_its_profiles_on_the_cli() {
    let o = run(&["providers"]);
    expect_code(&o, 0);
    let out = stdout(&o);
    let line_of = |name: &str| {
        out.lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("{name} not in `toolschema providers`:\n{out}"))
            .to_owned()
    };
    let schema =
        r#"{"type":"object","properties":{"q":{"type":["string","null"],"format":"uri"}}}"#;
    for p in PROVIDERS {
        let line = line_of(p.name);
        assert!(line.contains(p.description), "{line}");
        for (role, rules) in p.profiles() {
            let line = line_of(rules.name());
            // The profile's claims are its rules' (tests in provider-rules check them
            // against what sanitizing does).
            for t in rules.traits() {
                assert!(
                    line.contains(t),
                    "{}: {t} missing from {line}",
                    rules.name()
                );
            }
            if role == Role::Native {
                assert!(!line.contains("[strict]"), "{line}");
            }
        }
        let o = run_stdin(&["sanitize", "--provider", p.name, "-"], schema.as_bytes());
        expect_code(&o, 0);
        let sanitized: serde_json::Value =
            serde_json::from_str(&stdout(&o)).expect("sanitize prints JSON");
        let want = provider_rules::sanitize(
            &schema_core::Schema::from_str(schema).expect("schema"),
            p.native,
            provider_rules::Slot::Parameters,
        );
        assert_eq!(sanitized, want.schema.to_value(), "--provider {}", p.name);
    }
}
