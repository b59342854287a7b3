"""The result cache: a schema given again is answered as the engine answered it, and never a
stale answer for one changed since."""

import json

import pytest
import toolschema


@pytest.fixture(autouse=True)
def fresh_cache():
    previous = toolschema.set_cache_capacity(1024)
    toolschema.cache_clear()
    yield
    toolschema.cache_clear()
    toolschema.set_cache_capacity(previous)


def compact(v):
    return json.dumps(v, separators=(",", ":"))


def nullable():
    return {"type": "object", "properties": {"n": {"type": ["integer", "null"]}}}


def test_repeat_call_is_a_hit_with_a_fresh_dict():
    schema = nullable()
    a = toolschema.sanitize(schema).schema
    b = toolschema.sanitize(schema).schema
    c = toolschema.sanitize(schema).schema
    assert a == b == c == {"type": "object", "properties": {"n": {"type": "integer", "nullable": True}}}
    assert a is not b and b is not c and a["properties"] is not c["properties"]
    info = toolschema.cache_info()
    assert (info["entries"], info["hits"], info["misses"]) == (1, 2, 1)
    # A caller changing its result changes nothing for the next call.
    c["properties"]["n"]["type"] = "string"
    del c["type"]
    assert toolschema.sanitize(schema).schema == a


def test_changed_in_place_is_sanitized_again():
    schema = nullable()
    first = toolschema.sanitize(schema, "openai-strict").schema
    schema["properties"]["m"] = {"type": "string"}
    again = toolschema.sanitize(schema, "openai-strict").schema
    assert "m" in again["properties"] and "m" not in first["properties"]
    assert again == toolschema.sanitize(json.dumps(schema), "openai-strict").schema
    assert toolschema.cache_info()["hits"] == 0


@pytest.mark.parametrize(
    "before, after",
    [
        ({"type": "integer", "minimum": 1}, {"type": "integer", "minimum": True}),
        ({"type": "number", "minimum": 0.0}, {"type": "number", "minimum": -0.0}),
        ({"type": "number", "minimum": 1}, {"type": "number", "minimum": 1.0}),
        ({"enum": ["a", "b"]}, {"enum": ["b", "a"]}),
    ],
)
def test_equal_but_different_json_is_not_a_hit(before, after):
    # Values Python calls equal (True == 1, -0.0 == 0.0) but JSON does not, and reordered
    # items: the snapshot compares types and order, not ==.
    schema = {"type": "object", "properties": {"x": dict(before)}}
    first = toolschema.sanitize(schema, "openai").json
    schema["properties"]["x"] = dict(after)
    got = toolschema.sanitize(schema, "openai").json
    assert got == toolschema.sanitize_json(compact(schema), "openai")
    assert got != first


def test_reordered_keys_are_not_a_hit():
    schema = {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}}
    toolschema.sanitize(schema, "openai-strict")
    props = schema["properties"]
    props["a"] = props.pop("a")  # same keys, now b before a
    out = toolschema.sanitize(schema, "openai-strict").schema
    assert list(out["properties"]) == ["b", "a"]


def test_text_hits_return_the_same_text():
    text = json.dumps(nullable())
    a = toolschema.sanitize_json(text)
    b = toolschema.sanitize_json(text)
    assert a == b == '{"type":"object","properties":{"n":{"type":"integer","nullable":true}}}'
    # An equal str made separately is found too; an unchanged one comes back as itself.
    assert toolschema.sanitize_json("".join([text])) == a
    same = '{"type":"object","properties":{"q":{"type":"string"}}}'
    for _ in range(2):
        assert toolschema.sanitize_json(same, "openai") is same
        assert toolschema.sanitize_json(same.encode(), "openai") == same


def test_profile_slot_and_encode_are_part_of_the_key():
    schema = {"type": "object", "properties": {"m": {"type": "object", "additionalProperties": {"type": "string"}}}}
    outs = {
        (p, s, e): toolschema.sanitize(schema, p, s, encode=e).json
        for p in ["gemini", "openai-strict", "anthropic"]
        for s in ["parameters", "schema"]
        for e in [False, True]
    }
    toolschema.set_cache_capacity(0)
    for (p, s, e), got in outs.items():
        assert got == toolschema.sanitize(schema, p, s, encode=e).json, (p, s, e)


def test_custom_profiles_are_not_mixed_up():
    keep = toolschema.Profile.from_toml('extends = "gemini"\nadditional-properties = "keep"')
    schema = {"type": "object", "additionalProperties": False}
    custom = toolschema.sanitize(schema, keep)
    builtin = toolschema.sanitize(schema, "gemini")
    assert custom.profile == builtin.profile == "gemini" or custom.json != builtin.json
    assert toolschema.sanitize(schema, keep).json == custom.json
    assert toolschema.sanitize(schema, "gemini").json == builtin.json


