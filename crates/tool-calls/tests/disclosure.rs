//! The catalogue and the two meta-tools.

use serde_json::{Value, json};
use tool_calls::{DispatchError, Tool, ToolCatalog, ToolError, ValidateOptions};

fn mail() -> ToolCatalog {
    let mut c = ToolCatalog::new();
    c.describe_namespace("mail", "Read and send email");
    c.register(
        "mail",
        Tool::new(
            "search",
            "Search the mailbox.\nSecond line.",
            json!({"type": "object", "properties": {"query": {"type": "string"}, "limit": {"type": "integer", "maximum": 50}}, "required": ["query"], "additionalProperties": false}),
        )
        .with_handler(|args: Value| Ok(json!({"hits": [], "query": args["query"]}))),
    );
    c.register(
        "mail",
        Tool::new("send", "Send an email", json!({"type": "object", "properties": {"to": {"type": "string", "format": "email"}}, "required": ["to"]}))
            .with_handler(|_: Value| Err(ToolError::new("mailbox is read-only"))),
    );
    c.register(
        "calendar",
        Tool::new("list_events", "List events", json!({"type": "object"})),
    );
    c
}

/// Asserts the portable subset every provider accepts.
fn assert_portable(schema: &Value, path: &str) {
    let map = schema
        .as_object()
        .unwrap_or_else(|| panic!("{path}: a schema must be an object"));
    for banned in [
        "$ref",
        "$defs",
        "definitions",
        "additionalProperties",
        "const",
        "oneOf",
        "allOf",
        "anyOf",
        "not",
        "prefixItems",
        "patternProperties",
    ] {
        assert!(!map.contains_key(banned), "{path}: has {banned}");
    }
    let ty = map
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("{path}: type must be one string"));
    if let Some(values) = map.get("enum") {
        assert!(
            values
                .as_array()
                .is_some_and(|v| v.iter().all(Value::is_string)),
            "{path}: enum must be strings"
        );
    }
    match ty {
        "object" => {
            let props = map
                .get("properties")
                .and_then(Value::as_object)
                .unwrap_or_else(|| panic!("{path}: object without properties"));
            for name in map
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let name = name.as_str().unwrap_or_default();
                assert!(
                    props.contains_key(name),
                    "{path}: required {name} not defined"
                );
            }
            for (name, sub) in props {
                let ok = !name.is_empty()
                    && name.len() <= 64
                    && name
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
                assert!(ok, "{path}: property name {name}");
                assert_portable(sub, &format!("{path}/properties/{name}"));
            }
        }
        "array" => assert_portable(
            map.get("items")
                .unwrap_or_else(|| panic!("{path}: array without items")),
            &format!("{path}/items"),
        ),
        "string" | "number" | "integer" | "boolean" => {}
        other => panic!("{path}: type {other}"),
    }
}

#[test]
fn meta_tool_schemas_are_portable() {
    let tools = mail().meta_tools();
    assert_eq!(tools[0].name, "get_dynamic_tools");
    assert_eq!(tools[1].name, "call_dynamic_tool");
    for t in &tools {
        let name_ok = t.name.len() <= 64
            && t.name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
        assert!(name_ok);
        assert_eq!(t.input_schema["type"], "object", "root must be an object");
        assert_portable(&t.input_schema, t.name);
    }
    assert!(
        tools[0]
            .description
            .contains("mail (2 tools): Read and send email; calendar (1 tool)")
    );
}

#[test]
fn unknown_tool_lists_closest_first() {
    let c = mail();
    let err = c.get("mail", "serch").unwrap_err();
    assert_eq!(
        err.to_string(),
        "Tool not found: \"serch\" in namespace \"mail\". Tools in this namespace: search, send"
    );
    let err = c.get("mail", "list_events").unwrap_err();
    assert!(
        err.to_string()
            .ends_with("A tool named \"list_events\" is in namespace \"calendar\""),
        "{err}"
    );
    let err = c.get("mial", "search").unwrap_err();
    assert_eq!(
        err.to_string(),
        "Namespace not found: \"mial\". Namespaces: mail, calendar"
    );
}

#[test]
fn unknown_tool_list_is_bounded() {
    let mut c = ToolCatalog::new();
    for i in 0..100 {
        c.register("big", Tool::new(format!("tool_{i:03}"), "", json!({})));
    }
    let msg = c.get("big", "tool_0").unwrap_err().to_string();
    assert!(msg.ends_with(", … (100 in total)"), "{msg}");
    assert_eq!(msg.matches("tool_").count(), 41, "{msg}");
}

