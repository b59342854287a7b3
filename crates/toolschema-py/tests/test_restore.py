"""The way back: restore() (the CLI's `toolschema restore`) and decode() / Sanitized.decode()."""

import json
import subprocess

import pytest
import toolschema

LONG = "mcp__github_enterprise__add_pull_request_review_comment_to_pending_review"
TOOL = {
    "type": "object",
    "properties": {"body": {"type": "string"}, "line": {"type": "integer"}},
    "required": ["body"],
}
REQUEST = {
    "model": "gpt-4o",
    "messages": [],
    "tools": [
        {"type": "function", "function": {"name": LONG, "strict": True, "parameters": TOOL}},
        {"type": "function", "function": {"name": "fs.read", "parameters": {"type": "object"}}},
    ],
}


def sent_names():
    _, report = toolschema.restore(REQUEST, b"{}", provider="openai")
    return dict(report.renamed)


def chat_response(long_name, dotted, args):
    return json.dumps(
        {
            "choices": [
                {
                    "message": {
                        "content": long_name,
                        "tool_calls": [
                            {"id": "a", "function": {"name": long_name, "arguments": args}},
                            {"id": "b", "function": {"name": dotted, "arguments": "{}"}},
                        ],
                    }
                }
            ]
        },
        separators=(",", ":"),
    ).encode()


def test_restore_maps_names_back_and_drops_strict_nulls():
    names = sent_names()
    long_sent, dotted = names[LONG], names["fs.read"]
    assert long_sent != LONG and len(long_sent) <= 64 and dotted == "fs_read"
    response = chat_response(long_sent, dotted, '{"body":"ok","line":null}')
    body, report = toolschema.restore(REQUEST, response, provider="openai")
    out = json.loads(body)
    calls = out["choices"][0]["message"]["tool_calls"]
    assert [c["function"]["name"] for c in calls] == [LONG, "fs.read"]
    assert calls[0]["function"]["arguments"] == '{"body":"ok"}'
    # Only names and arguments change: the content that happens to spell the sent name stays.
    assert out["choices"][0]["message"]["content"] == long_sent
    assert report.api == "openai-chat" and report.changed and not report.stream
    assert [(c.sent, c.tool, c.renamed, c.decoded, c.error) for c in report.calls] == [
        (long_sent, LONG, True, True, None),
        ("fs_read", "fs.read", True, False, None),
    ]


def test_restore_leaves_an_untouched_response_as_the_same_object():
    response = b'{"choices":[{"message":{"content":"no tools called"}}]}'
    body, report = toolschema.restore(REQUEST, response, provider="openai")
    assert body is response
    assert not report.changed and list(report.calls) == []
    # A str response comes back as its bytes.
    body, _ = toolschema.restore(json.dumps(REQUEST), response.decode(), provider="openai")
    assert body == response


def test_restore_reads_an_sse_capture():
    long_sent = sent_names()[LONG]

    def chunk(delta, finish):
        return f'data: {{"choices":[{{"index":0,"delta":{delta},"finish_reason":{finish}}}]}}\n\n'

    capture = "".join(
        [
            chunk('{"content":"hi"}', "null"),
            chunk(f'{{"tool_calls":[{{"index":0,"id":"a","function":{{"name":"{long_sent}","arguments":""}}}}]}}', "null"),
            chunk('{"tool_calls":[{"index":0,"function":{"arguments":"{\\"body\\":\\"x\\","}}]}', "null"),
            chunk('{"tool_calls":[{"index":0,"function":{"arguments":"\\"line\\":null}"}}]}', "null"),
            chunk("{}", '"tool_calls"'),
            "data: [DONE]\n\n",
        ]
    ).encode()
    want = "".join(
        [
            chunk('{"content":"hi"}', "null"),
            chunk(f'{{"tool_calls":[{{"index":0,"id":"a","function":{{"name":"{LONG}","arguments":""}}}}]}}', "null"),
            chunk('{"tool_calls":[{"index":0,"function":{"arguments":"{\\"body\\":\\"x\\"}"}}]}', "null"),
            chunk("{}", '"tool_calls"'),
            "data: [DONE]\n\n",
        ]
    ).encode()
    body, report = toolschema.restore(REQUEST, capture, provider="openai")
    assert body == want
    assert report.stream and report.changed
    assert [(c.tool, c.decoded) for c in report.calls] == [(LONG, True)]


