//! `--encode`: listings in the encoded form, calls decoded on the way to the server.

use crate::support::*;
use serde_json::json;

/// `--encode`: the listing speaks the encoded form (a map as key/value entries, a numeric enum
/// as strings) and a call in that form reaches the server decoded; without it, nothing is.
#[test]
fn with_encode_the_listing_is_encoded_and_calls_reach_the_server_decoded() {
    let start = |encode: bool, record: &str| {
        let tools = fixture("mcp_proxy_tools_maps.json");
        let mock = fixture("mock_mcp_upstream.py");
        let mut args = vec!["--provider", "gemini"];
        if encode {
            args.push("--encode");
        }
        args.extend([
            "--", "python3", &mock, "--tools", &tools, "--record", record,
        ]);
        Proxy::start(&args)
    };
    let record = scratch("encode");
    let mut p = start(true, &record);
    p.initialize();
    let tools = p.list_all(1);
    let schema = &tools[0]["inputSchema"];
    assert_eq!(schema["properties"]["env"]["type"], "array", "{schema}");
    assert_eq!(
        schema["properties"]["level"]["enum"],
        json!(["1", "2"]),
        "{schema}"
    );
    let r = p.call(
        5,
        "configure",
        json!({"env": [{"key": "A", "value": "1"}], "level": "2"}),
    );
    assert_eq!(r["result"].get("isError"), None, "{r}");
    // A call already in the tool's own terms has nothing to decode: valid, it goes on as is.
    let r = p.call(6, "configure", json!({"env": {"A": "1"}, "level": 2}));
    assert_eq!(r["result"].get("isError"), None, "{r}");
    // Encoded but invalid for the tool once decoded (level 3): answered, never sent.
    let r = p.call(7, "configure", json!({"env": [], "level": "3"}));
    assert_eq!(r["result"]["isError"], true, "{r}");
    let calls = calls_received(&record);
    assert_eq!(calls.len(), 2, "{calls:?}");
    for c in &calls {
        assert_eq!(c["arguments"], json!({"env": {"A": "1"}, "level": 2}));
    }

    let record = scratch("no-encode");
    let mut p = start(false, &record);
    p.initialize();
    let tools = p.list_all(1);
    assert_ne!(
        tools[0]["inputSchema"]["properties"]["env"]["type"],
        "array"
    );
    p.call(5, "configure", json!({"env": {"A": "1"}, "level": 2}));
    let calls = calls_received(&record);
    assert_eq!(
        calls[0]["arguments"],
        json!({"env": {"A": "1"}, "level": 2})
    );
}
