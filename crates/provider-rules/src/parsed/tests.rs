//! The no-change shortcut gives what the engine gives.

use super::*;
use crate::PROFILES;
use crate::engine::proto_walk::test_support::sample_texts;

/// Every sample (the JSON-Schema-Test-Suite's and the MCP corpus's), every profile, both
/// slots: where the shortcut is taken, its result is the engine's (the schema, the whole
/// report, an identity decoder), and it is taken on a good share of them.
#[test]
fn the_shortcut_gives_what_the_engine_gives() {
    let options = SanitizeOptions::default();
    let (mut taken, mut asked) = (0usize, 0usize);
    for t in sample_texts() {
        for rules in PROFILES {
            for slot in [Slot::Parameters, Slot::Schema] {
                let (Ok(read), Ok(again)) = (
                    Read::parse(t.as_bytes(), rules),
                    Read::parse(t.as_bytes(), rules),
                ) else {
                    continue;
                };
                asked += 1;
                if !read.proven(rules, slot, &options) {
                    continue;
                }
                taken += 1;
                let short = read.sanitize(rules, slot, &options, engine::Reads::Everything);
                let full = again.engine(rules, slot, &options, engine::Reads::Everything);
                let at = format!("{} {slot:?}: {t}", rules.name);
                assert_eq!(short.schema, full.schema, "{at}");
                assert_eq!(short.report, full.report, "{at}");
                assert!(full.decoder.is_identity(), "{at}");
            }
        }
    }
    eprintln!("the shortcut taken on {taken} of {asked}");
    assert!(taken * 10 > asked, "{taken} of {asked}");
}

/// Encodings, strict profiles and a caller that reads only the schema go to the engine.
#[test]
fn the_shortcut_is_not_taken_where_it_does_not_answer() {
    let text = br#"{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}"#;
    let Ok(read) = Read::parse(text, &Rules::GEMINI) else {
        panic!("not JSON")
    };
    assert!(read.proven(
        &Rules::GEMINI,
        Slot::Parameters,
        &SanitizeOptions::default()
    ));
    assert!(!read.proven(&Rules::GEMINI, Slot::Parameters, &SanitizeOptions::ENCODE));
    let Ok(strict) = Read::parse(text, &Rules::OPENAI_STRICT) else {
        panic!("not JSON")
    };
    assert!(!strict.proven(
        &Rules::OPENAI_STRICT,
        Slot::Parameters,
        &SanitizeOptions::default()
    ));
}

/// A root that is not a schema (read as `{}`) is not proven: the result replaces it and says
/// so, in `sanitize_into` (`--ndjson`) too.
#[test]
fn a_root_that_is_not_a_schema_is_not_proven() {
    for text in ["[1]", "\"x\"", "3", "null"] {
        for rules in PROFILES {
            for slot in [Slot::Parameters, Slot::Schema] {
                let Ok(read) = Read::parse(text.as_bytes(), rules) else {
                    panic!("not JSON")
                };
                assert!(!read.cannot_change(rules, slot), "{text}");
                let mut out = String::new();
                let changed = crate::sanitize_into(text.as_bytes(), rules, slot, &mut out);
                assert!(
                    matches!(changed, Ok(true)),
                    "{} {slot:?} {text}",
                    rules.name
                );
            }
        }
    }
}
