//! Bedrock Converse: a JSON answer.

use crate::support::*;
use serde_json::{Value, json};
use tower_toolschema::ToolSchemaLayer;

#[tokio::test]
async fn bedrock_converse_json() {
    let request = json!({
        "messages":[{"role":"assistant","content":[{"toolUse":{"toolUseId":"t0","name":DOTTED,"input":{}}}]}],
        "toolConfig":{"tools":[{"toolSpec":{"name":DOTTED,"inputSchema":{"json":{"type":"object"}}}}],"toolChoice":{"tool":{"name":DOTTED}}}
    })
    .to_string();
    let respond = |v: &Value| {
        let n = sent_names(v, "/toolConfig/tools", "/toolSpec/name");
        json_response(format!(
            r#"{{"output":{{"message":{{"role":"assistant","content":[{{"toolUse":{{"toolUseId":"t1","name":"{}","input":{{"path":"/"}}}}}}]}}}},"stopReason":"tool_use"}}"#,
            n[0]
        ))
    };
    let (res, seen) = exchange(
        ToolSchemaLayer::bedrock(),
        "/model/m/converse",
        &request,
        respond,
    )
    .await;
    assert_eq!(
        seen["toolConfig"]["toolChoice"]["tool"]["name"],
        "filesystem_read_file"
    );
    assert_eq!(
        seen["messages"][0]["content"][0]["toolUse"]["name"],
        "filesystem_read_file"
    );
    assert_eq!(
        text(res).await,
        format!(
            r#"{{"output":{{"message":{{"role":"assistant","content":[{{"toolUse":{{"toolUseId":"t1","name":"{DOTTED}","input":{{"path":"/"}}}}}}]}}}},"stopReason":"tool_use"}}"#
        )
    );
}
