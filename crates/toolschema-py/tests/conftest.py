"""Shared fixtures: the repository's MCP corpus and the CLI binary."""

import json
import os
import pathlib
import shutil

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
CORPUS = ROOT / "tests" / "corpus" / "mcp"


def corpus_files():
    files = sorted(CORPUS.glob("*.json"))
    assert files, f"no corpus under {CORPUS}"
    return files


def corpus_tools():
    """(file stem, tool name, inputSchema) for every corpus tool."""
    out = []
    for f in corpus_files():
        doc = json.loads(f.read_text(encoding="utf-8"))
        for t in doc["tools"]:
            out.append((f.stem, t["name"], t["inputSchema"]))
    return out


@pytest.fixture(scope="session")
def cli():
    """The built `toolschema` binary: $TOOLSCHEMA_BIN, target/{release,debug}, or PATH."""
    candidates = [os.environ.get("TOOLSCHEMA_BIN")]
    candidates += [str(ROOT / "target" / p / "toolschema") for p in ("debug", "release")]
    candidates.append(shutil.which("toolschema"))
    for c in candidates:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    pytest.fail("the toolschema CLI is not built (cargo build --bin toolschema, or set TOOLSCHEMA_BIN)")
