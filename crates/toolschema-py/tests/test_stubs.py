"""The stubs' examples are doctests, and the stubs name exactly what the module exports."""

import ast
import doctest
import pathlib

import toolschema

STUBS = pathlib.Path(toolschema.__file__).with_name("__init__.pyi")


def test_stub_examples_run():
    tree = ast.parse(STUBS.read_text(encoding="utf-8"))
    finder = doctest.DocTestParser()
    ran = 0
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            doc = ast.get_docstring(node, clean=True)
            if doc and ">>>" in doc:
                test = finder.get_doctest(doc, {}, node.name, str(STUBS), node.lineno)
                result = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS).run(test)
                assert result.failed == 0, node.name
                ran += 1
    assert ran >= 10


def test_module_docstring_runs():
    assert doctest.testmod(toolschema, optionflags=doctest.ELLIPSIS).failed == 0


def test_stubs_cover_the_exports():
    tree = ast.parse(STUBS.read_text(encoding="utf-8"))
    names = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    names |= {t.id for n in tree.body if isinstance(n, ast.AnnAssign) for t in [n.target]}
    assert set(toolschema.__all__) <= names
