//! The API shapes added after the first table (issue 5): OpenAI Responses tools carried by
//! `additional_tools` / `tool_search_output` input items, Ollama's native `/api/chat` (`tools`
//! and the structured-output `format`), Cohere Chat v2 (`tools` and
//! `response_format.json_schema`). Real-looking bodies built from the corpus tools, the real
//! `provider_rules` profiles, through `sanitize_body` and through the layer on `auto`.

use std::convert::Infallible;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use serde_json::{Value, json};
use tower::{Layer, ServiceExt};
use tower_toolschema::report::{Outcome, SanitizeReport};
use tower_toolschema::shapes::{Api, ApiShape, SlotRole};
use tower_toolschema::{Profile, ToolSchemaBody, ToolSchemaLayer, sanitize_body};

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/corpus");

/// `(name, description, inputSchema)` of every tool of one corpus server.
fn server_tools(file: &str) -> Vec<(String, String, Value)> {
    let path = format!("{CORPUS}/mcp/{file}");
    let v: Value =
        serde_json::from_slice(&std::fs::read(&path).expect("corpus file")).expect("corpus JSON");
    v["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .filter_map(|t| {
            Some((
                t["name"].as_str()?.to_owned(),
                t["description"].as_str().unwrap_or("").to_owned(),
                t.get("inputSchema")?.clone(),
            ))
        })
        .collect()
}

/// Tools from a few servers whose schemas need rewriting for most providers.
fn tools() -> Vec<(String, String, Value)> {
    let mut all = Vec::new();
    for f in ["azure-mcp.json", "desktop-commander.json", "dbhub.json"] {
        all.extend(server_tools(f).into_iter().take(6));
    }
    assert!(all.len() >= 12);
    all
}

/// History whose keys look like schema keywords; it must come out byte-identical.
const HISTORY_ITEMS: &str = r##"{"role":"user","content":"caf\u00e9  1.0e0"},
  {"type":"function_call","call_id":"c1","name":"f","arguments":"{\"title\":\"x\",\"format\":\"date\"}"},
  {"type":"function_call_output","call_id":"c1","output":"{\"$ref\":\"#/x\",\"default\":1.0e0}"},
  {"type":"mcp_list_tools","server_label":"s","tools":[{"name":"m","input_schema":{"type":["string","null"],"format":"date"}}]}"##;

const CHAT_HISTORY: &str = r##"[{"role":"user","content":"caf\u00e9  1.0e0"},
  {"role":"assistant","tool_calls":[{"function":{"name":"f","arguments":{"title":"x","format":"date","type":["a","b"],"parameters":{"$ref":"#/x"}}}}]},
  {"role":"tool","content":"{\"default\":1.0e0}"}]"##;

fn s(v: &Value) -> String {
    serde_json::to_string(v).unwrap()
}

fn at<'a>(v: &'a Value, pointer: &str) -> &'a Value {
    v.pointer(pointer)
        .unwrap_or_else(|| panic!("{pointer} not in the output"))
}

fn engine_slot(role: SlotRole) -> provider_rules::Slot {
    match role {
        SlotRole::ToolParameters => provider_rules::Slot::Parameters,
        _ => provider_rules::Slot::Schema,
    }
}

/// Every slot of the report passes `provider_rules::check` for its profile in `out`.
fn slots_pass_check(out: &[u8], report: &SanitizeReport) {
    let v: Value = serde_json::from_slice(out).expect("output is JSON");
    for slot in &report.slots {
        assert!(slot.error.is_none(), "{}: {:?}", slot.pointer, slot.error);
        let profile = Profile::builtin(&slot.profile).expect("builtin profile");
        // Property keys needing renaming are reported, never renamed by a request-side layer.
        let violations: Vec<_> = provider_rules::check(
            at(&v, &slot.pointer),
            profile.rules(),
            engine_slot(slot.role),
        )
        .into_iter()
        .filter(|v| v.rule != "property-key")
        .collect();
        assert!(
            violations.is_empty(),
            "{} ({}): {violations:?}",
            slot.pointer,
            slot.profile
        );
    }
}

