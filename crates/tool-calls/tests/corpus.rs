//! Over the real MCP tool lists: a generated argument object validates, and each one-thing
//! mutation of it gets a message that names the mutated field and the fix.

use serde_json::{Value, json};
use std::path::Path;
use tool_calls::{ProblemKind, Tool, ToolCatalog, example_arguments, validate};

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/corpus/mcp");

fn tools() -> Vec<(String, Value)> {
    let mut out = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(Path::new(CORPUS))
        .expect("corpus")
        .flatten()
        .map(|e| e.path())
        .collect();
    files.sort();
    for path in files
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
    {
        let text = std::fs::read_to_string(&path).expect("read");
        let doc: Value = serde_json::from_str(&text).expect("json");
        let server = doc["server"].as_str().unwrap_or("?").to_owned();
        for tool in doc["tools"].as_array().into_iter().flatten() {
            out.push((
                format!("{server}/{}", tool["name"].as_str().unwrap_or("?")),
                tool.clone(),
            ));
        }
    }
    out
}

/// The root property schema of `name`, when the root declares it.
fn prop<'a>(schema: &'a Value, name: &str) -> Option<&'a Value> {
    schema.get("properties")?.get(name)
}

fn single_type(schema: &Value) -> Option<&str> {
    schema.get("type")?.as_str()
}

/// A key a model might send instead of `field`: camelCase for snake_case and back, else capitalized.
fn alias_of(field: &str) -> String {
    if field.contains('_') {
        let mut out = String::new();
        let mut upper = false;
        for c in field.chars() {
            if c == '_' {
                upper = true;
            } else if upper {
                out.extend(c.to_uppercase());
                upper = false;
            } else {
                out.push(c);
            }
        }
        out
    } else if field.chars().any(char::is_uppercase) {
        field
            .chars()
            .flat_map(|c| {
                if c.is_uppercase() {
                    vec!['_', c.to_ascii_lowercase()]
                } else {
                    vec![c]
                }
            })
            .collect()
    } else {
        let mut chars = field.chars();
        chars
            .next()
            .map(|c| c.to_uppercase().chain(chars).collect())
            .unwrap_or_default()
    }
}

fn expect_message(
    tool: &str,
    schema: &Value,
    args: &Value,
    fragments: &[String],
    failures: &mut Vec<String>,
) {
    match validate(schema, args) {
        Ok(()) => failures.push(format!("{tool}: mutation accepted: {args}")),
        Err(err) => {
            let msg = err.to_string();
            if !msg.contains("\nExpected ") && !msg.starts_with("Expected ") {
                failures.push(format!("{tool}: no worked example: {msg}"));
            }
            for f in fragments {
                if !msg.contains(f.as_str()) {
                    failures.push(format!("{tool}: message lacks {f:?}:\n{msg}"));
                }
            }
        }
    }
}

