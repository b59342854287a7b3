#!/usr/bin/env bash
# Seeds the fuzz corpora from tests/corpus (MCP tool lists and the JSON-Schema-Test-Suite):
#   corpus/schema_roundtrip, corpus/sanitize, corpus/byte_reader, corpus/batch: one schema per
#                                             file (MCP inputSchema/outputSchema, JSTS schemas);
#   corpus/response: responses of every API the `response` target plays (JSON and SSE), calling
#                the tools its plan renames, each prefixed with its API/SSE byte and a chunk seed;
#   corpus/body: request bodies of every API shape built from corpus tools, each prefixed with
#                what the `body` target reads first: a byte (0x80: through the layer), the
#                configuration index, the length of the API's name (`Api::name`), that name.
# Idempotent; the corpus dirs are git-ignored. Needs python3.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
src="$here/../tests/corpus"
out="$here/corpus"
mkdir -p "$out/schema_roundtrip" "$out/sanitize" "$out/byte_reader" "$out/batch" "$out/response" "$out/body"
python3 - "$src" "$out" <<'PY'
import hashlib, json, os, sys
src, out = sys.argv[1], sys.argv[2]

def put(target, data):
    if isinstance(data, str):
        data = data.encode()
    name = hashlib.sha1(data).hexdigest()
    with open(os.path.join(out, target, name), "wb") as f:
        f.write(data)

schemas = []
tools = []
mcp = os.path.join(src, "mcp")
for fn in sorted(os.listdir(mcp)):
    if not fn.endswith(".json"):
        continue
    doc = json.load(open(os.path.join(mcp, fn)))
    for t in doc.get("tools", []):
        for key in ("inputSchema", "outputSchema"):
            if key in t:
                schemas.append(json.dumps(t[key], separators=(",", ":")))
        if "inputSchema" in t:
            tools.append(t)
jsts = os.path.join(src, "jsts")
for root, _, files in os.walk(jsts):
    for fn in sorted(files):
        if not fn.endswith(".json"):
            continue
        try:
            cases = json.load(open(os.path.join(root, fn)))
        except Exception:
            continue
        if isinstance(cases, list):
            for c in cases:
                if isinstance(c, dict) and "schema" in c:
                    schemas.append(json.dumps(c["schema"], separators=(",", ":")))
for s in schemas:
    for target in ("schema_roundtrip", "sanitize", "byte_reader", "batch"):
        put(target, s)

# Bodies, named by tower_toolschema::shapes::Api::name (any order).
apis = ["code-assist", "vertex-anthropic", "vertex-openai-compat", "vertex-gemini",
        "gemini-count-tokens", "gemini", "gemini-cached-contents", "gemini-openai-compat",
        "anthropic-batches", "anthropic-messages", "bedrock-converse", "bedrock-invoke",
        "openai-responses", "openai-chat", "ollama-chat", "cohere-chat"]
history = [{"role": "user", "content": "caf\u00e9 1.0e0"},
           {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function",
             "function": {"name": "f", "arguments": "{\"title\":\"x\"}"}}],
            "parameters": {"type": ["string", "null"], "format": "date", "$ref": "#/x",
                           "properties": {"properties": {}}}}]
gem_hist = [{"role": "user", "parts": [{"text": "hi"}]},
            {"role": "model", "parts": [{"functionCall": {"name": "f", "args": {"title": "T", "parameters": {"type": ["a", "b"]}}}}]}]
out_schema = {"type": "object", "properties": {"answer": {"type": "string"}}, "required": ["answer"]}

def gemini(ts, snake=False, mixed=False):
    # mixed: as google-genai for Python sends it (camelCase lists, snake_case declarations).
    decl = "function_declarations" if snake else "functionDeclarations"
    field = "parameters_json_schema" if snake or mixed else "parametersJsonSchema"
    half = len(ts) // 2
    a = [{"name": t["name"], "description": t.get("description", ""), "parameters": t["inputSchema"]} for t in ts[:half]]
    b = [{"name": t["name"], field: t["inputSchema"]} for t in ts[half:]]
    gc = {"generation_config": {"response_schema": out_schema}} if snake else {"generationConfig": {"responseJsonSchema" if mixed else "responseSchema": out_schema}}
    return dict({"contents": gem_hist, "tools": [{decl: a}, {"googleSearch": {}}, {decl: b}]}, **gc)

def anthropic(ts):
    return {"model": "claude-sonnet-4-5", "max_tokens": 10, "messages": history,
            "tools": [{"name": t["name"], "description": t.get("description", ""), "input_schema": t["inputSchema"]} for t in ts],
            "output_config": {"format": {"type": "json_schema", "schema": out_schema}}}

def chat(ts, model):
    return {"model": model, "messages": history,
            "tools": [{"type": "function", "function": {"name": t["name"], "strict": i % 2 == 0, "parameters": t["inputSchema"]}} for i, t in enumerate(ts)],
            "response_format": {"type": "json_schema", "json_schema": {"name": "o", "strict": True, "schema": out_schema}}}

