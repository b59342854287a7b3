#!/usr/bin/env python3
"""What `toolschema mcp` adds to a round trip: the same requests sent to the mock MCP server
(tests/fixtures/mock_mcp_upstream.py) directly and through the proxy, in one run, over stdio.

Usage: scripts/mcp_overhead.py [--bin PATH] [--provider NAME] [--tools FILE] [--calls N] [--lists N]

- calls: N valid tools/call round trips (each waits for its answer; validated, renamed back);
- lists: N tools/list round trips of FILE's tools (each answer sanitized; no cache);
Prints the mean per round trip, direct and proxied, and a `RATIO proxied/direct` line for each.
The binary defaults to target/debug/toolschema (build with `cargo build`; pass a release
binary for production figures).
"""
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def arg(name, default):
    a = sys.argv
    return a[a.index(name) + 1] if name in a else default


def session(cmd):
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    n = [0]

    def rpc(method, params):
        n[0] += 1
        p.stdin.write(json.dumps({"jsonrpc": "2.0", "id": n[0], "method": method, "params": params}) + "\n")
        p.stdin.flush()
        while True:
            line = p.stdout.readline()
            if not line:
                raise SystemExit("the server ended early")
            if not line.startswith("{"):
                continue  # the mock's log line on stdout
            msg = json.loads(line)
            if msg.get("id") == n[0]:
                return msg

    rpc("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}})
    p.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")
    return p, rpc


def measure(cmd, tools_file, calls, lists):
    p, rpc = session(cmd)
    first = rpc("tools/list", {})["result"]["tools"]
    name = first[0]["name"]
    args = example(first[0]["inputSchema"])
    t = time.perf_counter()
    for _ in range(lists):
        rpc("tools/list", {})
    per_list = (time.perf_counter() - t) / max(lists, 1)
    t = time.perf_counter()
    for _ in range(calls):
        r = rpc("tools/call", {"name": name, "arguments": args})
        if r.get("result", {}).get("isError"):
            raise SystemExit("the call was refused: %s" % r)
    per_call = (time.perf_counter() - t) / max(calls, 1)
    p.stdin.close()
    p.wait(timeout=10)
    return per_list, per_call


def example(schema):
    """Arguments the tool accepts: its required string fields."""
    props = schema.get("properties", {})
    return {k: "x" for k in schema.get("required", []) if props.get(k, {}).get("type") == "string"}


def main():
    binary = arg("--bin", os.path.join(ROOT, "target/debug/toolschema"))
    provider = arg("--provider", "gemini")
    tools = arg("--tools", os.path.join(ROOT, "examples/data/firecrawl-mcp.json"))
    calls, lists = int(arg("--calls", "2000")), int(arg("--lists", "200"))
    mock = [sys.executable, os.path.join(ROOT, "tests/fixtures/mock_mcp_upstream.py"), "--tools", tools]
    direct = measure(mock, tools, calls, lists)
    proxied = measure([binary, "mcp", "--provider", provider, "--"] + mock, tools, calls, lists)
    with open(tools) as f:
        n = len(json.load(f)["tools"])
    print("tools/list (%d tools): direct %.0f us, proxied %.0f us" % (n, direct[0] * 1e6, proxied[0] * 1e6))
    print("RATIO tools/list proxied/direct %.2f" % (proxied[0] / direct[0]))
    print("tools/call: direct %.0f us, proxied %.0f us" % (direct[1] * 1e6, proxied[1] * 1e6))
    print("RATIO tools/call proxied/direct %.2f" % (proxied[1] / direct[1]))


if __name__ == "__main__":
    main()
