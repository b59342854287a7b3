//! Keywords with a wrong JSON type are kept verbatim and reported; non-object roots parse.

use schema_core::{
    Diagnostic, DiagnosticKind, JsonType, Key, Keyword, ParseOptions, Schema, Value,
};

fn parse(text: &str) -> (Schema, Vec<Diagnostic>) {
    let p = Schema::parse(text.as_bytes(), &ParseOptions::default()).unwrap();
    (p.schema, p.diagnostics)
}

/// `(input, keyword, expected shape text, found)` for one wrong-typed keyword at the root.
const CASES: &[(&str, &str, &str, JsonType)] = &[
    (
        r#"{"required":true}"#,
        "required",
        "an array of strings",
        JsonType::Boolean,
    ),
    (
        r#"{"properties":[]}"#,
        "properties",
        "an object whose values are schemas",
        JsonType::Array,
    ),
    (
        r#"{"type":5}"#,
        "type",
        "a type name or an array of type names",
        JsonType::Integer,
    ),
    (
        r#"{"type":"strin"}"#,
        "type",
        "a type name or an array of type names",
        JsonType::String,
    ),
    (
        r#"{"type":["string",1]}"#,
        "type",
        "a type name or an array of type names",
        JsonType::Array,
    ),
    (
        r#"{"items":"x"}"#,
        "items",
        "a schema or an array of schemas",
        JsonType::String,
    ),
    (
        r#"{"items":[{},1]}"#,
        "items",
        "a schema or an array of schemas",
        JsonType::Array,
    ),
    (
        r#"{"anyOf":[1]}"#,
        "anyOf",
        "an array of schemas",
        JsonType::Array,
    ),
    (
        r#"{"anyOf":{}}"#,
        "anyOf",
        "an array of schemas",
        JsonType::Object,
    ),
    (
        r#"{"not":null}"#,
        "not",
        "a schema (an object or a boolean)",
        JsonType::Null,
    ),
    (
        r#"{"not":1.5e3}"#,
        "not",
        "a schema (an object or a boolean)",
        JsonType::Integer,
    ),
    (
        r#"{"additionalProperties":"no"}"#,
        "additionalProperties",
        "a schema (an object or a boolean)",
        JsonType::String,
    ),
    (
        r#"{"$defs":{"a":{},"b":[1,2]}}"#,
        "$defs",
        "an object whose values are schemas",
        JsonType::Object,
    ),
    (
        r#"{"dependencies":{"a":["b"],"c":5}}"#,
        "dependencies",
        "an object of schemas or arrays of strings",
        JsonType::Object,
    ),
    (
        r#"{"dependentRequired":{"a":[1]}}"#,
        "dependentRequired",
        "an object whose values are arrays of strings",
        JsonType::Object,
    ),
    (
        r#"{"dependentRequired":[]}"#,
        "dependentRequired",
        "an object whose values are arrays of strings",
        JsonType::Array,
    ),
    (
        r#"{"minLength":"3"}"#,
        "minLength",
        "a number",
        JsonType::String,
    ),
    (
        r#"{"exclusiveMinimum":"3"}"#,
        "exclusiveMinimum",
        "a number",
        JsonType::String,
    ),
    (
        r#"{"uniqueItems":"yes"}"#,
        "uniqueItems",
        "a boolean",
        JsonType::String,
    ),
    (
        r#"{"description":["a"]}"#,
        "description",
        "a string",
        JsonType::Array,
    ),
    (r#"{"$ref":{"a":1}}"#, "$ref", "a string", JsonType::Object),
    (r#"{"enum":"a"}"#, "enum", "an array", JsonType::String),
    (
        r#"{"examples":{"a":1}}"#,
        "examples",
        "an array",
        JsonType::Object,
    ),
    (
        r#"{"required":["a",{"b":[1, 2]}]}"#,
        "required",
        "an array of strings",
        JsonType::Array,
    ),
];

#[test]
fn wrong_typed_keywords_are_kept_verbatim_and_reported() {
    for &(text, keyword, expected, found) in CASES {
        let (schema, diags) = parse(text);
        let compact = schema_core::Instance::from_json(text).unwrap();
        assert_eq!(schema.to_json_string(), compact.as_json(), "{text}");
        assert_eq!(diags.len(), 1, "{text}: {diags:?}");
        assert_eq!(diags[0].pointer, format!("/{keyword}"), "{text}");
        assert_eq!(
            diags[0].kind,
            DiagnosticKind::WrongType {
                keyword: keyword.to_owned(),
                expected,
                found
            },
            "{text}"
        );
        // The value is raw data in place, reported as malformed, never walked.
        let o = schema.as_object().unwrap();
        let kw = Keyword::from_name(keyword).unwrap();
        assert!(matches!(o.get(kw), Some(Value::Raw(_))), "{text}");
        assert_eq!(o.malformed().count(), 1);
        let mut children = 0;
        schema.for_each_child(|_, _| children += 1);
        assert_eq!(children, 0, "{text}");
    }
}

#[test]
fn malformed_values_deep_inside_are_reported_with_their_pointer() {
    let text = r#"{"properties":{"a/b":{"properties":{"c~d":{"required":true}}},"e":{"items":[{"type":5}]}},"anyOf":[{},{"properties":{"x":{"items":"x"}}}]}"#;
    let (schema, diags) = parse(text);
    assert_eq!(schema.to_json_string(), text);
    let got: Vec<String> = diags.iter().map(|d| d.to_string()).collect();
    assert_eq!(
        got,
        [
            "/properties/a~1b/properties/c~0d/required: expected an array of strings, found a boolean (kept as data)",
            "/properties/e/items/0/type: expected a type name or an array of type names, found an integer (kept as data)",
            "/anyOf/1/properties/x/items: expected a schema or an array of schemas, found a string (kept as data)",
        ]
    );
}

#[test]
fn properties_with_a_non_schema_value_keep_the_whole_map_verbatim() {
    let text = r#"{"properties": {"a": {"type": "string"}, "b": 5, "c": {"x": [1, 2]}}}"#;
    let (schema, diags) = parse(text);
    assert_eq!(
        schema.to_json_string(),
        r#"{"properties":{"a":{"type":"string"},"b":5,"c":{"x":[1,2]}}}"#
    );
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].pointer, "/properties");
    assert!(schema.as_object().unwrap().properties().is_none());
}

