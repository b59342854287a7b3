//! Shared test helpers: the corpus, a deterministic fake sanitizer, bodies per API, test bodies.
#![allow(dead_code)]

use std::collections::VecDeque;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use http::HeaderMap;
use http_body::{Body, Frame, SizeHint};
use serde_json::{Value, json};
use tower_toolschema::Profile;
use tower_toolschema::sanitizer::{SchemaSlot, SlotOutcome, SlotSanitizer};
use tower_toolschema::shapes::Api;

pub const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/corpus/mcp");

/// A corpus tool: name, description, input schema.
#[derive(Debug, Clone)]
pub struct Tool {
    pub name: String,
    pub description: String,
    pub schema: Value,
}

/// Every tool of every server in the corpus, in file order.
pub fn corpus_tools() -> Vec<Tool> {
    let mut files: Vec<_> = std::fs::read_dir(CORPUS)
        .expect("corpus dir")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .collect();
    files.sort();
    let mut tools = Vec::new();
    for f in files {
        if f.extension().and_then(|e| e.to_str()) != Some("json") {
            continue;
        }
        let v: Value =
            serde_json::from_slice(&std::fs::read(&f).expect("read")).expect("corpus json");
        for t in v["tools"].as_array().into_iter().flatten() {
            let Some(schema) = t.get("inputSchema") else {
                continue;
            };
            tools.push(Tool {
                name: t["name"].as_str().unwrap_or("tool").to_owned(),
                description: t["description"].as_str().unwrap_or("").to_owned(),
                schema: schema.clone(),
            });
        }
    }
    tools
}

/// Conversation history with keys that look like schema keywords, odd whitespace, a number
/// spelled `1.0e0` and an escaped `é`: it must come out byte-identical.
pub const HISTORY: &str = r##"[ {"role":"user","content":"caf\u00e9  1.0e0"},
  {"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{\"title\":\"x\"}"}}],
   "parameters": {"type": ["string","null"], "title": "T", "format": "date", "default": 1.0e0, "const": null,
                  "$ref": "#/$defs/x", "additionalProperties": false, "$schema": "http://json-schema.org/draft-07/schema#",
                  "properties": {"properties": {"type": "object"}}, "input_schema": {"type": "object"}}},
  {"role":"tool","tool_call_id":"c1","content":"{\"format\":\"date-time\",\"default\":[1,2]}"} ]"##;

/// Gemini-style history (`contents` with function calls whose args look like schemas).
pub const GEMINI_HISTORY: &str = r##"[{"role":"user","parts":[{"text":"caf\u00e9 1.0e0"}]},
  {"role":"model","parts":[{"functionCall":{"name":"f","args":{"title":"T","format":"date","default":1.0e0,"$ref":"#/x","parameters":{"type":["string","null"]},"parametersJsonSchema":{"anyOf":[]}}}}]},
  {"role":"user","parts":[{"functionResponse":{"name":"f","response":{"type":["a","b"],"additionalProperties":false}}}]}]"##;

pub fn s(v: &Value) -> String {
    serde_json::to_string(v).expect("json")
}

fn tools_json(tools: &[Tool], f: impl Fn(&Tool) -> Value) -> String {
    s(&Value::Array(tools.iter().map(f).collect()))
}

pub fn output_schema() -> Value {
    json!({"type": "object", "properties": {"answer": {"type": "string"}}, "required": ["answer"], "$schema": "x"})
}

