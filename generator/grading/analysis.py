"""What the class's marks say: a histogram of scores, each question's difficulty and
discrimination, the most common named mistakes and where each is taught.

Questions are compared across forms by what they are, not by their number: a content
question by its id (it may be question 3 on one form and 7 on another), a problem by
its section and type (every form prints other numbers for it).

- Difficulty: the mean share of the points students earned on it (for a question
  scored right or wrong, the share who got it right).
- Discrimination: the point-biserial correlation of that share with the student's
  score on the rest of the quiz (the question itself left out, so that it does not
  correlate with itself); None when either does not vary.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from ..content.model import Content, Lesson
from ..documents.items import lesson_group
from .key import KeyQuestion, QuizKey
from .scoring import StudentResult

BINS = 10
"""Histogram bars: 0–10 %, 10–20 %, …, 90–100 % (100 % in the last)."""


@dataclass(frozen=True)
class Reading:
    """Where to read about a question: a lesson and the paper's label."""

    lesson: str
    """The lesson's id, or '' when no lesson teaches it."""
    title: str
    """As the deck names the lesson: ``03 Scaled Dot-Product Attention``."""
    source: str
    """The paper's label (``S3.2.1``)."""


class Readings:
    """Content ids and problem types to the lessons that teach them."""

    def __init__(self, content: Content):
        self.content = content
        self.questions: dict[str, tuple[Lesson, int, str]] = {}
        self.types: dict[str, list[tuple[Lesson, int]]] = defaultdict(list)
        examples = {e.id: e.problem for lesson in content.lessons for e in lesson.worked_examples}
        for number, lesson in enumerate(content.lessons, 1):
            for question in lesson.questions:
                self.questions[question.id] = (lesson, number, question.source)
            used = {e.problem for e in lesson.worked_examples}
            used |= {examples.get(str((v.params or {}).get("example")), "") for v in lesson.visuals}
            for type_id in sorted(used - {""}):
                self.types[type_id].append((lesson, number))

    def lessons(self, question: KeyQuestion) -> tuple[Reading, ...]:
        """The lessons that teach ``question``, the one to read first first.

        A content question: its lesson. A problem: the lessons whose worked examples or
        figures use its type, first the one whose sources hold the type's label; none
        found, only the type's label.
        """
        if question.content_id:
            found = self.questions.get(question.content_id)
            if found is None:
                return (Reading("", "", ""),)
            lesson, number, source = found
            return (Reading(lesson.id, lesson_group(number, lesson), source),)
        from .. import problems

        try:
            source = problems.get(question.problem_type).source
        except Exception:
            source = ""
        taught = sorted(
            self.types.get(question.problem_type, ()),
            key=lambda pair: (source not in pair[0].sources, pair[1]),
        )
        if not taught:
            return (Reading("", "", source),)
        return tuple(Reading(lesson.id, lesson_group(number, lesson), source) for lesson, number in taught)


@dataclass(frozen=True)
class ItemStats:
    """One question across the forms that print it."""

    item: str
    """Content id, or ``problem:TYPE``."""
    section: str
    kind: str
    students: int
    """Students whose mark on it counts (graded)."""
    difficulty: float | None
    discrimination: float | None


@dataclass(frozen=True)
class MistakeCount:
    """A named mistake and how often the class made it."""

    name: str
    count: int
    """Answers that show it."""
    students: int
    items: tuple[str, ...]
    readings: tuple[Reading, ...]


def histogram(results: Iterable[StudentResult], bins: int = BINS) -> list[int]:
    """Students per band of ``100 / bins`` percent."""
    counts = [0] * bins
    for result in results:
        counts[min(bins - 1, int(result.percent * bins / 100 + 1e-9))] += 1
    return counts


def _correlation(xs: list[float], ys: list[float]) -> float | None:
    n = len(xs)
    if n < 2:
        return None
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    if sxx <= 1e-12 or syy <= 1e-12:
        return None
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / math.sqrt(sxx * syy)


def item_stats(key: QuizKey, results: Iterable[StudentResult]) -> list[ItemStats]:
    """Difficulty and discrimination of every question, in the order the quiz prints them."""
    shares: dict[str, list[float]] = defaultdict(list)
    rests: dict[str, list[float]] = defaultdict(list)
    about: dict[str, KeyQuestion] = {}
    order: dict[str, tuple[int, str]] = {}
    for result in results:
        form = key.forms[result.form]
        total = result.score
        for m in result.marks:
            question = form.questions[m.number]
            about.setdefault(question.item, question)
            order[question.item] = min(
                order.get(question.item, (m.number, question.item)), (m.number, question.item)
            )
            if m.share is None or m.points is None:
                continue
            shares[question.item].append(m.share)
            rests[question.item].append(total - m.points)
    stats = []
    for item in sorted(about, key=lambda i: order[i]):
        xs = shares.get(item, [])
        question = about[item]
        stats.append(
            ItemStats(
                item,
                question.section,
                question.kind,
                len(xs),
                sum(xs) / len(xs) if xs else None,
                _correlation(xs, rests.get(item, [])),
            )
        )
    return stats


def common_mistakes(key: QuizKey, results: Iterable[StudentResult], readings: Readings) -> list[MistakeCount]:
    """Every named mistake the class made, the most common first."""
    counts: Counter[str] = Counter()
    students: dict[str, set[str]] = defaultdict(set)
    items: dict[str, dict[str, KeyQuestion]] = defaultdict(dict)
    for result in results:
        form = key.forms[result.form]
        for m in result.marks:
            if m.mistake:
                question = form.questions[m.number]
                counts[m.mistake] += 1
                students[m.mistake].add(result.student)
                items[m.mistake].setdefault(question.item, question)
    found = []
    for name, count in sorted(counts.items(), key=lambda pair: (-pair[1], pair[0])):
        where: dict[tuple[str, str, str], Reading] = {}
        for question in items[name].values():
            first = readings.lessons(question)[0]
            where.setdefault((first.lesson, first.title, first.source), first)
        found.append(
            MistakeCount(name, count, len(students[name]), tuple(items[name]), tuple(where.values()))
        )
    return found