def body(api, ts):
    if api in ("gemini", "vertex-gemini", "gemini-cached-contents"):
        return gemini(ts, mixed=len(ts) % 2 == 1)
    if api == "gemini-count-tokens":
        return {"generateContentRequest": gemini(ts, snake=True)}
    if api == "code-assist":
        return {"model": "gemini-2.5-pro", "project": "p", "request": gemini(ts)}
    if api in ("anthropic-messages", "vertex-anthropic", "bedrock-invoke"):
        return anthropic(ts)
    if api == "anthropic-batches":
        return {"requests": [{"custom_id": "a", "params": anthropic(ts)}]}
    if api == "bedrock-converse":
        return {"messages": history, "toolConfig": {"tools": [{"toolSpec": {"name": t["name"], "inputSchema": {"json": t["inputSchema"]}}} for t in ts]},
                "outputConfig": {"textFormat": {"type": "json_schema", "structure": {"jsonSchema": {"name": "o", "schema": json.dumps(out_schema)}}}}}
    if api == "ollama-chat":
        return {"model": "llama3.1", "messages": history, "format": out_schema,
                "tools": [{"type": "function", "function": {"name": t["name"], "parameters": t["inputSchema"]}} for t in ts]}
    if api == "cohere-chat":
        return {"model": "command-a", "messages": history,
                "tools": [{"type": "function", "function": {"name": t["name"], "parameters": t["inputSchema"]}} for t in ts],
                "response_format": {"type": "json_object", "json_schema": out_schema}}
    if api == "openai-responses":
        return {"model": "gpt-5", "input": history,
                "tools": [{"type": "function", "name": t["name"], "strict": True, "parameters": t["inputSchema"]} for t in ts],
                "text": {"format": {"type": "json_schema", "name": "o", "schema": out_schema}}}
    models = {"openai-chat": ["gpt-4o", "gemini-2.5-flash", "grok-4", "claude-sonnet-4-5"]}
    return chat(ts, models.get(api, ["gpt-4o"])[len(ts) % 4 if api == "openai-chat" else 0])

k = 0
for i in range(0, len(tools), 3):
    chunk = tools[i:i + 3]
    api = apis[k % len(apis)]
    text = json.dumps(body(api, chunk), separators=(",", ":"), ensure_ascii=False).encode()
    name = api.encode()
    for layer in (0, 0x80):
        put("body", bytes([layer, k % 9, len(name)]) + name + text)
    # The same body, recognised by shape (no API named).
    put("body", bytes([0, k % 9, 0]) + text)
    k += 1

# Responses, for the `response` target: byte 0 % 6 picks the API (its APIS order), bit 7 SSE.
def sel(i, sse):
    return next(b for b in range(128 if sse else 0, 256 if sse else 128) if b % 6 == i)

def sse_of(events):
    return "".join("data: " + json.dumps(e, separators=(",", ":")) + "\n\n" for e in events) + "data: [DONE]\n\n"

for name in ("a_b", "a.b", "c_d", "a_b_2", "x"):
    args = json.dumps({"x": None, "y": "caf\u00e9"})
    chat = {"id": "c", "object": "chat.completion", "choices": [{"index": 0, "message": {"role": "assistant", "content": None,
            "tool_calls": [{"id": "t1", "type": "function", "function": {"name": name, "arguments": args}}]}, "finish_reason": "tool_calls"}]}
    chat_sse = [{"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "t1", "type": "function", "function": {"name": name, "arguments": ""}}]}}]},
                {"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": args[:5]}}]}}]},
                {"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": args[5:]}}]}}]},
                {"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}]
    resp = {"id": "r", "output": [{"type": "function_call", "call_id": "t1", "name": name, "arguments": args}]}
    resp_sse = [{"type": "response.output_item.added", "output_index": 0, "item": {"type": "function_call", "call_id": "t1", "name": name, "arguments": ""}},
                {"type": "response.function_call_arguments.delta", "output_index": 0, "delta": args[:4]},
                {"type": "response.function_call_arguments.done", "output_index": 0, "arguments": args},
                {"type": "response.output_item.done", "output_index": 0, "item": {"type": "function_call", "call_id": "t1", "name": name, "arguments": args}},
                {"type": "response.completed", "response": resp}]
    anth = {"id": "m", "type": "message", "content": [{"type": "tool_use", "id": "t1", "name": name, "input": {"x": None}}]}
    anth_sse = [{"type": "message_start", "message": {"id": "m", "content": []}},
                {"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "t1", "name": name, "input": {}}},
                {"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": args[:3]}},
                {"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": args[3:]}},
                {"type": "content_block_stop", "index": 0}, {"type": "message_stop"}]
    gem = {"candidates": [{"content": {"role": "model", "parts": [{"functionCall": {"name": name, "args": {"x": None, "s": "a"}}}]}}]}
    code = {"response": gem}
    bed = {"output": {"message": {"role": "assistant", "content": [{"toolUse": {"toolUseId": "t1", "name": name, "input": {"x": None}}}]}}, "stopReason": "tool_use"}
    cases = [(0, chat, chat_sse), (1, resp, resp_sse), (2, anth, anth_sse), (3, gem, [gem, gem]), (4, code, [code]), (5, bed, [bed])]
    for i, whole, events in cases:
        for seed in (0, 7):
            put("response", bytes([sel(i, False), seed]) + json.dumps(whole, ensure_ascii=False).encode())
            put("response", bytes([sel(i, True), seed]) + sse_of(events).encode())
PY
for t in schema_roundtrip sanitize byte_reader batch response body; do
  echo "$t: $(ls "$out/$t" | wc -l) seeds"
done