fn pointers(report: &SanitizeReport) -> Vec<&str> {
    report.slots.iter().map(|s| s.pointer.as_str()).collect()
}

/// The OpenAI Responses body: top-level tools and a namespace, an `additional_tools` item with
/// a namespace inside, a `tool_search_output` item, history around them.
fn responses_body(model: &str) -> (String, usize) {
    let t = tools();
    // Responses function tools usually ask for strict mode: the corpus schemas then need work.
    let f = |(name, desc, schema): &(String, String, Value)| json!({"type":"function","name":name,"description":desc,"strict":true,"parameters":schema});
    let top: Vec<Value> = t[..3].iter().map(f).collect();
    let additional: Vec<Value> = t[3..6].iter().map(f).collect();
    let nested: Vec<Value> = t[6..8].iter().map(f).collect();
    let searched: Vec<Value> = t[8..12].iter().map(f).collect();
    let body = format!(
        r#"{{"model":"{model}","input":[{HISTORY_ITEMS},
  {{"type":"additional_tools","tools":{add}}},
  {{"type":"tool_search_output","call_id":"s1","tools":{found}}},
  {{"role":"user","content":"go"}}],"tools":{top},"text":{{"format":{{"type":"json_schema","name":"o","schema":{{"type":"object","properties":{{"a":{{"type":"string","format":"date"}}}}}}}}}}}}"#,
        add = s(&Value::Array(
            additional
                .into_iter()
                .chain([json!({"type":"namespace","name":"ns","description":"d","tools":nested})])
                .collect()
        )),
        found = s(&Value::Array(searched)),
        top = s(&Value::Array(top)),
    );
    // 3 top, 3 + 2 additional (2 in the namespace), 4 searched, text.format.
    (body, 3 + 5 + 4 + 1)
}

#[test]
fn openai_responses_tools_in_input_items() {
    let (body, n) = responses_body("gpt-5");
    let (out, report) = sanitize_body(
        ToolSchemaLayer::auto().config(),
        Some(Api::OpenAiResponses),
        Bytes::from(body.clone()),
    );
    assert_eq!(report.api, Some(Api::OpenAiResponses));
    assert_eq!(report.slots.len(), n, "{:#?}", pointers(&report));
    let p = pointers(&report);
    assert!(p.contains(&"/input/4/tools/0/parameters"), "{p:?}");
    assert!(p.contains(&"/input/4/tools/3/tools/1/parameters"), "{p:?}");
    assert!(p.contains(&"/input/5/tools/3/parameters"), "{p:?}");
    // The history's `mcp_list_tools` item (`tools[].input_schema`) is not a slot.
    assert!(!p.iter().any(|p| p.starts_with("/input/3/")), "{p:?}");
    assert!(report.is_rewritten(), "{report:?}");
    slots_pass_check(&out, &report);
    for slot in &report.slots {
        assert!(slot.profile.starts_with("openai"), "{}", slot.pointer);
        if slot.pointer.starts_with("/input/") {
            assert!(
                !slot.changes.is_empty() || slot.strict_downgraded,
                "{}: the strict profile left it as it was",
                slot.pointer
            );
        }
    }
    let text = std::str::from_utf8(&out).unwrap();
    assert!(text.contains(HISTORY_ITEMS), "history changed");
    let tool = &report
        .slots
        .iter()
        .find(|s| s.pointer == "/input/4/tools/3/tools/1/parameters");
    assert_eq!(tool.unwrap().tool.as_deref(), Some(tools()[7].0.as_str()));

    // Recognised by its shape alone, with the same slots.
    let (_, by_shape) = sanitize_body(
        ToolSchemaLayer::openai().config(),
        None,
        Bytes::from(body.clone()),
    );
    assert_eq!(by_shape.api, Some(Api::OpenAiResponses));
    assert_eq!(pointers(&by_shape), p);

    // A second pass changes nothing and forwards the very same bytes.
    let (again, report2) = sanitize_body(
        ToolSchemaLayer::auto().config(),
        Some(Api::OpenAiResponses),
        out.clone(),
    );
    assert_eq!(report2.outcome, Outcome::Unchanged);
    assert_eq!(again.as_ptr(), out.as_ptr());
}