#[test]
fn generated_arguments_validate_and_mutations_are_explained() {
    let all = tools();
    assert!(all.len() >= 700, "corpus has {} tools", all.len());
    let mut failures = Vec::new();
    let mut valid = 0;
    let mut pattern_misses = 0;
    let mut counts = [0usize; 5];
    for (name, tool) in &all {
        let schema = &tool["inputSchema"];
        let args = example_arguments(schema);
        if let Err(err) = validate(schema, &args) {
            // The generator is no regex solver: a pattern it has no candidate for is tolerated.
            if err
                .problems()
                .iter()
                .all(|p| matches!(p.kind, ProblemKind::PatternMismatch { .. }))
            {
                pattern_misses += 1;
            } else {
                failures.push(format!("{name}: generated {args} is invalid:\n{err}"));
            }
            continue;
        }
        valid += 1;
        let Some(obj) = args.as_object() else {
            continue;
        };
        let required: Vec<&str> = schema["required"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .filter(|r| obj.contains_key(*r))
            .collect();

        // 1. Drop a required field.
        if let Some(field) = required.first() {
            let mut m = args.clone();
            m.as_object_mut().map(|o| o.remove(*field));
            expect_message(
                name,
                schema,
                &m,
                &[format!("\"{field}\" is missing")],
                &mut failures,
            );
            counts[0] += 1;
        }
        // 2. Rename a required key to an alias.
        if let Some(field) = required.iter().find(|f| {
            let a = alias_of(f);
            a != **f && prop(schema, &a).is_none()
        }) {
            let alias = alias_of(field);
            let mut m = args.clone();
            if let Some(o) = m.as_object_mut() {
                let v = o.remove(*field).unwrap_or(Value::Null);
                o.insert(alias.clone(), v);
            }
            expect_message(
                name,
                schema,
                &m,
                &[format!(
                    "\"{field}\" is missing — you sent \"{alias}\"; the field is \"{field}\""
                )],
                &mut failures,
            );
            counts[1] += 1;
        }
        // 3. Stringify an object- or array-valued field.
        if let Some((field, value)) = obj.iter().find(|(k, v)| {
            (v.is_object() || v.is_array())
                && prop(schema, k)
                    .and_then(single_type)
                    .is_some_and(|t| t == "object" || t == "array")
        }) {
            let mut m = args.clone();
            m[field] = Value::String(value.to_string());
            let what = if value.is_object() { "object" } else { "array" };
            expect_message(
                name,
                schema,
                &m,
                &[
                    format!("\"{field}\" must be"),
                    format!("send the {what} itself, not JSON text"),
                ],
                &mut failures,
            );
            counts[2] += 1;
        }
        // 4. Wrong type.
        if let Some((field, t)) = obj
            .keys()
            .find_map(|k| prop(schema, k).and_then(single_type).map(|t| (k, t)))
        {
            let mut m = args.clone();
            m[field] = if t == "string" {
                json!(12345)
            } else {
                json!(true)
            };
            if t == "boolean" {
                m[field] = json!("yes");
            }
            expect_message(
                name,
                schema,
                &m,
                &[format!("\"{field}\" must be")],
                &mut failures,
            );
            counts[3] += 1;
        }
        // 5. A value outside an enum.
        let enum_field = schema["properties"]
            .as_object()
            .into_iter()
            .flatten()
            .find_map(|(k, p)| {
                let values = p.get("enum")?.as_array()?;
                (values.len() > 1 && values.iter().all(Value::is_string))
                    .then(|| (k.clone(), values[0].clone()))
            });
        if let Some((field, first)) = enum_field {
            let mut m = args.clone();
            m[&field] = json!("not-a-valid-value");
            expect_message(
                name,
                schema,
                &m,
                &[format!("\"{field}\" must be one of {first}")],
                &mut failures,
            );
            counts[4] += 1;
        }
    }
    let report = failures
        .iter()
        .take(20)
        .cloned()
        .collect::<Vec<_>>()
        .join("\n\n");
    assert!(
        failures.is_empty(),
        "{} failures (of {} tools, {valid} generated valid):\n{report}",
        failures.len(),
        all.len()
    );
    eprintln!(
        "corpus: {} tools, {valid} valid examples, mutations (drop, alias, stringify, type, enum): {counts:?}",
        all.len()
    );
    assert!(counts.iter().all(|c| *c >= 20), "{counts:?}");
    assert!(
        pattern_misses * 100 <= all.len(),
        "{pattern_misses} tools with unsatisfied patterns"
    );
}

#[test]
fn every_corpus_tool_resolves_and_describes() {
    let mut catalog = ToolCatalog::new();
    for (name, tool) in tools() {
        let (server, _) = name.split_once('/').unwrap_or(("?", ""));
        if let Some(t) = Tool::from_mcp(&tool) {
            catalog.register(server, t);
        }
    }
    assert!(catalog.len() >= 700);
    let servers: Vec<String> = catalog.namespaces().map(|(n, _, _)| n.to_owned()).collect();
    for ns in &servers {
        let names: Vec<String> = catalog
            .tools(ns)
            .expect("ns")
            .map(|t| t.name().to_owned())
            .collect();
        for name in names {
            let d = catalog.lookup(ns, &name).expect("lookup");
            assert_eq!(d.call_with["namespace"], json!(ns));
            // A typo'd name is answered with the real name first.
            let typo = format!("{name}x");
            let err = catalog.get(ns, &typo).unwrap_err().to_string();
            assert!(
                err.contains(&format!("Tools in this namespace: {name}")),
                "{err}"
            );
            // The meta-tool dispatch validates the generated arguments.
            let args = example_arguments(&d.input_schema);
            if validate(&d.input_schema, &args).is_ok() {
                let call = catalog.prepare_dynamic_call(
                    &json!({"namespace": ns, "toolName": name, "arguments": args}),
                );
                assert!(
                    call.is_ok(),
                    "{ns}/{name}: {}",
                    call.err().map(|e| e.to_string()).unwrap_or_default()
                );
            }
        }
    }
}
