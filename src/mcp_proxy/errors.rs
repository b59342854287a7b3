//! Every text the proxy writes: to the model (an invalid call), to the client (a JSON-RPC error
//! when the server cannot be reached) and to a person (standard error).

use tool_calls::CallError;

/// Prefix of every line the proxy writes to standard error.
pub const PREFIX: &str = "toolschema mcp";

/// The JSON-RPC error code of a request the server could not be asked (implementation-defined
/// server error range).
pub const UPSTREAM_ERROR: i64 = -32000;

/// The text of the tool error answering an invalid call: what is wrong, where, what was meant,
/// and a worked example (tool-calls' message), under a line saying the call was not run.
pub fn invalid_call(tool: &str, err: &CallError) -> String {
    format!(
        "Invalid arguments for tool {tool:?} (the call was not run; fix the arguments and call again):\n{err}"
    )
}

/// The text of the tool error answering a call whose `arguments` are not a JSON object.
pub fn arguments_not_object(tool: &str, example: &str) -> String {
    format!(
        "Invalid arguments for tool {tool:?} (the call was not run): \"arguments\" must be a JSON object of the tool's parameters\nExpected {example}"
    )
}

/// A request that could not reach the Streamable HTTP server.
pub fn upstream_unreachable(url: &str, cause: &str) -> String {
    format!("the MCP server at {url} could not be asked: {cause}")
}

/// The `--ca-cert` file holds no usable PEM certificate.
pub fn bad_ca_certs(cause: &str) -> String {
    format!("--ca-cert: not a PEM certificate bundle: {cause}")
}

/// The Streamable HTTP server answered with an HTTP error.
pub fn upstream_status(url: &str, status: u16, body: &str) -> String {
    let body = body.trim();
    let shown: String = body.chars().take(300).collect();
    if shown.is_empty() {
        format!("the MCP server at {url} answered HTTP {status}")
    } else {
        format!("the MCP server at {url} answered HTTP {status}: {shown}")
    }
}

/// The Streamable HTTP server said the session is gone (HTTP 404 to a request with a session).
pub fn session_expired(url: &str) -> String {
    format!(
        "the MCP server at {url} ended the session (HTTP 404); reconnect the client to start a new one"
    )
}

/// A line the server wrote that is not JSON-RPC (kept: shown on standard error).
pub fn not_json_rpc(line: &str) -> String {
    let shown: String = line.chars().take(200).collect();
    format!("{PREFIX}: the server wrote a line that is not JSON-RPC (not forwarded): {shown}")
}

/// A tool whose schema could not be read: listed as the server sent it.
pub fn schema_unreadable(tool: &str, cause: &str) -> String {
    format!("{PREFIX}: tool {tool:?}: its inputSchema cannot be read ({cause}); listed unchanged")
}

/// A tool whose listing could not be read: the page is forwarded as it is.
pub fn list_unreadable(cause: &str) -> String {
    format!("{PREFIX}: a tools/list answer cannot be read ({cause}); forwarded unchanged")
}

/// A call to a tool this proxy never saw listed: forwarded without validation.
pub fn unknown_tool(tool: &str) -> String {
    format!(
        "{PREFIX}: tool {tool:?} was called before this proxy saw it listed: forwarded without validation"
    )
}

/// The server never finished the proxy's own listing (at the start, or after
/// `notifications/tools/list_changed`).
pub fn relist_abandoned(cause: &str) -> String {
    format!(
        "{PREFIX}: listing the server's tools failed ({cause}); calls are validated against the tools listed before"
    )
}

/// A renamed tool, said once.
pub fn renamed(original: &str, exposed: &str, provider: &str) -> String {
    format!("{PREFIX}: tool {original:?} is listed as {exposed:?} ({provider} refuses its name)")
}

/// A schema that lost constraints, said once per tool.
pub fn lossy(tool: &str, lossy: usize, provider: &str) -> String {
    format!(
        "{PREFIX}: tool {tool:?}: {lossy} constraint(s) {provider} cannot express moved to descriptions; calls are still validated against the original"
    )
}