fn ollama_body(format: &str) -> (String, usize) {
    let t = tools();
    let tools_json: Vec<Value> = t
        .iter()
        .map(|(name, desc, schema)| json!({"type":"function","function":{"name":name,"description":desc,"parameters":schema}}))
        .collect();
    (
        format!(
            r#"{{"model":"gemma3:4b","stream":false,"messages":{CHAT_HISTORY},"tools":{},"format":{format},"options":{{"temperature":0}}}}"#,
            s(&Value::Array(tools_json))
        ),
        t.len(),
    )
}

#[test]
fn ollama_native_chat_tools_and_format_object() {
    let format = r#"{"type":"object","$schema":"https://json-schema.org/draft/2020-12/schema","properties":{"when":{"type":"string","format":"date-time"},"tags":{"type":"array"}},"required":["when"]}"#;
    let (body, n) = ollama_body(format);
    let (out, report) = sanitize_body(
        ToolSchemaLayer::auto().config(),
        Some(Api::OllamaChat),
        Bytes::from(body.clone()),
    );
    assert_eq!(report.api, Some(Api::OllamaChat));
    assert_eq!(report.slots.len(), n + 1, "{:#?}", pointers(&report));
    let last = report.slots.last().unwrap();
    assert_eq!(last.pointer, "/format");
    assert_eq!(last.role, SlotRole::Output);
    assert!(!last.changes.is_empty(), "{last:?}");
    assert!(report.is_rewritten());
    slots_pass_check(&out, &report);
    // Ollama's native API takes Ollama's profile; `auto` does not take a `gemma` model on
    // Ollama for a Gemini backend.
    for slot in &report.slots {
        assert_eq!(slot.profile, "ollama", "{}", slot.pointer);
    }
    assert!(std::str::from_utf8(&out).unwrap().contains(CHAT_HISTORY));
}