#[test]
fn unknown_keywords_are_kept_in_order_with_any_value() {
    let text = r#"{"x-b":{"z":1,"a":[true,null]},"type":"object","id":"draft4-id","x-a":-0.0,"nullable":true,"x-c":"\u00e9\n"}"#;
    let (schema, diags) = parse(text);
    assert!(diags.is_empty());
    assert_eq!(schema.to_json_string(), text);
    let o = schema.as_object().unwrap();
    let unknown: Vec<_> = o.unknown().map(|e| e.key.as_str()).collect();
    assert_eq!(unknown, ["x-b", "id", "x-a", "x-c"]);
    assert_eq!(o.malformed().count(), 0);
    assert_eq!(o.entries()[0].key, Key::Other("x-b".into()));
}

#[test]
fn non_object_roots_parse() {
    for (text, json, diag) in [
        ("true", "true", None),
        ("false", "false", None),
        (r#""x""#, "{}", Some(JsonType::String)),
        ("null", "{}", Some(JsonType::Null)),
        ("5", "{}", Some(JsonType::Integer)),
        ("-2.5", "{}", Some(JsonType::Number)),
        ("[]", "{}", Some(JsonType::Array)),
        (r#"[{"type":"string"}]"#, "{}", Some(JsonType::Array)),
    ] {
        let (schema, diags) = parse(text);
        assert_eq!(schema.to_json_string(), json, "{text}");
        match diag {
            None => assert!(diags.is_empty(), "{text}"),
            Some(found) => {
                assert_eq!(diags.len(), 1, "{text}");
                assert_eq!(diags[0].pointer, "");
                assert_eq!(diags[0].kind, DiagnosticKind::NotASchema { found });
            }
        }
        let v: serde_json::Value = serde_json::from_str(text).unwrap();
        assert_eq!(Schema::from_value(&v).to_json_string(), json, "{text}");
    }
}

#[test]
fn invalid_json_is_an_error_with_line_and_column() {
    for text in [
        "",
        "{",
        r#"{"type":}"#,
        "{} {}",
        r#"{"a":1,}"#,
        "[1,2",
        "\"\\x\"",
    ] {
        let err = Schema::from_str(text).unwrap_err();
        assert!(err.line() >= 1, "{text}");
        assert!(err.to_string().contains("line"), "{text}");
    }
}

#[test]
fn draft4_boolean_exclusive_bounds_are_typed() {
    let (schema, diags) = parse(r#"{"minimum":1,"exclusiveMinimum":true,"exclusiveMaximum":10}"#);
    assert!(diags.is_empty());
    let o = schema.as_object().unwrap();
    assert_eq!(o.bool(Keyword::ExclusiveMinimum), Some(true));
    assert_eq!(
        o.number(Keyword::ExclusiveMaximum).unwrap().as_u64(),
        Some(10)
    );
}

#[test]
fn numbers_keep_their_value_exactly() {
    for (text, out) in [
        // Spellings serde_json would change are kept verbatim (as an instance value).
        (r#"{"minimum":1e2}"#, r#"{"minimum":1e2}"#),
        (r#"{"maximum":-0}"#, r#"{"maximum":-0}"#),
        (
            r#"{"maximum":18446744073709551615}"#,
            r#"{"maximum":18446744073709551615}"#,
        ),
        (
            r#"{"minimum":-9223372036854775808}"#,
            r#"{"minimum":-9223372036854775808}"#,
        ),
        (r#"{"multipleOf":0.1}"#, r#"{"multipleOf":0.1}"#),
        (
            r#"{"maximum":1.7976931348623157e308}"#,
            r#"{"maximum":1.7976931348623157e308}"#,
        ),
    ] {
        let (schema, diags) = parse(text);
        assert!(diags.is_empty(), "{text}");
        assert_eq!(schema.to_json_string(), out);
        // Serializing and parsing again gives the very same tree.
        assert_eq!(Schema::from_str(&schema.to_json_string()).unwrap(), schema);
    }
    // A canonical spelling is read as a typed number; another is kept as written.
    let (schema, _) = parse(r#"{"minimum":0.5,"maximum":1e2}"#);
    let o = schema.as_object().unwrap();
    assert_eq!(
        o.number(schema_core::Keyword::Minimum)
            .map(|n| n.to_string()),
        Some("0.5".to_owned())
    );
    assert!(o.number(schema_core::Keyword::Maximum).is_none());
    // Out of range for a double: kept verbatim, reported.
    let (schema, diags) = parse(r#"{"maximum":1e400}"#);
    assert_eq!(schema.to_json_string(), r#"{"maximum":1e400}"#);
    assert_eq!(diags.len(), 1);
}

#[test]
fn duplicate_keys_keep_the_last_value_at_the_first_position() {
    let (schema, _) = parse(r#"{"type":"string","title":"t","type":"number"}"#);
    assert_eq!(schema.to_json_string(), r#"{"type":"number","title":"t"}"#);
}

/// The members of a map of subschemas are gathered first and the map made once: a name
/// given twice still keeps the last value at the first place, nested maps keep their own
/// members, and a map that turns out not to be one of schemas is kept as it was written.
#[test]
fn duplicate_property_names_keep_the_last_value_at_the_first_position() {
    let (schema, diags) = parse(
        r#"{"properties":{"a":{"type":"string"},"b":{"properties":{"x":{},"y":true,"x":{"type":"null"}}},"a":{"type":"integer"}},"$defs":{"d":{}}}"#,
    );
    assert!(diags.is_empty());
    assert_eq!(
        schema.to_json_string(),
        r#"{"properties":{"a":{"type":"integer"},"b":{"properties":{"x":{"type":"null"},"y":true}}},"$defs":{"d":{}}}"#
    );
    let (schema, diags) = parse(
        r#"{"properties":{"a":{},"b":{"properties":{"x":{}}},"a":{"type":"string"},"c":3,"d":{}},"title":"t"}"#,
    );
    assert_eq!(diags.len(), 1);
    assert_eq!(
        schema.to_json_string(),
        r#"{"properties":{"a":{"type":"string"},"b":{"properties":{"x":{}}},"c":3,"d":{}},"title":"t"}"#
    );
}

#[test]
fn strings_with_escapes_round_trip() {
    let text = r#"{"description":"a \"quoted\" \\ line\nbreak \u0001 \u00e9 é 😀","properties":{"k\"ey":{},"tab\t":{}},"pattern":"^\\d+$"}"#;
    let (schema, diags) = parse(text);
    assert!(diags.is_empty());
    let o = schema.as_object().unwrap();
    assert_eq!(
        o.description(),
        Some("a \"quoted\" \\ line\nbreak \u{1} é é 😀")
    );
    assert_eq!(o.string(Keyword::Pattern), Some(r"^\d+$"));
    // serde_json's escaping: `\u00e9` becomes `é`, control characters `\u0001`.
    let expected = r#"{"description":"a \"quoted\" \\ line\nbreak \u0001 é é 😀","properties":{"k\"ey":{},"tab\t":{}},"pattern":"^\\d+$"}"#;
    assert_eq!(schema.to_json_string(), expected);
    let again = Schema::from_str(&schema.to_json_string()).unwrap();
    assert_eq!(again, schema);
}

#[test]
fn floats_where_a_schema_belongs_are_kept_verbatim() {
    for text in [
        r#"{"not":1.5e3}"#,
        r#"{"anyOf":[{},1.50,{"type":"string"}]}"#,
        r#"{"properties":{"a":{},"b":-0.0,"c":{"x":1E+2}}}"#,
        r#"{"items":{"not":2.50},"x-y":1e1}"#,
        r#"{"dependencies":{"a":1.0e0}}"#,
        r#"{"properties":{"a/b~":{"not":1.5e3}}}"#,
    ] {
        let (schema, diags) = parse(text);
        assert_eq!(schema.to_json_string(), text);
        assert_eq!(diags.len(), 1, "{text}");
    }
    let pretty = "{\n  \"anyOf\": [ {},\n    1.50 ]\n}";
    assert_eq!(parse(pretty).0.to_json_string(), r#"{"anyOf":[{},1.50]}"#);
}
