//! `$ref` resolution and inlining.

use schema_core::{InlineOptions, RefError, RefIndex, RefIssueKind, Schema};
use std::time::{Duration, Instant};

fn schema(text: &str) -> Schema {
    Schema::from_str(text).unwrap()
}

fn resolved(root: &Schema, reference: &str) -> String {
    root.resolve(reference)
        .unwrap_or_else(|e| panic!("{reference}: {e}"))
        .to_json_string()
}

#[test]
fn resolves_local_pointers() {
    let root = schema(
        r##"{"type":"object","properties":{"a":{"type":"string"},"b/c":{"type":"integer"},"d~e":{"type":"number"},"f g":{"const":1},"%":{"const":2}},
        "$defs":{"X":{"type":"boolean"}},"definitions":{"Y":{"type":"null"}},
        "items":[{"title":"zero"},{"title":"one"}],"anyOf":[{"title":"any0"}],
        "dependencies":{"p":{"title":"dep"},"q":["r"]}}"##,
    );
    assert_eq!(resolved(&root, "#"), root.to_json_string());
    assert_eq!(resolved(&root, ""), root.to_json_string());
    assert_eq!(resolved(&root, "#/$defs/X"), r#"{"type":"boolean"}"#);
    assert_eq!(resolved(&root, "#/definitions/Y"), r#"{"type":"null"}"#);
    assert_eq!(resolved(&root, "#/properties/a"), r#"{"type":"string"}"#);
    assert_eq!(
        resolved(&root, "#/properties/b~1c"),
        r#"{"type":"integer"}"#
    );
    assert_eq!(resolved(&root, "#/properties/d~0e"), r#"{"type":"number"}"#);
    assert_eq!(resolved(&root, "#/properties/f%20g"), r#"{"const":1}"#);
    assert_eq!(resolved(&root, "#/properties/%25"), r#"{"const":2}"#);
    assert_eq!(resolved(&root, "#/%24defs/X"), r#"{"type":"boolean"}"#);
    assert_eq!(resolved(&root, "#/items/1"), r#"{"title":"one"}"#);
    assert_eq!(resolved(&root, "#/anyOf/0"), r#"{"title":"any0"}"#);
    assert_eq!(resolved(&root, "#/dependencies/p"), r#"{"title":"dep"}"#);
    for (bad, err) in [
        ("#/$defs/Z", RefError::NotFound("#/$defs/Z".into())),
        ("#/items/7", RefError::NotFound("#/items/7".into())),
        ("#/items/x", RefError::NotFound("#/items/x".into())),
        (
            "#/dependencies/q",
            RefError::NotFound("#/dependencies/q".into()),
        ),
        (
            "#/properties/a~2",
            RefError::Malformed("#/properties/a~2".into()),
        ),
        (
            "#/properties/%zz",
            RefError::Malformed("#/properties/%zz".into()),
        ),
        ("#nope", RefError::NotFound("#nope".into())),
        ("other.json#/a", RefError::External("other.json#/a".into())),
        (
            "https://example.com/s.json",
            RefError::External("https://example.com/s.json".into()),
        ),
    ] {
        assert_eq!(root.resolve(bad).unwrap_err(), err, "{bad}");
    }
}

#[test]
fn resolves_into_unknown_keywords() {
    let root = schema(
        r##"{"components":{"schemas":{"Pet":{"type":"object","properties":{"name":{"type":"string"}}}}},
        "x-list":[{"title":"first"},{"title":"second"}],"examples":[{"type":"string"}]}"##,
    );
    assert_eq!(
        resolved(&root, "#/components/schemas/Pet"),
        r#"{"type":"object","properties":{"name":{"type":"string"}}}"#
    );
    assert_eq!(
        resolved(&root, "#/components/schemas/Pet/properties/name"),
        r#"{"type":"string"}"#
    );
    assert_eq!(resolved(&root, "#/x-list/1"), r#"{"title":"second"}"#);
    assert_eq!(resolved(&root, "#/examples/0"), r#"{"type":"string"}"#);
    assert!(root.resolve("#/components/schemas/Cat").is_err());
}

#[test]
fn resolves_anchors_and_ids() {
    let root = schema(
        r##"{"$id":"https://example.com/root.json",
        "$defs":{
            "a":{"$anchor":"A","type":"string"},
            "b":{"$id":"https://example.com/b.json","type":"object","properties":{"x":{"type":"integer"}}},
            "c":{"$id":"#C","type":"number"},
            "d":{"$dynamicAnchor":"D","type":"boolean"}
        }}"##,
    );
    assert_eq!(resolved(&root, "#A"), r#"{"$anchor":"A","type":"string"}"#);
    assert_eq!(resolved(&root, "#C"), r##"{"$id":"#C","type":"number"}"##);
    assert_eq!(
        resolved(&root, "#D"),
        r#"{"$dynamicAnchor":"D","type":"boolean"}"#
    );
    assert!(resolved(&root, "b.json").contains(r#""type":"object""#));
    assert!(resolved(&root, "https://example.com/b.json").contains("properties"));
    assert_eq!(
        resolved(&root, "b.json#/properties/x"),
        r#"{"type":"integer"}"#
    );
    assert_eq!(
        resolved(&root, "https://example.com/root.json#/$defs/a"),
        r#"{"$anchor":"A","type":"string"}"#
    );
    assert_eq!(
        resolved(&root, "root.json#A"),
        r#"{"$anchor":"A","type":"string"}"#
    );
    assert!(matches!(root.resolve("c.json"), Err(RefError::External(_))));
    // A prebuilt index gives the same answers.
    let index = RefIndex::new(&root);
    assert_eq!(index.locate("#A").unwrap(), "/$defs/a");
    assert_eq!(
        index.locate("b.json#/properties/x").unwrap(),
        "/$defs/b/properties/x"
    );
    assert_eq!(
        root.resolve_with(&index, "#D").unwrap().to_json_string(),
        r#"{"$dynamicAnchor":"D","type":"boolean"}"#
    );
}

#[test]
fn draft7_hash_ids_are_anchors() {
    let root = schema(
        r##"{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"n":{"$id":"#node","type":"object"}},
        "properties":{"n":{"$ref":"#node"}}}"##,
    );
    assert_eq!(
        resolved(&root, "#node"),
        r##"{"$id":"#node","type":"object"}"##
    );
    let out = root.inline_refs(&InlineOptions::default());
    assert!(out.issues.is_empty(), "{:?}", out.issues);
    // Fully inlined: the anchor names nothing any more and goes with the definitions.
    assert_eq!(
        out.schema.to_json_string(),
        r##"{"$schema":"http://json-schema.org/draft-07/schema#","properties":{"n":{"type":"object"}}}"##
    );
}

#[test]
fn inlining_merges_siblings_siblings_win() {
    let root = schema(
        r##"{"properties":{"a":{"$ref":"#/$defs/Obj","description":"mine","properties":{"y":{"type":"string"},"x":{"type":"integer"}},"required":["y","x"]}},
        "$defs":{"Obj":{"type":"object","description":"theirs","properties":{"x":{"type":"number"},"z":{}},"required":["x","z"]}}}"##,
    );
    let out = root.inline_refs(&InlineOptions::default());
    assert!(out.issues.is_empty());
    assert_eq!(out.remaining_refs, 0);
    assert_eq!(
        out.schema.to_json_string(),
        r#"{"properties":{"a":{"type":"object","description":"mine","properties":{"x":{"type":"integer"},"z":{},"y":{"type":"string"}},"required":["x","z","y"]}}}"#
    );
}

#[test]
fn inlining_a_root_ref_keeps_root_siblings_and_drops_the_definitions() {
    // The zod-to-json-schema shape: a root `$ref` next to `definitions`.
    let root = schema(
        r##"{"$ref":"#/definitions/Args","definitions":{"Args":{"type":"object","properties":{"n":{"$ref":"#/definitions/Name"}}},"Name":{"type":"string"}},"$schema":"http://json-schema.org/draft-07/schema#"}"##,
    );
    let out = root.inline_refs(&InlineOptions::default());
    assert!(out.issues.is_empty(), "{:?}", out.issues);
    assert_eq!(
        out.schema.to_json_string(),
        r#"{"type":"object","properties":{"n":{"type":"string"}},"$schema":"http://json-schema.org/draft-07/schema#"}"#
    );
}

#[test]
fn boolean_targets_merge_with_siblings() {
    let root = schema(
        r##"{"properties":{"t":{"$ref":"#/$defs/T","title":"t"},"f":{"$ref":"#/$defs/F"},"g":{"$ref":"#/$defs/F","title":"g"}},"$defs":{"T":true,"F":false}}"##,
    );
    let out = root.inline_refs(&InlineOptions::default());
    assert_eq!(
        out.schema.to_json_string(),
        r#"{"properties":{"t":{"title":"t"},"f":false,"g":{"not":{},"title":"g"}}}"#
    );
}

#[test]
fn unresolvable_refs_are_kept_and_reported() {
    let root = schema(
        r##"{"properties":{"a":{"$ref":"#/$defs/Missing"},"b":{"$ref":"http://x/y.json"},"c":{"$ref":"#/$defs/Ok"}},"$defs":{"Ok":{"type":"string"}}}"##,
    );
    let out = root.inline_refs(&InlineOptions::default());
    assert_eq!(out.remaining_refs, 2);
    let kinds: Vec<_> = out
        .issues
        .iter()
        .map(|i| (i.pointer.as_str(), i.reference.as_str(), i.kind.clone()))
        .collect();
    assert_eq!(
        kinds,
        [
            (
                "/properties/a",
                "#/$defs/Missing",
                RefIssueKind::Unresolved(RefError::NotFound("#/$defs/Missing".into()))
            ),
            (
                "/properties/b",
                "http://x/y.json",
                RefIssueKind::Unresolved(RefError::External("http://x/y.json".into()))
            ),
        ]
    );
    // Definitions stay while references remain.
    let text = out.schema.to_json_string();
    assert!(
        text.contains(r#""$defs":{"Ok":{"type":"string"}}"#),
        "{text}"
    );
    assert!(text.contains(r#""c":{"type":"string"}"#), "{text}");
}

fn check_terminates(text: &str, recursive_issue: bool) -> schema_core::Inlined {
    let root = schema(text);
    let t = Instant::now();
    let out = root.inline_refs(&InlineOptions::default());
    assert!(t.elapsed() < Duration::from_secs(5));
    if recursive_issue {
        assert!(
            out.issues
                .iter()
                .any(|i| matches!(i.kind, RefIssueKind::Recursive | RefIssueKind::Depth)),
            "{:?}",
            out.issues
        );
    }
    assert!(!out.schema.to_json_string().is_empty());
    out
}

#[test]
fn cycle_of_length_one() {
    // Self reference through a property (a linked list) and the root pointer `#`.
    let out = check_terminates(
        r##"{"properties":{"list":{"$ref":"#/$defs/Node"}},"$defs":{"Node":{"type":"object","properties":{"next":{"$ref":"#/$defs/Node"}}}}}"##,
        true,
    );
    assert_eq!(out.remaining_refs, 0);
    assert_eq!(
        out.schema.to_json_string(),
        r#"{"properties":{"list":{"type":"object","properties":{"next":{"type":"object","properties":{"next":{"type":"object","description":"Recursive Node (not expanded further)."}}}}}}}"#
    );
    let out = check_terminates(
        r##"{"type":"object","properties":{"self":{"$ref":"#"}}}"##,
        true,
    );
    assert_eq!(out.remaining_refs, 0);
    // A pure alias of itself.
    let out = check_terminates(
        r##"{"$ref":"#/$defs/A","$defs":{"A":{"$ref":"#/$defs/A"}}}"##,
        true,
    );
    assert_eq!(out.remaining_refs, 0);
}

#[test]
fn cycle_of_length_two() {
    let out = check_terminates(
        r##"{"$ref":"#/$defs/A","$defs":{"A":{"type":"object","properties":{"b":{"$ref":"#/$defs/B"}}},"B":{"type":"array","items":{"$ref":"#/$defs/A"}}}}"##,
        true,
    );
    assert_eq!(out.remaining_refs, 0);
    // Spelled differently, it is the same target: cycle detection uses the resolved pointer.
    let out = check_terminates(
        r##"{"properties":{"a":{"$ref":"#/$defs/A"}},"$defs":{"A":{"$anchor":"anc","properties":{"b":{"$ref":"#/%24defs/A"},"c":{"$ref":"#anc"}}}}}"##,
        true,
    );
    assert!(out.schema.to_json_string().len() < 2000);
}

#[test]
fn cycle_of_length_1000() {
    for nested in [false, true] {
        let mut defs = Vec::new();
        for i in 0..1000 {
            let next = (i + 1) % 1000;
            defs.push(if nested {
                format!(
                    r##""D{i}":{{"type":"object","properties":{{"n":{{"$ref":"#/$defs/D{next}"}}}}}}"##
                )
            } else {
                format!(r##""D{i}":{{"$ref":"#/$defs/D{next}"}}"##)
            });
        }
        let text = format!(
            r##"{{"properties":{{"start":{{"$ref":"#/$defs/D0"}}}},"$defs":{{{}}}}}"##,
            defs.join(",")
        );
        // On a small stack: the recursion is bounded whatever the chain.
        std::thread::Builder::new()
            .stack_size(2 * 1024 * 1024)
            .spawn(move || {
                let out = check_terminates(&text, true);
                assert!(out.schema.to_json_string().len() < 100_000);
            })
            .unwrap()
            .join()
            .unwrap();
    }
}

#[test]
fn doubling_chain_is_bounded_by_the_node_budget() {
    // D0 = string; Di = {a: Di-1, b: Di-1}: 2^40 nodes if fully expanded.
    let mut defs = vec![r#""D0":{"type":"string"}"#.to_owned()];
    for i in 1..40 {
        let p = i - 1;
        defs.push(format!(
            r##""D{i}":{{"type":"object","properties":{{"a":{{"$ref":"#/$defs/D{p}"}},"b":{{"$ref":"#/$defs/D{p}"}}}}}}"##
        ));
    }
    let text = format!(
        r##"{{"$ref":"#/$defs/D39","$defs":{{{}}}}}"##,
        defs.join(",")
    );
    let root = schema(&text);
    for max_nodes in [100, 1_000, 10_000] {
        let opts = InlineOptions {
            max_nodes,
            ..InlineOptions::default()
        };
        let t = Instant::now();
        let out = root.inline_refs(&opts);
        assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
        let mut nodes = 0usize;
        struct Count<'a>(&'a mut usize);
        impl schema_core::Visit for Count<'_> {
            fn enter(&mut self, _: &str, _: &Schema) -> bool {
                *self.0 += 1;
                true
            }
        }
        out.schema.walk(&mut Count(&mut nodes));
        // The expansion stays within the budget plus the kept references and definitions.
        assert!(nodes <= 3 * max_nodes + 200, "{max_nodes}: {nodes} nodes");
        assert!(
            out.schema.to_json_string().len() <= 100 * max_nodes + text.len(),
            "{max_nodes}"
        );
        assert!(out.remaining_refs > 0);
        assert!(
            out.issues.iter().all(|i| i.kind == RefIssueKind::Budget),
            "{:?}",
            out.issues.first()
        );
        assert!(!out.issues.is_empty());
        // Kept references still resolve: the definitions are kept.
        let text = out.schema.to_json_string();
        assert!(text.contains(r#""$defs":{"D0":"#), "{max_nodes}");
        for issue in &out.issues {
            assert!(out.schema.resolve(&issue.reference).is_ok());
        }
    }
}

#[test]
fn inline_is_a_no_op_without_refs_and_has_refs_tells() {
    let root =
        schema(r#"{"type":"object","properties":{"$ref":{"type":"string"}},"$defs":{"X":{}}}"#);
    assert!(!root.has_refs());
    let out = root.inline_refs(&InlineOptions::default());
    assert_eq!(
        out.schema.to_json_string(),
        r#"{"type":"object","properties":{"$ref":{"type":"string"}}}"#
    );
    let kept = root.inline_refs(&InlineOptions {
        drop_unused_definitions: false,
        ..InlineOptions::default()
    });
    assert_eq!(kept.schema, root);
    assert!(schema(r##"{"anyOf":[{"$ref":"#"}]}"##).has_refs());
}

#[test]
fn a_sibling_replacing_a_different_constraint_keeps_the_target_s_in_all_of() {
    // 2020-12 applies a `$ref` and its siblings both: what the siblings replace stays as an
    // `allOf` branch, so the merged node means what the pair meant.
    for (text, expected) in [
        (
            r##"{"$defs":{"b":{"prefixItems":[true,{"type":"string"}]}},"$ref":"#/$defs/b","prefixItems":[{"type":"string"}]}"##,
            r#"{"prefixItems":[{"type":"string"}],"allOf":[{"prefixItems":[true,{"type":"string"}]}]}"#,
        ),
        (
            r##"{"$defs":{"b":{"minimum":1}},"properties":{"n":{"$ref":"#/$defs/b","minimum":5}}}"##,
            r#"{"properties":{"n":{"minimum":5,"allOf":[{"minimum":1}]}}}"#,
        ),
        (
            r##"{"$defs":{"b":{"properties":{"x":{"type":"string","maxLength":3},"y":{}}}},"$ref":"#/$defs/b","properties":{"x":{"type":"string","maxLength":9}}}"##,
            r#"{"properties":{"x":{"type":"string","maxLength":9},"y":{}},"allOf":[{"properties":{"x":{"type":"string","maxLength":3}}}]}"#,
        ),
        // Annotations, a narrower type, united `required` and new properties lose nothing.
        (
            r##"{"$defs":{"b":{"type":"number","description":"theirs","required":["a"]}},"$ref":"#/$defs/b","type":"integer","description":"mine","required":["b"]}"##,
            r#"{"type":"integer","description":"mine","required":["a","b"]}"#,
        ),
        (
            r##"{"$defs":{"b":{"properties":{"x":{}}}},"$ref":"#/$defs/b","properties":{"y":{}}}"##,
            r#"{"properties":{"x":{},"y":{}}}"#,
        ),
    ] {
        let out = schema(text).inline_refs(&InlineOptions::default());
        assert!(out.issues.is_empty(), "{text}: {:?}", out.issues);
        assert_eq!(out.remaining_refs, 0, "{text}");
        assert_eq!(out.schema.to_json_string(), expected, "{text}");
    }
}
