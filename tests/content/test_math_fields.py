"""Every field the model marks as math is checked by ``paperdeck check``.

The marked fields are found by walking the model's type hints, so a field
marked later is tested too: the fixture below must then hold a value for it, or
this test fails and says which field is missing.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from pathlib import Path
from typing import Any

import pytest
import yaml

from generator.cli import main
from generator.content import model

from .test_broken_corpus import VALID, make_project

# The valid lesson, with every optional text field filled and a visual, so that
# every math-bearing field of a lesson has a value to break.
FULL_LESSON = yaml.safe_load((VALID / "lesson.yaml").read_text())
FULL_LESSON["equations"][0]["deep_dive"] = "Why."
FULL_LESSON["worked_examples"][0]["task"] = "Compute the softmax."
FULL_LESSON["flashcards"][0]["explanation"] = "More."
FULL_LESSON["clozes"][0]["extra"] = "Extra."
FULL_LESSON["questions"][0]["explanation"] = "Because."
FULL_LESSON["questions"][0]["unit"] = "points"
FULL_LESSON["visuals"] = [{"id": "v-one", "kind": "lr-schedule", "caption": "A caption.", "source": "S5.3"}]
FULL_LESSON["resources"][0]["note"] = "A note."
FULL_LESSON["derived"] = ["1 + 1 = 2"]  # grounding's declarations (docs/grounding.md)
for kind in ("equations", "worked_examples", "flashcards", "clozes", "questions"):
    FULL_LESSON[kind][0]["derived"] = ["1 + 1 = 2"]


def math_fields(cls: type, prefix: str = "") -> list[tuple[str, model.MathKind]]:
    """Paths (``equations[0].variables[0].symbol``) of every math-marked field below ``cls``."""
    found = []
    hints = typing.get_type_hints(cls, include_extras=True)
    for field in dataclasses.fields(cls):
        found += _fields_of(hints[field.name], f"{prefix}{field.name}")
    return found


def _fields_of(hint: Any, path: str) -> list[tuple[str, model.MathKind]]:
    origin = typing.get_origin(hint)
    if origin is typing.Annotated:
        return [(path, marker) for marker in hint.__metadata__ if isinstance(marker, model.MathKind)]
    if origin is tuple:
        return _fields_of(typing.get_args(hint)[0], f"{path}[0]")
    if origin in (typing.Union, types.UnionType):
        return [f for arg in typing.get_args(hint) for f in _fields_of(arg, path)]
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return math_fields(hint, f"{path}.")
    return []


LESSON_FIELDS = math_fields(model.Lesson)


def _break(document: Any, path: str, kind: model.MathKind) -> None:
    """Put an unknown LaTeX command into the math of the field at ``path``."""
    keys = [int(k) if k.isdigit() else k for k in path.replace("[", ".").replace("]", "").split(".")]
    for key in keys[:-1]:
        document = document[key]
    last = keys[-1]
    assert isinstance(last, int) or last in document, f"the fixture has no value for {path}"
    # Markdown keeps its text (a cloze keeps its blank) and gains bad inline math.
    document[last] = r"\weird x" if kind is model.LATEX else f"{document[last]} \\(\\weird x\\)"


def test_the_model_marks_the_fields_that_hold_math() -> None:
    paths = {path for path, _ in LESSON_FIELDS}
    # The ones a hand-kept list once missed, and the LaTeX ones.
    assert {
        "equations[0].variables[0].meaning",
        "worked_examples[0].steps[0]",
        "questions[0].distractors[0].text",
        "equations[0].latex",
        "equations[0].variables[0].symbol",
    } <= paths
    assert len(paths) >= 20


@pytest.mark.parametrize(("path", "kind"), LESSON_FIELDS, ids=[p for p, _ in LESSON_FIELDS])
def test_check_reports_bad_math_in_every_marked_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], path: str, kind: model.MathKind
) -> None:
    lesson = yaml.safe_load(yaml.safe_dump(FULL_LESSON))
    _break(lesson, path, kind)
    root = make_project(tmp_path, lesson=yaml.safe_dump(lesson, sort_keys=False))
    assert main(["--project", str(root), "check"]) == 2
    errors = capsys.readouterr().err.splitlines()
    assert len(errors) == 1, errors
    where, field, message = errors[0].removeprefix("paperdeck: ").split(": ", 2)
    assert where.startswith("content/lessons/broken.yaml:") and int(where.rsplit(":", 1)[1]) > 0
    assert field == path
    assert message.startswith(r"cannot typeset this math in print: unknown LaTeX command \weird")


def test_the_full_fixture_is_valid(tmp_path: Path) -> None:
    root = make_project(tmp_path, lesson=yaml.safe_dump(FULL_LESSON, sort_keys=False))
    assert main(["--project", str(root), "check"]) == 0