/// A body of `api`'s shape carrying `tools`, a structured-output schema and history.
/// Returns the body and the number of schema slots in it.
pub fn body_for(api: Api, tools: &[Tool]) -> (String, usize) {
    let out = s(&output_schema());
    let n = tools.len();
    match api {
        Api::OpenAiChat | Api::GeminiOpenAiCompat | Api::VertexOpenAiCompat => {
            let t = tools_json(
                tools,
                |t| json!({"type":"function","function":{"name":t.name,"description":t.description,"parameters":t.schema}}),
            );
            let legacy = tools_json(
                &tools[..1],
                |t| json!({"name":t.name,"parameters":t.schema}),
            );
            (
                format!(
                    r#"{{"model":"gpt-4o","messages":{HISTORY},"tools":{t},"functions":{legacy},"response_format":{{"type":"json_schema","json_schema":{{"name":"out","strict":true,"schema":{out}}}}}}}"#
                ),
                n + 2,
            )
        }
        Api::OpenAiResponses => {
            let t = tools_json(
                tools,
                |t| json!({"type":"function","name":t.name,"description":t.description,"parameters":t.schema}),
            );
            let ns = tools_json(
                &tools[..1],
                |t| json!({"type":"function","name":t.name,"parameters":t.schema,"output_schema":{"type":"object"}}),
            );
            let t = format!(
                r#"{},{{"type":"namespace","name":"ns","tools":{ns}}}]"#,
                &t[..t.len() - 1]
            );
            (
                format!(
                    r#"{{"model":"gpt-5","input":{HISTORY},"tools":{t},"text":{{"format":{{"type":"json_schema","name":"o","schema":{out}}}}}}}"#
                ),
                n + 3,
            )
        }
        Api::AnthropicMessages | Api::VertexAnthropic | Api::BedrockInvoke => {
            (anthropic_body(tools), n + 1)
        }
        Api::AnthropicBatches => {
            let b = anthropic_body(tools);
            (
                format!(
                    r#"{{"requests":[{{"custom_id":"a","params":{b}}},{{"custom_id":"b","params":{b}}}]}}"#
                ),
                2 * (n + 1),
            )
        }
        Api::Gemini | Api::VertexGemini => gemini_body(tools, false),
        // cachedContents has no generationConfig: its responseSchema is not a slot there.
        Api::GeminiCachedContents => (gemini_body(tools, false).0, tools.len()),
        Api::GeminiCountTokens => {
            let (b, k) = gemini_body(tools, false);
            (format!(r#"{{"generateContentRequest":{b}}}"#), k)
        }
        Api::CodeAssist => {
            let (b, k) = gemini_body(tools, false);
            (
                format!(
                    r#"{{"model":"gemini-2.5-pro","project":"p-1","user_prompt_id":"u","request":{b}}}"#
                ),
                k,
            )
        }
        Api::BedrockConverse => {
            let t = tools_json(
                tools,
                |t| json!({"toolSpec":{"name":t.name,"description":t.description,"inputSchema":{"json":t.schema}}}),
            );
            let out_str = s(&Value::String(out));
            (
                format!(
                    r#"{{"messages":{HISTORY},"toolConfig":{{"tools":{t}}},"outputConfig":{{"textFormat":{{"type":"json_schema","structure":{{"jsonSchema":{{"name":"o","schema":{out_str}}}}}}}}}}}"#
                ),
                n + 1,
            )
        }
        Api::OllamaChat | Api::CohereChat => {
            let t = tools_json(
                tools,
                |t| json!({"type":"function","function":{"name":t.name,"description":t.description,"parameters":t.schema}}),
            );
            let (model, output) = if api == Api::OllamaChat {
                ("llama3.1", format!(r#""format":{out}"#))
            } else {
                (
                    "command-a",
                    format!(r#""response_format":{{"type":"json_object","json_schema":{out}}}"#),
                )
            };
            (
                format!(r#"{{"model":"{model}","messages":{HISTORY},"tools":{t},{output}}}"#),
                n + 1,
            )
        }
        other => panic!("no body builder for {other}"),
    }
}

pub fn anthropic_body(tools: &[Tool]) -> String {
    let t = tools_json(
        tools,
        |t| json!({"name":t.name,"description":t.description,"input_schema":t.schema}),
    );
    let out = s(&output_schema());
    format!(
        r#"{{"model":"claude-sonnet-4-5","max_tokens":10,"messages":{HISTORY},"tools":{t},"output_config":{{"format":{{"type":"json_schema","schema":{out}}}}}}}"#
    )
}

/// A Gemini body: half the tools in `parameters`, half in `parametersJsonSchema`; camelCase or
/// snake_case. Returns the body and its slot count.
pub fn gemini_body(tools: &[Tool], snake: bool) -> (String, usize) {
    let half = tools.len() / 2;
    let (decl, params, json_params, gen_cfg, resp) = if snake {
        (
            "function_declarations",
            "parameters",
            "parameters_json_schema",
            "generation_config",
            "response_schema",
        )
    } else {
        (
            "functionDeclarations",
            "parameters",
            "parametersJsonSchema",
            "generationConfig",
            "responseSchema",
        )
    };
    let a = tools_json(
        &tools[..half],
        |t| json!({"name":t.name,"description":t.description,params:t.schema}),
    );
    let b = tools_json(
        &tools[half..],
        |t| json!({"name":t.name,"description":t.description,json_params:t.schema}),
    );
    let out = s(&output_schema());
    (
        format!(
            r#"{{"contents":{GEMINI_HISTORY},"tools":[{{"{decl}":{a}}},{{"googleSearch":{{}}}},{{"{decl}":{b}}}],"{gen_cfg}":{{"temperature":0.2,"{resp}":{out}}}}}"#
        ),
        tools.len() + 1,
    )
}

/// A URL path for each API.
pub fn path_for(api: Api) -> &'static str {
    match api {
        Api::OpenAiChat => "/v1/chat/completions",
        Api::OpenAiResponses => "/v1/responses",
        Api::AnthropicMessages => "/v1/messages",
        Api::AnthropicBatches => "/v1/messages/batches",
        Api::Gemini => "/v1beta/models/gemini-2.5-flash:generateContent",
        Api::GeminiCountTokens => "/v1beta/models/gemini-2.5-flash:countTokens",
        Api::GeminiCachedContents => "/v1beta/cachedContents",
        Api::GeminiOpenAiCompat => "/v1beta/openai/chat/completions",
        Api::CodeAssist => "/v1internal:streamGenerateContent",
        Api::VertexGemini => {
            "/v1/projects/p/locations/us-central1/publishers/google/models/gemini-2.5-pro:generateContent"
        }
        Api::VertexAnthropic => {
            "/v1/projects/p/locations/us-east5/publishers/anthropic/models/claude-sonnet-4:rawPredict"
        }
        Api::VertexOpenAiCompat => "/v1/projects/p/locations/l/endpoints/openapi/chat/completions",
        Api::BedrockConverse => "/model/anthropic.claude-sonnet-4/converse",
        Api::BedrockInvoke => "/model/anthropic.claude-sonnet-4/invoke",
        Api::OllamaChat => "/api/chat",
        Api::CohereChat => "/v2/chat",
        other => panic!("no path for {other}"),
    }
}

/// Every API: the shape table's own list, so a new API is in every test that walks them.
pub const ALL_APIS: [Api; 16] = Api::ALL;

/// A deterministic fake engine: marks every object schema with `x-profile` (the profile's name)
/// and `x-slot`, and drops a top-level `$schema`; a schema already marked is unchanged.
/// A top-level `anyOf` makes it strict-incompatible. Tool names longer than 64 are invalid.
#[derive(Debug, Clone, Copy)]
pub struct Fake;

impl SlotSanitizer for Fake {
    fn sanitize(
        &self,
        schema: &[u8],
        profile: &Profile,
        slot: SchemaSlot,
    ) -> Result<SlotOutcome, String> {
        let mut v: Value = serde_json::from_slice(schema).map_err(|e| e.to_string())?;
        let Some(o) = v.as_object_mut() else {
            return Ok(SlotOutcome::unchanged());
        };
        let strict_ok = !o.contains_key("anyOf");
        if o.contains_key("x-profile") {
            return Ok(SlotOutcome::unchanged().strict_compatible(strict_ok));
        }
        o.remove("$schema");
        o.insert("x-profile".into(), Value::String(profile.name().to_owned()));
        o.insert("x-slot".into(), Value::String(format!("{slot:?}")));
        let change = tower_toolschema::report::Change {
            pointer: String::new(),
            rule: provider_rules::RuleId::Normalize,
            message: "marked".into(),
            lossy: false,
        };
        Ok(SlotOutcome::rewritten(
            serde_json::to_vec(&v).map_err(|e| e.to_string())?,
            vec![change],
        )
        .strict_compatible(strict_ok))
    }

    fn check_tool_name(&self, name: &str, _: &Profile) -> Option<String> {
        (name.len() > 64).then(|| "longer than 64 characters".to_owned())
    }
}

/// A body made of frames, with no size hint (like a chunked upload), optionally failing.
pub struct Frames {
    frames: VecDeque<Result<Frame<Bytes>, std::io::Error>>,
}

impl Frames {
    pub fn data(chunks: &[&[u8]]) -> Self {
        Frames {
            frames: chunks
                .iter()
                .map(|c| Ok(Frame::data(Bytes::copy_from_slice(c))))
                .collect(),
        }
    }
    pub fn with_error(mut self) -> Self {
        self.frames
            .push_back(Err(std::io::Error::other("connection reset")));
        self
    }
    pub fn with_trailers(mut self) -> Self {
        let mut t = HeaderMap::new();
        t.insert("x-checksum", "abc".parse().expect("header"));
        self.frames.push_back(Ok(Frame::trailers(t)));
        self
    }
}

impl Body for Frames {
    type Data = Bytes;
    type Error = std::io::Error;
    fn poll_frame(
        mut self: Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, std::io::Error>>> {
        Poll::Ready(self.frames.pop_front())
    }
    fn is_end_stream(&self) -> bool {
        self.frames.is_empty()
    }
    fn size_hint(&self) -> SizeHint {
        SizeHint::new()
    }
}

/// Follows a JSON pointer in a parsed body.
pub fn at<'a>(v: &'a Value, pointer: &str) -> &'a Value {
    v.pointer(pointer).unwrap_or_else(|| panic!("no {pointer}"))
}
