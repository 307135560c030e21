"""Stress a quiz recipe: make N forms and check every invariant a teacher relies on.

Like R/exams' ``stresstest_exercise``: each invariant is checked on every form and
counted; a report lists, per invariant, how many things were checked and what
broke. The invariants:

- answerable: every question can be answered under the quiz's rules (without a
  calculator: its needs are printed, no calculator question, the exponentials of
  every softmax are in the table, no problem type that needs a calculator);
- keys re-solved: each problem is regenerated from its seed and solved again with
  the checked solver, and must match the key; a multiple-choice key has exactly
  one right option; a numeric question's precision, answer and tolerance agree;
- distinct mistakes: named-mistake values differ from the answer and from each
  other beyond the tolerance; choices differ;
- no repeats: no question or problem twice in a form;
- forms differ: no two forms print the same questions, choices and numbers;
- letters spread: where the right answer sits among multiple-choice options, over all
  forms, with a chi-square against a uniform spread (fails when p < 0.001);
- no degenerate numbers: every answer finite, no softmax row of equal weights,
  no nonzero answer that prints as 0; for a project's own types also no answer
  that is all zeros or equals a given (a draw on which the computation does nothing).

A problem type none of whose problems names a mistake is reported as a warning.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import problems
from ..presentation import answer_formatter, letter
from ..problems import precision
from .quiz import Form, ProblemItem, QuestionItem, Quiz, exponentials

_PRINTS_AS_ZERO = re.compile(r"-?0(\.0*)?")
INVARIANTS = (
    "answerable",
    "keys re-solved",
    "distinct mistakes",
    "no repeats",
    "forms differ",
    "letters spread",
    "no degenerate numbers",
)


@dataclass
class Report:
    """Counts and violations of each invariant over the forms of one quiz."""

    quiz: str
    forms: int = 0
    checked: Counter[str] = field(default_factory=Counter)
    violations: dict[str, list[str]] = field(default_factory=lambda: {name: [] for name in INVARIANTS})
    positions: Counter[int] = field(default_factory=Counter)
    chi_square: float = 0.0
    p_value: float = 1.0
    mistakes: dict[str, list[int]] = field(default_factory=dict)
    """Per problem type: [problems drawn, problems with at least one named mistake]."""
    degenerate: Counter[str] = field(default_factory=Counter)
    """Per problem type: problems with a degenerate number."""

    @property
    def warnings(self) -> list[str]:
        """Advice that does not fail the run: problem types that never name a mistake."""
        return [
            f"{type_id}: none of its {drawn} problems has a named mistake (solve returns no"
            " Distractor), so keys, cards, grading and remedial decks show no common mistakes"
            for type_id, (drawn, named) in sorted(self.mistakes.items())
            if drawn and not named
        ]

    @property
    def ok(self) -> bool:
        return not any(self.violations.values())

    def table(self) -> str:
        """The report as a plain-text table."""
        rows = [f"{self.quiz}: {self.forms} forms", f"  {'invariant':<24}{'checked':>9}{'violations':>12}"]
        for name in INVARIANTS:
            rows.append(f"  {name:<24}{self.checked[name]:>9}{len(self.violations[name]):>12}")
        spread = " ".join(f"{letter(i)}={self.positions[i]}" for i in sorted(self.positions))
        rows.append(
            f"  right answers by position: {spread or 'none'};"
            f" chi-square {self.chi_square:.2f}, p = {self.p_value:.3f}"
        )
        for name in INVARIANTS:
            for message in self.violations[name][:10]:
                rows.append(f"  VIOLATION {name}: {message}")
            if len(self.violations[name]) > 10:
                rows.append(f"  … and {len(self.violations[name]) - 10} more {name} violations")
        rows += [
            f"  degenerate draws of {type_id}: {count} of {self.mistakes[type_id][0]} problems"
            for type_id, count in sorted(self.degenerate.items())
        ]
        rows += [f"  WARNING {message}" for message in self.warnings]
        return "\n".join(rows)


def stress(quiz: Quiz) -> Report:
    """Check every invariant over every form of ``quiz``."""
    report = Report(quiz.recipe.id or "quiz")
    prints: dict[str, str] = {}
    by_options: dict[int, Counter[int]] = {}
    for form in quiz.iter_forms():
        report.forms += 1
        _form(quiz, form, report, by_options)
        fingerprint = _fingerprint(form)
        report.checked["forms differ"] += 1
        if fingerprint in prints:
            report.violations["forms differ"].append(f"form {form.letter} prints as {prints[fingerprint]}")
        prints.setdefault(fingerprint, form.letter)
    _spread(report, by_options)
    return report


def _fingerprint(form: Form) -> str:
    parts = []
    for item in form.items:
        if isinstance(item, QuestionItem):
            parts.append(item.question.id + "|" + "|".join(o.text for o in item.options))
        else:
            parts.append(f"{item.problem.type}|{item.problem.given}")
    return "\n".join(parts)


def _form(quiz: Quiz, form: Form, report: Report, by_options: dict[int, Counter[int]]) -> None:
    calculator = quiz.recipe.calculator
    seen: set[str] = set()
    for item in form.items:
        where = f"form {form.letter} #{item.number}"
        name = (
            item.question.id if isinstance(item, QuestionItem) else f"{item.problem.type}/{item.problem.seed}"
        )
        report.checked["no repeats"] += 1
        if name in seen:
            report.violations["no repeats"].append(f"{where}: {name} twice")
        seen.add(name)
        if isinstance(item, QuestionItem):
            _question(item, calculator, where, report, by_options)
        else:
            _problem(item, calculator, where, report)


def _question(
    item: QuestionItem, calculator: bool, where: str, report: Report, by_options: dict[int, Counter[int]]
) -> None:
    question = item.question
    where = f"{where} ({question.id})"
    report.checked["answerable"] += 1
    if not calculator and question.calculator:
        report.violations["answerable"].append(f"{where}: needs a calculator")
    if not calculator and len(item.table) != len(question.needs):
        report.violations["answerable"].append(f"{where}: its needs are not printed")
    report.checked["keys re-solved"] += 1
    if item.options:
        right = [i for i, o in enumerate(item.options) if o.correct]
        if len(right) != 1:
            report.violations["keys re-solved"].append(f"{where}: {len(right)} right options")
        elif question.type == "multiple_choice":  # True/False always print in that order
            by_options.setdefault(len(item.options), Counter())[right[0]] += 1
            report.positions[right[0]] += 1
        report.checked["distinct mistakes"] += 1
        texts = [o.text.strip() for o in item.options]
        if len(set(texts)) != len(texts):
            report.violations["distinct mistakes"].append(f"{where}: two choices print the same")
    if question.type == "numeric":
        found = precision.problems(
            question.prompt, question.precision, question.answer, question.tolerance or 0.0
        )
        for _, message in found:
            report.violations["keys re-solved"].append(f"{where}: {message}")
        report.checked["no degenerate numbers"] += 1
        if not math.isfinite(question.answer):
            report.violations["no degenerate numbers"].append(f"{where}: answer {question.answer}")


def _numbers(value: Any) -> Iterator[float]:
    if isinstance(value, (list, tuple)):
        for x in value:
            yield from _numbers(x)
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        yield float(value)


def _problem(item: ProblemItem, calculator: bool, where: str, report: Report) -> None:
    problem = item.problem
    problem_type = problems.get(problem.type)
    where = f"{where} ({problem.type}, problem seed {problem.seed})"
    report.checked["answerable"] += 1
    if not calculator:
        if problem_type.needs_calculator:
            report.violations["answerable"].append(f"{where}: the type needs a calculator")
        printed = {x for x, _ in item.exponentials}
        missing = {x for x, _ in exponentials(problem)} - printed
        if missing:
            report.violations["answerable"].append(f"{where}: e^x not printed for {sorted(missing)}")
    # The key, solved again: regenerate from the seed alone, then solve with input checks.
    report.checked["keys re-solved"] += 1
    again = problems.generate_one(problem.type, problem.seed, problem.difficulty)
    solved = problem_type.solve(again.given)
    for key, value in problem.answer.items():
        expected = list(_numbers(solved.answer.get(key)))
        got = list(_numbers(value))
        if (
            again.given != problem.given
            or len(expected) != len(got)
            or not np.allclose(expected, got, rtol=1e-9, atol=1e-9)
        ):
            report.violations["keys re-solved"].append(f"{where}: {key} differs when solved again")
    # Named mistakes: apart from the answer and from each other, beyond the tolerance.
    primary = problem_type.primary
    tolerance = problem.tolerance
    values = [("the answer", list(_numbers(problem.answer[primary])))]
    values += [(d.mistake, list(_numbers(d.answer.get(primary)))) for d in problem.distractors]
    for i, (name_a, a) in enumerate(values):
        for name_b, b in values[i + 1 :]:
            report.checked["distinct mistakes"] += 1
            if len(a) == len(b) and all(tolerance.accepts(x, y) for x, y in zip(a, b, strict=True)):
                report.violations["distinct mistakes"].append(
                    f"{where}: {name_b!r} is within tolerance of {name_a!r}"
                )
    counts = report.mistakes.setdefault(problem.type, [0, 0])
    counts[0] += 1
    counts[1] += bool(problem.distractors)
    # Degenerate numbers.
    report.checked["no degenerate numbers"] += 1
    before = len(report.violations["no degenerate numbers"])
    fmt = answer_formatter(problem.precision, tolerance.abs, tolerance.rel)
    # A project's own type (no ``paper``) is also checked for draws on which it does nothing.
    givens = {name: list(_numbers(value)) for name, value in problem.given.items()}
    for key, value in problem.answer.items():
        numbers = list(_numbers(value))
        if not all(math.isfinite(x) for x in numbers):
            report.violations["no degenerate numbers"].append(f"{where}: {key} is not finite")
        if any(x != 0 and _PRINTS_AS_ZERO.fullmatch(fmt(x)) for x in numbers):
            report.violations["no degenerate numbers"].append(f"{where}: a nonzero {key} prints as 0")
        if not problem_type.paper and numbers and not any(numbers):
            report.violations["no degenerate numbers"].append(f"{where}: {key} is all zeros")
        same = [
            name
            for name, given in givens.items()
            if not problem_type.paper and len(numbers) > 1 and given == numbers
        ]
        if same:
            report.violations["no degenerate numbers"].append(
                f"{where}: {key} equals the given {same[0]} (the computation changes nothing)"
            )
    weights = problem.answer.get("weights")
    if weights is not None:
        for row in np.atleast_2d(np.asarray(weights, dtype=float)):
            live = row[row > 0]
            if len(live) > 1 and np.ptp(live) < 1e-9:
                report.violations["no degenerate numbers"].append(f"{where}: a row of equal weights")
    if len(report.violations["no degenerate numbers"]) > before:
        report.degenerate[problem.type] += 1


def _spread(report: Report, by_options: dict[int, Counter[int]]) -> None:
    """Chi-square of the right answers' positions against uniform, summed over option counts."""
    statistic, freedom = 0.0, 0
    for options, counts in by_options.items():
        total = sum(counts.values())
        expected = total / options
        if expected < 5:  # too few to say anything
            continue
        statistic += sum((counts[i] - expected) ** 2 / expected for i in range(options))
        freedom += options - 1
    report.checked["letters spread"] += 1
    report.chi_square = statistic
    report.p_value = _chi_square_p(statistic, freedom) if freedom else 1.0
    if report.p_value < 0.001:
        report.violations["letters spread"].append(
            f"chi-square {statistic:.1f} on {freedom} degrees of freedom, p = {report.p_value:.2g}"
        )


def _chi_square_p(statistic: float, freedom: int) -> float:
    """Upper tail of the chi-square distribution (Wilson–Hilferty normal approximation)."""
    z = ((statistic / freedom) ** (1 / 3) - (1 - 2 / (9 * freedom))) / math.sqrt(2 / (9 * freedom))
    return 0.5 * math.erfc(z / math.sqrt(2))
