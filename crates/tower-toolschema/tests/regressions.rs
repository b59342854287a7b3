//! Bodies the fuzz target `body` (fuzz/fuzz_targets/body.rs) found, minimized: each must come
//! out with only its slots changed, and go through a second time unchanged.

#[path = "support/slot_mask.rs"]
mod slot_mask;

use bytes::Bytes;
use tower_toolschema::shapes::Api;
use tower_toolschema::{ToolSchemaLayer, sanitize_body};

fn stable(api: Api, body: &str) {
    let layer = ToolSchemaLayer::auto();
    let input = Bytes::from(body.to_owned());
    let (once, _) = sanitize_body(layer.config(), Some(api), input.clone());
    slot_mask::check_only_slots_changed(&input, &once, &slot_mask::shapes_for(Some(api)))
        .unwrap_or_else(|e| panic!("{e}"));
    let (twice, report) = sanitize_body(layer.config(), Some(api), once.clone());
    assert!(
        twice == once,
        "second pass changed the body: {report:?}\n once:  {}\n twice: {}",
        String::from_utf8_lossy(&once),
        String::from_utf8_lossy(&twice)
    );
}

/// fuzz `body`, 24 crashes: a strict tool whose property has a malformed `type` was kept
/// `strict: true` on the first pass and flipped to `false` on the second (the engine judged
/// strict-compatibility by the malformed `type` it then dropped).
#[test]
fn strict_tool_with_a_malformed_type_is_downgraded_once() {
    let params = r#"{"type":"object","properties":{"container":{"type":"[]ring","description":"c"},"name":{"type":"string"}},"required":["name"]}"#;
    stable(
        Api::OpenAiChat,
        &format!(
            r#"{{"model":"gpt-4o","messages":[],"tools":[{{"type":"function","function":{{"name":"f","strict":true,"parameters":{params}}}}}]}}"#
        ),
    );
    stable(
        Api::OpenAiResponses,
        &format!(
            r#"{{"model":"gpt-5","input":[],"tools":[{{"type":"function","name":"f","strict":true,"parameters":{params}}}]}}"#
        ),
    );
    stable(
        Api::AnthropicMessages,
        &format!(
            r#"{{"messages":[],"tools":[{{"name":"f","strict":true,"input_schema":{params}}}]}}"#
        ),
    );
}
