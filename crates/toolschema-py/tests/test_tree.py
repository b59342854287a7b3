"""`Sanitized.schema` is built straight from the engine's tree: it is `json.loads(.json)`, keys in
the same order, every number of the same Python type."""

import json

import pytest
import toolschema

from conftest import corpus_tools

TOOLS = corpus_tools()


def same(a, b):
    # json.dumps keeps insertion order and tells 1 from 1.0 and True from 1.
    return json.dumps(a, ensure_ascii=False) == json.dumps(b, ensure_ascii=False)


@pytest.mark.parametrize("profile", toolschema.providers())
@pytest.mark.parametrize("encode", [False, True])
def test_schema_is_the_json_text_read_back_over_the_corpus(profile, encode):
    for server, name, schema in TOOLS:
        out = toolschema.sanitize(schema, provider=profile, encode=encode)
        assert same(out.schema, json.loads(out.json)), (server, name)


def test_every_kind_of_value_comes_back_as_json_loads_reads_it():
    schema = {
        # Changed for Gemini (the type list), so the tree is converted.
        "type": ["object", "null"],
        "$comment": "tab\there, \"quoted\", \u00e9\u4e2d, \U0001f600",
        "x-vendor": {"nested": [1, 2.5, -3, None, True, {"deep": ["a"]}], "big": 2**70},
        "minimum": -(2**63),
        "maximum": 2**64 - 1,
        "multipleOf": 1e2,
        "exclusiveMinimum": 0.1,
        "properties": {
            "": {"type": "string", "default": "x\ny"},
            "ünï": {"enum": [1, 1.0, "1", None, [1], {"a": 1}]},
            "t": {"type": "array", "items": [{"type": "integer"}, True, False]},
            "bad": {"type": 7, "description": 5, "required": "name"},
        },
        "dependencies": {"a": ["b", "c"], "d": {"required": ["e"]}},
        "dependentRequired": {"f": ["g"]},
        "required": ["", "ünï"],
    }
    for profile in ["gemini", "openai-strict", "anthropic", "portable"]:
        out = toolschema.sanitize(schema, provider=profile)
        assert out.changed, profile
        assert same(out.schema, json.loads(out.json)), profile
        # Read twice: the same object (built once).
        assert out.schema is out.schema


def test_an_unchanged_str_comes_back_as_its_json():
    text = '{"type": "object", "properties": {}}'
    out = toolschema.sanitize(text, provider="openai")
    assert not out.changed
    assert out.json is text
    assert out.schema == json.loads(text)
    # bytes: the same text, as a str.
    assert toolschema.sanitize(text.encode(), provider="openai").json == text


def test_a_provider_name_made_at_run_time_is_the_literal_s_profile():
    # Not the interned literal: found by its text, not by identity.
    name = "".join(["gem", "ini"])
    schema = {"type": ["string", "null"]}
    assert toolschema.sanitize(schema, provider=name).json == toolschema.sanitize(schema, provider="gemini").json
    assert toolschema.sanitize(schema, provider=name).profile == "gemini"
    assert toolschema.sanitize(schema, provider=" Gemini ").profile == "gemini"
    with pytest.raises(toolschema.ProfileError):
        toolschema.sanitize(schema, provider="".join(["gem", "inj"]))
