"""The API's behaviour on small inputs: results, errors, bounds."""

import json

import pytest
import toolschema


def test_sanitize_reports_changes():
    out = toolschema.sanitize(
        {"type": "object", "properties": {"n": {"type": ["integer", "null"], "exclusiveMinimum": 0}}}
    )
    assert out.schema == {
        "type": "object",
        "properties": {"n": {"type": "integer", "nullable": True, "minimum": 1}},
    }
    rules = [c.rule for c in out.changes]
    assert "type-list" in rules
    pointer, rule, message, lossy = out.changes[0]
    assert pointer == "/properties/n" and isinstance(message, str) and lossy in (True, False)
    assert out.profile == "gemini"
    assert toolschema.check(out.schema) == []


def test_unchanged_input_is_returned_as_is():
    schema = {"type": "object", "properties": {"q": {"type": "string"}}}
    out = toolschema.sanitize(schema, provider="openai")
    assert out.changes == [] and not out.changed and not out.lossy
    assert out.schema is schema
    text = '{"type":"object","properties":{"q":{"type":"string"}}}'
    assert toolschema.sanitize_json(text, provider="openai") is text


def test_lossy_and_strict_compatible():
    out = toolschema.sanitize({"type": "object", "properties": {"u": {"type": "string", "format": "uri"}}})
    assert out.lossy
    strict = toolschema.sanitize(
        {"type": "object", "properties": {"a": {"type": "object", "additionalProperties": {"type": "string"}}}},
        provider="openai-strict",
    )
    assert strict.strict_compatible is False
    assert toolschema.sanitize({"type": "object", "properties": {}}, provider="openai-strict").strict_compatible


def test_check_finds_violations_with_provider_errors():
    found = toolschema.check({"type": "object", "properties": {"t": {"type": ["string", "null"]}}}, provider="gemini")
    assert [(v.pointer, v.rule) for v in found] == [("/properties/t", "type-list")]
    assert "/properties/t" in str(found[0])
    assert toolschema.check({"type": "object", "properties": {"t": {"type": ["string", "null"]}}}, provider="openai") == []


def test_invalid_json_is_a_schema_error():
    with pytest.raises(toolschema.SchemaError) as e:
        toolschema.sanitize('{"type": }')
    assert isinstance(e.value, ValueError)
    assert e.value.pointer == ""
    assert "line 1" in e.value.reason


@pytest.mark.parametrize(
    "schema, pointer",
    [
        ({"properties": {"a": {"default": {1, 2}}}}, "/properties/a/default"),
        ({"enum": [1, float("nan")]}, "/enum/1"),
        ({"properties": {1: {}}}, "/properties/1"),
        ({"a/b": {"x~": object()}}, "/a~1b/x~0"),
    ],
)
def test_values_that_are_not_json_say_where(schema, pointer):
    with pytest.raises(toolschema.SchemaError) as e:
        toolschema.sanitize(schema)
    assert e.value.pointer == pointer


def test_a_dict_that_contains_itself_is_an_error_not_a_hang():
    d = {"type": "object", "properties": {}}
    d["properties"]["self"] = d
    with pytest.raises(toolschema.SchemaError) as e:
        toolschema.sanitize(d)
    assert "nested deeper than" in e.value.reason


def test_deep_nesting_is_cut_and_reported():
    schema = {"type": "string"}
    for _ in range(5000):
        schema = {"type": "object", "properties": {"a": schema}}
    out = toolschema.sanitize(schema, provider="openai")
    cut = [c for c in out.changes if c.rule == "depth"]
    assert cut and cut[0].lossy
    assert toolschema.check(out.schema, provider="openai") == []
    # The same as text (json.dumps would recurse too deep here; build the text directly).
    text = '{"type":"object","properties":{"a":' * 5000 + '{"type":"string"}' + "}}" * 5000
    assert toolschema.sanitize_json(text, provider="openai") == out.json
    assert toolschema.check(text, provider="openai")[0].rule == "depth"


