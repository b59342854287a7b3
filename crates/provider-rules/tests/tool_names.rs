//! Tool-name rules per provider and the `ToolNames` mapper.
// Test names read `behaviour__provider_error_it_prevents`.
#![allow(non_snake_case)]

use provider_rules::{Rules, ToolNames, check_tool_name};

#[test]
fn each_provider_rule__invalid_function_name() {
    // G16: Gemini wants a letter or underscore first, allows dots and colons, 64 at most.
    assert!(Rules::GEMINI.tool_names.accepts("_a.b:c-d"));
    assert!(!Rules::GEMINI.tool_names.accepts("1password"));
    assert!(!Rules::GEMINI.tool_names.accepts(&"a".repeat(65)));
    // O9: OpenAI `^[a-zA-Z0-9_-]+$`, 64.
    assert!(Rules::OPENAI.tool_names.accepts("1get-weather_x"));
    assert!(!Rules::OPENAI.tool_names.accepts("tool.with.dot"));
    assert!(!Rules::OPENAI.tool_names.accepts(&"a".repeat(65)));
    // A4: Anthropic 128.
    assert!(Rules::ANTHROPIC.tool_names.accepts(&"a".repeat(128)));
    assert!(!Rules::ANTHROPIC.tool_names.accepts(&"a".repeat(129)));
    // B2: Bedrock 64.
    assert!(!Rules::BEDROCK.tool_names.accepts(&"a".repeat(65)));
    assert!(!Rules::BEDROCK.tool_names.accepts("get weather"));
    assert!(!Rules::GEMINI.tool_names.accepts(""));
    assert_eq!(
        check_tool_name("get weather", &Rules::OPENAI).map(|v| v.rule.as_str()),
        Some("tool-name")
    );
}

#[test]
fn mapper_replaces_invalid_characters_and_maps_back() {
    // peers §3 #49.
    let mut n = ToolNames::new(&Rules::OPENAI);
    let m = n.map("kontext__tool.with.dot");
    assert_eq!(m, "kontext__tool_with_dot");
    assert_eq!(n.original(&m), Some("kontext__tool.with.dot"));
}

#[test]
fn mapper_fixes_a_leading_digit_for_gemini() {
    // peers §3 #48.
    let mut n = ToolNames::new(&Rules::GEMINI);
    assert_eq!(n.map("1password__get item"), "_1password__get_item");
}

#[test]
fn mapper_shortens_long_names_with_a_stable_hash_suffix() {
    let long = "x".repeat(100);
    let a = ToolNames::new(&Rules::BEDROCK).map(&long);
    let b = ToolNames::new(&Rules::BEDROCK).map(&long);
    assert_eq!(a, b, "stable across mappers");
    assert!(
        a.chars().count() <= 64 && Rules::BEDROCK.tool_names.accepts(&a),
        "{a}"
    );
    let mut n = ToolNames::new(&Rules::BEDROCK);
    let x = n.map(&format!("{long}1"));
    let y = n.map(&format!("{long}2"));
    assert_ne!(x, y);
    assert_eq!(n.original(&y), Some(format!("{long}2").as_str()));
}

#[test]
fn mapper_resolves_collisions_and_is_idempotent_per_name() {
    let mut n = ToolNames::new(&Rules::OPENAI);
    let a = n.map("a.b");
    let b = n.map("a b");
    assert_ne!(a, b);
    assert!(Rules::OPENAI.tool_names.accepts(&b));
    assert_eq!(n.map("a.b"), a);
    assert_eq!(n.original(&b), Some("a b"));
}

#[test]
fn mapper_names_pass_every_profile_rule() {
    for rules in provider_rules::PROFILES {
        let mut n = ToolNames::new(rules);
        for name in ["", "9 lives", "ünïcödé", "a/b/c", &"z".repeat(300)] {
            let m = n.map(name);
            assert!(
                rules.tool_names.accepts(&m),
                "{} {name:?} -> {m:?}",
                rules.name()
            );
        }
    }
}

mod name_map {
    use provider_rules::{NameMap, PROFILES, Rules};

    const LONG: &str = "mcp__github_enterprise__add_pull_request_review_comment_to_pending_review";

    #[test]
    fn long_dotted_and_colliding_names__invalid_function_name() {
        let names = [
            LONG,
            "fs.read",
            "fs_read",
            "search",
            "search",
            "get weather",
            "",
        ];
        let map = NameMap::new(&Rules::OPENAI.tool_names, names);
        let sent: Vec<&str> = (0..names.len()).map(|i| map.declared(i).unwrap()).collect();
        // Valid, unique.
        for s in &sent {
            assert!(Rules::OPENAI.tool_names.accepts(s), "{s}");
        }
        let mut unique = sent.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), sent.len(), "{sent:?}");
        // Valid names that were first keep themselves: `fs_read` is taken, so `fs.read` is
        // suffixed; the second `search` too.
        assert_eq!(sent[2], "fs_read");
        assert_eq!(sent[3], "search");
        assert!(
            sent[1].starts_with("fs_read_") && sent[1].len() == 12,
            "{}",
            sent[1]
        );
        assert_eq!(sent[5], "get_weather");
        assert_eq!(sent[6], "tool");
        // Cut with a hash suffix, within the limit (a `_` at the cut is trimmed).
        assert!((60..=64).contains(&sent[0].len()), "{}", sent[0]);
        let (head, hash) = sent[0].rsplit_once('_').unwrap();
        assert!(LONG.starts_with(head));
        assert_eq!(hash.len(), 4);
        // Back.
        for (i, n) in names.iter().enumerate() {
            if sent[i] != *n {
                assert_eq!(map.original(sent[i]), Some(*n));
            }
        }
        // Deterministic: the same list gives the same map; and a renamed name does not depend
        // on the rest of the list.
        assert_eq!(NameMap::new(&Rules::OPENAI.tool_names, names), map);
        assert_eq!(
            NameMap::new(&Rules::OPENAI.tool_names, [LONG]).sent(LONG),
            sent[0]
        );
    }

    #[test]
    fn every_profile_gets_valid_unique_names() {
        let names: Vec<String> = (0..40)
            .map(|i| format!("{}{}", "srv.tool/".repeat(i % 9), i % 13))
            .collect();
        for rules in PROFILES {
            let map = NameMap::new(&rules.tool_names, names.iter().map(String::as_str));
            let mut seen = std::collections::HashSet::new();
            for i in 0..names.len() {
                let s = map.declared(i).unwrap();
                assert!(rules.tool_names.accepts(s), "{}: {s}", rules.name());
                assert!(seen.insert(s.to_owned()), "{}: {s} twice", rules.name());
            }
        }
    }
}
