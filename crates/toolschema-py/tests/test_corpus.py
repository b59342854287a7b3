"""Every corpus MCP tool under every built-in profile: accepted, idempotent, the same either way."""

import json

import pytest
import toolschema

from conftest import corpus_tools

TOOLS = corpus_tools()
PROFILES = toolschema.providers()


def test_corpus_is_the_documented_one():
    assert len(TOOLS) == 743
    assert len(PROFILES) >= 11


@pytest.mark.parametrize("profile", PROFILES)
def test_check_of_sanitize_is_empty_and_sanitize_is_idempotent(profile):
    failures = []
    for server, name, schema in TOOLS:
        out = toolschema.sanitize(schema, provider=profile)
        left = [
            v
            for v in toolschema.check(out.schema, provider=profile)
            if (v.pointer, v.rule) not in {(u.pointer, u.rule) for u in out.unfixable}
        ]
        if left:
            failures.append((server, name, [str(v) for v in left]))
        again = toolschema.sanitize(out.schema, provider=profile)
        assert again.changes == [], (server, name, again.changes)
        assert again.json == out.json, (server, name)
        # Nothing changed: the very object goes back.
        assert again.schema is out.schema
    assert failures == []


@pytest.mark.parametrize("profile", PROFILES)
def test_dict_text_and_bytes_give_the_same_result(profile):
    for server, name, schema in TOOLS:
        text = json.dumps(schema, ensure_ascii=False)
        from_dict = toolschema.sanitize(schema, provider=profile)
        from_text = toolschema.sanitize(text, provider=profile)
        from_bytes = toolschema.sanitize(text.encode(), provider=profile)
        assert from_dict.changes == from_text.changes == from_bytes.changes, (server, name)
        assert from_dict.schema == from_text.schema == from_bytes.schema, (server, name)
        # Key order survives (json.dumps keeps insertion order).
        assert json.dumps(from_dict.schema) == json.dumps(from_text.schema)
        fast = toolschema.sanitize_json(text, provider=profile)
        if from_text.changed:
            assert fast == from_text.json
        else:
            assert fast is text


def test_the_parameters_slot_and_the_schema_slot_differ_at_the_root():
    out = toolschema.sanitize({"type": "string"}, provider="openai", slot="parameters")
    assert out.changed
    assert toolschema.sanitize({"type": "string"}, provider="openai", slot="schema").changes == []
