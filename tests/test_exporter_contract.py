"""The exporter contract, typed: every format of ``exporters.FORMATS`` writes one document type,
every recipe kind of ``project.kinds.KINDS`` hands its exporter what its builder makes, and
``mypy --strict`` refuses the wrong document (``tests/typecheck/``)."""

from __future__ import annotations

import inspect
import re
import subprocess
import sys
import typing
from pathlib import Path

import pytest

from generator import exporters
from generator.content import recipes
from generator.project.kinds import FOLDER, KINDS, recipe_classes

pytestmark = pytest.mark.long  # mypy over the package the first time (about 15 s), then its cache

ROOT = Path(__file__).parents[1]
SNIPPETS = sorted((ROOT / "tests" / "typecheck").glob("[!_]*.py"))


@pytest.mark.parametrize("name", sorted(exporters.FORMATS))
def test_every_exporter_takes_document_target_and_options(name: str) -> None:
    module = exporters.get(name).load()
    assert module.__name__.startswith("generator.exporters.")  # type: ignore[attr-defined]
    parameters = list(inspect.signature(module.export).parameters.values())
    assert len(parameters) == 3
    assert inspect.signature(module.export).return_annotation in ("list[Path]", list)


def test_an_unknown_format_names_the_valid_ones() -> None:
    with pytest.raises(Exception, match="no exporter 'pdf'; choose from anki, practice-sheet, guide"):
        exporters.get("pdf")


def test_every_recipe_class_is_a_registered_kind() -> None:
    """The parser reads a ``kind:`` from the registry, and every class of ``Recipe`` has one."""
    assert set(recipe_classes().values()) == set(typing.get_args(recipes.Recipe))
    for name, kind in KINDS.items():
        (literal,) = typing.get_args(typing.get_type_hints(kind.recipe)["kind"])
        assert literal == name
        assert kind.exporter in exporters.FORMATS.values()
        assert (kind.target == FOLDER) == bool(kind.mark)  # a folder a later build knows for its own


def test_a_sites_mark_is_the_record_it_writes() -> None:
    from generator.exporters import site

    assert KINDS["site"].mark == site.RECORD


def expected_errors(snippet: Path) -> dict[int, str]:
    """Line number -> the text its error must hold, from the ``# E: text`` comment above it."""
    lines = snippet.read_text(encoding="utf-8").splitlines()
    marked = [(n, line.strip()) for n, line in enumerate(lines)]
    return {n + 2: line.removeprefix("# E: ") for n, line in marked if line.startswith("# E: ")}


def test_mypy_refuses_the_wrong_document_and_nothing_else() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", "setup.cfg", *map(str, SNIPPETS)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    found: dict[tuple[str, int], str] = {}
    for line in result.stdout.splitlines():
        if match := re.match(r"(.+?):(\d+): error: (.*)", line):
            found[(Path(match[1]).name, int(match[2]))] = match[3]
    expected = {(s.name, n): text for s in SNIPPETS for n, text in expected_errors(s).items()}
    assert expected, "the snippets expect no error"
    assert set(found) == set(expected), result.stdout + result.stderr
    for place, text in expected.items():
        assert text in found[place], (place, found[place])
