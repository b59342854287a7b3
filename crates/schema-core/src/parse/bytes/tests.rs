//! The byte reader against the serde_json parser it stands in for: same tree, diagnostics and
//! errors for the whole corpus, for every prefix and many one-byte changes of its schemas, and
//! for hand-picked edge cases.

#[path = "../../../tests/common/mod.rs"]
mod common;

use super::read;
use crate::parse::scratch::Scratch;
use crate::{ParseOptions, Schema};

/// `Schema::parse` (byte reader first) and the serde_json parser alone, as text.
fn both(bytes: &[u8], max_depth: usize) -> (String, String) {
    let ours = Schema::parse(
        bytes,
        &ParseOptions {
            max_depth,
            ..ParseOptions::default()
        },
    );
    let judge = Schema::parse_with_serde(bytes, max_depth, Scratch::take());
    let show = |r: Result<crate::Parsed, crate::SchemaError>| match r {
        Ok(p) => format!(
            "{:?} {:?} {}",
            p.schema,
            p.diagnostics,
            p.schema.to_json_string()
        ),
        Err(e) => format!("error {e}"),
    };
    (show(ours), show(judge))
}

/// Whether the byte reader read `text` itself (rather than leaving it to serde_json).
fn reads(text: &str, max_depth: usize) -> bool {
    read(text, max_depth, false, &mut Vec::new(), &mut Vec::new()).is_some()
}

#[test]
fn the_corpus_parses_as_with_serde_json_and_mostly_without_it() {
    let corpus = common::all();
    let mut read_here = 0;
    for s in &corpus {
        for depth in [64, 3] {
            let (ours, judge) = both(s.text.as_bytes(), depth);
            assert_eq!(ours, judge, "{}", s.origin);
        }
        read_here += usize::from(reads(&s.text, 64));
    }
    // Most schemas have no diagnostic: the byte reader reads them all.
    assert!(
        read_here * 10 >= corpus.len() * 9,
        "{read_here} of {}",
        corpus.len()
    );
}

/// The reader's mask of the keywords the tree holds is the union of every object's own, at
/// every level (a walk as deep as the tree goes finds no keyword outside it).
#[test]
fn the_keywords_read_are_every_objects_keywords() {
    struct Union(u64);
    impl crate::Visit for Union {
        fn pointers(&self) -> bool {
            false
        }
        fn enter(&mut self, _: &str, s: &Schema) -> bool {
            if let Some(o) = s.as_object() {
                self.0 |= o.keyword_mask().0;
            }
            true
        }
    }
    let mut with_refs = 0;
    for s in &common::all() {
        let Some((schema, held)) = read(&s.text, 64, false, &mut Vec::new(), &mut Vec::new())
        else {
            continue;
        };
        let mut union = Union(0);
        schema.walk(&mut union);
        assert_eq!(held.0, union.0, "{}", s.origin);
        with_refs += usize::from(held.intersects(crate::KeywordMask::of(&[crate::Keyword::Ref])));
    }
    assert!(with_refs > 0);
    // Boolean schemas hold nothing; a nested `$ref` is seen.
    let (_, held) = read(
        r##"{"items":true,"properties":{"a":{"anyOf":[{"$ref":"#/x"}]}}}"##,
        64,
        true,
        &mut Vec::new(),
        &mut Vec::new(),
    )
    .unwrap();
    let has = |k| held.intersects(crate::KeywordMask::of(&[k]));
    assert!(has(crate::Keyword::Ref) && has(crate::Keyword::AnyOf) && !has(crate::Keyword::Enum));
}