def test_huge_enum():
    schema = {"type": "object", "properties": {"e": {"type": "integer", "enum": list(range(200_000))}}}
    out = toolschema.sanitize(schema)
    assert toolschema.check(out.schema) == []
    big = {"type": "object", "properties": {"e": {"enum": [10**30, -(10**40)], "type": "integer"}}}
    out = toolschema.sanitize(big, provider="openai")
    assert out.schema["properties"]["e"]["enum"] == [10**30, -(10**40)]


def test_tuples_floats_and_unicode_round_trip():
    schema = {"type": "object", "properties": {"é\n": {"type": "number", "default": 1.5, "enum": (1.5, 2)}}}
    out = toolschema.sanitize(schema, provider="openai")
    assert out.changes == [] and out.schema is schema
    assert json.loads(out.json) == {"type": "object", "properties": {"é\n": {"type": "number", "default": 1.5, "enum": [1.5, 2]}}}
    changed = toolschema.sanitize(schema, provider="gemini")
    assert changed.schema["properties"]["é\n"]["default"] == 1.5
    assert json.loads(changed.json) == changed.schema


def test_unknown_provider_and_slot():
    with pytest.raises(toolschema.ProfileError, match="valid providers: gemini"):
        toolschema.sanitize({}, provider="nope")
    with pytest.raises(ValueError, match="unknown slot"):
        toolschema.sanitize({}, slot="nope")
    with pytest.raises(TypeError):
        toolschema.sanitize_json({"type": "object"})


def test_providers_and_rules():
    names = toolschema.providers()
    assert names[0] == "gemini" and "openai-strict" in names
    r = toolschema.rules("gemini")
    assert r["name"] == "gemini"
    toml = toolschema.rules("openai-strict", format="toml")
    assert toolschema.Profile.from_toml(toml).to_dict() == toolschema.rules("openai-strict")
    assert json.loads(toolschema.rules("xai", format="json"))["name"] == "xai"


def test_custom_profile_from_toml():
    p = toolschema.Profile.from_toml('extends = "openai"\nname = "openai-no-hints"\nhints = false\n')
    assert p.name == "openai-no-hints"
    out = toolschema.sanitize({"type": "object", "properties": {"a": {"type": "array"}}}, provider=p)
    assert out.profile == "openai-no-hints"
    assert out.schema["properties"]["a"]["items"] == {}
    assert toolschema.check(out.schema, provider=p) == []
    with pytest.raises(toolschema.ProfileError, match="names no built-in profile"):
        toolschema.Profile.from_toml('extends = "nope"')
    with pytest.raises(toolschema.ProfileError, match="invalid TOML"):
        toolschema.Profile.from_toml("extends = ")
    assert toolschema.Profile.builtin("gemini").name == "gemini"


def test_sanitize_body_dict_bytes_str():
    body = {
        "contents": [],
        "tools": [{"functionDeclarations": [{"name": "f", "parameters": {"type": "object", "properties": {"a": {"type": ["string", "null"]}}}}]}],
    }
    out = toolschema.sanitize_body(body, provider="gemini")
    assert out.changed and out.api == "gemini"
    assert out.body["tools"][0]["functionDeclarations"][0]["parameters"]["properties"]["a"] == {"type": "string", "nullable": True}
    assert [s.pointer for s in out.slots] == ["/tools/0/functionDeclarations/0/parameters"]
    raw = json.dumps(body).encode()
    as_bytes = toolschema.sanitize_body(raw, provider="gemini")
    assert isinstance(as_bytes.body, bytes) and json.loads(as_bytes.body) == out.body
    as_str = toolschema.sanitize_body(raw.decode(), provider="gemini")
    assert isinstance(as_str.body, str)
    # Provider from the body's shape and model.
    auto = toolschema.sanitize_body(raw, api="gemini")
    assert auto.slots[0].profile == "gemini"
    # Nothing to change: the same object back.
    fine = {"model": "gpt-4o", "messages": [], "tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": "object", "properties": {}}}}]}
    same = toolschema.sanitize_body(fine, provider="openai")
    assert same.body is fine and not same.changed


