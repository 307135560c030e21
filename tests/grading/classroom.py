"""A class built from a quiz's key JSON: students whose answers are known to score
what they were made to score (all right, every named mistake, blanks, noise), each
written with the slips a teacher's spreadsheet holds (case, spaces, decimal commas,
U+2212 minus, semicolons, brackets)."""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator import answers
from generator.documents import quiz
from generator.exporters.quiz_forms import KEY_FORMAT, form_key
from generator.problems import Tolerance
from generator.project import open_project

ROOT = Path(__file__).parents[2]


def write_key(
    path: Path,
    versions: int = 3,
    seed: int = 11,
    recipe: str = "quiz-attention",
    secret: bytes = b"grading-test",
) -> Path:
    """The key JSON of a shipped quiz, written without compiling its PDFs."""
    project = open_project(ROOT)
    chosen = project.quiz_recipe(recipe)
    built = quiz.build_quiz(project.content, chosen, seed, versions, secret)
    data = {
        "format": KEY_FORMAT,
        "quiz": chosen.id,
        "title": chosen.title,
        "paper_title": built.paper_title,
        "seed": seed,
        "forms": versions,
        "calculator": chosen.calculator,
        "form_keys": [form_key(f, "f.pdf", "k.pdf") for f in built.iter_forms()],
    }
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def flat(value: Any) -> list[float]:
    if isinstance(value, list):
        return [x for v in value for x in flat(v)]
    return [float(value)]


def close(expected: float, got: float, tolerance: dict[str, float]) -> bool:
    """The one tolerance rule (docs/answers.md) on the key's JSON tolerance."""
    return answers.accepts(expected, got, Tolerance(tolerance.get("abs"), tolerance.get("rel")))


def typed(values: list[float], style: int) -> str:
    """Numbers as a teacher might type them, in one of five styles."""
    texts = [repr(v) for v in values]
    if style == 1:
        return "; ".join(t.replace(".", ",") for t in texts)
    if style == 2:
        return "[" + ", ".join(texts) + "]"
    if style == 3:
        return "  ".join(t.replace("-", "\u2212") for t in texts) + " "
    if style == 4:
        return ";".join(texts)
    return " ".join(texts)


@dataclass
class Student:
    name: str
    form: str
    cells: dict[int, str] = field(default_factory=dict)
    points: dict[int, float | None] = field(default_factory=dict)
    """Expected points per question; None: ungraded."""
    mistakes: list[tuple[int, str]] = field(default_factory=list)

    @property
    def score(self) -> float:
        return sum(p for p in self.points.values() if p is not None)


def _right(q: dict[str, Any], style: int, student: Student) -> None:
    n, kind = q["number"], q["kind"]
    if kind in ("multiple_choice", "true_false"):
        letter = q["answer"]
        student.cells[n] = [letter, f" {letter.lower()} ", f"({letter.lower()})", letter + ")", letter][style]
    elif kind == "short_answer":
        student.cells[n] = "" if style % 2 else f"{q['points']:g}".replace(".", ",")
        student.points[n] = None if style % 2 else q["points"]
        return
    else:
        answer = q["answer"][q["primary"]] if kind == "problem" else q["answer"]
        student.cells[n] = typed(flat(answer), style)
    student.points[n] = q["points"]


def _mistake(q: dict[str, Any], k: int, style: int, student: Student) -> None:
    n, kind = q["number"], q["kind"]
    mistakes = q.get("mistakes") or []
    if kind == "short_answer":
        student.cells[n], student.points[n] = "0", 0.0
    elif kind == "true_false":
        student.cells[n] = "B" if q["answer"] == "A" else "a"
        student.points[n] = 0.0
    elif kind == "numeric":
        student.cells[n] = typed([float(q["answer"]) + 1000], style)
        student.points[n] = 0.0
    elif kind == "multiple_choice":
        chosen = mistakes[k % len(mistakes)]
        student.cells[n] = chosen["letter"].lower() if style % 2 else chosen["letter"]
        student.points[n] = 0.0
        student.mistakes.append((n, chosen["mistake"]))
    else:
        chosen = mistakes[k % len(mistakes)]
        value, answer = flat(chosen["value"]), flat(q["answer"][q["primary"]])
        student.cells[n] = typed(value, style)
        right = sum(close(a, v, q["tolerance"]) for a, v in zip(answer, value, strict=True))
        student.points[n] = q["points"] * right / len(answer)
        student.mistakes.append((n, chosen["mistake"]))


def _noise(q: dict[str, Any], style: int, student: Student) -> None:
    """Wrong answers that show no named mistake."""
    n, kind = q["number"], q["kind"]
    if kind in ("multiple_choice", "short_answer"):
        student.cells[n] = ""  # a blank, among the noise
        student.points[n] = None if kind == "short_answer" else 0.0
        return
    if kind == "true_false":
        student.cells[n] = "F" if q["answer"] == "A" else "true"
    else:
        answer = q["answer"][q["primary"]] if kind == "problem" else q["answer"]
        wrong = [x + 7.25 for x in flat(answer)]
        for m in q.get("mistakes") or []:
            assert not all(close(v, w, q["tolerance"]) for v, w in zip(flat(m["value"]), wrong, strict=True))
        student.cells[n] = typed(wrong, style)
    student.points[n] = 0.0


def make_class(key: dict[str, Any]) -> list[Student]:
    """Per form: one all right, one per named mistake index, one with noise; one all blank."""
    students = []
    for f, form in enumerate(key["form_keys"]):
        label, questions = form["label"], form["questions"]
        right = Student(f"Right {label}", label.lower() if f % 3 == 1 else label)
        for q in questions:
            _right(q, f % 5, right)
        students.append(right)
        most = max(len(q.get("mistakes") or []) for q in questions)
        for k in range(most):
            wrong = Student(f"Mistaken {label} {k}", f" {label} ")
            for q in questions:
                _mistake(q, k, (f + k) % 5, wrong)
            students.append(wrong)
        noisy = Student(f"Noisy {label}", label)
        for q in questions:
            _noise(q, f % 5, noisy)
        students.append(noisy)
        if f == 0:
            blank = Student("Blank A", label)
            for q in questions:
                blank.cells[q["number"]] = ""
                blank.points[q["number"]] = None if q["kind"] == "short_answer" else 0.0
            students.append(blank)
    return students


def write_responses(path: Path, students: list[Student], delimiter: str = ",") -> Path:
    width = max(max(s.cells) for s in students)
    with open(path, "w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out, delimiter=delimiter)
        writer.writerow(["student", "form", *map(str, range(1, width + 1))])
        for s in students:
            writer.writerow([s.name, s.form, *(s.cells.get(n, "") for n in range(1, width + 1))])
    return path