#[test]
fn get_dynamic_tools_lists_and_describes() {
    let c = mail();
    let all = c.get_dynamic_tools(&json!({})).unwrap();
    assert_eq!(
        all["namespaces"][0],
        json!({"namespace": "mail", "description": "Read and send email", "tools": 2})
    );
    let listed = c
        .get_dynamic_tools(&json!({"namespace": "mail", "pattern": "SEARCH"}))
        .unwrap();
    assert_eq!(
        listed["tools"],
        json!([{"toolName": "search", "description": "Search the mailbox."}])
    );
    let listed = c
        .get_dynamic_tools(&json!({"namespace": "mail", "pattern": "s*d"}))
        .unwrap();
    assert_eq!(listed["tools"][0]["toolName"], "send");
    let described = c
        .get_dynamic_tools(&json!({"namespace": "mail", "toolName": "search"}))
        .unwrap();
    assert_eq!(
        described["callWith"],
        json!({"namespace": "mail", "toolName": "search", "arguments": {"query": "<string>"}})
    );
    assert_eq!(described["inputSchema"]["required"], json!(["query"]));
    assert_eq!(
        described["description"],
        "Search the mailbox.\nSecond line."
    );
    // toolName alone, unique across namespaces.
    let described = c
        .get_dynamic_tools(&json!({"toolName": "list_events"}))
        .unwrap();
    assert_eq!(described["namespace"], "calendar");
    // A misnamed key is answered with the name meant.
    let err = c
        .get_dynamic_tools(&json!({"namespace": "mail", "tool": "search"}))
        .unwrap_err();
    assert!(
        err.to_string()
            .starts_with("\"tool\" is not an allowed field — did you mean \"toolName\"?"),
        "{err}"
    );
    let err = c
        .get_dynamic_tools(&json!({"namespace": "mail", "toolName": "serch"}))
        .unwrap_err();
    assert!(err.to_string().starts_with(
        "Tool not found: \"serch\" in namespace \"mail\". Tools in this namespace: search, send"
    ));
}

#[test]
fn call_dynamic_tool_dispatches_valid_calls() {
    let c = mail();
    let out = c
        .handle_meta_call(
            "call_dynamic_tool",
            &json!({"namespace": "mail", "toolName": "search", "arguments": {"query": "rust"}}),
        )
        .unwrap();
    assert_eq!(out, json!({"hits": [], "query": "rust"}));
}

#[test]
fn envelope_mistakes_get_pointed_messages() {
    let c = mail();
    let err = c
        .call_dynamic_tool(&json!({"namespace": "mail", "name": "search", "args": {"query": "x"}}))
        .unwrap_err();
    assert!(matches!(err, DispatchError::Envelope(_)));
    assert_eq!(
        err.to_string(),
        "2 problems:\n\
         - \"toolName\" is missing — you sent \"name\"; the field is \"toolName\"\n\
         - \"arguments\" is missing — you sent \"args\"; the field is \"arguments\"\n\
         Expected {\"namespace\":\"mail\",\"toolName\":\"search\",\"arguments\":{\"query\":\"<string>\"}}"
    );
    let err = c
        .call_dynamic_tool(
            &json!({"namespace": "mail", "toolName": "search", "arguments": "{\"query\":\"x\"}"}),
        )
        .unwrap_err();
    assert!(
        err.to_string().starts_with("\"arguments\" must be a JSON object, not a string — send the object itself, not JSON text\n"),
        "{err}"
    );
    let err = c.call_dynamic_tool(&json!("call search")).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("input is invalid: it must be an object, not a string"),
        "{err}"
    );
    let err = c
        .call_dynamic_tool(&json!({"namespace": "mail", "toolName": "serch", "arguments": {}}))
        .unwrap_err();
    assert!(err.to_string().starts_with(
        "Tool not found: \"serch\" in namespace \"mail\". Tools in this namespace: search, send"
    ));
}

#[test]
fn inner_arguments_are_validated_against_the_original_schema() {
    let c = mail();
    let err = c.call_dynamic_tool(&json!({"namespace": "mail", "toolName": "search", "arguments": {"q": "x", "limit": 500}})).unwrap_err();
    assert_eq!(
        err.to_string(),
        "Invalid arguments for tool \"search\" in namespace \"mail\":\n\
         3 problems:\n\
         - \"arguments.query\" is missing — it is required (a string)\n\
         - \"arguments.limit\" must be at most 50 — you sent 500\n\
         - \"arguments.q\" is not an allowed field — allowed fields: query, limit\n\
         Expected {\"namespace\":\"mail\",\"toolName\":\"search\",\"arguments\":{\"query\":\"<string>\",\"limit\":0}}"
    );
}

#[test]
fn lenient_catalogue_repairs_json_text_and_reports_it() {
    let c = mail().with_options(ValidateOptions::lenient());
    let call = c
        .prepare_dynamic_call(
            &json!({"namespace": "mail", "toolName": "search", "arguments": "{\"query\":\"x\"}"}),
        )
        .unwrap();
    assert_eq!(call.arguments, json!({"query": "x"}));
    assert_eq!(call.coercions[0].pointer, "/arguments");
    assert_eq!(
        c.call_dynamic_tool(
            &json!({"namespace": "mail", "toolName": "search", "arguments": "{\"query\":\"x\"}"})
        )
        .unwrap()["query"],
        "x"
    );
}

#[test]
fn tool_failures_and_missing_handlers_are_reported() {
    let c = mail();
    let err = c
        .call_dynamic_tool(
            &json!({"namespace": "mail", "toolName": "send", "arguments": {"to": "a@example.com"}}),
        )
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "Tool \"send\" in namespace \"mail\" failed: mailbox is read-only"
    );
    let err = c
        .call_dynamic_tool(
            &json!({"namespace": "calendar", "toolName": "list_events", "arguments": {}}),
        )
        .unwrap_err();
    assert!(matches!(err, DispatchError::NoHandler { .. }));
    let err = c.handle_meta_call("get_tools", &json!({})).unwrap_err();
    assert_eq!(
        err.to_string(),
        "Tool not found: \"get_tools\". Tools: get_dynamic_tools, call_dynamic_tool"
    );
}