#[test]
fn ollama_format_json_string_is_not_a_slot() {
    let (body, n) = ollama_body(r#""json""#);
    let (out, report) = sanitize_body(
        ToolSchemaLayer::auto().config(),
        Some(Api::OllamaChat),
        Bytes::from(body.clone()),
    );
    assert_eq!(report.slots.len(), n);
    assert!(report.slots.iter().all(|s| s.pointer != "/format"));
    assert!(report.slots.iter().all(|s| s.error.is_none()));
    let v: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["format"], "json");
    // Nothing but tools: a body with no tools and `"format":"json"` goes on as it came.
    let plain = Bytes::from_static(br#"{"model":"llama3.1","messages":[],"format":"json"}"#);
    let (same, report) = sanitize_body(
        ToolSchemaLayer::auto().config(),
        Some(Api::OllamaChat),
        plain.clone(),
    );
    assert_eq!(report.outcome, Outcome::Unchanged);
    assert!(report.slots.is_empty());
    assert_eq!(same.as_ptr(), plain.as_ptr());
}

fn cohere_body() -> (String, usize) {
    let t = tools();
    let tools_json: Vec<Value> = t[..8]
        .iter()
        .map(|(name, desc, schema)| json!({"type":"function","function":{"name":name,"description":desc,"parameters":schema}}))
        .collect();
    (
        format!(
            r#"{{"model":"command-a-03-2025","messages":{CHAT_HISTORY},"tools":{},"strict_tools":true,"response_format":{{"type":"json_object","json_schema":{{"type":"object","properties":{{"tags":{{"type":"array"}},"x":{{"type":["string","null"]}}}},"required":["tags"]}}}}}}"#,
            s(&Value::Array(tools_json))
        ),
        9,
    )
}

#[test]
fn cohere_v2_chat_tools_and_response_format_json_schema() {
    let (body, n) = cohere_body();
    let (out, report) = sanitize_body(
        ToolSchemaLayer::auto().config(),
        Some(Api::CohereChat),
        Bytes::from(body.clone()),
    );
    assert_eq!(report.api, Some(Api::CohereChat));
    assert_eq!(report.slots.len(), n, "{:#?}", pointers(&report));
    let last = report.slots.last().unwrap();
    assert_eq!(last.pointer, "/response_format/json_schema");
    assert!(report.is_rewritten());
    slots_pass_check(&out, &report);
    let v: Value = serde_json::from_slice(&out).unwrap();
    // The schema itself was sanitized (an array with no `items` gets one), not a wrapper.
    assert!(v["response_format"]["json_schema"]["properties"]["tags"]["items"].is_object());
    assert_eq!(v["response_format"]["type"], "json_object");
    assert!(std::str::from_utf8(&out).unwrap().contains(CHAT_HISTORY));
}

/// Through the layer on `auto`: what the inner service received, and its report.
async fn through_auto(path: &str, body: String) -> (Bytes, SanitizeReport) {
    let inner = tower::service_fn(
        |req: http::Request<ToolSchemaBody<Full<Bytes>>>| async move {
            let (parts, body) = req.into_parts();
            let bytes = body.collect().await.unwrap().to_bytes();
            let report = parts
                .extensions
                .get::<SanitizeReport>()
                .cloned()
                .expect("a report");
            // The layer answers with an `http::Response`: what was seen rides in it.
            let mut res = http::Response::new(http_body_util::Empty::<Bytes>::new());
            res.extensions_mut().insert((bytes, report));
            Ok::<_, Infallible>(res)
        },
    );
    let req = http::Request::post(path)
        .header("content-type", "application/json")
        .body(Full::new(Bytes::from(body)))
        .unwrap();
    let mut res = ToolSchemaLayer::auto()
        .layer(inner)
        .oneshot(req)
        .await
        .unwrap();
    res.extensions_mut()
        .remove::<(Bytes, SanitizeReport)>()
        .expect("inner service was called")
}

#[tokio::test]
async fn auto_selects_the_new_shapes_by_path_and_model() {
    assert_eq!(
        ApiShape::for_path("/api/chat").map(|s| s.api),
        Some(Api::OllamaChat)
    );
    assert_eq!(
        ApiShape::for_path("/v2/chat").map(|s| s.api),
        Some(Api::CohereChat)
    );
    assert_eq!(
        ApiShape::for_path("/v1/chat/completions").map(|s| s.api),
        Some(Api::OpenAiChat)
    );

    let (body, n) = ollama_body(r#"{"type":"object","properties":{"a":{"type":"array"}}}"#);
    let (out, report) = through_auto("/api/chat", body).await;
    assert_eq!(report.api, Some(Api::OllamaChat));
    assert_eq!(report.slots.len(), n + 1);
    slots_pass_check(&out, &report);

    let (body, n) = cohere_body();
    let (out, report) = through_auto("/v2/chat", body).await;
    assert_eq!(report.api, Some(Api::CohereChat));
    assert_eq!(report.slots.len(), n);
    slots_pass_check(&out, &report);

    // Responses through OpenRouter with a Google model: every slot, the input items' too, takes
    // the Gemini profile.
    let (body, n) = responses_body("google/gemini-2.5-pro");
    let (out, report) = through_auto("/api/v1/responses", body).await;
    assert_eq!(report.api, Some(Api::OpenAiResponses));
    assert_eq!(report.slots.len(), n);
    for slot in &report.slots {
        assert_eq!(slot.profile, "gemini", "{}", slot.pointer);
    }
    slots_pass_check(&out, &report);

    // And an xAI model: the xai profile.
    let (body, _) = responses_body("x-ai/grok-4");
    let (_, report) = through_auto("/api/v1/responses", body).await;
    assert!(report.slots.iter().all(|s| s.profile == "xai"));
}
