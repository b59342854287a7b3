//! Gemini bodies as the official clients serialize them, and every camel/snake mix of them: each
//! slot is found, takes the profile of its dialect, and is rewritten.
//!
//! - google-genai for Python (3.x): `models.py` copies `tools[].function_declarations` to
//!   `functionDeclarations` (and `config` to `generationConfig`, `responseJsonSchema`,
//!   `toolConfig`), but each declaration is a pydantic model dumped with its field names, so
//!   `parameters_json_schema=` arrives as `parameters_json_schema`; `json.dumps` writes `", "` and
//!   `": "`.
//! - @google/genai for JS: camelCase throughout (`parametersJsonSchema`).
//! - gemini-cli (Code Assist, `v1internal`): the camelCase request under `request`, beside
//!   `model`, `project` and `user_prompt_id`.

use bytes::Bytes;
use serde_json::Value;
use tower_toolschema::shapes::{Api, ApiShape, Dialect};
use tower_toolschema::{SanitizeReport, ToolSchemaLayer, locate, sanitize_body};

/// A schema every Gemini profile rewrites: a type list (and `minLength`, not in the
/// `*JsonSchema` list).
const SCHEMA: &str = r#"{"type": "object", "properties": {"city": {"type": "string", "minLength": 1}, "unit": {"type": ["string", "null"]}}, "required": ["city"]}"#;

fn sanitize(api: Option<Api>, body: &str) -> (Bytes, SanitizeReport) {
    sanitize_body(
        ToolSchemaLayer::gemini().config(),
        api,
        Bytes::copy_from_slice(body.as_bytes()),
    )
}

/// Asserts the report has exactly these (pointer, profile) slots, all rewritten, and that the
/// output still parses with the same keys outside them.
fn assert_slots(api: Option<Api>, body: &str, want: &[(&str, &str)]) {
    let (out, report) = sanitize(api, body);
    let got: Vec<(&str, &str)> = report
        .slots
        .iter()
        .map(|s| (s.pointer.as_str(), s.profile.as_str()))
        .collect();
    assert_eq!(got, want, "{body}");
    assert!(
        report.slots.iter().all(|s| !s.changes.is_empty()),
        "{report:?}"
    );
    assert!(report.is_rewritten());
    let v: Value = serde_json::from_slice(&out).expect("valid JSON out");
    for (pointer, _) in want {
        let slot = v.pointer(pointer).expect("slot still there");
        // The type list is gone (split into `nullable`) in both dialects.
        assert!(
            slot.pointer("/properties/unit/type")
                .is_some_and(Value::is_string),
            "{slot}"
        );
    }
}

#[test]
fn google_genai_python_parameters_json_schema() {
    // `types.FunctionDeclaration(name=..., parameters_json_schema=...)` and
    // `GenerateContentConfig(response_json_schema=..., tool_config=...)`, as sent.
    let body = format!(
        r#"{{"contents": [{{"parts": [{{"text": "Weather in Paris?"}}], "role": "user"}}], "systemInstruction": {{"parts": [{{"text": "Be brief."}}], "role": "user"}}, "tools": [{{"functionDeclarations": [{{"description": "Current weather.", "name": "get_weather", "parameters_json_schema": {SCHEMA}}}]}}], "toolConfig": {{"functionCallingConfig": {{"mode": "AUTO"}}}}, "generationConfig": {{"responseJsonSchema": {SCHEMA}}}}}"#
    );
    let want = [
        (
            "/tools/0/functionDeclarations/0/parameters_json_schema",
            "gemini-jsonschema",
        ),
        ("/generationConfig/responseJsonSchema", "gemini-jsonschema"),
    ];
    assert_slots(Some(Api::Gemini), &body, &want);
    // Recognised by its shape, and by its URL.
    assert_slots(None, &body, &want);
    let path = "/v1beta/models/gemini-2.5-flash:generateContent";
    assert_slots(ApiShape::for_path(path).map(|s| s.api), &body, &want);
    let located = locate(body.as_bytes(), None).unwrap();
    assert_eq!(located.slots[0].tool().as_deref(), Some("get_weather"));
}

#[test]
fn google_genai_python_parameters_and_response_schema() {
    // `parameters=` (the Schema proto) and `response_schema=`: also dumped by field name.
    let body = format!(
        r#"{{"contents": [{{"parts": [{{"text": "hi"}}], "role": "user"}}], "tools": [{{"functionDeclarations": [{{"name": "f", "parameters": {SCHEMA}, "response": {SCHEMA}}}]}}], "generationConfig": {{"responseMimeType": "application/json", "responseSchema": {SCHEMA}}}}}"#
    );
    assert_slots(
        Some(Api::Gemini),
        &body,
        &[
            ("/tools/0/functionDeclarations/0/parameters", "gemini"),
            ("/tools/0/functionDeclarations/0/response", "gemini"),
            ("/generationConfig/responseSchema", "gemini"),
        ],
    );
}

