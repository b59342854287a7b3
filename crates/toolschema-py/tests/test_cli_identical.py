"""The package's output is the CLI's, byte for byte."""

import json
import subprocess

import pytest
import toolschema

from conftest import corpus_files, corpus_tools

SAMPLE_PROFILES = ["gemini", "openai-strict", "anthropic", "vertex", "portable"]


def run_cli(cli, args, path):
    done = subprocess.run(
        [cli, "sanitize", *args, str(path)], capture_output=True, timeout=60, check=True
    )
    return done.stdout


@pytest.mark.parametrize("profile", SAMPLE_PROFILES)
def test_lone_schemas_byte_identical(cli, tmp_path, profile):
    # Every 15th corpus tool, as a compact schema file: the CLI's stdout is sanitize_json's.
    sample = corpus_tools()[::15]
    for i, (server, name, schema) in enumerate(sample):
        text = json.dumps(schema, ensure_ascii=False, separators=(",", ":"))
        path = tmp_path / f"{i}.json"
        path.write_text(text, encoding="utf-8")
        expected = run_cli(cli, ["--provider", profile], path).decode("utf-8")
        assert toolschema.sanitize_json(text, provider=profile) == expected, (server, name)
        assert toolschema.sanitize(text, provider=profile).json == expected, (server, name)


@pytest.mark.parametrize("profile", SAMPLE_PROFILES)
def test_tools_lists_same_schemas(cli, profile):
    # Whole tools/list files through the CLI: each tool's schema is the package's.
    for f in corpus_files()[::4]:
        doc = json.loads(run_cli(cli, ["--provider", profile], f))
        original = json.loads(f.read_text(encoding="utf-8"))
        for before, after in zip(original["tools"], doc["tools"]):
            ours = toolschema.sanitize(before["inputSchema"], provider=profile).schema
            assert json.dumps(ours) == json.dumps(after["inputSchema"]), (f.name, before["name"])


def test_request_body_byte_identical(cli, tmp_path):
    tools = [
        {"type": "function", "function": {"name": name.replace("-", "_")[:60], "parameters": schema}}
        for _, name, schema in corpus_tools()[:40]
    ]
    body = json.dumps({"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}], "tools": tools})
    path = tmp_path / "body.json"
    path.write_text(body, encoding="utf-8")
    for profile in ["openai", "gemini"]:
        expected = run_cli(cli, ["--provider", profile, "--api", "openai-chat"], path)
        got = toolschema.sanitize_body(body.encode(), provider=profile, api="openai-chat")
        assert got.body == expected
