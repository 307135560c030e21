"""Quiz assembly: a quiz recipe, the content and a seed become K lettered forms.

Each form draws its own questions (``QuestionPick.count``), its own problem numbers
and its own order of choices and, where the recipe allows, of questions. Everything
random comes from NumPy Generators seeded by ``SeedSequence(seed, spawn_key=…)``,
so a form depends only on the quiz seed and its letter: ``--versions 3`` prints
the same forms A and B as ``--versions 2``. Nothing here formats; the PDF
exporter reads the ``Quiz`` and only lays it out.
"""

from __future__ import annotations

import string
from dataclasses import dataclass

import numpy as np

from . import problems
from .errors import ContentError, Finding
from .model import Content, Question
from .problems import Problem as GeneratedProblem
from .recipes import QuestionPick, QuizRecipe, QuizSection

LETTERS = string.ascii_uppercase


@dataclass(frozen=True)
class Option:
    """One printed choice of a multiple-choice or true/false question."""

    text: str
    """Markdown with math, as written in content."""
    correct: bool
    mistake: str = ""
    """The named mistake that leads to this choice (wrong choices of multiple choice)."""


@dataclass(frozen=True)
class QuestionItem:
    """A content question as one form prints it."""

    number: int
    """1-based number in the form."""
    points: float
    question: Question
    options: tuple[Option, ...] = ()
    """Choices in printed order: shuffled for multiple choice, True/False for true/false."""

    @property
    def answer_index(self) -> int | None:
        """Index of the correct option, if the question has options."""
        return next((i for i, o in enumerate(self.options) if o.correct), None)


@dataclass(frozen=True)
class ProblemItem:
    """A generated problem as one form prints it."""

    number: int
    points: float
    problem: GeneratedProblem
    exponentials: tuple[tuple[float, float], ...] = ()
    """(x, e^x) pairs a student needs for this problem without a calculator."""


QuizItem = QuestionItem | ProblemItem


@dataclass(frozen=True)
class FormSection:
    """A section of one form."""

    title: str
    points: float
    """Points per item."""
    items: tuple[QuizItem, ...]


@dataclass(frozen=True)
class Form:
    """One lettered version of a quiz."""

    letter: str
    sections: tuple[FormSection, ...]

    @property
    def items(self) -> tuple[QuizItem, ...]:
        return tuple(item for section in self.sections for item in section.items)

    @property
    def total_points(self) -> float:
        return sum(item.points for item in self.items)


@dataclass(frozen=True)
class Quiz:
    """Every form of a quiz, with what its first page and key print."""

    recipe: QuizRecipe
    paper_title: str
    seed: int
    """The quiz seed: ``paperdeck quiz RECIPE --seed SEED`` prints these forms again."""
    forms: tuple[Form, ...]


def form_rng(seed: int, form: int, *path: int) -> np.random.Generator:
    """The Generator of form ``form`` (0 is A) for the purpose named by ``path``."""
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(form, *path)))


def set_seed(seed: int, form: int, section: int) -> int:
    """The problem-set seed of a section of a form; each problem's own seed derives from it."""
    sequence = np.random.SeedSequence(seed, spawn_key=(form, section, 0))
    return int(sequence.generate_state(1, np.uint32)[0])


def build_quiz(content: Content, recipe: QuizRecipe, seed: int, versions: int) -> Quiz:
    """K forms (A, B, …) of the quiz ``recipe`` describes, deterministic for ``seed``."""
    if not 1 <= versions <= len(LETTERS):
        raise ContentError([Finding("", 0, "versions", f"must be between 1 and {len(LETTERS)}")])
    pools = [_pool(content, section.questions) if section.questions else []
             for section in recipe.sections]
    _check_counts(recipe, pools)
    forms = tuple(_form(recipe, pools, seed, index) for index in range(versions))
    return Quiz(recipe, content.paper.title, seed, forms)


