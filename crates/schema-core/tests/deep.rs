//! Nothing recurses without bound: 100,000-deep schemas parse, walk, serialize, clone, compare
//! and drop on a thread with the default 2 MiB stack.

use schema_core::{
    DiagnosticKind, Dialect, InlineOptions, Keyword, ParseOptions, Schema, SchemaObject, Transform,
    Value, Visit,
};

const DEPTH: usize = 100_000;

/// Runs `f` on a thread with a 2 MiB stack (the default for spawned threads), failing the test
/// if the thread dies (a stack overflow aborts the whole process, which fails it too).
fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap();
}

/// `{"items":{"properties":{"a":{"items":{"properties":{"a":...{}...}}}}}}`: arrays and
/// objects alternating, `levels` schema levels.
fn alternating(levels: usize) -> String {
    let mut text = String::with_capacity(levels * 24);
    for i in 0..levels {
        text.push_str(if i % 2 == 0 {
            r#"{"type":"array","items":"#
        } else {
            r#"{"type":"object","properties":{"a":"#
        });
    }
    text.push_str("{}");
    for i in (0..levels).rev() {
        text.push_str(if i % 2 == 0 { "}" } else { "}}" });
    }
    text
}

/// A tree of `{"not": ...}` built by hand, `levels` deep.
fn nots(levels: usize) -> Schema {
    let mut s = Schema::Bool(false);
    for _ in 0..levels {
        let mut o = SchemaObject::new();
        o.insert(Keyword::Not, Value::Schema(Box::new(s)));
        s = Schema::Object(o);
    }
    s
}

struct Count(usize, usize);
impl Visit for Count {
    fn enter(&mut self, p: &str, _: &Schema) -> bool {
        self.0 += 1;
        self.1 = self.1.max(p.len());
        true
    }
}

#[test]
fn a_100k_deep_schema_parses_depth_limited_and_walks_serializes_clones_and_drops() {
    let text = alternating(DEPTH);
    on_small_stack(move || {
        let parsed = Schema::parse(text.as_bytes(), &ParseOptions::default()).unwrap();
        assert_eq!(parsed.diagnostics.len(), 1, "{:?}", parsed.diagnostics);
        let d = &parsed.diagnostics[0];
        assert_eq!(d.kind, DiagnosticKind::DepthLimit { limit: 64 });
        // 65 levels: the root (0) to 64 kept, level 65 cut.
        assert_eq!(
            d.pointer.matches("/items").count() + d.pointer.matches("/properties/a").count(),
            65
        );
        let schema = parsed.schema;
        let mut count = Count(0, 0);
        schema.walk(&mut count);
        assert_eq!(
            count.0, 66,
            "levels 0..=64 and the `{{}}` placeholder at 65"
        );
        let out = schema.to_json_string();
        assert_eq!(out, {
            // What is kept is the same shape, cut at 65 levels.
            let full = alternating(65);
            Schema::from_str(&full).unwrap().to_json_string()
        });
        let copy = schema.clone();
        assert_eq!(copy, schema);
        assert_eq!(Schema::from_str(&out).unwrap(), schema);
        assert_eq!(Dialect::detect(&schema), Dialect::Draft2020_12);
        drop(copy);
        drop(schema);
    });
}

#[test]
fn deep_instances_and_unknown_keywords_are_captured_iteratively() {
    // 100,000 nested arrays/objects inside values that are kept verbatim.
    let mut deep = String::new();
    for i in 0..DEPTH {
        deep.push_str(if i % 2 == 0 { "[" } else { "{\"a\":" });
    }
    deep.push('1');
    for i in (0..DEPTH).rev() {
        deep.push(if i % 2 == 0 { ']' } else { '}' });
    }
    let text = format!(
        r#"{{"x-deep":{deep},"enum":[{deep}],"default":{deep},"items":{deep},"type":{deep},"required":{deep},"dependentRequired":{{"a":{deep}}},"anyOf":[{deep}],"properties":{{"a":{deep}}}}}"#
    );
    on_small_stack(move || {
        let parsed = Schema::parse(text.as_bytes(), &ParseOptions::default()).unwrap();
        let kinds: Vec<_> = parsed
            .diagnostics
            .iter()
            .map(|d| d.pointer.as_str())
            .collect();
        assert_eq!(
            kinds,
            // `items` is a tuple of one schema, `{"a": [...]}` with an unknown keyword `a`.
            [
                "/type",
                "/required",
                "/dependentRequired",
                "/anyOf",
                "/properties"
            ]
        );
        let out = parsed.schema.to_json_string();
        assert_eq!(out, text, "kept verbatim");
        let copy = parsed.schema.clone();
        assert_eq!(copy, parsed.schema);
    });
}