def test_sanitize_body_caches_slots_across_calls():
    schema = {"type": "object", "properties": {"unique_to_this_test": {"type": ["string", "null"]}}}
    body = {"contents": [], "tools": [{"functionDeclarations": [{"name": "f", "parameters": schema}]}]}
    first = toolschema.sanitize_body(body, provider="gemini")
    second = toolschema.sanitize_body(body, provider="gemini")
    assert [s.cached for s in first.slots] == [False]
    assert [s.cached for s in second.slots] == [True]
    assert second.body == first.body
    p = toolschema.Profile.from_toml('extends = "gemini"\nname = "g-cache"')
    assert [s.cached for s in toolschema.sanitize_body(body, provider=p).slots] == [False]
    assert [s.cached for s in toolschema.sanitize_body(body, provider=p).slots] == [True]


def test_sanitize_body_errors():
    with pytest.raises(toolschema.SchemaError, match="cannot read the request body"):
        toolschema.sanitize_body(b'{"tools": [', provider="openai")
    with pytest.raises(ValueError, match="valid apis"):
        toolschema.sanitize_body(b"{}", api="nope")


def test_validate_call():
    schema = {
        "type": "object",
        "properties": {"namespace": {"type": "string"}, "toolName": {"type": "string"}, "arguments": {"type": "object"}},
        "required": ["namespace", "toolName", "arguments"],
    }
    call = {"namespace": "mail", "name": "search", "arguments": '{"q": "x"}'}
    errors = toolschema.validate_call(schema, call)
    assert [(e.pointer, e.kind) for e in errors] == [("/toolName", "missing"), ("/arguments", "wrong_type")]
    assert errors[0].message == '"toolName" is missing — you sent "name"; the field is "toolName"'
    assert errors[1].sent == '{"q": "x"}'
    assert errors[0].example == '{"namespace":"<string>","toolName":"<string>","arguments":{...}}'
    assert toolschema.explain_call(schema, call).startswith("2 problems:\n")
    assert toolschema.validate_call(schema, {"namespace": "a", "toolName": "b", "arguments": {}}) == []
    assert toolschema.explain_call(schema, {"namespace": "a", "toolName": "b", "arguments": {}}) is None


def test_validate_call_bounds():
    deep = {}
    for _ in range(1000):
        deep = {"a": deep}
    with pytest.raises(toolschema.SchemaError):
        toolschema.validate_call({"type": "object"}, deep)


@pytest.mark.parametrize("value, found", [([1], "an array"), (None, "null"), (5, "a number"), ("[]", "an array"), ('"x"', "a string")])
def test_a_root_that_is_not_a_schema_is_an_error(value, found):
    with pytest.raises(toolschema.SchemaError, match=f"found {found}") as e:
        toolschema.sanitize(value)
    assert e.value.pointer == ""
    with pytest.raises(toolschema.SchemaError):
        toolschema.check(value)


def test_boolean_roots_are_schemas():
    assert toolschema.sanitize(True, provider="gemini").schema == {"type": "object"}
    assert toolschema.sanitize("true", provider="portable", slot="schema").json == "true"


def test_threads_get_the_same_results():
    # Large inputs run without the GIL: several threads at once, each result as alone.
    from concurrent.futures import ThreadPoolExecutor

    big = {"type": "object", "properties": {f"p{i}": {"type": ["string", "null"], "format": "uri"} for i in range(3000)}}
    text = json.dumps(big)
    assert len(text) > 64 * 1024
    alone = toolschema.sanitize_json(text)
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda _: toolschema.sanitize_json(text), range(8)))
    assert results == [alone] * 8
    assert toolschema.check(alone) == []
