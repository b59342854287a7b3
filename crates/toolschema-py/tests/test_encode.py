"""encode(...), sanitize(..., encode=True) and decode(..., encode=True): the CLI's
`toolschema encode` / `sanitize --encode` / `decode`, byte for byte; and provider names as
`--provider` takes them (`deepseek`, any ASCII case)."""

import json
import subprocess

import pytest
import toolschema

from conftest import corpus_tools

TOOL = {
    "type": "object",
    "properties": {
        "env": {"type": "object", "additionalProperties": {"type": "string"}},
        "data": {},
        "level": {"type": "integer", "enum": [1, 2]},
        "pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "number"}]},
    },
    "required": ["env", "data", "level", "pair"],
}
VALUE = {"env": {"A": "1", "B": "2"}, "data": {"k": [1, None]}, "level": 2, "pair": ["x", 1.5]}
ENCODING_PROFILES = ["openai-strict", "anthropic-strict", "gemini", "vertex"]


def run(cli, *args, stdin=None):
    done = subprocess.run([cli, *args], capture_output=True, timeout=60, check=True, input=stdin)
    return done.stdout.decode("utf-8")


@pytest.mark.parametrize("profile", ENCODING_PROFILES)
def test_encode_is_the_cli_s_and_decodes_back(cli, tmp_path, profile):
    schema = tmp_path / "tool.json"
    schema.write_text(json.dumps(TOOL), encoding="utf-8")
    value = tmp_path / "value.json"
    value.write_text(json.dumps(VALUE), encoding="utf-8")
    expected = run(cli, "encode", "--provider", profile, "--schema", str(schema), str(value))
    encoded = toolschema.encode(TOOL, VALUE, provider=profile)
    assert encoded != VALUE
    assert json.loads(expected) == encoded
    # Text in, text out: the CLI's line without its newline.
    assert toolschema.encode(TOOL, json.dumps(VALUE), provider=profile) == expected.rstrip("\n")
    # The round trip, and what the encoded schema says it accepts.
    assert toolschema.decode(TOOL, encoded, provider=profile, encode=True) == VALUE
    out = toolschema.sanitize(TOOL, provider=profile, encode=True)
    assert out.encode(VALUE) == encoded and out.decode(encoded) == VALUE
    assert toolschema.check(out.schema, provider=profile) == []
    # `toolschema decode` gives the same.
    args = tmp_path / "args.json"
    args.write_text(json.dumps(encoded), encoding="utf-8")
    decoded = run(cli, "decode", "--provider", profile, "--schema", str(schema), str(args))
    assert json.loads(decoded) == VALUE


@pytest.mark.parametrize("profile", ["openai-strict", "gemini"])
def test_sanitize_encode_is_sanitize_dash_dash_encode_byte_for_byte(cli, tmp_path, profile):
    for i, (server, name, schema) in enumerate(corpus_tools()[::25]):
        text = json.dumps(schema, ensure_ascii=False, separators=(",", ":"))
        path = tmp_path / f"{i}.json"
        path.write_text(text, encoding="utf-8")
        expected = run(cli, "sanitize", "--provider", profile, "--encode", str(path))
        assert toolschema.sanitize_json(text, provider=profile, encode=True) == expected, (server, name)
        assert toolschema.sanitize(text, provider=profile, encode=True).json == expected, (server, name)


def test_without_encode_nothing_is_encoded():
    plain = toolschema.sanitize(TOOL, provider="openai-strict")
    assert plain.schema["properties"]["env"]["type"] == "object"
    # decode without encode=True leaves entries as they came (they are the model's, not the tool's).
    entries = {"env": [{"key": "A", "value": "1"}], "data": "1", "level": 1, "pair": ["x", 1]}
    assert toolschema.decode(TOOL, entries, provider="gemini") == entries


def test_encode_refuses_what_it_cannot_read_without_crashing():
    with pytest.raises(toolschema.SchemaError, match="not JSON"):
        toolschema.encode(TOOL, '{"env":', provider="gemini")
    deep = "[" * 100_000 + "]" * 100_000
    with pytest.raises(toolschema.SchemaError, match="deeper"):
        toolschema.encode(TOOL, deep, provider="gemini")
    # Nothing to encode: the very object given.
    plain = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}
    value = {"q": "x"}
    assert toolschema.encode(plain, value, provider="gemini") is value


def test_provider_names_as_the_cli_takes_them(cli, tmp_path):
    schema = corpus_tools()[3][2]
    path = tmp_path / "tool.json"
    text = json.dumps(schema, ensure_ascii=False, separators=(",", ":"))
    path.write_text(text, encoding="utf-8")
    # A provider whose name is not a profile's: its native profile, as `--provider deepseek`.
    expected = run(cli, "sanitize", "--provider", "deepseek", str(path))
    assert toolschema.sanitize_json(text, provider="deepseek") == expected
    assert toolschema.sanitize(schema, provider="deepseek").profile == "openai"
    assert toolschema.Profile.builtin("azure-openai").name == toolschema.sanitize({}, provider="azure-openai").profile
    # ASCII case does not matter.
    assert toolschema.sanitize_json(text, provider="GEMINI") == toolschema.sanitize_json(text, provider="gemini")
    # A request body: the provider's profiles by role (strict tools take deepseek-strict).
    body = {"model": "deepseek-chat", "messages": [], "tools": [{"type": "function", "function": {"name": "f", "strict": True, "parameters": TOOL}}]}
    body_path = tmp_path / "body.json"
    body_path.write_text(json.dumps(body), encoding="utf-8")
    expected = run(cli, "sanitize", "--provider", "deepseek", "--api", "openai-chat", str(body_path))
    out = toolschema.sanitize_body(json.dumps(body).encode(), provider="deepseek", api="openai-chat")
    assert out.body == expected.encode("utf-8")
    assert out.slots[0].profile in ("deepseek-strict", "openai")
    with pytest.raises(toolschema.ProfileError, match="deepseek"):
        toolschema.sanitize({}, provider="nope")
