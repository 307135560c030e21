"""Scoring: each answer against the key, with the key's tolerance and points.

- A choice question scores all its points for the right letter, else none; a
  distractor's letter is recorded as its named mistake.
- A numeric question or problem scores a share of its points per component within
  tolerance (``right / components``): 2 of 3 components right earn 2/3 of the points.
  A wrong answer whose every component lies within tolerance of a named mistake's
  value is recorded as that mistake (the closest, if two are that close).
- A short answer scores the points the teacher wrote; empty leaves it ungraded: it
  counts toward neither score nor maximum.
- A blank scores nothing and records no mistake.
- An answer not read (``?``: the scan could not read it) is pending: like an ungraded
  short answer it counts toward neither score nor maximum, and is reported as not read.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..answers import accepts
from ..problems.model import Tolerance
from .key import CHOICE_KINDS, KeyForm, KeyQuestion, QuizKey
from .responses import NOT_READ, Answer, Response


@dataclass(frozen=True)
class Mark:
    """How one answer scored."""

    number: int
    points: float | None
    """Points earned; None for an ungraded short answer."""
    possible: float
    """The question's points."""
    share: float | None
    """``points / possible`` (None: ungraded)."""
    mistake: str = ""
    """The named mistake the answer shows, or ''."""
    blank: bool = False
    answer: Answer = None
    not_read: bool = False
    """The answer was not read (``?``): pending until the cell is fixed."""


@dataclass(frozen=True)
class StudentResult:
    """One student's graded quiz."""

    student: str
    form: str
    marks: tuple[Mark, ...]
    """In question order."""

    @property
    def score(self) -> float:
        return sum(m.points for m in self.marks if m.points is not None)

    @property
    def max(self) -> float:
        return sum(m.possible for m in self.marks if m.points is not None)

    @property
    def not_read(self) -> tuple[int, ...]:
        """The numbers of the questions whose answer was not read."""
        return tuple(m.number for m in self.marks if m.not_read)

    @property
    def percent(self) -> float:
        return 100 * self.score / self.max if self.max else 0.0


def _numbers_mark(question: KeyQuestion, got: tuple[float | None, ...]) -> Mark:
    # The key's tolerance under the one rule (answers.accepts), as the cards check it.
    tolerance = Tolerance(question.tolerance_abs, question.tolerance_rel)
    right = sum(
        1 for e, g in zip(question.answer, got, strict=True) if g is not None and accepts(e, g, tolerance)
    )
    share = right / question.size
    mistake = ""
    if right < question.size:
        best = None
        for candidate in question.mistakes:
            if all(
                g is not None and accepts(v, g, tolerance) for v, g in zip(candidate.value, got, strict=True)
            ):
                worst = max(
                    abs(v - g)  # type: ignore[operator]
                    for v, g in zip(candidate.value, got, strict=True)
                )
                if best is None or worst < best[0]:
                    best = (worst, candidate.name)
        mistake = best[1] if best else ""
    return Mark(question.number, question.points * share, question.points, share, mistake, answer=got)


def mark(question: KeyQuestion, answer: Answer) -> Mark:
    """How ``answer`` (parsed by ``responses.parse_answer``) scores on ``question``."""
    if answer == NOT_READ:
        return Mark(question.number, None, question.points, None, not_read=True)
    if question.kind == "short_answer":
        if answer is None:
            return Mark(question.number, None, question.points, None)
        assert isinstance(answer, float)
        return Mark(
            question.number,
            answer,
            question.points,
            answer / question.points if question.points else 1.0,
            answer=answer,
        )
    if answer is None:
        return Mark(question.number, 0.0, question.points, 0.0, blank=True)
    if question.kind in CHOICE_KINDS:
        if answer == question.answer_letter:
            return Mark(question.number, question.points, question.points, 1.0, answer=answer)
        named = next((m.name for m in question.mistakes if m.letter == answer), "")
        return Mark(question.number, 0.0, question.points, 0.0, named, answer=answer)
    assert isinstance(answer, tuple)
    return _numbers_mark(question, answer)


def grade_student(form: KeyForm, response: Response) -> StudentResult:
    marks = tuple(mark(form.questions[n], response.answers.get(n)) for n in sorted(form.questions))
    return StudentResult(response.student, form.label, marks)


def grade(key: QuizKey, responses: list[Response]) -> tuple[StudentResult, ...]:
    """Every student's marks, in the order of the responses."""
    return tuple(grade_student(key.forms[r.form], r) for r in responses)
