//! A dispatch loop, no network: the "model" is a script of tool calls, as an LLM would send
//! them. Each call is validated; an invalid one is answered with the model-facing message, and
//! the next (corrected) call goes through to the tool.
//!
//! Run: `cargo run -p tool-calls --example dispatch`

use serde_json::{Value, json};
use tool_calls::{Tool, ToolCatalog, ToolError};

/// A stand-in for the model: the calls it makes, turn by turn, each reacting to the last answer.
fn scripted_model() -> Vec<(&'static str, Value)> {
    vec![
        // Discovers what there is.
        ("get_dynamic_tools", json!({})),
        (
            "get_dynamic_tools",
            json!({"namespace": "mail", "pattern": "search"}),
        ),
        // Calls with a misnamed field and JSON text for the arguments...
        (
            "call_dynamic_tool",
            json!({"namespace": "mail", "name": "search", "arguments": "{\"query\": \"invoices\"}"}),
        ),
        // ...reads the message, fixes the envelope, but gets an argument out of range...
        (
            "call_dynamic_tool",
            json!({"namespace": "mail", "toolName": "search", "arguments": {"query": "invoices", "limit": 500}}),
        ),
        // ...and corrects it in one step.
        (
            "call_dynamic_tool",
            json!({"namespace": "mail", "toolName": "search", "arguments": {"query": "invoices", "limit": 20}}),
        ),
        // A typo in the tool name is answered with the names there are.
        (
            "call_dynamic_tool",
            json!({"namespace": "mail", "toolName": "serch", "arguments": {"query": "x"}}),
        ),
    ]
}

fn catalog() -> ToolCatalog {
    let mut catalog = ToolCatalog::new();
    catalog.describe_namespace("mail", "Search and send email");
    catalog.register(
        "mail",
        Tool::new(
            "search",
            "Search the mailbox; returns matching subjects.",
            json!({
                "type": "object",
                "properties": {
                    "query": {"type": "string", "minLength": 1},
                    "limit": {"type": "integer", "minimum": 1, "maximum": 50}
                },
                "required": ["query"],
                "additionalProperties": false
            }),
        )
        .with_handler(|args: Value| {
            let query = args["query"].as_str().unwrap_or_default();
            let limit = args.get("limit").and_then(Value::as_u64).unwrap_or(10);
            Ok(json!({"subjects": [format!("Re: {query} (1 of {limit})")]}))
        }),
    );
    catalog.register(
        "mail",
        Tool::new(
            "send",
            "Send an email.",
            json!({"type": "object", "properties": {"to": {"type": "string", "format": "email"}, "body": {"type": "string"}}, "required": ["to", "body"]}),
        )
        .with_handler(|_: Value| Err(ToolError::new("sending is disabled in this example"))),
    );
    catalog
}

fn main() {
    let catalog = catalog();
    // What the model is given instead of every tool.
    for tool in catalog.meta_tools() {
        println!("declared tool {}: {}", tool.name, tool.input_schema);
    }
    for (turn, (name, input)) in scripted_model().into_iter().enumerate() {
        println!("\n--- turn {turn}: model calls {name} {input}");
        // The answer goes back to the model as the tool result (an error as is_error / status).
        match catalog.handle_meta_call(name, &input) {
            Ok(result) => println!("tool result: {result}"),
            Err(err) => println!("tool error (sent to the model):\n{err}"),
        }
    }
}
