#!/usr/bin/env python3
"""Writes realistic LLM request bodies built from tests/corpus/mcp for scripts/load.sh.

Each body: a conversation (user/assistant turns with tool calls whose arguments use keys like
`title`, `format`, `default`, odd whitespace and escapes) and 4-20 corpus tools, for OpenAI Chat
(several models: auto routes them to OpenAI, Gemini, xAI, Anthropic profiles), OpenAI
Responses, Anthropic Messages, Gemini generateContent and Bedrock Converse. Writes
<out>/manifest.tsv: path <TAB> x-expect-conversation <TAB> body file. The expectation is
`<len>:<fnv1a-64 hex>` of the conversation's exact bytes in the body.
"""
import json, os, random, sys

src, out = sys.argv[1], sys.argv[2]
n_bodies = int(sys.argv[3]) if len(sys.argv) > 3 else 64
rng = random.Random(8)

def fnv1a(b):
    h = 0xcbf29ce484222325
    for x in b:
        h = ((h ^ x) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h

tools = []
for fn in sorted(os.listdir(os.path.join(src, "mcp"))):
    if fn.endswith(".json"):
        doc = json.load(open(os.path.join(src, "mcp", fn)))
        tools += [t for t in doc.get("tools", []) if "inputSchema" in t]

def compact(v):
    return json.dumps(v, separators=(",", ":"), ensure_ascii=False)

def conversation(kind, turns):
    msgs = []
    for i in range(turns):
        args = {"title": "Quarterly \u00e9tude %d" % i, "format": "date-time", "default": 1.0,
                "$ref": "#/x", "properties": {"type": ["string", "null"]}}
        if kind == "gemini":
            msgs.append({"role": "user", "parts": [{"text": "Step %d: caf\u00e9 \u2014 please continue. " % i * 8}]})
            msgs.append({"role": "model", "parts": [{"functionCall": {"name": "t%d" % i, "args": args}}]})
            msgs.append({"role": "user", "parts": [{"functionResponse": {"name": "t%d" % i, "response": {"additionalProperties": False, "ok": True}}}]})
        elif kind == "anthropic":
            msgs.append({"role": "user", "content": "Step %d: caf\u00e9 \u2014 please continue. " % i * 8})
            msgs.append({"role": "assistant", "content": [{"type": "tool_use", "id": "tu%d" % i, "name": "t", "input": args}]})
            msgs.append({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "tu%d" % i, "content": "{\"format\":\"x\"}"}]})
        else:
            msgs.append({"role": "user", "content": "Step %d: caf\u00e9 \u2014 please continue. " % i * 8})
            msgs.append({"role": "assistant", "tool_calls": [{"id": "c%d" % i, "type": "function", "function": {"name": "t", "arguments": json.dumps(args)}}]})
            msgs.append({"role": "tool", "tool_call_id": "c%d" % i, "content": "{\"default\": [1, 2]}"})
    # Pretty-printed with escapes: any re-serialization would show.
    return json.dumps(msgs, indent=1, ensure_ascii=True)

shapes = [
    ("/v1/chat/completions", "openai", "gpt-4o"),
    ("/v1/chat/completions", "openai", "gemini-2.5-flash"),
    ("/v1/chat/completions", "openai", "grok-4"),
    ("/v1/chat/completions", "openai", "claude-sonnet-4-5"),
    ("/v1/responses", "responses", "gpt-5"),
    ("/v1/messages", "anthropic", "claude-sonnet-4-5"),
    ("/v1beta/models/gemini-2.5-flash:generateContent", "gemini", None),
    ("/model/anthropic.claude-sonnet-4/converse", "bedrock", None),
]

os.makedirs(out, exist_ok=True)
manifest = []
for i in range(n_bodies):
    path, kind, model = shapes[i % len(shapes)]
    ts = rng.sample(tools, rng.randint(4, 20))
    conv_kind = {"gemini": "gemini", "anthropic": "anthropic"}.get(kind, "openai")
    conv = conversation(conv_kind, rng.randint(2, 12))
    if kind == "openai":
        t = [{"type": "function", "function": {"name": x["name"][:64], "description": x.get("description", ""), "strict": j % 3 == 0, "parameters": x["inputSchema"]}} for j, x in enumerate(ts)]
        body = '{"model":%s,"messages":%s,"tools":%s,"temperature":0.2}' % (compact(model), conv, compact(t))
    elif kind == "responses":
        t = [{"type": "function", "name": x["name"][:64], "description": x.get("description", ""), "parameters": x["inputSchema"]} for x in ts]
        body = '{"model":%s,"input":%s,"tools":%s}' % (compact(model), conv, compact(t))
    elif kind == "anthropic":
        t = [{"name": x["name"][:64], "description": x.get("description", ""), "input_schema": x["inputSchema"]} for x in ts]
        body = '{"model":%s,"max_tokens":1024,"messages":%s,"tools":%s}' % (compact(model), conv, compact(t))
    elif kind == "gemini":
        t = [{"functionDeclarations": [{"name": x["name"][:64], "description": x.get("description", ""), ("parameters" if j % 2 else "parametersJsonSchema"): x["inputSchema"]} for j, x in enumerate(ts)]}]
        body = '{"contents":%s,"tools":%s,"generationConfig":{"temperature":0.1}}' % (conv, compact(t))
    else:
        t = [{"toolSpec": {"name": x["name"][:64], "description": x.get("description", "") or "-", "inputSchema": {"json": x["inputSchema"]}}} for x in ts]
        body = '{"messages":%s,"toolConfig":{"tools":%s}}' % (conv, compact(t))
    c = conv.encode()
    expect = "%d:%016x" % (len(c), fnv1a(c))
    name = "body%03d.json" % i
    with open(os.path.join(out, name), "w") as f:
        f.write(body)
    manifest.append("%s\t%s\t%s" % (path, expect, name))
with open(os.path.join(out, "manifest.tsv"), "w") as f:
    f.write("\n".join(manifest) + "\n")
sizes = [os.path.getsize(os.path.join(out, m.split("\t")[2])) for m in manifest]
print("bodies: %d, %d..%d bytes, mean %d" % (len(sizes), min(sizes), max(sizes), sum(sizes) // len(sizes)))
