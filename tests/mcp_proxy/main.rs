//! `toolschema mcp` against a mock MCP server (tests/fixtures/mock_mcp_upstream.py), over stdio
//! and Streamable HTTP on 127.0.0.1. Every wait is bounded.

mod encode;
mod http;
mod stdio;
mod support;