#[test]
fn a_hand_built_100k_deep_tree_drops_without_overflow() {
    on_small_stack(|| {
        let s = nots(DEPTH);
        drop(s);
        // Wide and deep at once: every level also has a `properties` map and an `anyOf`.
        let mut s = Schema::Bool(true);
        for i in 0..DEPTH {
            let mut o = SchemaObject::new();
            let mut props = schema_core::SchemaMap::default();
            props.insert(format!("p{i}"), s);
            o.insert(Keyword::Properties, Value::SchemaMap(props));
            o.insert(
                Keyword::AnyOf,
                Value::Schemas(vec![Schema::Bool(true), Schema::default()]),
            );
            s = Schema::Object(o);
        }
        drop(s);
    });
}

#[test]
fn a_hand_built_100k_deep_tree_serializes_clones_compares_and_walks() {
    on_small_stack(|| {
        let s = nots(DEPTH);
        let text = s.to_json_string();
        assert_eq!(text.len(), DEPTH * "{\"not\":}".len() + "false".len());
        assert!(text.starts_with(r#"{"not":{"not":"#) && text.contains(":false}}"));
        // (Pretty-printing is linear in its output, which is quadratic in the depth: 20 GB
        // of indentation here. It is iterative; see the 1,000-deep test below.)
        let copy = s.clone();
        assert_eq!(copy.to_json_string(), text);
        assert!(copy == s);
        let other = nots(DEPTH - 1);
        assert!(other != s);
        let mut changed = nots(DEPTH);
        if let Some(mut o) = changed.as_object_mut() {
            // Change the innermost `false` to `true`.
            loop {
                match o.schema_mut(Keyword::Not) {
                    Some(Schema::Object(next)) => o = next,
                    Some(leaf) => {
                        *leaf = Schema::Bool(true);
                        break;
                    }
                    None => unreachable!(),
                }
            }
        }
        assert!(changed != s);
        // Debug stops at the recursion limit.
        let debug = format!("{s:?}");
        assert!(debug.contains("SchemaObject { .. }"));
        // The walk stops at MAX_WALK_DEPTH.
        let mut count = Count(0, 0);
        s.walk(&mut count);
        assert_eq!(count.0, schema_core::MAX_WALK_DEPTH + 1);
        struct Noop(usize);
        impl Transform for Noop {
            fn pre(&mut self, _: &str, _: &mut Schema) {
                self.0 += 1;
            }
        }
        let mut s = s;
        let mut t = Noop(0);
        s.transform(&mut t);
        assert_eq!(t.0, schema_core::MAX_WALK_DEPTH + 1);
        assert!(!s.has_refs());
        assert_eq!(Dialect::detect(&s), Dialect::Draft2020_12);
        // Serde goes through the iterative writer too.
        let via_serde = serde_json::to_string(&s).unwrap();
        assert_eq!(via_serde, text);
        // Inlining copies what lies deeper than its depth bound instead of recursing.
        let inlined = s.inline_refs(&InlineOptions::default());
        assert_eq!(inlined.schema.to_json_string(), text);
        let inlined = s.inline_refs(&InlineOptions {
            max_depth: usize::MAX,
            ..InlineOptions::default()
        });
        assert_eq!(inlined.schema.to_json_string(), text);
    });
}

#[test]
fn a_huge_max_depth_option_cannot_overflow_the_parser() {
    let text = alternating(DEPTH);
    on_small_stack(move || {
        let parsed = Schema::parse(
            text.as_bytes(),
            &ParseOptions {
                max_depth: usize::MAX,
                ..ParseOptions::default()
            },
        )
        .unwrap();
        assert_eq!(parsed.diagnostics.len(), 1);
        let DiagnosticKind::DepthLimit { limit } = parsed.diagnostics[0].kind else {
            panic!("{:?}", parsed.diagnostics)
        };
        assert_eq!(limit, ParseOptions::MAX_DEPTH);
    });
}

#[test]
fn pretty_printing_is_iterative() {
    on_small_stack(|| {
        let s = nots(1000);
        let pretty = s.to_json_pretty();
        assert_eq!(pretty.lines().count(), 2 * 1000 + 1);
        let compact: String = pretty.split_whitespace().collect();
        assert_eq!(compact, s.to_json_string());
    });
}

#[test]
fn deep_instances_with_whitespace_are_minified_not_lost() {
    let mut deep = String::new();
    for _ in 0..DEPTH {
        deep.push_str("[ ");
    }
    deep.push('1');
    for _ in 0..DEPTH {
        deep.push_str(" ]");
    }
    let text = format!(r#"{{"x-deep": {deep}, "default": {deep}, "enum": [{deep}]}}"#);
    on_small_stack(move || {
        let parsed = Schema::parse(text.as_bytes(), &ParseOptions::default()).unwrap();
        assert!(parsed.diagnostics.is_empty());
        let out = parsed.schema.to_json_string();
        let compact: String = text.split_whitespace().collect();
        assert_eq!(out, compact);
        // Instances built from such text keep it too.
        let spaced = &text[11..11 + DEPTH * 4 + 1];
        assert!(spaced.starts_with("[ [") && spaced.ends_with("] ]"));
        let inst = schema_core::Instance::from_json(spaced).unwrap();
        assert_eq!(inst.as_json().len(), DEPTH * 2 + 1);
    });
}
