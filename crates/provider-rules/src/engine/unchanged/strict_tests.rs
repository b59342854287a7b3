//! The proof on strict profiles: every note that a result is not strict-compatible has its
//! answer ([`notes::NOTES`]), each note the proof asks decides its answer where it is made,
//! and where the proof holds, its result is the engine's (strict compatibility included).

use super::notes::{Made, NOTES};
use super::*;
use crate::engine::Reads;
use crate::engine::proto_walk::test_support::sample_texts;
use crate::{PROFILES, SanitizeOptions};
use std::collections::BTreeMap;
use std::path::Path;

/// The call whose places the table lists (in two parts, so that this file holds none).
const CALL: &str = concat!(".not_", "strict(");

/// Every `.rs` file under `dir`: its path from `from` (with `/`) and its text.
fn sources(dir: &Path, from: &Path, out: &mut Vec<(String, String)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("the crate's sources")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            sources(&p, from, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            let name = p
                .strip_prefix(from)
                .expect("below the sources")
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            out.push((name, std::fs::read_to_string(&p).expect("a source file")));
        }
    }
}

/// Every call of `not_strict` in the crate's sources is in the table, once, with what it says
/// (a new note must say how the proof answers it).
#[test]
fn every_strict_note_has_its_answer() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &src, &mut files);
    let found: BTreeMap<&str, usize> = files
        .iter()
        .map(|(name, text)| (name.as_str(), text.matches(CALL).count()))
        .filter(|(_, n)| *n > 0)
        .collect();
    let mut listed: BTreeMap<&str, usize> = BTreeMap::new();
    for note in NOTES {
        let path = format!("engine/{}", note.file);
        let (name, text) = files
            .iter()
            .find(|(n, _)| *n == path)
            .unwrap_or_else(|| panic!("{path}: no such file"));
        assert!(text.contains(note.says), "{path}: {:?} not said", note.says);
        *listed.entry(name.as_str()).or_default() += 1;
        if let Made::Never(why) = note.made {
            assert!(!why.is_empty(), "{}", note.says);
        }
    }
    assert_eq!(found, listed);
}

/// Where each note the proof asks is made on a schema no step changes: what it says, the
/// profile, the slot, the schema.
const MADE: &[(&str, &str, Slot, &str)] = &[
    (
        "a schema without a type cannot be strict",
        "openai-strict",
        Slot::Parameters,
        r#"{"type":"object","properties":{"a":{"description":"anything"}},"required":["a"],"additionalProperties":false}"#,
    ),
    (
        "a schema without a type cannot be strict",
        "anthropic-strict",
        Slot::Schema,
        r#"{"description":"any value"}"#,
    ),
    (
        "over the limit",
        "azure-openai-strict",
        Slot::Parameters,
        r#"{"type":"object","properties":{"a":{"type":"object","properties":{"a":{"type":"object","properties":{"a":{"type":"object","properties":{"a":{"type":"object","properties":{"a":{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false}},"required":["a"],"additionalProperties":false}},"required":["a"],"additionalProperties":false}},"required":["a"],"additionalProperties":false}},"required":["a"],"additionalProperties":false}},"required":["a"],"additionalProperties":false}"#,
    ),
];

