"""Real quizzes for the scanning tests: shipped recipes printed by the quiz exporter
(forms, keys, answer sheets and the key JSON), their sheets rendered once per resolution."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from generator.documents import quiz
from generator.documents.quiz import Student
from generator.exporters import ExportOptions, quiz_forms
from generator.project import open_project

from . import synthetic

ROOT = Path(__file__).parents[2]
ROSTER_SHEETS = 6


@dataclass
class Printed:
    """A printed quiz: its folder, key JSON and forms' keys (with their sheets' layout)."""

    folder: Path
    key: Path
    data: dict[str, Any]
    _renders: dict[tuple[str, float], list[np.ndarray]] = field(default_factory=dict)

    @property
    def forms(self) -> list[dict[str, Any]]:
        return list(self.data["form_keys"])

    @property
    def radius(self) -> float:
        return float(self.data["sheets"]["bubble_radius"])

    def pages(self, form: dict[str, Any], dpi: float) -> list[np.ndarray]:
        """The blank sheet of ``form`` rendered at ``dpi`` (cached; copy before drawing)."""
        if (form["label"], dpi) not in self._renders:
            self._renders[form["label"], dpi] = synthetic.render(str(self.folder / form["sheet_pdf"]), dpi)
        return self._renders[form["label"], dpi]


def print_quiz(
    folder: Path, recipe: str, versions: int = 2, seed: int = 11, students: tuple[Student, ...] = ()
) -> Printed:
    project = open_project(ROOT)
    built = quiz.build_quiz(
        project.content, project.quiz_recipe(recipe), seed, versions, b"scan-test", students
    )
    quiz_forms.export(built, folder, ExportOptions(build_time=0))
    key = folder / f"{recipe}-key.json"
    return Printed(folder, key, json.loads(key.read_text(encoding="utf-8")))


@cache
def _printed(root: Path, name: str) -> Printed:
    if name == "attention":
        return print_quiz(root / name, "quiz-attention")
    if name == "attention-other-seed":
        return print_quiz(root / name, "quiz-attention", seed=12)
    if name == "final":
        return print_quiz(root / name, "quiz-final")
    if name == "final-roster":  # two-page sheets, one form per student
        return print_quiz(
            root / name,
            "quiz-final",
            students=tuple(Student(f"Student {i}", f"s{i}") for i in range(ROSTER_SHEETS)),
        )
    students = (Student("Ada Lovelace", "s1"), Student("=SUM(A1)", "s2"))
    return print_quiz(root / name, "quiz-attention", students=students)


@pytest.fixture(scope="session")
def printed(tmp_path_factory: pytest.TempPathFactory):
    """``printed(name)``: attention (2 forms), attention-other-seed, final (2-page sheets), roster,
    final-roster (2-page sheets of ROSTER_SHEETS students)."""
    root = tmp_path_factory.mktemp("printed")
    return lambda name: _printed(root, name)
