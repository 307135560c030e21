"""Quiz assembly: a quiz recipe, the content, a seed and the teacher's secret become forms.

A quiz has 1 to ``MAX_FORMS`` forms, labelled A … Z, AA, AB, … (``presentation.letter``).
Each form has its own seed, derived from the teacher's secret, the recipe and the
quiz seed (HMAC-SHA256), so a student who holds the public tool and everything a
form prints cannot regenerate its answers: forms print only their label and an
opaque form code (another HMAC of the secret), and seeds appear only in the key.
Each form draws its own questions, problem numbers and order of choices from
NumPy Generators seeded by ``SeedSequence(form seed, spawn_key=…)``, so a form
depends only on the secret, the quiz seed and its index: ``--versions 3``
prints the same forms A and B as ``--versions 2``.

Forms are made one at a time (``Quiz.form``, ``Quiz.iter_forms``), so that a
quiz of a thousand forms never holds them all. Nothing here formats; the PDF
exporter reads the ``Quiz`` and only lays it out.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import hmac
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

import numpy as np

from .. import problems
from ..content.model import Content, Question, Visual
from ..content.needs import need_values
from ..content.recipes import MAX_FORMS, QuizRecipe, QuizSection, question_pool
from ..content.text import prose
from ..errors import ContentError, Finding
from ..numerals import rounded
from ..presentation import letter
from ..problems import Problem as GeneratedProblem


@dataclass(frozen=True)
class QuestionFigure:
    """A question's figure (``Question.figure``), decided once for every output that shows the
    question: the card, the site, the printed form and key, the LMS exports."""

    visual: Visual
    """The visual it names, its parameters resolved (``Visual.resolved``): each output draws it
    as it draws the visual itself."""
    alt: str
    """The words of its ``alt`` text: the caption as plain text, its math in Unicode."""


def alt_text(caption: str) -> str:
    """A caption as the words of an ``alt`` text, which a screen reader reads aloud: plain
    text, its math in Unicode (``√d_k``, never ``\\sqrt{d_k}``), on one line."""
    return " ".join(prose(caption).split())


def question_figures(content: Content) -> dict[str, QuestionFigure]:
    """The figure of each question that has one, by question id (the visual may be in any lesson)."""
    visuals = {visual.id: visual for lesson in content.lessons for visual in lesson.visuals}
    examples = {example.id: example for lesson in content.lessons for example in lesson.worked_examples}
    figures = {}
    for lesson in content.lessons:
        for question in lesson.questions:
            if question.figure:
                visual = visuals[question.figure].resolved(examples)
                figures[question.id] = QuestionFigure(visual, alt_text(visual.caption))
    return figures


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
    table: tuple[tuple[str, float], ...] = ()
    """(LaTeX, value) of what the question ``needs``, printed under it without a calculator."""
    place: str = ""
    """Where the question is written (``content/lessons/03-sdpa.yaml:14``), for errors."""
    figure: QuestionFigure | None = None
    """The figure it shows (``Question.figure``), printed under its prompt."""

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
    largest: float | None = None
    """The largest primary answer (absolute value) of ``GRID_SAMPLE`` problems of this type
    and difficulty drawn from fixed seeds: the answer sheet's digit grid holds twice it, so
    every form prints the same grid and its size says nothing about this form's answer.
    None for a problem printed outside a quiz (a practice sheet has no answer sheet)."""


QuizItem = QuestionItem | ProblemItem


@dataclass(frozen=True)
class FormSection:
    """A section of one form."""

    title: str
    points: float
    """Points per item."""
    items: tuple[QuizItem, ...]


@dataclass(frozen=True)
class Student:
    """One row of a roster: the name printed on every page of the student's form."""

    name: str
    id: str = ""


@dataclass(frozen=True)
class Form:
    """One labelled version of a quiz."""

    index: int
    """0-based; the label is ``letter(index)``."""
    seed: int
    """The form's seed, derived from the secret: printed only in the key."""
    code: str
    """An opaque code printed on the form, to match a paper form to its key."""
    sections: tuple[FormSection, ...]
    student: Student | None = None

    @property
    def letter(self) -> str:
        """The form's label: A … Z, AA, AB, …"""
        return letter(self.index)

    @property
    def items(self) -> tuple[QuizItem, ...]:
        return tuple(item for section in self.sections for item in section.items)

    @property
    def total_points(self) -> float:
        return sum(item.points for item in self.items)


