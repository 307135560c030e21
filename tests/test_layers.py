"""The packages of ``generator/`` import one another without a cycle: content and documents know
no exporter, exporters no command (issue 42 drew ``documents → exporters → grading →
documents``; the build's orchestration now lives in ``commands/build.py``)."""

from __future__ import annotations

import ast
from pathlib import Path

GENERATOR = Path(__file__).resolve().parents[1] / "generator"


def imports_between_packages() -> dict[str, set[str]]:
    """Per top-level package (or module) of ``generator/``, the others it imports, lazily or not."""
    edges: dict[str, set[str]] = {}
    for path in GENERATOR.rglob("*.py"):
        parts = path.relative_to(GENERATOR).parts
        package, depth = parts[0].removesuffix(".py"), len(parts) - 1
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom) or node.level - 1 < depth:
                continue  # an absolute import, or one inside its own package
            names = [node.module.split(".")[0]] if node.module else [a.name for a in node.names]
            edges.setdefault(package, set()).update(n for n in names if n != package)
    return edges


def cycle_from(start: str, edges: dict[str, set[str]]) -> list[str] | None:
    """A path of imports from ``start`` back to it, if there is one."""
    stack, seen = [(start, [start])], set()
    while stack:
        node, path = stack.pop()
        for after in sorted(edges.get(node, ())):
            if after == start:
                return [*path, start]
            if after not in seen:
                seen.add(after)
                stack.append((after, [*path, after]))
    return None


def test_no_package_imports_itself_back() -> None:
    edges = imports_between_packages()
    assert {"documents", "exporters", "grading", "commands", "content", "project"} <= set(edges)
    cycles = [" → ".join(c) for p in sorted(edges) if (c := cycle_from(p, edges))]
    assert cycles == []


def test_the_check_finds_a_cycle() -> None:
    assert cycle_from(
        "documents", {"documents": {"exporters"}, "exporters": {"grading"}, "grading": {"documents"}}
    )
