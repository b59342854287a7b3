//! Dialect detection: `$schema` first, else the keywords used.

mod common;

use schema_core::{Dialect, Keyword, Schema, Value};

fn detect(text: &str) -> Dialect {
    Dialect::detect(&Schema::from_str(text).unwrap())
}

#[test]
fn schema_uris_name_the_dialect() {
    for (uri, d) in [
        ("http://json-schema.org/draft-04/schema#", Dialect::Draft4),
        ("http://json-schema.org/draft-04/schema", Dialect::Draft4),
        ("http://json-schema.org/draft-06/schema#", Dialect::Draft6),
        ("http://json-schema.org/draft-07/schema#", Dialect::Draft7),
        ("https://json-schema.org/draft-07/schema", Dialect::Draft7),
        (
            "https://json-schema.org/draft/2019-09/schema",
            Dialect::Draft2019_09,
        ),
        (
            "https://json-schema.org/draft/2020-12/schema",
            Dialect::Draft2020_12,
        ),
        (
            "https://spec.openapis.org/oas/3.0/schema/2021-09-28",
            Dialect::OpenApi30,
        ),
        (
            "https://spec.openapis.org/oas/3.1/dialect/base",
            Dialect::Draft2020_12,
        ),
    ] {
        assert_eq!(Dialect::from_uri(uri), Some(d), "{uri}");
        // `$schema` wins over what the keywords suggest.
        let text = format!(r#"{{"$schema":"{uri}","prefixItems":[{{}}],"definitions":{{}}}}"#);
        assert_eq!(detect(&text), d, "{uri}");
    }
    assert_eq!(Dialect::from_uri("http://json-schema.org/schema#"), None);
    assert_eq!(Dialect::from_uri("urn:example:custom"), None);
    // An unknown `$schema` falls back to inference.
    assert_eq!(
        detect(r#"{"$schema":"urn:x","items":[{}]}"#),
        Dialect::Draft7
    );
}

#[test]
fn keywords_imply_the_dialect() {
    for (text, d) in [
        (r#"{}"#, Dialect::Draft2020_12),
        ("true", Dialect::Draft2020_12),
        (r#"{"type":"string"}"#, Dialect::Draft2020_12),
        (r#"{"minimum":0,"exclusiveMinimum":true}"#, Dialect::Draft4),
        (
            r#"{"properties":{"a":{"exclusiveMaximum":false}}}"#,
            Dialect::Draft4,
        ),
        (r#"{"exclusiveMinimum":0}"#, Dialect::Draft2020_12),
        (r#"{"items":[{"type":"string"}]}"#, Dialect::Draft7),
        (r#"{"items":{"type":"string"}}"#, Dialect::Draft2020_12),
        (r#"{"definitions":{"a":{}}}"#, Dialect::Draft7),
        (r#"{"dependencies":{"a":["b"]}}"#, Dialect::Draft7),
        (r#"{"additionalItems":false}"#, Dialect::Draft7),
        (
            r#"{"prefixItems":[{}],"items":false}"#,
            Dialect::Draft2020_12,
        ),
        (r##"{"$dynamicRef":"#meta"}"##, Dialect::Draft2020_12),
        (
            r#"{"$defs":{"a":{"$dynamicAnchor":"x"}}}"#,
            Dialect::Draft2020_12,
        ),
        (r##"{"$recursiveRef":"#"}"##, Dialect::Draft2019_09),
        (r#"{"$recursiveAnchor":true}"#, Dialect::Draft2019_09),
        (r#"{"type":"string","nullable":true}"#, Dialect::OpenApi30),
        (
            r#"{"discriminator":{"propertyName":"kind"}}"#,
            Dialect::OpenApi30,
        ),
        (r#"{"properties":{"a":{"example":1}}}"#, Dialect::OpenApi30),
        // Deep inside counts too; a property *named* like a keyword does not.
        (r#"{"anyOf":[{"not":{"items":[true]}}]}"#, Dialect::Draft7),
        (
            r#"{"properties":{"definitions":{},"nullable":{},"prefixItems":{}}}"#,
            Dialect::Draft2020_12,
        ),
        // Instances are not schemas.
        (
            r#"{"default":{"items":[1]},"enum":[{"nullable":true}]}"#,
            Dialect::Draft2020_12,
        ),
    ] {
        assert_eq!(detect(text), d, "{text}");
    }
}

#[test]
fn draft7_and_2020_12_items_are_each_read_right() {
    // draft-07: `items` as an array is a tuple; 2020-12 says that with `prefixItems`.
    let d7 = Schema::from_str(
        r#"{"items":[{"type":"string"},{"type":"integer"}],"additionalItems":false}"#,
    )
    .unwrap();
    assert_eq!(Dialect::detect(&d7), Dialect::Draft7);
    assert!(Dialect::detect(&d7).items_array_is_tuple());
    let o = d7.as_object().unwrap();
    assert_eq!(o.schemas(Keyword::Items).map(<[_]>::len), Some(2));
    let d2020 =
        Schema::from_str(r#"{"prefixItems":[{"type":"string"}],"items":{"type":"integer"}}"#)
            .unwrap();
    assert_eq!(Dialect::detect(&d2020), Dialect::Draft2020_12);
    assert!(!Dialect::detect(&d2020).items_array_is_tuple());
    let o = d2020.as_object().unwrap();
    assert!(matches!(o.get(Keyword::Items), Some(Value::Schema(_))));
    assert_eq!(o.schemas(Keyword::PrefixItems).map(<[_]>::len), Some(1));
}

#[test]
fn the_corpus_is_detected_consistently() {
    let mut by_dialect = std::collections::BTreeMap::<String, usize>::new();
    for s in common::jsts() {
        let schema = Schema::from_str(&s.text).unwrap();
        let d = Dialect::detect(&schema);
        if s.origin.starts_with("jsts/draft2020-12/") {
            assert_eq!(d, Dialect::Draft2020_12, "{}", s.origin);
        } else {
            // draft-07 tests declare nothing: inferred draft-07 or, when nothing tells, 2020-12.
            assert!(
                matches!(d, Dialect::Draft7 | Dialect::Draft2020_12 | Dialect::Draft4),
                "{}: {d:?}",
                s.origin
            );
        }
        *by_dialect.entry(format!("{d:?}")).or_default() += 1;
    }
    println!("jsts dialects: {by_dialect:?}");
    let mut mcp = std::collections::BTreeMap::<String, usize>::new();
    for s in common::mcp() {
        let d = Dialect::detect(&Schema::from_str(&s.text).unwrap());
        *mcp.entry(format!("{d:?}")).or_default() += 1;
    }
    println!("mcp dialects: {mcp:?}");
}
