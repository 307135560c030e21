"""The quiz key JSON (``<quiz>-key.json``, docs/quiz-key.md) read back for grading.

Only what grading needs is kept: per form, per question, its kind, points, the
right answer and the named mistakes a wrong answer may show. Numeric answers are
flattened row-major into a tuple of floats (a vector or matrix answer is graded
component by component); ``shape`` keeps the printed shape for messages.
"""

from __future__ import annotations

import gc
import math
import os
import stat
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import orjson

from ..answers import accepts
from ..content.recipes import MAX_POINTS
from ..errors import Finding, InputError, PaperdeckError
from ..problems.generation import Regenerated
from ..problems.model import DIFFICULTIES

KEY_FORMAT = 1
"""The key layout this reader understands (the key's ``format``)."""

MAX_KEY_BYTES = 128 * 1024 * 1024
"""Largest key JSON read: a quiz of the most forms a recipe allows (1,000) writes about 40 MB."""

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
    student_id: str = ""
    """The roster's student ID for it, or ''."""

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
    """The paper size the forms were printed on (``a4`` or ``letter``); '' for an older key."""
    problems: Mapping[tuple[str, int, str], Regenerated] = field(default_factory=dict)
    """The problem each problem question's type, seed and difficulty regenerate, checked to give
    the key's answer when the key was read: the feedback prints its worked steps."""


_NUMBER_TYPES = frozenset({int, float})
KINDS = (*CHOICE_KINDS, "numeric", "short_answer", "problem")


def flatten(value: Any) -> tuple[tuple[float, ...], tuple[int, ...]]:
    """A number, vector or matrix as a flat tuple of floats (row-major) and its shape."""
    if isinstance(value, bool):
        raise ValueError(f"not a number: {value!r}")
    if isinstance(value, (int, float)):
        return (_finite(value),), ()
    if isinstance(value, list) and value and _NUMBER_TYPES.issuperset(map(type, value)):
        return tuple(map(_finite, value)), (len(value),)
    if isinstance(value, list) and value and all(isinstance(row, list) for row in value):
        flat: list[float] = []
        for row in value:
            numbers, shape = flatten(row)
            if len(shape) != 1 or len(row) != len(value[0]):
                raise ValueError("only numbers, vectors and matrices are graded")
            flat.extend(numbers)
        return tuple(flat), (len(value), len(value[0]))
    raise ValueError(f"not a number, vector or matrix: {str(value)[:40]}")


def _finite(value: int | float) -> float:
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"not a finite number: {value!r}")
    return number


class _Bad(Exception):
    """One field of the key is unusable: the form is reported and not read further."""

    def __init__(self, field: str, message: str):
        self.field = field
        self.message = message


def _get(
    entry: dict[str, Any], name: str, field: str, kind: type | tuple[type, ...], what: str, default: Any = ...
) -> Any:
    """``entry[name]``, which must be a ``kind`` (``what`` says it in words)."""
    if name not in entry:
        if default is not ...:
            return default
        raise _Bad(f"{field}.{name}", "missing")
    value = entry[name]
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise _Bad(f"{field}.{name}", f"expected {what}, got {_shown(value)}")
    return value


def _shown(value: Any) -> str:
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    return orjson.dumps(value).decode()[:40]


def _points(entry: dict[str, Any], field: str) -> float:
    points = _get(entry, "points", field, (int, float), "a number")
    if not math.isfinite(points) or not 0 <= points <= MAX_POINTS:
        raise _Bad(
            f"{field}.points",
            f"must be a number from 0 to {MAX_POINTS:,} (as content allows), got {_shown(points)}",
        )
    return float(points)


def _value(value: Any, field: str) -> tuple[tuple[float, ...], tuple[int, ...]]:
    try:
        return flatten(value)
    except ValueError as error:
        raise _Bad(field, str(error)) from None


def _tolerance(entry: dict[str, Any], field: str) -> tuple[float, float]:
    tolerance = _get(entry, "tolerance", field, dict, 'an object like {"abs": 0.001}', {}) or {}
    found = []
    for name in ("abs", "rel"):
        value = _get(tolerance, name, f"{field}.tolerance", (int, float, type(None)), "a number", None)
        if value is not None and (not math.isfinite(value) or value < 0):
            raise _Bad(f"{field}.tolerance.{name}", f"must be a finite number of 0 or more, got {value!r}")
        found.append(float(value or 0.0))
    return found[0], found[1]


