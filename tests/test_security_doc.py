"""SECURITY.md states every limit with the value the code applies."""

from __future__ import annotations

from pathlib import Path

from generator.content import recipes, text, yamlsource
from generator.latex import parser

SECURITY = (Path(__file__).resolve().parents[1] / "SECURITY.md").read_text(encoding="utf-8")


def _row(starts: str) -> str:
    (row,) = [line for line in SECURITY.splitlines() if line.startswith(f"| {starts}")]
    return row


def test_every_limit_is_stated_with_its_value() -> None:
    stated = {
        "size of one YAML file": yamlsource.MAX_FILE_BYTES,
        "nesting of mappings": yamlsource.MAX_DEPTH,
        "uses of YAML aliases": yamlsource.MAX_ALIASES,
        "values one file expands to": yamlsource.MAX_VALUES,
        "a Markdown numbered list": text.MAX_LIST_START,
        "nesting of groups and arguments in one formula": parser.MAX_DEPTH,
        "a problem set's `count`": recipes.MAX_PROBLEMS,
        "problems in one deck recipe": recipes.MAX_PROBLEMS,
        "`variants` of a problem set": recipes.MAX_VARIANTS,
        "questions and problems on one quiz form": recipes.MAX_QUIZ_ITEMS,
        "`points` of one question": recipes.MAX_POINTS,
        "forms of one quiz": recipes.MAX_FORMS,
    }
    for row, value in stated.items():
        assert f" {value:,}" in _row(row).split("|")[2], (row, value)


def test_the_largest_shipped_lesson_is_as_stated() -> None:
    lessons = Path(__file__).resolve().parents[1] / "content" / "lessons"
    largest = max(p.stat().st_size for p in lessons.glob("*.yaml"))
    assert largest * 4 < yamlsource.MAX_FILE_BYTES, "the size limit leaves too little margin"