/// Each note the proof asks (of a node or of the tree) is what makes its answer: on a schema
/// no step changes where the engine makes it, the proof holds and says what the engine says,
/// not strict-compatible, and the same proof without that note would say the opposite. The
/// slice path's whole result on it is the engine's.
#[test]
fn a_strict_note_is_the_proofs_too() {
    for note in NOTES {
        if !matches!(note.made, Made::Never(_)) {
            assert!(
                MADE.iter().any(|m| m.0 == note.says),
                "{}: no example",
                note.says
            );
        }
    }
    let opts = SanitizeOptions::default();
    for (says, name, slot, text) in MADE {
        let rules = crate::profile(name).expect("built-in");
        let what = format!("{says}: {name} {slot:?} {text}");
        let read = crate::Read::parse(text.as_bytes(), rules).expect("json");
        let engine = read.sanitize(rules, *slot, &opts, Reads::Everything);
        assert!(engine.report.is_empty(), "{what}: {:?}", engine.report);
        assert!(!engine.report.strict_compatible, "{what}");
        assert_eq!(engine.schema.to_json_string(), *text, "{what}");
        assert!(
            engine
                .report
                .changes
                .iter()
                .all(|c| c.rule != crate::RuleId::StrictIncompatible),
            "{what}"
        );
        let tree = Schema::from_str(text).expect("json");
        assert_eq!(
            unchanged(&tree, rules, *slot),
            Some(Unchanged {
                strict_compatible: false
            }),
            "{what}"
        );
        // The proof for sanitize_into answers whether it changes, not the notes.
        assert!(cannot_change(&tree, rules, *slot), "{what}");
        let mut without = Proof::new(rules, *slot);
        let note = NOTES.iter().find(|n| n.says == *says).expect("listed");
        match note.made {
            Made::Node(f) => without.node_notes.retain(|g| !std::ptr::fn_addr_eq(*g, f)),
            Made::Tree(f) => without.tree_notes.retain(|g| !std::ptr::fn_addr_eq(*g, f)),
            Made::Never(_) => unreachable!("an asked note"),
        }
        assert_eq!(
            prove_with(&without, &tree, rules, *slot, true),
            Some(Unchanged {
                strict_compatible: true
            }),
            "{what}: the note decides nothing"
        );
        let fast = crate::sanitize_slice(text.as_bytes(), rules, *slot).expect("json");
        assert_eq!(fast.schema.to_json_string(), *text, "{what}");
        assert_eq!(fast.report, engine.report, "{what}");
        assert!(fast.decoder.is_identity(), "{what}");
    }
    // A node without a type, on every strict profile: the same answer as the engine's.
    let (_, _, _, text) = MADE[0];
    let tree = Schema::from_str(text).expect("json");
    for rules in PROFILES.iter().filter(|r| r.strict) {
        let engine = crate::engine::sanitize_with(tree.clone(), rules, Slot::Parameters, &opts);
        assert!(engine.report.is_empty(), "{}", rules.name);
        assert_eq!(
            unchanged(&tree, rules, Slot::Parameters),
            Some(Unchanged {
                strict_compatible: engine.report.strict_compatible
            }),
            "{}",
            rules.name
        );
        assert!(!engine.report.strict_compatible, "{}", rules.name);
    }
}

/// Over every sample, every profile, both slots: where the proof holds, the engine leaves the
/// schema as it is, with an empty report whose strict compatibility is the proof's, and the
/// slice path's whole result is the engine's, byte for byte. On each strict profile the proof
/// holds for most of the schemas the engine leaves as they are (at least one), and on some
/// the engine and the proof say they are not strict-compatible.
#[test]
fn strict_profiles_are_proven_with_the_engines_result() {
    let opts = SanitizeOptions::default();
    let texts = sample_texts();
    let mut noted = 0usize;
    for rules in PROFILES {
        for slot in [Slot::Parameters, Slot::Schema] {
            let (mut proven, mut same, mut not_strict) = (0usize, 0usize, 0usize);
            for t in &texts {
                let Ok(read) = crate::Read::parse(t.as_bytes(), rules) else {
                    continue;
                };
                let proof = read.unchanged(rules, slot);
                let fast = read.sanitized(rules, slot, &opts);
                let Ok(read) = crate::Read::parse(t.as_bytes(), rules) else {
                    continue;
                };
                let engine = read.sanitize(rules, slot, &opts, Reads::Everything);
                same += usize::from(engine.report.is_empty());
                let what = format!("{} {slot:?}: {t}", rules.name);
                assert_eq!(
                    fast.schema.to_json_string(),
                    engine.schema.to_json_string(),
                    "{what}"
                );
                assert_eq!(fast.report, engine.report, "{what}");
                let Some(u) = proof else { continue };
                proven += 1;
                assert!(engine.report.is_empty(), "{what}");
                assert_eq!(
                    u.strict_compatible, engine.report.strict_compatible,
                    "{what}"
                );
                not_strict += usize::from(!u.strict_compatible);
            }
            noted += not_strict;
            if rules.strict {
                eprintln!(
                    "strict proof {:<22} {slot:<10?} proven {proven:>4} of {same:>4} unchanged, {not_strict} not strict-compatible",
                    rules.name
                );
                assert!(proven > 0 && proven * 2 >= same, "{} {slot:?}", rules.name);
            }
        }
    }
    // The notes decide some of the corpora's answers (anthropic-strict's standalone schemas
    // without a type).
    assert!(noted > 0);
}
