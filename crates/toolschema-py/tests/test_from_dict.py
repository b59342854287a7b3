"""A dict is read straight into the engine's tree (no JSON text in between) where it holds only
what the parser reads without a decision of its own, and written to JSON text for the parser
otherwise: either way the result is the one its JSON text gives, to the byte."""

import collections
import enum
import json

import pytest
import toolschema

from conftest import corpus_tools

TOOLS = corpus_tools()
PROFILES = toolschema.providers()


def text_of(schema):
    return json.dumps(schema, ensure_ascii=False)


def assert_same(schema, profile, encode=False, text=None):
    """sanitize(dict) gives what sanitize_json / sanitize give for the dict's JSON text."""
    text = text_of(schema) if text is None else text
    from_dict = toolschema.sanitize(schema, profile, encode=encode)
    from_text = toolschema.sanitize(text, profile, encode=encode)
    assert from_dict.changes == from_text.changes
    assert [str(v) for v in from_dict.unfixable] == [str(v) for v in from_text.unfixable]
    assert from_dict.strict_compatible == from_text.strict_compatible
    assert from_dict.decodes == from_text.decodes
    fast = toolschema.sanitize_json(text, profile, encode=encode)
    if from_text.changed:
        assert from_dict.json == from_text.json == fast
    else:
        assert fast is text
        assert from_dict.schema is schema
        assert json.loads(from_dict.json) == json.loads(text)
    # Key order survives.
    assert json.dumps(from_dict.schema) == json.dumps(from_text.schema)
    return from_dict


@pytest.fixture(params=[0, 1024], ids=["cache-off", "cache-on"])
def cache(request):
    previous = toolschema.set_cache_capacity(request.param)
    toolschema.cache_clear()
    yield request.param
    toolschema.set_cache_capacity(previous)


@pytest.mark.parametrize("profile", PROFILES)
def test_every_corpus_tool_gives_what_its_json_text_gives(profile, cache):
    for server, name, schema in TOOLS:
        for encode in (False, True):
            try:
                assert_same(schema, profile, encode)
            except AssertionError as e:
                raise AssertionError((server, name, profile, encode)) from e


# What only the parser decides (the dict goes the JSON path) and what the tree takes as it is.
CASES = [
    {"type": "STRING"},
    {"type": ["string", "NULL"]},
    {"type": []},
    {"type": ["integer", "null"], "minimum": 0.5, "maximum": 1e16, "multipleOf": -0.0},
    {"minimum": "3"},
    {"maximum": True},
    {"exclusiveMinimum": True, "minimum": 1},
    {"exclusiveMaximum": 4},
    {"nullable": 1},
    {"uniqueItems": False, "type": "array"},
    {"description": 5},
    {"description": None},
    {"description": "é\n\"\u0001\\ \u2028 😀", "title": "", "format": "date-time"},
    {"properties": [1]},
    {"properties": {"a": True, "b": False, "c": 3}},
    {"properties": {"a/b~c": {"type": "string"}, "é": {}}},
    {"required": "a"},
    {"required": ["a", 1]},
    {"items": 3},
    {"items": [{"type": "string"}, True]},
    {"items": [{"type": "string"}, 1]},
    {"anyOf": {"type": "string"}},
    {"anyOf": [{"type": "string"}, False]},
    {"anyOf": [True]},
    {"not": False},
    {"enum": "x"},
    {"enum": ["a", 1, 2.5, None, True, {"k": [1, {}]}, []]},
    {"const": {"b": 1, "a": [True, None]}},
    {"default": [1, "two", 3.0]},
    {"x-vendor": {"b": [1, None], "a": "é"}, "id": 3},
    {"dependencies": {"a": ["b"], "c": {"type": "string"}}},
    {"dependencies": {"a": ["b"], "d": 5}},
    {"dependencies": {"a": [1]}},
    {"dependentRequired": {"a": ["b", "c"]}},
    {"dependentRequired": {"a": "b"}},
    {"dependentSchemas": {"a": {"required": ["b"]}}},
    {"$defs": {"n": {"type": "integer"}}, "$ref": "#/$defs/n"},
    {"patternProperties": {"^x": {"type": "string"}}, "additionalProperties": False},
    {"maximum": 2**63},
    {"maximum": 2**70},
    {"enum": [2**70, -(2**70)]},
    {"maxLength": -3},
]


@pytest.mark.parametrize("profile", ["gemini", "openai-strict", "anthropic"])
@pytest.mark.parametrize("i", range(len(CASES)))
def test_each_case_gives_what_its_json_text_gives(profile, i, cache):
    schema = {"type": "object", "properties": {"p": CASES[i]}}
    assert_same(schema, profile)
    assert_same(CASES[i], profile)
    assert_same(schema, profile, encode=True)


def nested(levels):
    s = {"type": "string"}
    for _ in range(levels):
        s = {"type": "object", "properties": {"a": s}}
    return s


@pytest.mark.parametrize("levels", [63, 64, 65, 70])
def test_the_depth_limit_is_the_parsers(levels, cache):
    for profile in ("gemini", "openai-strict", "openai"):
        out = assert_same(nested(levels), profile)
        assert any(c.rule == "depth" for c in out.changes) == (levels > 64)


def test_tuples_and_subclasses_read_as_their_json_text(cache):
    class Kind(str, enum.Enum):
        A = "a"

    class Level(enum.IntEnum):
        LOW = 1

    schema = collections.OrderedDict(
        type="object",
        properties={"k": {"type": "string", "enum": [Kind.A]}, "n": {"minimum": Level.LOW}},
        required=("k",),
    )
    text = '{"type":"object","properties":{"k":{"type":"string","enum":["a"]},"n":{"minimum":1}},"required":["k"]}'
    for profile in ("gemini", "openai-strict"):
        out = toolschema.sanitize(schema, profile)
        assert out.json == toolschema.sanitize(text, profile).json
        assert out.changes == toolschema.sanitize(text, profile).changes


@pytest.mark.parametrize(
    "bad, pointer",
    [
        ({"properties": {"a": {"type": {1, 2}}}}, "/properties/a/type"),
        ({"properties": {1: {}}}, "/properties/1"),
        ({"enum": [float("nan")]}, "/enum/0"),
        ({"description": "\ud800"}, "/description"),
    ],
)
def test_what_json_cannot_say_is_refused_where_it_is(bad, pointer, cache):
    with pytest.raises(toolschema.SchemaError) as e:
        toolschema.sanitize(bad, "gemini")
    assert e.value.pointer == pointer


def test_a_dict_changed_since_its_first_call_is_read_again():
    toolschema.cache_clear()
    schema = {"type": "object", "properties": {"a": {"type": "string"}}}
    first = toolschema.sanitize(schema, "openai-strict").json
    schema["properties"]["b"] = {"type": ["integer", "null"]}
    second = toolschema.sanitize(schema, "openai-strict")
    assert second.json != first
    assert second.json == toolschema.sanitize(text_of(schema), "openai-strict").json