def _pool(content: Content, pick: QuestionPick) -> list[Question]:
    """The questions a pick can draw from, in content order (ids: in the order given)."""
    everything = [(lesson.id, q) for lesson in content.lessons for q in lesson.questions]
    if pick.ids:
        by_id = {q.id: q for _, q in everything}
        chosen = [by_id[i] for i in pick.ids if i in by_id]
    else:
        chosen = [q for lesson_id, q in everything if not pick.lessons or lesson_id in pick.lessons]
    return [q for q in chosen if not pick.types or q.type in pick.types]


def _check_counts(recipe: QuizRecipe, pools: list[list[Question]]) -> None:
    found = []
    for i, (section, pool) in enumerate(zip(recipe.sections, pools, strict=True)):
        pick = section.questions
        if pick is None:
            continue
        field = f"sections[{i}].questions"
        if not pool:
            found.append(Finding(f"decks/{recipe.id}.yaml", 0, field, "no question matches"))
        elif pick.count is not None and pick.count > len(pool):
            found.append(Finding(f"decks/{recipe.id}.yaml", 0, f"{field}.count",
                                 f"asks for {pick.count} questions but only {len(pool)} match"))
    if found:
        raise ContentError(found)


def _form(recipe: QuizRecipe, pools: list[list[Question]], seed: int, index: int) -> Form:
    sections = []
    number = 1
    for s, (section, pool) in enumerate(zip(recipe.sections, pools, strict=True)):
        rng = form_rng(seed, index, s, 1)
        if section.questions is not None:
            items: list[QuizItem] = _question_items(section, pool, rng, recipe.shuffle_questions, number)
        else:
            items = _problem_items(section, set_seed(seed, index, s), recipe.calculator, number)
        number += len(items)
        sections.append(FormSection(section.title, section.points, tuple(items)))
    return Form(LETTERS[index], tuple(sections))


def _question_items(section: QuizSection, pool: list[Question], rng: np.random.Generator,
                    shuffle: bool, first: int) -> list[QuizItem]:
    assert section.questions is not None
    count = section.questions.count or len(pool)
    chosen = rng.choice(len(pool), size=count, replace=False)
    order = chosen if shuffle else np.sort(chosen)
    items: list[QuizItem] = []
    for number, i in enumerate(order.tolist(), first):
        question = pool[i]
        items.append(QuestionItem(number, section.points, question, _options(question, rng)))
    return items


def _options(question: Question, rng: np.random.Generator) -> tuple[Option, ...]:
    if question.type == "true_false":
        return (Option("True", question.answer is True), Option("False", question.answer is False))
    if question.type != "multiple_choice":
        return ()
    options = [Option(str(question.answer), True)]
    options += [Option(d.text, False, d.mistake) for d in question.distractors]
    return tuple(options[i] for i in rng.permutation(len(options)).tolist())


def _problem_items(section: QuizSection, seed: int, calculator: bool, first: int) -> list[QuizItem]:
    ps = section.problems
    assert ps is not None
    generated = problems.generate(ps.type, ps.count, seed, ps.difficulty)
    return [ProblemItem(number, section.points, problem,
                        () if calculator else exponentials(problem))
            for number, problem in enumerate(generated, first)]


# -- exponentials a problem needs ------------------------------------------------

def exponentials(problem: GeneratedProblem, decimals: int = 4) -> tuple[tuple[float, float], ...]:
    """The (x, e^x) a student needs: every score and every score minus its row's maximum.

    Both, because a student may exponentiate the scores directly or shift them first
    as the worked steps do. Empty for problem types without ``softmax_inputs``.
    """
    inputs = problems.get(problem.type).softmax_inputs
    if inputs is None:
        return ()
    values: set[float] = set()
    for scores in inputs(problem.given):
        for row in np.atleast_2d(scores):
            row = row[np.isfinite(row)]
            for x in (*row, *(row - row.max())):
                values.add(round(float(x), decimals) + 0.0)
    return tuple((x, float(np.exp(x))) for x in sorted(values))
