"""What a typed answer is checked against, decided once for every output that checks one.

A problem card (``exporters/anki``: ``check.js``) and the study site's practice block and
numeric question (``exporters/site``: ``site.js``) both hand ``answers.js``'s ``verdict`` the
same numbers, tolerance, key as the question asks for it and named mistakes; each output
only writes them where its script reads them (``data-`` attributes, a JSON array).
``StudyItem.checks`` gives an item's checks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .. import problems
from ..content.model import Question
from ..presentation import Formatter, answer_formatter, key_text
from ..problems import Problem, Tolerance
from ..values import Value


@dataclass(frozen=True)
class NamedMistake:
    """A named mistake that changes the answer typed, with what it gives."""

    mistake: str
    """Its name, Markdown with math (``forgot to scale by \\(\\sqrt{d_k}\\)``)."""
    value: Any
    """The answer it gives, shaped as the key's."""
    numbers: tuple[float, ...]
    """That answer's numbers, row by row: what the verdict matches typed numbers with."""


@dataclass(frozen=True)
class AnswerCheck:
    """One answer a learner types, as every output's script checks it."""

    name: str
    """The answer typed: a problem type's ``primary`` (``output``); '' for a numeric question."""
    value: Any
    """That answer as the key holds it: a number, a vector, a matrix."""
    expected: tuple[float, ...]
    """Its numbers, row by row, as floats: what the typed numbers are compared with."""
    shape: tuple[int, ...]
    """Its shape (``Value.shape``): ``()`` for one number."""
    shown: str
    """Its numbers as the question asks for them (``presentation.key_text``), which a verdict
    quotes when a typed answer is wrong."""
    tolerance: Tolerance
    """How close a typed number must be."""
    digits: Formatter
    """How the key's numbers are written: to the digits the question asks for."""
    key: dict[str, Any] = field(default_factory=dict)
    """A problem's whole key, the typed answer first, for the answer side; empty for a question."""
    mistakes: tuple[NamedMistake, ...] = ()
    """The problem's named mistakes that change the typed answer, in the problem's order."""


def problem_check(problem: Problem) -> AnswerCheck:
    """The check of a generated problem: its type's ``primary`` answer."""
    primary = problems.get(problem.type).primary
    tolerance = problem.tolerance
    digits = answer_formatter(problem.precision, tolerance.abs, tolerance.rel)
    value = problem.value(primary)
    return AnswerCheck(
        name=primary,
        value=value.raw,
        expected=tuple(value.floats),
        shape=value.shape,
        shown=key_text(value.numbers, digits),
        tolerance=tolerance,
        digits=digits,
        key={primary: value.raw, **{k: v for k, v in problem.answer.items() if k != primary}},
        mistakes=tuple(
            NamedMistake(d.mistake, d.answer[primary], tuple(Value(d.answer[primary]).floats))
            for d in problem.distractors
            if primary in d.answer
        ),
    )


def question_check(question: Question) -> AnswerCheck:
    """The check of a numeric question: its one number, within its ``tolerance`` (absolute)."""
    tolerance = Tolerance(abs=float(question.tolerance or 0))
    digits = answer_formatter(question.precision, tolerance.abs)  # the digits the question asks for
    answer = question.answer
    shown = key_text([answer], digits) if isinstance(answer, (int, float)) else str(answer)
    return AnswerCheck("", answer, (float(answer),), (), shown, tolerance, digits)