#[test]
fn google_genai_js_camel_case() {
    let body = format!(
        r#"{{"contents":[{{"role":"user","parts":[{{"text":"hi"}}]}}],"tools":[{{"functionDeclarations":[{{"name":"f","description":"d","parametersJsonSchema":{SCHEMA},"responseJsonSchema":{SCHEMA}}}]}}],"toolConfig":{{"functionCallingConfig":{{"mode":"ANY","allowedFunctionNames":["f"]}}}},"generationConfig":{{"responseMimeType":"application/json","responseJsonSchema":{SCHEMA}}}}}"#
    );
    assert_slots(
        Some(Api::Gemini),
        &body,
        &[
            (
                "/tools/0/functionDeclarations/0/parametersJsonSchema",
                "gemini-jsonschema",
            ),
            (
                "/tools/0/functionDeclarations/0/responseJsonSchema",
                "gemini-jsonschema",
            ),
            ("/generationConfig/responseJsonSchema", "gemini-jsonschema"),
        ],
    );
}

#[test]
fn gemini_cli_v1internal_envelope() {
    let body = format!(
        r#"{{"model":"gemini-2.5-pro","project":"p-123","user_prompt_id":"u1","request":{{"contents":[{{"role":"user","parts":[{{"text":"hi"}}]}}],"systemInstruction":{{"role":"user","parts":[{{"text":"s"}}]}},"tools":[{{"functionDeclarations":[{{"name":"read_file","description":"d","parametersJsonSchema":{SCHEMA}}}]}}],"toolConfig":{{"functionCallingConfig":{{"mode":"AUTO"}}}},"generationConfig":{{"temperature":0,"responseJsonSchema":{SCHEMA}}},"session_id":"s1"}}}}"#
    );
    let api = ApiShape::for_path("/v1internal:streamGenerateContent").map(|s| s.api);
    assert_eq!(api, Some(Api::CodeAssist));
    let (_, report) = sanitize(api, &body);
    let got: Vec<&str> = report.slots.iter().map(|s| s.pointer.as_str()).collect();
    assert_eq!(
        got,
        [
            "/request/tools/0/functionDeclarations/0/parametersJsonSchema",
            "/request/generationConfig/responseJsonSchema"
        ]
    );
    assert!(report.is_rewritten());
    assert_eq!(report.slots[0].tool.as_deref(), Some("read_file"));
}

#[test]
fn every_camel_snake_mix_is_found() {
    let decls = ["functionDeclarations", "function_declarations"];
    let params = [
        ("parameters", Dialect::Native),
        ("parametersJsonSchema", Dialect::JsonSchema),
        ("parameters_json_schema", Dialect::JsonSchema),
    ];
    let configs = ["generationConfig", "generation_config"];
    let outputs = [
        ("responseSchema", Dialect::Native),
        ("response_schema", Dialect::Native),
        ("responseJsonSchema", Dialect::JsonSchema),
        ("_responseJsonSchema", Dialect::JsonSchema),
        ("response_json_schema", Dialect::JsonSchema),
    ];
    // Each body shape, with where it is read and the prefix of its slots.
    let envelopes: [(Option<Api>, &str, &str); 5] = [
        (Some(Api::Gemini), "{BODY}", ""),
        (Some(Api::VertexGemini), "{BODY}", ""),
        (
            Some(Api::CodeAssist),
            r#"{"model":"gemini-2.5-pro","request":{BODY}}"#,
            "/request",
        ),
        (
            Some(Api::GeminiCountTokens),
            r#"{"generateContentRequest":{BODY}}"#,
            "/generateContentRequest",
        ),
        (
            Some(Api::GeminiCountTokens),
            r#"{"generate_content_request":{BODY}}"#,
            "/generate_content_request",
        ),
    ];
    let mut n = 0;
    for decl in decls {
        for (param, param_dialect) in params {
            for cfg in configs {
                for (output, output_dialect) in outputs {
                    let inner = format!(
                        r#"{{"contents":[],"tools":[{{"{decl}":[{{"name":"f","{param}":{SCHEMA}}}]}}],"{cfg}":{{"{output}":{SCHEMA}}}}}"#
                    );
                    for (api, envelope, prefix) in envelopes {
                        let body = envelope.replace("{BODY}", &inner);
                        let located = locate(body.as_bytes(), api).expect("valid body");
                        let got: Vec<(String, Dialect)> = located
                            .slots
                            .iter()
                            .map(|f| (f.pointer.clone(), f.spec.dialect))
                            .collect();
                        assert_eq!(
                            got,
                            [
                                (format!("{prefix}/tools/0/{decl}/0/{param}"), param_dialect),
                                (format!("{prefix}/{cfg}/{output}"), output_dialect),
                            ],
                            "{api:?} {body}"
                        );
                        assert_eq!(located.slots[0].tool().as_deref(), Some("f"));
                        n += 1;
                    }
                    // Recognised by shape alone: a plain Gemini body.
                    let located = locate(inner.as_bytes(), None).expect("valid body");
                    assert_eq!(located.slots.len(), 2, "{inner}");
                    assert!(located.slots.iter().all(|f| f.api == Api::Gemini));
                }
            }
        }
    }
    assert_eq!(n, 2 * 3 * 2 * 5 * 5);
}
