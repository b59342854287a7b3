//! String, `type`, string-list and instance-list keyword values, read straight from the
//! deserializer: typed when they have the right JSON type, kept verbatim (and reported) when not.

use schema_core::{DiagnosticKind, InstanceType, Keyword, Schema, TypeSet, Value};

fn parse(text: &str) -> schema_core::Parsed {
    Schema::parse(text.as_bytes(), &schema_core::ParseOptions::default()).unwrap()
}

#[test]
fn values_of_the_right_type_are_typed() {
    let p = parse(
        r#"{"title":"a\"b\u00e9","type":"strin\u0067","required":["x","y\n"],"enum":[1, "a", {"b": [ 2 ]}],"format":"uri"}"#,
    );
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
    let o = p.schema.as_object().unwrap();
    assert_eq!(o.string(Keyword::Title), Some("a\"bé"));
    assert_eq!(o.types(), Some(&TypeSet::Single(InstanceType::String)));
    assert_eq!(o.required(), Some(&["x".to_owned(), "y\n".to_owned()][..]));
    let values: Vec<&str> = o
        .enum_values()
        .unwrap()
        .iter()
        .map(|i| i.as_json())
        .collect();
    assert_eq!(values, ["1", "\"a\"", r#"{"b":[2]}"#]);
    assert_eq!(o.string(Keyword::Format), Some("uri"));
    assert_eq!(
        p.schema.to_json_string(),
        r#"{"title":"a\"bé","type":"string","required":["x","y\n"],"enum":[1,"a",{"b":[2]}],"format":"uri"}"#
    );
}

#[test]
fn type_lists_are_typed() {
    let p = parse(r#"{"type":["string","null"]}"#);
    assert!(p.diagnostics.is_empty());
    assert_eq!(
        p.schema.as_object().unwrap().types(),
        Some(&TypeSet::List(vec![
            InstanceType::String,
            InstanceType::Null
        ]))
    );
}

#[test]
fn values_of_the_wrong_type_are_kept_verbatim_and_reported() {
    for (text, keyword) in [
        (r#"{"description":1.50}"#, "description"),
        (r#"{"description":-0}"#, "description"),
        (r#"{"description":12345678901234567890123}"#, "description"),
        (r#"{"$ref":true}"#, "$ref"),
        (r#"{"format":null}"#, "format"),
        (r#"{"pattern":-3}"#, "pattern"),
        (r#"{"title":{"a\u0062":[1.0,"\/"]}}"#, "title"),
        (r#"{"title":["a\u0062",2.50]}"#, "title"),
        (r#"{"type":"bad\u0021"}"#, "type"),
        (r#"{"type":"nope"}"#, "type"),
        (r#"{"type":["string",5]}"#, "type"),
        (r#"{"type":["str\u0069ng","nope",1.0]}"#, "type"),
        (r#"{"type":["string","null",{"x":1}]}"#, "type"),
        (r#"{"required":["a",1,"b"]}"#, "required"),
        (r#"{"required":["\u0061",[2.0]]}"#, "required"),
        (r#"{"required":"a"}"#, "required"),
        (r#"{"enum":{"a":1}}"#, "enum"),
        (r#"{"examples":"x"}"#, "examples"),
    ] {
        let p = parse(text);
        assert_eq!(p.schema.to_json_string(), text, "{text}");
        assert_eq!(p.diagnostics.len(), 1, "{text}: {:?}", p.diagnostics);
        assert_eq!(p.diagnostics[0].pointer, format!("/{keyword}"), "{text}");
        assert!(
            matches!(&p.diagnostics[0].kind, DiagnosticKind::WrongType { keyword: k, .. } if k == keyword),
            "{text}: {:?}",
            p.diagnostics
        );
        let o = p.schema.as_object().unwrap();
        assert!(
            matches!(o.get_by_name(keyword), Some(Value::Raw(_))),
            "{text}"
        );
    }
}

#[test]
fn wrong_values_inside_subschemas_are_reported_where_they_are() {
    let p = parse(r#"{"properties":{"a":{"description":2.50,"type":["x"]}}}"#);
    let at: Vec<&str> = p.diagnostics.iter().map(|d| d.pointer.as_str()).collect();
    assert_eq!(at, ["/properties/a/description", "/properties/a/type"]);
    assert_eq!(
        p.schema.to_json_string(),
        r#"{"properties":{"a":{"description":2.50,"type":["x"]}}}"#
    );
}

#[test]
fn whitespace_in_a_wrong_value_is_removed_as_before() {
    let p = parse("{\"type\": [ \"string\" , 5 ], \"title\": [ 1 , \"a b\" ]}");
    assert_eq!(
        p.schema.to_json_string(),
        r#"{"type":["string",5],"title":[1,"a b"]}"#
    );
}
