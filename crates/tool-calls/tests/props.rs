//! Property tests: no input makes validation, the example generator or the meta-tool handler panic.

use proptest::prelude::*;
use serde_json::{Map, Value, json};
use tool_calls::{
    Tool, ToolCatalog, ValidateOptions, example_arguments, validate, validate_with, worked_example,
};

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        (-1e6f64..1e6).prop_map(|f| json!(f)),
        "[a-z{}\\[\\]\":,0-9 ]{0,12}".prop_map(Value::String),
    ]
}

/// Arbitrary JSON.
fn any_json() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(5, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec(("[a-c]{1,2}", inner), 0..5)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

const KEYWORDS: &[&str] = &[
    "type",
    "enum",
    "const",
    "required",
    "properties",
    "additionalProperties",
    "patternProperties",
    "items",
    "prefixItems",
    "minItems",
    "maxItems",
    "minLength",
    "maxLength",
    "minProperties",
    "maxProperties",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "uniqueItems",
    "pattern",
    "format",
    "anyOf",
    "oneOf",
    "allOf",
    "not",
    "if",
    "then",
    "else",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "propertyNames",
    "contains",
    "minContains",
    "maxContains",
    "nullable",
    "$ref",
    "$defs",
    "definitions",
    "additionalItems",
    "$anchor",
];

/// Schema-shaped JSON: objects whose keys are keywords, values arbitrary or nested schemas.
fn any_schema() -> impl Strategy<Value = Value> {
    let keyword_value = prop_oneof![
        any_json(),
        Just(json!("object")),
        Just(json!(["string", "null"])),
        Just(json!("#")),
        Just(json!("#/$defs/a")),
        Just(json!("#/definitions/a/properties/a")),
        Just(json!("^(a|b)*$")),
        Just(json!("date-time")),
        Just(json!(["a", "b"])),
        Just(json!(0)),
    ];
    let base = prop::collection::vec((prop::sample::select(KEYWORDS), keyword_value), 0..5)
        .prop_map(|kv| {
            Value::Object(
                kv.into_iter()
                    .map(|(k, v)| (k.to_owned(), v))
                    .collect::<Map<_, _>>(),
            )
        });
    base.prop_recursive(4, 32, 4, |inner| {
        prop_oneof![
            (prop::sample::select(&["anyOf", "oneOf", "allOf", "prefixItems"][..]), prop::collection::vec(inner.clone(), 0..3))
                .prop_map(|(k, v)| json!({k: v})),
            (prop::sample::select(&["not", "items", "additionalProperties", "if", "then", "else", "contains", "propertyNames"][..]), inner.clone())
                .prop_map(|(k, v)| json!({k: v})),
            prop::collection::vec(("[a-c]", inner.clone()), 0..3).prop_map(|kv| {
                let props: Map<String, Value> = kv.into_iter().collect();
                let names: Vec<String> = props.keys().cloned().collect();
                json!({"type": "object", "properties": props, "required": names, "$defs": {"a": {"$ref": "#"}}})
            }),
            (inner.clone(), inner).prop_map(|(a, b)| json!({"$defs": {"a": a}, "definitions": {"a": b}, "$ref": "#/$defs/a"})),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn validate_never_panics(schema in any_schema(), instance in any_json()) {
        let strict = validate(&schema, &instance);
        let lenient = validate_with(&schema, &instance, &ValidateOptions::lenient());
        if let Err(e) = &strict {
            let msg = e.to_string();
            prop_assert!(msg.contains("Expected "));
            prop_assert!(e.example().chars().count() <= 400);
        }
        // Lenient only ever accepts more.
        if strict.is_ok() {
            prop_assert!(lenient.is_ok());
        }
    }

    #[test]
    fn arbitrary_json_as_schema_never_panics(schema in any_json(), instance in any_json()) {
        let _ = validate(&schema, &instance);
        let _ = worked_example(&schema);
        let _ = example_arguments(&schema);
    }

    #[test]
    fn examples_never_panic(schema in any_schema()) {
        prop_assert!(worked_example(&schema).chars().count() <= 400);
        let _ = example_arguments(&schema);
    }

    #[test]
    fn meta_tools_never_panic(schema in any_schema(), input in any_json(), name in "[a-z_]{0,20}") {
        let mut catalog = ToolCatalog::new();
        catalog.register("ns", Tool::new("tool", "d", schema));
        let _ = catalog.handle_meta_call("get_dynamic_tools", &input);
        let _ = catalog.handle_meta_call("call_dynamic_tool", &input);
        let _ = catalog.call_dynamic_tool(&json!({"namespace": "ns", "toolName": name, "arguments": input}));
        let _ = catalog.call_dynamic_tool(&json!({"namespace": "ns", "toolName": "tool", "arguments": input}));
    }
}

#[test]
fn deeply_nested_schemas_and_instances_do_not_overflow() {
    let mut schema = json!({"type": "string"});
    let mut instance = json!("x");
    for _ in 0..120 {
        schema =
            json!({"anyOf": [{"type": "object", "properties": {"a": schema}}, {"type": "null"}]});
        instance = json!({"a": instance});
    }
    let _ = validate(&schema, &instance);
    let _ = worked_example(&schema);
    let _ = example_arguments(&schema);
}