def _mistake_name(m: Any, field: str) -> str:
    if not isinstance(m, dict):
        raise _Bad(field, f"expected an object, got {_shown(m)}")
    return str(_get(m, "mistake", field, str, "text"))


def _question(entry: Any, field: str) -> KeyQuestion:
    if not isinstance(entry, dict):
        raise _Bad(field, f"expected an object, got {_shown(entry)}")
    kind = _get(entry, "kind", field, str, "text")
    if kind not in KINDS:
        raise _Bad(f"{field}.kind", f"unknown kind {kind!r} (expected one of {', '.join(KINDS)})")
    number = _get(entry, "number", field, int, "a whole number")
    if number < 1:
        raise _Bad(f"{field}.number", f"must be 1 or more, got {number}")
    common: dict[str, Any] = dict(
        number=number,
        section=str(_get(entry, "section", field, str, "text", "")),
        points=_points(entry, field),
        kind=kind,
    )
    if kind == "problem":
        primary = _get(entry, "primary", field, str, "text")
        answers = _get(entry, "answer", field, dict, "an object of named results")
        if primary not in answers:
            raise _Bad(f"{field}.answer", f"has no {primary!r}, the primary result")
        answer, shape = _value(answers[primary], f"{field}.answer.{primary}")
        tolerance_abs, tolerance_rel = _tolerance(entry, field)
        mistakes = []
        for i, m in enumerate(_get(entry, "mistakes", field, list, "a list", [])):
            name = _mistake_name(m, f"{field}.mistakes[{i}]")
            if m.get("value") is None:
                continue
            value, _ = _value(m["value"], f"{field}.mistakes[{i}].value")
            if len(value) == len(answer):
                mistakes.append(Mistake(name, value=value))
        problem_type = _get(entry, "problem_type", field, str, "text")
        difficulty = _get(entry, "difficulty", field, str, "text", "easy")
        if difficulty not in DIFFICULTIES:
            raise _Bad(
                f"{field}.difficulty", f"expected one of {', '.join(DIFFICULTIES)}, got {difficulty!r}"
            )
        return KeyQuestion(
            **common,
            item=f"problem:{problem_type}",
            answer=answer,
            shape=shape,
            tolerance_abs=tolerance_abs,
            tolerance_rel=tolerance_rel,
            mistakes=tuple(mistakes),
            problem_type=problem_type,
            difficulty=difficulty,
            problem_seed=_get(entry, "problem_seed", field, int, "a whole number", 0),
        )
    content_id = _get(entry, "id", field, str, "text")
    if kind in CHOICE_KINDS:
        options = _get(entry, "options", field, list, "a list")
        printed = []
        for i, option in enumerate(options):
            if not isinstance(option, dict):
                raise _Bad(f"{field}.options[{i}]", f"expected an object, got {_shown(option)}")
            printed.append(_get(option, "letter", f"{field}.options[{i}]", str, "text"))
        letters = tuple(printed)
        if len(set(letters)) != len(letters) or not letters:
            raise _Bad(f"{field}.options", f"letters must be distinct and at least one, got {list(letters)}")
        answer_letter = _get(entry, "answer", field, str, "a letter")
        if answer_letter not in letters:
            raise _Bad(
                f"{field}.answer", f"{answer_letter!r} is not among the printed letters {', '.join(letters)}"
            )
        mistakes = []
        for i, m in enumerate(_get(entry, "mistakes", field, list, "a list", [])):
            name = _mistake_name(m, f"{field}.mistakes[{i}]")
            letter = _get(m, "letter", f"{field}.mistakes[{i}]", str, "a letter")
            if letter not in letters:
                raise _Bad(
                    f"{field}.mistakes[{i}].letter",
                    f"{letter!r} is not among the printed letters {', '.join(letters)}",
                )
            mistakes.append(Mistake(name, letter=letter))
        return KeyQuestion(
            **common,
            item=content_id,
            content_id=content_id,
            letters=letters,
            answer_letter=answer_letter,
            mistakes=tuple(mistakes),
            options=tuple(str(o.get("text", "")) for o in options),
        )
    if kind == "numeric":
        answer, shape = _value(entry.get("answer"), f"{field}.answer")
        tolerance_abs, tolerance_rel = _tolerance(entry, field)
        return KeyQuestion(
            **common,
            item=content_id,
            content_id=content_id,
            answer=answer,
            shape=shape,
            tolerance_abs=tolerance_abs,
            tolerance_rel=tolerance_rel,
        )
    return KeyQuestion(**common, item=content_id, content_id=content_id)


