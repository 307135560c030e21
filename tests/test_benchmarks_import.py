"""Every name a benchmark imports from paperdeck exists: ``make bench`` is not run by the
tests, and a rename once left two benchmarks failing at their first line for a release."""

from __future__ import annotations

import ast
import importlib
import importlib.util
from pathlib import Path

import pytest

BENCHMARKS = sorted((Path(__file__).resolve().parents[1] / "benchmarks").glob("*.py"))


def _imports(path: Path) -> list[tuple[str, str]]:
    """What ``path`` imports from paperdeck, but for imports under ``try`` … ``except
    ImportError`` (a benchmark run against an older checkout to compare)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    guarded = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.Try)
        and any(ast.unparse(h.type or ast.Name("")).endswith("ImportError") for h in node.handlers)
        for part in [*node.body, *node.handlers]
        for inner in ast.walk(part)
    }
    return [
        (node.module, alias.name)
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("generator")
        if id(node) not in guarded
        for alias in node.names
    ]


@pytest.mark.parametrize("path", BENCHMARKS, ids=[p.name for p in BENCHMARKS])
def test_what_a_benchmark_imports_from_paperdeck_exists(path: Path) -> None:
    missing = [
        f"{module}.{name}"
        for module, name in _imports(path)
        if not hasattr(importlib.import_module(module), name)
        and importlib.util.find_spec(f"{module}.{name}") is None
    ]
    assert missing == []