/// Where asked, an object with `properties` keeps a place for each of `required` and
/// `additionalProperties` it lacks; not asked, or without `properties`, none.
#[test]
fn room_to_close_is_kept_where_asked() {
    let room = |text: &str, close| {
        let (s, _) = read(text, 64, close, &mut Vec::new(), &mut Vec::new()).unwrap();
        let o = s.as_object().unwrap();
        o.entries.capacity() - o.entries.len()
    };
    assert_eq!(room(r#"{"type":"object","properties":{}}"#, true), 2);
    assert_eq!(room(r#"{"properties":{},"required":[]}"#, true), 1);
    let closed = r#"{"properties":{},"required":[],"additionalProperties":false}"#;
    assert_eq!(room(closed, true), 0);
    assert_eq!(room(r#"{"type":"object","properties":{}}"#, false), 0);
    assert_eq!(room(r#"{"type":"string"}"#, true), 0);
}

#[test]
fn every_prefix_and_many_one_byte_changes_parse_as_with_serde_json() {
    let corpus = common::mcp();
    let bytes = [
        b'"', b'\\', b'{', b'}', b'[', b']', b',', b':', b'0', b'-', b'e', b' ', 0x01,
    ];
    for s in corpus.iter().step_by(37) {
        let text = s.text.as_bytes();
        for end in 0..text.len() {
            let (ours, judge) = both(&text[..end], 64);
            assert_eq!(ours, judge, "{} cut at {end}", s.origin);
        }
        for at in (0..text.len()).step_by(3) {
            let mut changed = text.to_vec();
            changed[at] = bytes[at % bytes.len()];
            let (ours, judge) = both(&changed, 64);
            assert_eq!(ours, judge, "{} changed at {at}", s.origin);
        }
    }
}

#[test]
fn edge_cases_parse_as_with_serde_json() {
    let cases = [
        "true",
        " false ",
        "{}",
        "3",
        "\"x\"",
        "null",
        "[]",
        r#"{"type":"string","type":"integer"}"#,
        r#"{"x-a":1,"x-a":{"b" : [ 1 , 2 ]}}"#,
        r#"{"properties":{"a":{},"b":true,"a":false}}"#,
        r#"{"properties":{"a":1}}"#,
        r#"{"items":[{"type":"string"},true,{}]}"#,
        r#"{"items":[{},3]}"#,
        r#"{"allOf":{}}"#,
        r#"{"type":["string","null"],"required":["a","b\n"]}"#,
        r#"{"type":"strin"}"#,
        r#"{"type":["string",1]}"#,
        r#"{"description":"a \"quoted\" \u00e9 \ud83d\ude00 word"}"#,
        r#"{"description":"lone \ud83d"}"#,
        r#"{"enum":[1, "a", {"b": [true]}], "const": 1.5e3, "default": -0}"#,
        r#"{"minimum":1e2,"maximum":1.0,"multipleOf":0.1,"minLength":18446744073709551616}"#,
        r#"{"maximum":1e400}"#,
        r#"{"exclusiveMinimum":true,"exclusiveMaximum":3}"#,
        r#"{"dependencies":{"a":["b"],"c":{"type":"string"},"d":true}}"#,
        r#"{"dependencies":{"a":[1]}}"#,
        r#"{"dependentRequired":{"a":["b"],"a":["c"],"d":[]}}"#,
        r#"{"\u0074ype":"string","pro\u0070erties":{"\u00e9":{}}}"#,
        r#"{"examples":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}"#,
        r#"{"type":"string"} x"#,
        r#"{"type":"string",}"#,
        "{\"description\":\"tab\there\"}",
    ];
    for case in cases {
        for depth in [64, 1, 0] {
            let (ours, judge) = both(case.as_bytes(), depth);
            assert_eq!(ours, judge, "{case} at depth {depth}");
        }
    }
    assert!(reads(r#"{"description":"a \"q\" \ud83d\ude00"}"#, 64));
    assert!(!reads(r#"{"type":"strin"}"#, 64));
}

#[test]
fn deep_schemas_parse_as_with_serde_json() {
    for levels in [10, 64, 65, 300] {
        let text = format!("{}{}", r#"{"items":"#.repeat(levels), "}".repeat(levels));
        let text = text.replacen("}", "{}}", 1);
        for depth in [64, 256] {
            let (ours, judge) = both(text.as_bytes(), depth);
            assert_eq!(ours, judge, "{levels} levels at depth {depth}");
        }
    }
}