def test_capacity_bounds_and_off():
    toolschema.set_cache_capacity(3)
    for i in range(10):
        toolschema.sanitize({"type": "object", "properties": {f"p{i}": {"type": ["string", "null"]}}})
    assert toolschema.cache_info()["entries"] == 3
    assert toolschema.set_cache_capacity(0) == 3
    assert toolschema.cache_info()["entries"] == 0
    schema = nullable()
    assert toolschema.sanitize(schema).schema == toolschema.sanitize(schema).schema
    assert toolschema.cache_info()["entries"] == 0


def test_values_a_snapshot_cannot_take_still_work():
    class Sub(dict):
        pass

    for schema in [Sub(nullable()), {"type": "object", "required": ("n",)}]:
        a = toolschema.sanitize(schema, "openai-strict").json
        b = toolschema.sanitize(schema, "openai-strict").json
        assert a == b
    assert toolschema.cache_info()["entries"] == 0


def test_errors_are_not_cached():
    for _ in range(2):
        with pytest.raises(toolschema.SchemaError):
            toolschema.sanitize("{not json")
    assert toolschema.cache_info()["entries"] == 0


def test_decode_sanitizes_each_schema_once():
    schema = {"type": "object", "properties": {"q": {"type": "string"}, "n": {"type": "integer"}}, "required": ["q"]}
    sent = {"q": "x", "n": None}
    for _ in range(3):
        assert toolschema.decode(schema, sent, "openai-strict") == {"q": "x"}
    info = toolschema.cache_info()
    assert (info["misses"], info["hits"]) == (1, 2)


def test_threads_share_the_cache():
    import threading

    schemas = [
        {"type": "object", "properties": {f"p{i}": {"type": ["string", "null"]}}, "required": [f"p{i}"]}
        for i in range(8)
    ]
    want = [toolschema.sanitize_json(compact(s), "openai-strict") for s in schemas]
    failures = []

    def work():
        for _ in range(100):
            for s, w in zip(schemas, want):
                got = toolschema.sanitize(s, "openai-strict").schema
                if compact(got) != w:
                    failures.append(got)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
    assert toolschema.cache_info()["hits"] >= 3000


def strict_schema():
    return {
        "type": "object",
        "properties": {"n": {"type": ["integer", "null"]}, "tags": {"type": "array", "items": {"type": "string"}}},
        "required": ["n"],
    }


def warm(schema, provider):
    # The first two reads convert the engine's tree; from the third on, copies come from a
    # template (and the last one let go of may go out again).
    for _ in range(3):
        toolschema.sanitize(schema, provider).schema


def test_a_result_let_go_unchanged_goes_out_again():
    schema = strict_schema()
    warm(schema, "openai-strict")
    first = toolschema.sanitize(schema, "openai-strict").schema
    kept = id(first)
    del first
    # Nothing holds it any more and it reads as made: the same dict, which no one can tell
    # from a new one. (A new copy is made while the old one is still alive, so a new id
    # means a new dict.)
    again = toolschema.sanitize(schema, "openai-strict").schema
    assert id(again) == kept
    # While it is held, the next call gets another dict.
    other = toolschema.sanitize(schema, "openai-strict").schema
    assert other is not again and other == again
    held = toolschema.sanitize(schema, "openai-strict")
    first_read = held.schema
    del first_read
    # The Sanitized object still holds its .schema: not handed out again.
    assert toolschema.sanitize(schema, "openai-strict").schema is not held.schema


@pytest.mark.parametrize(
    "change",
    [
        lambda r: r["properties"]["n"].__setitem__("type", "string"),
        lambda r: r["required"].append("tags"),
        lambda r: r.pop("type"),
        lambda r: r["properties"].__setitem__("m", {}),
        lambda r: r.__setitem__("type", "obj" + "ect".upper().lower()),  # equal, not the same
        lambda r: r["properties"].__setitem__("n", r["properties"].pop("n")),  # reordered
        lambda r: r["properties"]["tags"]["items"].clear(),
    ],
)
def test_a_result_changed_then_let_go_does_not_come_back(change):
    schema = strict_schema()
    want = toolschema.sanitize_json(compact(schema), "openai-strict")
    warm(schema, "openai-strict")
    r = toolschema.sanitize(schema, "openai-strict").schema
    change(r)
    del r
    assert compact(toolschema.sanitize(schema, "openai-strict").schema) == want


def test_a_part_still_held_is_not_shared():
    schema = strict_schema()
    warm(schema, "openai-strict")
    r = toolschema.sanitize(schema, "openai-strict").schema
    props, required = r["properties"], r["required"]
    del r
    again = toolschema.sanitize(schema, "openai-strict").schema
    props["x"] = {}
    required.append("x")
    assert "x" not in again["properties"] and "x" not in again["required"]
    assert again is not None and compact(again) == toolschema.sanitize_json(compact(schema), "openai-strict")
