//! Golden tests: the exact model-facing wording.

use serde_json::{Value, json};
use tool_calls::{ProblemKind, ValidateOptions, validate, validate_with};

fn envelope() -> Value {
    json!({
        "type": "object",
        "properties": {
            "namespace": {"type": "string"},
            "toolName": {"type": "string"},
            "arguments": {"type": "object"}
        },
        "required": ["namespace", "toolName", "arguments"]
    })
}

fn message(schema: &Value, args: Value) -> String {
    validate(schema, &args)
        .expect_err("should be invalid")
        .to_string()
}

#[test]
fn missing_field_with_alias_names_both() {
    let msg = message(
        &envelope(),
        json!({"namespace": "mail", "name": "search", "arguments": {}}),
    );
    assert_eq!(
        msg,
        "\"toolName\" is missing — you sent \"name\"; the field is \"toolName\"\n\
         Expected {\"namespace\":\"<string>\",\"toolName\":\"<string>\",\"arguments\":{...}}"
    );
}

#[test]
fn argument_aliases_map_to_arguments() {
    for alias in ["args", "params", "parameters", "input"] {
        let mut call = json!({"namespace": "mail", "toolName": "search"});
        call[alias] = json!({});
        let msg = message(&envelope(), call);
        assert!(
            msg.contains(&format!(
                "\"arguments\" is missing — you sent \"{alias}\"; the field is \"arguments\""
            )),
            "{msg}"
        );
    }
    for alias in ["tool", "function", "tool_name", "ToolName", "tool-name"] {
        let mut call = json!({"namespace": "mail", "arguments": {}});
        call[alias] = json!("search");
        let msg = message(&envelope(), call);
        assert!(
            msg.contains(&format!("you sent \"{alias}\"; the field is \"toolName\"")),
            "{msg}"
        );
    }
}

#[test]
fn edit_distance_matches_schema_fields() {
    let schema = json!({"type": "object", "properties": {"repository": {"type": "string"}}, "required": ["repository"]});
    let msg = message(&schema, json!({"repositroy": "x"}));
    assert!(
        msg.starts_with(
            "\"repository\" is missing — you sent \"repositroy\"; the field is \"repository\""
        ),
        "{msg}"
    );
}

#[test]
fn missing_field_without_alias_names_its_type() {
    let msg = message(&envelope(), json!({"namespace": "mail", "toolName": "x"}));
    assert!(
        msg.starts_with("\"arguments\" is missing — it is required (a JSON object)\n"),
        "{msg}"
    );
}

#[test]
fn wrong_type_names_both_types() {
    let msg = message(
        &envelope(),
        json!({"namespace": "mail", "toolName": "x", "arguments": "query=1"}),
    );
    assert!(
        msg.starts_with("\"arguments\" must be a JSON object, not a string — you sent \"query=1\""),
        "{msg}"
    );
    let msg = message(
        &envelope(),
        json!({"namespace": 7, "toolName": "x", "arguments": {}}),
    );
    assert!(
        msg.starts_with("\"namespace\" must be a string, not an integer — you sent 7"),
        "{msg}"
    );
}

#[test]
fn json_text_is_called_out() {
    let msg = message(
        &envelope(),
        json!({"namespace": "m", "toolName": "x", "arguments": "{\"q\": 1}"}),
    );
    assert!(msg.starts_with("\"arguments\" must be a JSON object, not a string — send the object itself, not JSON text"), "{msg}");
    let schema = json!({"type": "object", "properties": {"ids": {"type": "array"}}});
    let msg = message(&schema, json!({"ids": "[1,2]"}));
    assert!(
        msg.starts_with(
            "\"ids\" must be a JSON array, not a string — send the array itself, not JSON text"
        ),
        "{msg}"
    );
}

