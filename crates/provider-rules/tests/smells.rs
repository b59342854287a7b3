//! Issue 14's smells, each pinned by a test.

use provider_rules::{PROFILES, Rules, profile, profile_names};

/// `profile_names()` reads each built-in's own name (no fallback for a name a built-in never
/// has): every name is non-empty, unique, and leads back to its profile.
#[test]
fn profile_names_are_the_builtins_names_each_found_again() {
    let names: Vec<&str> = profile_names().collect();
    assert_eq!(names.len(), PROFILES.len());
    let mut seen = std::collections::HashSet::new();
    for (name, rules) in names.iter().zip(PROFILES) {
        assert!(!name.is_empty());
        assert!(seen.insert(*name), "{name} twice");
        assert_eq!(*name, rules.name());
        assert_eq!(profile(name).map(Rules::name), Some(*name));
    }
}

/// A profile's any-value schema is read when the profile is loaded: a bad one is an error
/// there, not dropped at every sanitize; every built-in's reads.
#[test]
fn any_value_that_is_not_a_schema_is_refused_at_load() {
    for r in PROFILES {
        r.validate().unwrap_or_else(|e| panic!("{}: {e}", r.name()));
        if let Some(text) = r.any_value.as_deref() {
            assert!(schema_core::Schema::from_str(text).is_ok(), "{}", r.name());
        }
    }
    let err = Rules::from_toml("extends = \"gemini\"\nany-value = \"[1, 2\"\n").unwrap_err();
    assert!(err.to_string().contains("any-value"), "{err}");
}

/// A mistyped built-in name is no profile (not a custom one with the portable rules).
#[test]
fn a_mistyped_profile_name_is_no_profile_and_extends_of_it_an_error() {
    assert!(profile("gemnii").is_none());
    assert!(Rules::from_toml("extends = \"gemnii\"\n").is_err());
}