def _form(form: Any, field: str) -> KeyForm:
    if not isinstance(form, dict):
        raise _Bad(field, f"expected an object, got {_shown(form)}")
    label = _get(form, "label", field, str, "text")
    if not label.strip():
        raise _Bad(f"{field}.label", "must not be empty")
    student = _get(form, "student", field, (dict, type(None)), "an object or null", None) or {}
    entries = _get(form, "questions", field, list, "a list")
    if not entries:
        raise _Bad(f"{field}.questions", "a form has at least one question")
    questions: dict[int, KeyQuestion] = {}
    for i, entry in enumerate(entries):
        question = _question(entry, f"{field}.questions[{i}]")
        if question.number in questions:
            raise _Bad(f"{field}.questions[{i}].number", f"question {question.number} is listed twice")
        questions[question.number] = question
    return KeyForm(
        label,
        _get(form, "code", field, str, "text", ""),
        str(_get(student, "name", f"{field}.student", (str, type(None)), "text", "") or ""),
        questions,
        str(_get(student, "id", f"{field}.student", (str, type(None)), "text", "") or ""),
    )


def _read_regular_file(path: Path, shown: str) -> bytes:
    """The bytes of ``path`` if it is a regular file of at most ``MAX_KEY_BYTES``, read no
    further: a named pipe (which would block), a folder or a device (``/dev/zero``, endless),
    also through a link, is a one-line error. Opened without blocking, then checked, so what
    is read is what was checked."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            what = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file"
            raise InputError(
                [Finding(shown, 0, "", f"{what}; give the <quiz>-key.json that paperdeck quiz wrote")]
            )
        if info.st_size > MAX_KEY_BYTES:
            raise InputError(
                [
                    Finding(
                        shown,
                        0,
                        "",
                        f"{info.st_size / 2**20:.0f} MiB; a quiz key is read up "
                        f"to {MAX_KEY_BYTES // 2**20} MiB",
                    )
                ]
            )
        with os.fdopen(os.dup(fd), "rb") as file:
            data = file.read(MAX_KEY_BYTES + 1)
        if len(data) > MAX_KEY_BYTES:
            raise InputError(
                [
                    Finding(
                        shown, 0, "", f"more than {MAX_KEY_BYTES // 2**20} MiB; a quiz key is read up to that"
                    )
                ]
            )
        return data
    finally:
        os.close(fd)


def load_key_json(path: Path) -> dict[str, Any]:
    """The JSON object of a quiz key at ``path`` (grading and scanning read it so), or a
    one-line error: a missing file, bad JSON, or JSON that is not a key."""
    shown = str(path)
    try:
        data = orjson.loads(_read_regular_file(Path(path), shown))
    except FileNotFoundError:
        raise InputError([Finding(shown, 0, "", "no such file")]) from None
    except (OSError, orjson.JSONDecodeError) as error:
        raise InputError([Finding(shown, 0, "", f"not a quiz key JSON ({error})")]) from None
    if not isinstance(data, dict) or "form_keys" not in data:
        raise InputError(
            [
                Finding(
                    shown,
                    0,
                    "",
                    "not a quiz key JSON (no form_keys); give the <quiz>-key.json that paperdeck quiz wrote",
                )
            ]
        )
    return data


def read_key(path: Path) -> QuizKey:
    """The key JSON at ``path``, checked field by field: anything unusable is a one-line error
    naming the file and the field (a hand-edited or foreign key is never graded by guessing)."""
    # A key of 1,000 forms is about a million objects (its JSON, then its questions), none in a
    # reference cycle, which Python's cyclic collector would walk again and again while they are
    # made: 0.7 of 1.8 s CPU to read the key of bench_grade (1,000 forms), the check of its
    # problems' seeds aside. The few cycles regenerating the problems makes (about three objects
    # a problem) wait until the key is read.
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _read_key(path)
    finally:
        if enabled:
            gc.enable()


def _read_key(path: Path) -> QuizKey:
    shown = str(path)
    data = load_key_json(path)
    if data.get("format") != KEY_FORMAT:
        raise InputError(
            [
                Finding(
                    shown,
                    0,
                    "format",
                    f"key format {data.get('format')!r} is not {KEY_FORMAT}, the one this paperdeck reads",
                )
            ]
        )
    problems: list[Finding] = []
    forms: dict[str, KeyForm] = {}
    codes: dict[str, str] = {}
    try:
        entries = _get(data, "form_keys", "", list, "a list")
        quiz, title, paper_title = (
            str(_get(data, name, "", (str, type(None)), "text", "") or "")
            for name in ("quiz", "title", "paper_title")
        )
        count = _get(data, "forms", "", int, "a whole number", len(entries))
        if count != len(entries) or not entries:
            raise _Bad("forms", f"says {count} forms but form_keys holds {len(entries)}")
    except _Bad as bad:
        raise InputError([Finding(shown, 0, bad.field.lstrip("."), bad.message)]) from None
    for f, entry in enumerate(entries):
        try:
            form = _form(entry, f"form_keys[{f}]")
            if form.label in forms:
                raise _Bad(f"form_keys[{f}].label", f"form {form.label} is listed twice")
            if form.code and form.code in codes:
                raise _Bad(f"form_keys[{f}].code", f"the code of form {codes[form.code]} too")
        except _Bad as bad:
            problems.append(Finding(shown, 0, bad.field, bad.message))
            continue
        forms[form.label] = form
        if form.code:
            codes[form.code] = form.label
    if problems:
        raise InputError(problems)
    regenerated = _seeds_regenerate_answers(shown, forms)
    paper = str(data["paper"]) if data.get("paper") in ("a4", "letter") else ""
    return QuizKey(quiz, title, paper_title, forms, shown, paper, regenerated)


def _seeds_regenerate_answers(
    shown: str, forms: dict[str, KeyForm]
) -> dict[tuple[str, int, str], Regenerated]:
    """Refuse (one line) a key whose problem seeds do not regenerate its answers: a form pointed
    at another form's seeds, or at another problem type, would be graded against one problem
    while its feedback worked another. Each problem is drawn, not written (its prompt and record
    wait until the feedback asks, ``Regenerated.problem``): about 0.6 ms a problem, 5 s for the
    8,000 of bench_grade's 1,000 forms, most of it NumPy's seeding and the types' small-array
    arithmetic, which every problem needs. The draws are returned for the feedback, which
    prints the worked steps of a missed problem from them instead of drawing it again."""
    from .. import problems

    bad: list[str] = []
    regenerated: dict[tuple[str, int, str], Regenerated] = {}
    known = problems.all_types()
    for form in forms.values():
        for question in form.questions.values():
            if question.kind != "problem":
                continue
            where = f"form {form.label}, question {question.number}"
            if question.problem_type not in known:
                raise InputError(
                    [
                        Finding(
                            shown,
                            0,
                            "",
                            f"{where}: problem type {question.problem_type!r} is "
                            "not known here; grade in the project the quiz was printed from",
                        )
                    ]
                )
            try:
                problem = problems.regenerated(
                    question.problem_type, question.problem_seed, question.difficulty
                )
                value, _ = flatten(problem.answer[problem.problem_type.primary])
            except (KeyError, ValueError, PaperdeckError) as error:
                bad.append(
                    f"{where}: its problem type {question.problem_type!r} cannot be regenerated here"
                    f" ({str(error).splitlines()[0] if str(error) else type(error).__name__})"
                )
                continue
            tolerance = problems.Tolerance(question.tolerance_abs, question.tolerance_rel)
            if len(value) != question.size or not all(
                accepts(e, v, tolerance) for e, v in zip(question.answer, value, strict=True)
            ):
                bad.append(
                    f"{where}: its seed regenerates a {question.problem_type} problem whose answer is "
                    "not the key's"
                )
                continue
            regenerated[question.problem_type, question.problem_seed, question.difficulty] = problem
    if bad:
        more = f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""
        raise InputError(
            [
                Finding(
                    shown,
                    0,
                    "",
                    f"{bad[0]}{more}: the key was edited or mixes forms; grade "
                    "with the key paperdeck quiz wrote",
                )
            ]
        )
    return regenerated