@dataclass(frozen=True)
class Quiz:
    """A quiz: what every form is made from; the forms themselves are made on demand."""

    recipe: QuizRecipe
    paper_title: str
    seed: int
    """The quiz seed: with the same secret, ``paperdeck quiz RECIPE --seed SEED`` prints these forms again."""
    count: int
    """How many forms."""
    secret: bytes = field(default=b"", repr=False)
    """The teacher's secret every form seed derives from."""
    pools: tuple[tuple[Question, ...], ...] = field(default=(), repr=False)
    students: tuple[Student, ...] = ()
    """One per form when printing from a roster."""
    places: Mapping[str, str] = field(default_factory=dict, repr=False, compare=False)
    """Where each question is written, by id (``Content.places``)."""
    figures: Mapping[str, QuestionFigure] = field(default_factory=dict, repr=False, compare=False)
    """The figure of each question that has one, by id (``question_figures``)."""
    largest: tuple[float | None, ...] = ()
    """Per section, ``ProblemItem.largest`` of its problems (None for a section of questions):
    drawn once when the quiz is built, so no exporter draws problems to size a grid."""

    def form(self, index: int) -> Form:
        """Form ``index`` (0 is A), made afresh."""
        student = self.students[index] if self.students else None
        return _form(self, index, student)

    def iter_forms(self) -> Iterator[Form]:
        """Every form in order, each made as it is asked for."""
        return (self.form(index) for index in range(self.count))

    @property
    def forms(self) -> tuple[Form, ...]:
        """Every form at once (small quizzes and tests; large ones use ``iter_forms``)."""
        return tuple(self.iter_forms())


def _digest(secret: bytes, *parts: object) -> bytes:
    message = "\x1f".join(str(p) for p in parts).encode("utf-8")
    return hmac.new(secret, message, hashlib.sha256).digest()


def form_seed(secret: bytes, recipe_id: str, seed: int, index: int) -> int:
    """The seed of form ``index``: 63 bits of HMAC-SHA256(secret, recipe, quiz seed, index)."""
    return int.from_bytes(_digest(secret, "form-seed", recipe_id, seed, index)[:8], "big") >> 1


def form_code(secret: bytes, recipe_id: str, seed: int, index: int, student: Student | None = None) -> str:
    """The code printed on form ``index``: eight letters and digits that reveal nothing. A
    roster's form names its student, so its code differs from the anonymous form of the same
    seed and index (whose sheet is laid out differently: an ID grid, no name)."""
    parts: tuple[object, ...] = ("form-code", recipe_id, seed, index)
    if student is not None:
        parts += ("roster", student.name, student.id)
    text = base64.b32encode(_digest(secret, *parts)[:5]).decode()
    return f"{text[:4]}-{text[4:]}"


def section_rng(form_seed: int, section: int) -> np.random.Generator:
    """The Generator that draws the questions and choices of one section of a form."""
    return np.random.default_rng(np.random.SeedSequence(form_seed, spawn_key=(section, 1)))


def set_seed(form_seed: int, section: int) -> int:
    """The problem-set seed of a section of a form; each problem's own seed derives from it."""
    sequence = np.random.SeedSequence(form_seed, spawn_key=(section, 0))
    return int(sequence.generate_state(1, np.uint32)[0])


def build_quiz(
    content: Content,
    recipe: QuizRecipe,
    seed: int,
    versions: int,
    secret: bytes = b"",
    students: tuple[Student, ...] = (),
) -> Quiz:
    """A quiz of ``versions`` forms (or one per student), deterministic for ``secret`` and ``seed``."""
    count = len(students) if students else versions
    if not 1 <= count <= MAX_FORMS:
        raise ContentError([Finding("", 0, "versions", f"must be between 1 and {MAX_FORMS}")])
    pools = tuple(
        tuple(question_pool(content, section.questions)) if section.questions else ()
        for section in recipe.sections
    )
    _check_counts(recipe, pools)
    largest = tuple(
        largest_answer(section.problems.type, section.problems.difficulty) if section.problems else None
        for section in recipe.sections
    )
    return Quiz(
        recipe,
        content.paper.title,
        seed,
        count,
        secret,
        pools,
        students,
        content.places,
        question_figures(content),
        largest=largest,
    )


GRID_SAMPLE = 24
"""Problems (of fixed seeds) whose largest answer sizes a problem type's digit grid: over 1,500
draws of every shipped type and difficulty none needs more integer columns than twice the
largest of the first 16 gives."""


