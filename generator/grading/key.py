"""The quiz key JSON (``<quiz>-key.json``, docs/quiz-key.md) read back for grading.

Only what grading needs is kept: per form, per question, its kind, points, the
right answer and the named mistakes a wrong answer may show. Numeric answers are
flattened row-major into a tuple of floats (a vector or matrix answer is graded
component by component); ``shape`` keeps the printed shape for messages.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import orjson

from ..errors import Finding, InputError

KEY_FORMAT = 1
"""The key layout this reader understands (the key's ``format``)."""

CHOICE_KINDS = ("multiple_choice", "true_false")
NUMBER_KINDS = ("numeric", "problem")


class Mistake(NamedTuple):
    """A named mistake and what a student answers by making it (a named tuple: a key
    of a thousand forms holds tens of thousands, made four times faster than a
    frozen dataclass)."""

    name: str
    """The mistake in plain words, as the key names it."""
    letter: str = ""
    """The letter it leads to (choice questions)."""
    value: tuple[float, ...] = ()
    """The value it leads to, flattened (numeric questions and problems)."""


@dataclass(frozen=True)
class KeyQuestion:
    """One question of one form, as the key states it."""

    number: int
    """As printed on the form, 1-based."""
    section: str
    """Title of the section it is printed in (Markdown with math)."""
    points: float
    kind: str
    """``multiple_choice``, ``true_false``, ``numeric``, ``short_answer`` or ``problem``."""
    item: str
    """What the question is across forms: a content id, or ``problem:TYPE`` for a problem."""
    letters: tuple[str, ...] = ()
    """The printed letters of a choice question."""
    answer_letter: str = ""
    answer: tuple[float, ...] = ()
    """The right value, flattened (numeric questions and problems)."""
    shape: tuple[int, ...] = ()
    """Shape of the right value: () a number, (n,) a vector, (rows, columns) a matrix."""
    tolerance_abs: float = 0.0
    tolerance_rel: float = 0.0
    mistakes: tuple[Mistake, ...] = ()
    problem_type: str = ""
    difficulty: str = ""
    content_id: str = ""
    problem_seed: int = 0
    """The seed that regenerates the problem with its worked solution (feedback)."""
    options: tuple[str, ...] = ()
    """The text of each printed choice (Markdown with math), in printed order."""

    @property
    def size(self) -> int:
        return len(self.answer)


@dataclass(frozen=True)
class KeyForm:
    """One form of the quiz."""

    label: str
    code: str
    student: str
    """The roster's name printed on it, or ''."""
    questions: dict[int, KeyQuestion]
    """By printed number."""

    @property
    def total_points(self) -> float:
        return sum(q.points for q in self.questions.values())


@dataclass(frozen=True)
class QuizKey:
    """Every form of a quiz, by label."""

    quiz: str
    title: str
    paper_title: str
    forms: dict[str, KeyForm]
    path: str = ""
    paper: str = ""
    """The paper the forms were printed on (``a4``, ``letter``); '' in keys written before it was kept."""


_NUMBER_TYPES = frozenset({int, float})


def flatten(value: Any) -> tuple[tuple[float, ...], tuple[int, ...]]:
    """A number, vector or matrix as a flat tuple of floats (row-major) and its shape."""
    if isinstance(value, bool):
        raise ValueError(f"not a number: {value!r}")
    if isinstance(value, (int, float)):
        return (float(value),), ()
    if isinstance(value, list) and value and _NUMBER_TYPES.issuperset(map(type, value)):
        return tuple(map(float, value)), (len(value),)
    if isinstance(value, list) and value and all(isinstance(row, list) for row in value):
        flat: list[float] = []
        for row in value:
            numbers, shape = flatten(row)
            if len(shape) != 1:
                raise ValueError("only numbers, vectors and matrices are graded")
            flat.extend(numbers)
        return tuple(flat), (len(value), len(value[0]))
    raise ValueError(f"not a number, vector or matrix: {str(value)[:40]}")


def _question(entry: dict[str, Any]) -> KeyQuestion:
    kind = entry["kind"]
    common: dict[str, Any] = dict(number=int(entry["number"]), section=str(entry.get("section", "")),
                                  points=float(entry["points"]), kind=kind)
    if kind == "problem":
        primary = entry["primary"]
        answer, shape = flatten(entry["answer"][primary])
        tolerance = entry.get("tolerance") or {}
        mistakes = []
        for m in entry.get("mistakes", ()):
            if m.get("value") is None:
                continue
            value, mistake_shape = flatten(m["value"])
            if len(value) == len(answer):
                mistakes.append(Mistake(m["mistake"], value=value))
        return KeyQuestion(**common, item=f"problem:{entry['problem_type']}", answer=answer, shape=shape,
                           tolerance_abs=float(tolerance.get("abs") or 0.0),
                           tolerance_rel=float(tolerance.get("rel") or 0.0), mistakes=tuple(mistakes),
                           problem_type=entry["problem_type"], difficulty=entry.get("difficulty", "easy"),
                           problem_seed=int(entry.get("problem_seed", 0)))
    content_id = str(entry["id"])
    if kind in CHOICE_KINDS:
        letters = tuple(o["letter"] for o in entry["options"])
        mistakes = [Mistake(m["mistake"], letter=m["letter"]) for m in entry.get("mistakes", ())]
        return KeyQuestion(**common, item=content_id, content_id=content_id, letters=letters,
                           answer_letter=entry["answer"], mistakes=tuple(mistakes),
                           options=tuple(str(o.get("text", "")) for o in entry["options"]))
    if kind == "numeric":
        answer, shape = flatten(entry["answer"])
        tolerance = entry.get("tolerance") or {}
        return KeyQuestion(**common, item=content_id, content_id=content_id, answer=answer, shape=shape,
                           tolerance_abs=float(tolerance.get("abs") or 0.0),
                           tolerance_rel=float(tolerance.get("rel") or 0.0))
    if kind == "short_answer":
        return KeyQuestion(**common, item=content_id, content_id=content_id)
    raise ValueError(f"unknown kind {kind!r}")


def read_key(path: Path) -> QuizKey:
    """The key JSON at ``path``; anything else is a one-line error naming the file."""
    shown = str(path)
    try:
        data = orjson.loads(Path(path).read_bytes())
    except FileNotFoundError:
        raise InputError([Finding(shown, 0, "", "no such file")]) from None
    except (OSError, orjson.JSONDecodeError) as error:
        raise InputError([Finding(shown, 0, "", f"not a quiz key JSON ({error})")]) from None
    if not isinstance(data, dict) or "form_keys" not in data:
        raise InputError([Finding(shown, 0, "", "not a quiz key JSON (no form_keys); "
                                    "give the <quiz>-key.json that paperdeck quiz wrote")])
    if data.get("format") != KEY_FORMAT:
        raise InputError([Finding(shown, 0, "format", f"key format {data.get('format')!r} is not "
                                    f"{KEY_FORMAT}, the one this paperdeck reads")])
    forms: dict[str, KeyForm] = {}
    for f, form in enumerate(data["form_keys"]):
        try:
            questions = {q.number: q for q in map(_question, form["questions"])}
        except (KeyError, TypeError, ValueError) as error:
            raise InputError([Finding(shown, 0, f"form_keys[{f}]", f"cannot be read: {error}")]) from None
        student = form.get("student") or {}
        forms[form["label"]] = KeyForm(form["label"], form.get("code", ""), student.get("name", ""),
                                       questions)
    paper = str(data["paper"]) if data.get("paper") in ("a4", "letter") else ""
    return QuizKey(str(data.get("quiz", "")), str(data.get("title", "")), str(data.get("paper_title", "")),
                   forms, shown, paper)
