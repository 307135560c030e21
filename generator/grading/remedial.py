"""Remedial practice: one Anki deck per student, made from the mistakes they made.

Each deck holds fresh problems of every problem type the student lost points on
(``REVIEW_PROBLEMS`` each, at the easiest difficulty they missed it at) and every
card of the lessons their lost points come from. One ``.apkg`` per student, not one
deck with a subdeck per student: a student imports only their own file, so no
student's collection holds the classmates' names and weak points.

Identity (Anki GUIDs) never depends on the quiz: a problem's slot is
``review/<student>/<type>/<n>``, so grading the next quiz and importing again gives
the same notes new numbers (review history kept) instead of adding new ones; lesson
cards keep the GUIDs of their content ids, the same notes as in the full deck, so a
student who has the full deck gets no duplicates either.

Such a student's import adds the fresh problems and updates the lesson cards they already
have: nothing shows as new. So every note of the deck carries the tag ``review_tag``
(``aiayn::review::quiz-attention``), and the feedback prints the search that gathers
them into a filtered deck to practise now.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ..content.model import Content
from ..content.recipes import ProblemSet
from ..documents import items
from ..files.file_names import unique_name
from ..identity import name_digest, remedial_slot, student_key
from .analysis import Readings
from .key import QuizKey
from .scoring import StudentResult

REVIEW_PROBLEMS = 3
"""Fresh problems per problem type a student lost points on."""
_DIFFICULTY_ORDER = {"easy": 0, "medium": 1, "hard": 2}


def student_seed(seed: int, student: str) -> int:
    """The seed of one student's fresh problems: the grading seed and the student's name."""
    sequence = np.random.SeedSequence([seed, name_digest(student_key(student))])
    return int(sequence.generate_state(1, np.uint32)[0])


def deck_title(content: Content) -> str:
    """The top-level deck of every remedial deck: the same for every quiz and student."""
    return f"{content.paper.title} (review)"


def file_name(student: str, taken: set[str]) -> str:
    """A file name for the student's deck (``file_names.safe_stem``), unique among ``taken``."""
    return unique_name(student, ".apkg", taken)


def review_tag(paper_id: str, quiz: str) -> str:
    """The tag on every note of a quiz's remedial decks (Anki tags have no spaces)."""
    return f"{paper_id}::review::{quiz}".replace(" ", "_")


def review_search(paper_id: str, quiz: str) -> str:
    """The Anki search that gathers a remedial deck's notes (a filtered deck's search)."""
    return f"tag:{review_tag(paper_id, quiz)}"


def student_deck(
    content: Content, key: QuizKey, result: StudentResult, readings: Readings, seed: int
) -> items.Deck | None:
    """The remedial deck of one student, or None when they lost no points."""
    form = key.forms[result.form]
    types: dict[str, str] = {}
    lessons: list[str] = []
    for m in result.marks:
        if m.share is None or m.share >= 1:
            continue
        question = form.questions[m.number]
        first = readings.lessons(question)[0]
        if first.lesson and first.lesson not in lessons:
            lessons.append(first.lesson)
        if question.problem_type:
            before = types.get(question.problem_type, question.difficulty)
            types[question.problem_type] = min(
                before, question.difficulty, key=lambda d: _DIFFICULTY_ORDER.get(d, 0)
            )
    if not lessons and not types:
        return None
    found = items.lesson_items(content, lessons) if lessons else []
    sets = [
        ProblemSet(type_id, REVIEW_PROBLEMS, difficulty)  # type: ignore[arg-type]
        for type_id, difficulty in types.items()
    ]
    who = student_key(result.student)
    generated = items.problem_items(
        content.paper.id, f"review/{who}", "Practice", sets, student_seed(seed, result.student)
    )
    counters: dict[str, int] = {}
    for item in generated:
        type_id = item.body.type
        counters[type_id] = counters.get(type_id, 0) + 1
        # The slot names the student and the type, never the quiz or the difficulty.
        found.append(dataclasses.replace(item, key=remedial_slot(result.student, type_id, counters[type_id])))
    tag = review_tag(content.paper.id, key.quiz)
    tagged = tuple(dataclasses.replace(item, tags=(*item.tags, tag)) for item in found)
    return items.Deck(deck_title(content), content.paper.id, tagged)


def remedial_decks(
    content: Content, key: QuizKey, results: tuple[StudentResult, ...], readings: Readings, seed: int
) -> tuple[tuple[str, str, items.Deck], ...]:
    """(student, file name, deck) for every student who lost points, in the order of the responses."""
    taken: set[str] = set()
    decks = []
    for result in results:
        deck = student_deck(content, key, result, readings, seed)
        if deck is not None:
            decks.append((result.student, file_name(result.student, taken), deck))
    return tuple(decks)
