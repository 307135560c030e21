"""Mutated content never makes the loader raise anything but ContentError."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.errors import ContentError

from .test_broken_corpus import VALID, load_all, make_project

pytestmark = pytest.mark.long  # handed out to a worker early: tests/conftest.py

LESSON = (VALID / "lesson.yaml").read_text()
RECIPE = "kind: quiz\ntitle: Q\nversions: 2\nsections:\n  - title: S\n    questions: {lessons: [broken]}\n"
PIECES = [
    "\n",
    " ",
    "  ",
    ":",
    "- ",
    "[",
    "]",
    "{",
    "}",
    "'",
    '"',
    "\\(",
    "\\)",
    "$",
    "&",
    "*",
    "!!",
    "<<: ",
    "-1",
    "1e999",
    "null",
    "true",
    "~",
    "\t",
    "#",
    "é",
    "\x00",
    "id: x\n",
]


@st.composite
def mutated(draw: st.DrawFn, text: str) -> str:
    lines = text.splitlines(keepends=True)
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(lines) - 1))
        action = draw(st.sampled_from(["delete", "duplicate", "insert", "swap", "truncate"]))
        if action == "delete" and len(lines) > 1:
            del lines[i]
        elif action == "duplicate":
            lines.insert(i, lines[i])
        elif action == "insert":
            at = draw(st.integers(0, len(lines[i])))
            lines[i] = lines[i][:at] + draw(st.sampled_from(PIECES)) + lines[i][at:]
        elif action == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        else:
            lines[i] = lines[i][: draw(st.integers(0, len(lines[i])))]
    return "".join(lines)


def _load(lesson: str | None = None, recipe: str | None = None) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = make_project(Path(tmp), lesson=lesson, recipe=recipe)
        try:
            load_all(root)
        except ContentError as error:
            assert error.problems
            for problem in error.problems:
                assert problem.path and problem.message and "\n" not in str(problem)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(LESSON))
def test_mutated_lesson_gives_content_error_or_loads(text: str) -> None:
    _load(lesson=text)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(RECIPE))
def test_mutated_recipe_gives_content_error_or_loads(text: str) -> None:
    _load(recipe=text)