def test_restore_errors_say_what():
    with pytest.raises(toolschema.SchemaError, match="known API"):
        toolschema.restore({"hello": 1}, b"{}", provider="openai")
    with pytest.raises(toolschema.SchemaError, match="not valid JSON"):
        toolschema.restore(REQUEST, b'{"choices": [', provider="openai")
    with pytest.raises(ValueError, match="unknown api"):
        toolschema.restore(REQUEST, b"{}", provider="openai", api="nope")
    with pytest.raises(toolschema.ProfileError):
        toolschema.restore(REQUEST, b"{}", provider="nope")


def test_restore_is_the_clis(cli, tmp_path):
    names = sent_names()
    req = tmp_path / "request.json"
    req.write_text(json.dumps(REQUEST), encoding="utf-8")
    res = tmp_path / "response.json"
    response = chat_response(names[LONG], names["fs.read"], '{"body":"ok","line":null}')
    res.write_bytes(response)
    for provider in ["openai", "openai-strict", "gemini"]:
        done = subprocess.run(
            [cli, "restore", "--provider", provider, "--request", str(req), str(res)],
            capture_output=True,
            timeout=60,
            check=True,
        )
        body, report = toolschema.restore(REQUEST, response, provider=provider)
        assert body == done.stdout, provider
        for original, sent in report.renamed:
            assert f"renamed: {sent} -> {original}" in done.stderr.decode(), provider


def test_decode_removes_strict_nulls_only():
    out = toolschema.sanitize(TOOL, provider="openai-strict")
    assert out.decodes
    assert out.schema["required"] == ["body", "line"]
    assert out.decode({"body": "x", "line": None}) == {"body": "x"}
    # Text keeps every other byte; bytes stay bytes.
    assert out.decode('{"body" : "x",  "line": null}') == '{"body" : "x"}'
    assert out.decode(b'{"line":null,"body":"x"}') == b'{"body":"x"}'
    # A real value, and anything with nothing to remove, comes back as the same object.
    kept = {"body": "x", "line": 3}
    assert out.decode(kept) is kept
    text = '{"body":"x"}'
    assert out.decode(text) is text
    assert toolschema.decode(TOOL, {"body": "x", "line": None}, provider="openai-strict") == {"body": "x"}


def test_decode_is_the_identity_where_nothing_was_made_nullable():
    args = {"body": "x", "line": None}
    assert not toolschema.sanitize(TOOL, provider="gemini").decodes
    assert toolschema.decode(TOOL, args, provider="gemini") is args
    # A property that accepted null already keeps its null.
    nullable = {"type": "object", "properties": {"n": {"type": ["integer", "null"]}}}
    kept = {"n": None}
    assert toolschema.decode(nullable, kept, provider="openai-strict") is kept


def test_decode_nested_and_errors():
    tool = {
        "type": "object",
        "properties": {
            "items": {
                "type": "array",
                "items": {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}, "required": ["a"]},
            }
        },
        "required": ["items"],
    }
    args = {"items": [{"a": "1", "b": None}, {"a": "2", "b": "y"}]}
    assert toolschema.decode(tool, args, provider="openai-strict") == {"items": [{"a": "1"}, {"a": "2", "b": "y"}]}
    with pytest.raises(toolschema.SchemaError, match="not JSON"):
        toolschema.decode(tool, '{"items": [', provider="openai-strict")
    with pytest.raises(TypeError):
        toolschema.decode(tool, args)  # the provider is required: it decides what is undone
