"""A dict's strings written as JSON text: every character JSON escapes, wherever it falls
(the writer checks eight bytes at a time)."""

import json

import toolschema


def test_escapes_at_every_position():
    for ch in ['"', "\\", "\n", "\t", "\x00", "\x1f", "\x7f", "é", "\u2028"]:
        for n in range(0, 20):
            text = "a" * n + ch + "b" * (19 - n)
            schema = {"type": "object", "description": text, "properties": {text: {"type": "string"}}}
            want = toolschema.sanitize_json(json.dumps(schema, ensure_ascii=False, separators=(",", ":")), "openai")
            got = toolschema.sanitize(schema, "openai").json
            assert got == want, (ch, n)
            assert json.loads(got)["description"] == text


def test_plain_strings_of_every_length():
    for n in range(0, 40):
        text = "x" * n
        schema = {"type": "object", "properties": {text: {"type": "string", "description": text}}}
        assert json.loads(toolschema.sanitize(schema, "openai").json) == schema
