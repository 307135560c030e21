"""A quiz for a learning management system (LMS): question banks and problem pools it draws from.

A printed quiz fixes each form's questions; an LMS draws them per attempt. So the LMS
quiz holds, per section of the recipe, every question of the section's pool (the LMS
draws the recipe's ``count`` of them) and, per problem of a problem section, ``variants``
pre-generated variants (the LMS draws one). Everything comes from the quiz document
(``documents.quiz``): the variants are made as forms of a quiz whose question sections
take their whole pool, so each question's choices are in the order a form prints them
and variant ``v`` of a problem is the problem printed form ``v`` gets (same secret, seed and
recipe), with its own seed that ``paperdeck problems TYPE --problem-seed S -d D``
regenerates. Nothing here formats; ``exporters.qti`` and ``exporters.moodle`` write it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from ..content.model import Content, Visual
from ..content.recipes import QuizRecipe
from .quiz import ProblemItem, QuestionItem, build_quiz

DEFAULT_VARIANTS = 5
"""Variants of each randomized problem in an LMS quiz, unless asked otherwise."""


@dataclass(frozen=True)
class QuestionBank:
    """A section of content questions: the LMS draws ``draw`` of ``questions`` per attempt."""

    title: str
    points: float
    """Points per question."""
    draw: int
    shuffle: bool
    """Whether the drawn questions come in a random order (the recipe's ``shuffle_questions``)."""
    questions: tuple[QuestionItem, ...]
    """Every question of the pool, in the pool's order, choices in the order forms print them."""


@dataclass(frozen=True)
class ProblemPool:
    """A section of randomized problems: for each problem, its variants; the LMS draws one each."""

    title: str
    points: float
    """Points per problem."""
    slots: tuple[tuple[ProblemItem, ...], ...]


LmsSection = QuestionBank | ProblemPool


@dataclass(frozen=True)
class LmsQuiz:
    """A quiz recipe as an LMS holds it."""

    recipe: QuizRecipe
    paper_title: str
    seed: int
    """The quiz seed the variants derive from (with the teacher's secret)."""
    variants: int
    sections: tuple[LmsSection, ...]
    figures: Mapping[str, Visual] = field(default_factory=dict)
    """The figure each question with one shows (``Question.figure``), by question id, its
    parameters resolved (``Visual.resolved``): the exporters draw it and carry the file."""

    @property
    def problems(self) -> tuple[ProblemItem, ...]:
        """Every variant of every problem."""
        return tuple(
            variant
            for section in self.sections
            if isinstance(section, ProblemPool)
            for slot in section.slots
            for variant in slot
        )

    @property
    def questions(self) -> tuple[QuestionItem, ...]:
        return tuple(
            question
            for section in self.sections
            if isinstance(section, QuestionBank)
            for question in section.questions
        )

    @property
    def total_points(self) -> float:
        """Points of one attempt: the drawn questions and one variant of each problem."""
        return sum(
            section.points * (section.draw if isinstance(section, QuestionBank) else len(section.slots))
            for section in self.sections
        )


def build_lms_quiz(
    content: Content, recipe: QuizRecipe, seed: int, variants: int = DEFAULT_VARIANTS, secret: bytes = b""
) -> LmsQuiz:
    """The LMS form of ``recipe``: whole question pools and ``variants`` variants of each problem."""
    whole = replace(
        recipe,
        sections=tuple(
            replace(section, questions=replace(section.questions, count=None))
            if section.questions is not None
            else section
            for section in recipe.sections
        ),
    )
    quiz = build_quiz(content, whole, seed, variants, secret)
    forms = quiz.forms
    sections: list[LmsSection] = []
    for s, section in enumerate(recipe.sections):
        if section.questions is not None:
            pool = quiz.pools[s]
            printed = {
                item.question.id: item
                for item in forms[0].sections[s].items
                if isinstance(item, QuestionItem)
            }
            in_order = tuple(printed[question.id] for question in pool)
            sections.append(
                QuestionBank(
                    section.title,
                    section.points,
                    section.questions.count or len(pool),
                    recipe.shuffle_questions,
                    in_order,
                )
            )
        else:
            per_form = [
                tuple(item for item in form.sections[s].items if isinstance(item, ProblemItem))
                for form in forms
            ]
            sections.append(ProblemPool(section.title, section.points, tuple(zip(*per_form, strict=True))))
    figures = {
        item.question.id: item.figure.visual
        for section in sections
        if isinstance(section, QuestionBank)
        for item in section.questions
        if item.figure is not None
    }
    return LmsQuiz(recipe, quiz.paper_title, seed, variants, tuple(sections), figures)
