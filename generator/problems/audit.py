"""A project's own problem types, run once when the project opens (``paperdeck check``, and
every command before it builds anything).

The author's code is run here, not first in the middle of a build: an exception in its
``pick``, ``solve`` or ``prompt``, or a ``primary`` that names no answer ``solve`` returns,
is a ContentError of one line naming the file and the line (``problems/mean.py:14:
vector-mean: solve raised ZeroDivisionError: …``), where a build printed a traceback of
40 to 60 lines.

A type is valid without named mistakes, but then quiz keys, the card's "common
mistakes", grading's mistake detection and remedial decks silently have none:
the same draws warn when no problem of a type names one.
"""

from __future__ import annotations

import re
import traceback
from pathlib import Path

import numpy as np

from ..errors import ContentError, Finding, PaperdeckError
from ..suggest import did_you_mean
from .generation import generate
from .model import DIFFICULTIES, Problem, ProblemType
from .precision import declare, rejects_rounded, unsaid
from .registry import get, project_file, project_path

DRAWS = 5
"""Problems drawn per difficulty; named mistakes, when a type has them, show in the first."""


def type_warnings(type_ids: list[str]) -> list[Finding]:
    """A warning for each of these types whose problems name no mistake; a ContentError,
    one line per type, for each type whose code fails or whose ``primary`` is no answer."""
    errors, warnings = [], []
    for type_id in type_ids:
        problem_type = get(type_id)
        drawn: list[Problem] = []
        try:
            failure = _primary_failure(problem_type)
            if failure is None:
                drawn = [problem for difficulty in DIFFICULTIES for problem in _drawn(type_id, difficulty)]
        except Exception as error:  # noqa: BLE001 - the author's code: any failure is theirs to fix
            failure = raised(type_id, error)
        if failure is None:
            failure = _precision_failure(problem_type, drawn)
        if failure is not None:
            errors.append(failure)
        elif drawn and not any(problem.distractors for problem in drawn):
            warnings.append(
                Finding(
                    project_file(type_id),
                    0,
                    type_id,
                    "warning: solve returns no named mistakes (Distractor), so quiz keys,"
                    " the card's common mistakes, grading's mistake detection and remedial"
                    " decks have none for this type (docs/authoring.md: Named mistakes)",
                )
            )
    if errors:
        raise ContentError(errors)
    return warnings


def _drawn(type_id: str, difficulty: str) -> list[Problem]:
    """``DRAWS`` problems of this difficulty, or none when the type declines the difficulty in
    words of its own (a ProblemInputError: "vector-mean has no hard problems"), which a build
    that asks for it says as it is."""
    try:
        return list(generate(type_id, DRAWS, 0, difficulty))
    except PaperdeckError:
        return []


def _primary_failure(problem_type: ProblemType) -> Finding | None:
    """The finding when one problem of each difficulty, solved, has no answer (or a named mistake
    no value) under the type's ``primary``; None when every one has it."""
    for difficulty in DIFFICULTIES:
        try:
            given = problem_type.pick(np.random.default_rng(0), difficulty)
        except PaperdeckError:
            continue
        solution = problem_type.solve(given)
        primary = problem_type.primary
        if primary not in solution.answer:
            names = list(solution.answer)
            return Finding(
                project_file(problem_type.id),
                _line_of(problem_type.id, primary),
                "primary",
                f"{problem_type.id}: {primary!r} is no answer solve returns"
                f"{did_you_mean(primary, names)}; its answers: {', '.join(names)}",
            )
        for distractor in solution.distractors:
            if primary not in distractor.answer:
                return Finding(
                    project_file(problem_type.id),
                    _line_of(problem_type.id, primary),
                    "primary",
                    f"{problem_type.id}: the named mistake {distractor.mistake!r} gives no"
                    f" {primary!r}, the answer a student types",
                )
    return None


def _precision_failure(problem_type: ProblemType, drawn: list[Problem]) -> Finding | None:
    """The finding when a drawn problem's prompt states a precision in words that its type does
    not declare (``precision=Precision(decimals=3)``), declares one its words do not say, or one
    its tolerance would reject a rounded answer at."""
    for problem in drawn:
        wrong = unsaid(problem.prompt, problem_type.precision)
        if not wrong and problem_type.precision is not None:
            numbers = problem.value(problem_type.primary).numbers
            wrong = rejects_rounded(problem_type.precision, problem_type.tolerance, numbers)
        if wrong:
            path = project_path(problem_type.id)
            lines = path.read_text(encoding="utf-8", errors="replace").splitlines() if path else []
            found = [n for n, text in enumerate(lines, 1) if re.search(r"\b(precision|prompt)\s*=", text)]
            line = next((n for n in found if "precision" in lines[n - 1]), found[0] if found else 0)
            wrong += declare(problem.prompt, python=True) if problem_type.precision is None else ""
            return Finding(project_file(problem_type.id), line, "precision", f"{problem_type.id}: {wrong}")
    return None


def _line_of(type_id: str, primary: str) -> int:
    """The line of the type's file that sets ``primary`` to this name, or 0."""
    path = project_path(type_id)
    if path is None:
        return 0
    pattern = re.compile(r"""\bprimary\b\s*[=:]\s*["']""" + re.escape(primary) + """["']""")
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    return next((n for n, line in enumerate(lines, 1) if pattern.search(line)), 0)


def raised(type_id: str, error: Exception) -> Finding:
    """One line for an exception the type's code raised: the last line of its file it passed
    through, and the function there."""
    path = project_path(type_id)
    frames = [
        f for f in traceback.extract_tb(error.__traceback__) if path is not None and Path(f.filename) == path
    ]
    where = f"{frames[-1].name} raised" if frames else "drawing a problem raised"
    message = " ".join(str(error).split())
    return Finding(
        project_file(type_id),
        frames[-1].lineno or 0 if frames else 0,
        "",
        f"{type_id}: {where} {type(error).__name__}" + (f": {message}" if message else ""),
    )