#[test]
fn lenient_mode_accepts_and_reports_json_text() {
    let ok = validate_with(
        &envelope(),
        &json!({"namespace": "m", "toolName": "x", "arguments": "{\"q\": 1}"}),
        &ValidateOptions::lenient(),
    )
    .expect("lenient accepts");
    assert_eq!(ok.arguments["arguments"], json!({"q": 1}));
    assert_eq!(
        ok.coercions[0].to_string(),
        "\"arguments\" was sent as JSON text; it was parsed and accepted — send the object itself, not JSON text"
    );
    // Text that parses but does not validate is still refused.
    let schema =
        json!({"type": "object", "properties": {"f": {"type": "object", "required": ["a"]}}});
    let err = validate_with(
        &schema,
        &json!({"f": "{\"b\": 1}"}),
        &ValidateOptions::lenient(),
    )
    .unwrap_err();
    assert!(
        err.to_string()
            .contains("send the object itself, not JSON text")
    );
}

#[test]
fn non_object_input_is_named() {
    let msg = message(&envelope(), json!("search mail"));
    assert_eq!(
        msg,
        "input is invalid: it must be an object, not a string — you sent \"search mail\"\n\
         Expected {\"namespace\":\"<string>\",\"toolName\":\"<string>\",\"arguments\":{...}}"
    );
    let msg = message(&envelope(), json!("{\"namespace\": \"m\"}"));
    assert!(msg.starts_with("input is invalid: it must be an object, not a string — send the object itself, not JSON text"), "{msg}");
    let msg = message(&envelope(), json!([1]));
    assert!(
        msg.starts_with("input is invalid: it must be an object, not a JSON array\n"),
        "{msg}"
    );
}