@functools.lru_cache(maxsize=256)
def largest_answer(type_id: str, difficulty: str) -> float:
    """The largest primary answer (absolute value) of the first ``GRID_SAMPLE`` problems of
    this type and difficulty from the fixed set seed 0: the same for every quiz, secret and
    form. Kept per process: the quizzes of one build share their types."""
    primary = problems.get(type_id).primary
    return max(
        float(np.max(np.abs(np.asarray(p.answer[primary], dtype=float))))
        for p in problems.generate(type_id, GRID_SAMPLE, 0, difficulty)
    )


def _check_counts(recipe: QuizRecipe, pools: tuple[tuple[Question, ...], ...]) -> None:
    # ``paperdeck check`` reports these with their lines (recipes._check_quiz); recipes
    # built in code, not loaded, meet them here.
    found = []
    for i, (section, pool) in enumerate(zip(recipe.sections, pools, strict=True)):
        pick = section.questions
        if pick is None:
            continue
        field_name = f"sections[{i}].questions"
        if not pool:
            found.append(Finding(f"decks/{recipe.id}.yaml", 0, field_name, "no question matches"))
        elif pick.count is not None and pick.count > len(pool):
            found.append(
                Finding(
                    f"decks/{recipe.id}.yaml",
                    0,
                    f"{field_name}.count",
                    f"asks for {pick.count} questions but only {len(pool)} match",
                )
            )
        if not recipe.calculator:
            for question in pool:
                if question.calculator:
                    found.append(
                        Finding(
                            f"decks/{recipe.id}.yaml",
                            0,
                            field_name,
                            f"can draw {question.id!r}, which needs a calculator",
                        )
                    )
    if found:
        raise ContentError(found)


def _form(quiz: Quiz, index: int, student: Student | None) -> Form:
    recipe = quiz.recipe
    seed = form_seed(quiz.secret, recipe.id, quiz.seed, index)
    sections = []
    number = 1
    for s, (section, pool) in enumerate(zip(recipe.sections, quiz.pools, strict=True)):
        if section.questions is not None:
            items: list[QuizItem] = _question_items(
                section,
                pool,
                section_rng(seed, s),
                recipe.shuffle_questions,
                recipe.calculator,
                number,
                quiz.places,
                quiz.figures,
            )
        else:
            items = _problem_items(section, set_seed(seed, s), recipe.calculator, number, quiz.largest[s])
        number += len(items)
        sections.append(FormSection(section.title, section.points, tuple(items)))
    code = form_code(quiz.secret, recipe.id, quiz.seed, index, student)
    return Form(index, seed, code, tuple(sections), student)


def _question_items(
    section: QuizSection,
    pool: tuple[Question, ...],
    rng: np.random.Generator,
    shuffle: bool,
    calculator: bool,
    first: int,
    places: Mapping[str, str],
    figures: Mapping[str, QuestionFigure],
) -> list[QuizItem]:
    assert section.questions is not None
    count = section.questions.count or len(pool)
    chosen = rng.choice(len(pool), size=count, replace=False)
    order = chosen if shuffle else np.sort(chosen)
    items: list[QuizItem] = []
    for number, i in enumerate(order.tolist(), first):
        question = pool[i]
        table = () if calculator else need_values(question.needs)
        place = places.get(question.id, "")
        options = _options(question, rng)
        figure = figures.get(question.id)
        items.append(QuestionItem(number, section.points, question, options, table, place, figure))
    return items


def _options(question: Question, rng: np.random.Generator) -> tuple[Option, ...]:
    if question.type == "true_false":
        return (Option("True", question.answer is True), Option("False", question.answer is False))
    if question.type != "multiple_choice":
        return ()
    options = [Option(str(question.answer), True)]
    options += [Option(d.text, False, d.mistake) for d in question.distractors]
    return tuple(options[i] for i in rng.permutation(len(options)).tolist())


def _problem_items(
    section: QuizSection, seed: int, calculator: bool, first: int, largest: float | None
) -> list[QuizItem]:
    ps = section.problems
    assert ps is not None
    generated = problems.generate(ps.type, ps.count, seed, ps.difficulty)
    return [
        ProblemItem(number, section.points, problem, () if calculator else exponentials(problem), largest)
        for number, problem in enumerate(generated, first)
    ]


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
                values.add(rounded(x, decimals))
    return tuple((x, float(np.exp(x))) for x in sorted(values))
