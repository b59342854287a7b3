//! Which kind of document the input is, from its top-level keys and its tools' keys.

use super::Kind;
use super::raw::{array, object};
use super::scan::Scanned;
use serde_json::value::RawValue;

/// Keys only a request body has at its top level.
const BODY_KEYS: &[&str] = &[
    "messages",
    "contents",
    "input",
    "model",
    "toolConfig",
    "tool_config",
    "request",
    "requests",
    "generationConfig",
    "generation_config",
    "system",
    "systemInstruction",
    "system_instruction",
    "response_format",
    "functions",
    "text",
    "output_config",
    "output_format",
    "max_tokens",
    "anthropic_version",
    "inferenceConfig",
    "generateContentRequest",
];

/// Keys a request body's tool entries have (an MCP tool has `inputSchema`).
const BODY_TOOL_KEYS: &[&str] = &[
    "function",
    "input_schema",
    "functionDeclarations",
    "function_declarations",
    "toolSpec",
    "parameters",
];

pub(super) fn detect(raw: &RawValue) -> Kind {
    detect_in(raw, &Scanned::of(raw))
}

pub(super) fn detect_in(raw: &RawValue, scanned: &Scanned<'_>) -> Kind {
    if raw.get().starts_with('[') {
        return Kind::ToolArray;
    }
    let Some(top) = &scanned.top else {
        return Kind::Schema;
    };
    let has = |k: &str| top.iter().any(|key| key == k);
    let tool_keys = |keys: &[&str]| {
        scanned.tools.as_ref().is_some_and(|t| {
            t.iter().any(|o| {
                o.as_ref()
                    .is_some_and(|o| o.iter().any(|(k, _)| keys.contains(&k.as_str())))
            })
        })
    };
    let body_like = BODY_KEYS.iter().any(|k| has(k)) || tool_keys(BODY_TOOL_KEYS);
    if !body_like
        && let Some(t) = &scanned.tools
        && (t.is_empty() || tool_keys(&["inputSchema"]))
    {
        return Kind::McpList;
    }
    if !body_like && has("result") && mcp_tools(raw).is_some() {
        return Kind::McpList;
    }
    if body_like { Kind::Body } else { Kind::Schema }
}

/// The `tools` array of an MCP result (or of a JSON-RPC response's `result`), with the pointer
/// of the object holding it.
pub(super) fn mcp_tools(raw: &RawValue) -> Option<(&'static str, Vec<&RawValue>)> {
    let top = object(raw)?;
    if let Some((_, t)) = top.iter().find(|(k, _)| k == "tools") {
        return Some(("", array(t)?));
    }
    let (_, result) = top.iter().find(|(k, _)| k == "result")?;
    let inner = object(result)?;
    let (_, t) = inner.iter().find(|(k, _)| k == "tools")?;
    Some(("/result", array(t)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detection() {
        let kind = |t: &str| detect(serde_json::from_str(t).unwrap());
        assert_eq!(kind(r#"{"type":"object"}"#), Kind::Schema);
        assert_eq!(
            kind(r#"{"tools":[{"name":"a","inputSchema":{}}]}"#),
            Kind::McpList
        );
        assert_eq!(kind(r#"{"tools":[]}"#), Kind::McpList);
        assert_eq!(
            kind(r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}"#),
            Kind::McpList
        );
        assert_eq!(kind(r#"[{"name":"a","inputSchema":{}}]"#), Kind::ToolArray);
        assert_eq!(
            kind(r#"{"model":"m","tools":[{"name":"a","input_schema":{}}]}"#),
            Kind::Body
        );
        assert_eq!(
            kind(r#"{"tools":[{"functionDeclarations":[]}]}"#),
            Kind::Body
        );
        assert_eq!(kind(r#"{"messages":[]}"#), Kind::Body);
    }
}