#[test]
fn enum_lists_allowed_values() {
    let schema = json!({"type": "object", "properties": {"unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}, "required": ["unit"]});
    let msg = message(&schema, json!({"unit": "kelvin"}));
    assert_eq!(
        msg,
        "\"unit\" must be one of \"celsius\", \"fahrenheit\" — you sent \"kelvin\"\nExpected {\"unit\":\"celsius\"}"
    );
}

#[test]
fn unknown_fields_list_allowed_names_closest_first() {
    let schema = json!({"type": "object", "properties": {"size": {}, "color": {}, "shape": {}}, "additionalProperties": false});
    let msg = message(&schema, json!({"colour": "red"}));
    assert!(
        msg.starts_with(
            "\"colour\" is not an allowed field — did you mean \"color\"? Allowed fields: color, "
        ),
        "{msg}"
    );
    let msg = message(&schema, json!({"zzz": 1}));
    assert!(
        msg.contains("\"zzz\" is not an allowed field — allowed fields: "),
        "{msg}"
    );
}

#[test]
fn bounds_are_stated() {
    let schema = json!({"type": "object", "properties": {
        "limit": {"type": "integer", "minimum": 1, "maximum": 100},
        "ratio": {"type": "number", "exclusiveMinimum": 0},
        "name": {"type": "string", "minLength": 3, "maxLength": 5},
        "tags": {"type": "array", "minItems": 1, "maxItems": 2, "uniqueItems": true},
        "step": {"type": "integer", "multipleOf": 5}
    }});
    let cases = [
        (
            json!({"limit": 500}),
            "\"limit\" must be at most 100 — you sent 500",
        ),
        (
            json!({"limit": 0}),
            "\"limit\" must be at least 1 — you sent 0",
        ),
        (
            json!({"limit": 1.5}),
            "\"limit\" must be an integer, not a number — you sent 1.5",
        ),
        (
            json!({"ratio": 0}),
            "\"ratio\" must be greater than 0 — you sent 0",
        ),
        (
            json!({"name": "ab"}),
            "\"name\" must be at least 3 characters long — you sent 2 characters",
        ),
        (
            json!({"name": "abcdef"}),
            "\"name\" must be at most 5 characters long — you sent 6 characters",
        ),
        (
            json!({"tags": []}),
            "\"tags\" must have at least 1 item — you sent 0",
        ),
        (
            json!({"tags": [1, 2, 3]}),
            "\"tags\" must have at most 2 items — you sent 3",
        ),
        (
            json!({"tags": [1, 1]}),
            "\"tags\" must not repeat items — items 0 and 1 are equal",
        ),
        (
            json!({"step": 7}),
            "\"step\" must be a multiple of 5 — you sent 7",
        ),
    ];
    for (args, expected) in cases {
        let msg = message(&schema, args);
        assert!(msg.starts_with(expected), "{msg}\n  expected: {expected}");
        assert!(msg.contains("\nExpected {\""), "{msg}");
    }
}

#[test]
fn patterns_and_formats_are_stated() {
    let schema = json!({"type": "object", "properties": {
        "id": {"type": "string", "pattern": "^[a-z]+$"},
        "when": {"type": "string", "format": "date-time"},
        "site": {"type": "string", "format": "uri"},
        "key": {"type": "string", "format": "uuid"},
        "mail": {"type": "string", "format": "email"}
    }, "required": ["when"]});
    let cases = [
        (
            json!({"when": "2024-01-01T00:00:00Z", "id": "ABC"}),
            "\"id\" must match the regular expression \"^[a-z]+$\" — you sent \"ABC\"",
        ),
        (
            json!({"when": "tomorrow"}),
            "\"when\" must be an RFC 3339 date-time, e.g. \"2024-01-31T09:30:00Z\" — you sent \"tomorrow\"",
        ),
        (
            json!({"when": "2024-01-01T00:00:00Z", "site": "example.com"}),
            "\"site\" must be an absolute URI with a scheme",
        ),
        (
            json!({"when": "2024-01-01T00:00:00Z", "key": "123"}),
            "\"key\" must be a UUID",
        ),
        (
            json!({"when": "2024-01-01T00:00:00Z", "mail": "bob"}),
            "\"mail\" must be an email address",
        ),
    ];
    for (args, expected) in cases {
        let msg = message(&schema, args);
        assert!(msg.starts_with(expected), "{msg}\n  expected: {expected}");
        assert!(
            msg.contains("\nExpected {\"when\":\"<date-time>\""),
            "{msg}"
        );
    }
}

#[test]
fn several_problems_are_listed() {
    let msg = message(&envelope(), json!({"ns": "m", "tool": "x", "arguments": 3}));
    assert_eq!(
        msg,
        "3 problems:\n\
         - \"namespace\" is missing — you sent \"ns\"; the field is \"namespace\"\n\
         - \"toolName\" is missing — you sent \"tool\"; the field is \"toolName\"\n\
         - \"arguments\" must be a JSON object, not an integer — you sent 3\n\
         Expected {\"namespace\":\"<string>\",\"toolName\":\"<string>\",\"arguments\":{...}}"
    );
}

#[test]
fn nested_paths_read_as_dotted() {
    let schema = json!({"type": "object", "properties": {"filters": {"type": "array", "items": {
        "type": "object", "properties": {"field": {"type": "string"}, "op": {"enum": ["eq", "ne"]}}, "required": ["field", "op"]}}}});
    let msg = message(
        &schema,
        json!({"filters": [{"field": "a", "op": "eq"}, {"fld": "b", "op": "gt"}]}),
    );
    assert!(msg.contains("- \"filters[1].field\" is missing — you sent \"filters[1].fld\"; the field is \"field\""), "{msg}");
    assert!(
        msg.contains("- \"filters[1].op\" must be one of \"eq\", \"ne\" — you sent \"gt\""),
        "{msg}"
    );
    // The example mirrors the fields the call used.
    assert!(
        msg.ends_with("Expected {\"filters\":[{\"field\":\"<string>\",\"op\":\"eq\"}]}"),
        "{msg}"
    );
}

#[test]
fn any_of_reports_the_branch_meant() {
    let schema = json!({"type": "object", "properties": {"target": {"anyOf": [
        {"type": "object", "properties": {"kind": {"const": "user"}, "id": {"type": "integer"}}, "required": ["kind", "id"]},
        {"type": "object", "properties": {"kind": {"const": "team"}, "slug": {"type": "string"}}, "required": ["kind", "slug"]},
        {"type": "null"}
    ]}}});
    let msg = message(&schema, json!({"target": {"kind": "team"}}));
    assert!(
        msg.starts_with("\"target.slug\" is missing — it is required (a string)"),
        "{msg}"
    );
    let msg = message(&schema, json!({"target": 5}));
    assert!(
        msg.starts_with("\"target\" must be a JSON object or null, not an integer — you sent 5"),
        "{msg}"
    );
    let msg = message(&schema, json!({"target": "{\"kind\":\"user\",\"id\":1}"}));
    assert!(
        msg.contains("send the object itself, not JSON text"),
        "{msg}"
    );
}

#[test]
fn one_of_with_several_matches_says_so() {
    let schema = json!({"oneOf": [{"type": "integer"}, {"minimum": 2}]});
    let err = validate(&schema, &json!(3)).unwrap_err();
    assert!(matches!(
        err.problems()[0].kind,
        ProblemKind::SeveralAlternatives { .. }
    ));
    assert!(
        err.to_string().starts_with(
            "input matches alternatives 0 and 1 of a oneOf, but must match exactly one"
        )
    );
}

#[test]
fn dependent_required_says_why() {
    let schema = json!({"type": "object", "dependentRequired": {"until": ["since"]}});
    let msg = message(&schema, json!({"until": "x"}));
    assert!(
        msg.starts_with("\"since\" is missing — it is required when \"until\" is present"),
        "{msg}"
    );
}

#[test]
fn nullable_accepts_null() {
    let schema =
        json!({"type": "object", "properties": {"n": {"type": "string", "nullable": true}}});
    assert!(validate(&schema, &json!({"n": null})).is_ok());
    let msg = message(&schema, json!({"n": 1}));
    assert!(
        msg.starts_with("\"n\" must be a string or null, not an integer"),
        "{msg}"
    );
}

#[test]
fn refs_resolve_with_cycles() {
    let schema = json!({
        "$defs": {"node": {"type": "object", "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/node"}}, "name": {"type": "string"}}, "required": ["name"]}},
        "$ref": "#/$defs/node"
    });
    assert!(
        validate(
            &schema,
            &json!({"name": "a", "children": [{"name": "b", "children": []}]})
        )
        .is_ok()
    );
    let msg = message(&schema, json!({"name": "a", "children": [{"nam": "b"}]}));
    assert!(
        msg.starts_with("\"children[0].name\" is missing — you sent \"children[0].nam\""),
        "{msg}"
    );
    assert!(validate(&json!({"$ref": "#"}), &json!(1)).is_ok());
    assert!(validate(&json!({"definitions": {"a": {"$ref": "#/definitions/b"}, "b": {"$ref": "#/definitions/a"}}, "$ref": "#/definitions/a"}), &json!(1)).is_ok());
}

#[test]
fn deep_nesting_is_bounded() {
    let mut args = json!(1);
    for _ in 0..200 {
        args = json!({"a": args});
    }
    let schema = json!({"$ref": "#/$defs/n", "$defs": {"n": {"type": ["object", "integer"], "additionalProperties": {"$ref": "#/$defs/n"}}}});
    let err = validate(&schema, &args).unwrap_err();
    assert!(matches!(
        err.problems()[0].kind,
        ProblemKind::TooDeep { limit: 64 }
    ));
    assert!(
        err.to_string()
            .contains("is nested too deeply (more than 64 levels)")
    );
}

#[test]
fn worked_example_is_bounded() {
    let props: serde_json::Map<String, Value> = (0..200)
        .map(|i| (format!("field_number_{i}"), json!({"type": "string"})))
        .collect();
    let names: Vec<&String> = props.keys().collect();
    let schema = json!({"type": "object", "properties": props, "required": names});
    let err = validate(&schema, &json!({})).unwrap_err();
    assert!(err.example().chars().count() <= 400);
    assert!(err.example().ends_with("..."));
    assert!(err.to_string().contains("- … and 180 more"));
}
