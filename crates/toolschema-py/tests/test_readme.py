"""Every ```python block of the package README and the root README runs (from the repository root).

Snippets that need a network and an API key (the gateway's base-URL examples) are fenced ```py
instead, so they are shown but not run.
"""

import os
import pathlib
import re

import pytest

from conftest import ROOT

READMES = [pathlib.Path(__file__).resolve().parents[1] / "README.md", ROOT / "README.md"]
BLOCKS = [
    b for readme in READMES for b in re.findall(r"```python\n(.*?)```", readme.read_text(encoding="utf-8"), flags=re.S)
]


def test_readme_has_the_recipes():
    assert len(BLOCKS) >= 8


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_readme_block_runs(index, monkeypatch):
    monkeypatch.chdir(ROOT)
    code = compile(BLOCKS[index], f"README.md block {index}", "exec")
    exec(code, {"__name__": f"readme_{index}"})
