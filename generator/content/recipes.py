"""Recipes (``decks/*.yaml``): what to build from the content.

A recipe is a deck (lessons and problem sets for Anki), a quiz (sections of
questions and problems for print), a guide (lessons to read, as a PDF) or a
site (lessons and practice as static web pages). Its id is its file name
without ``.yaml``.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any, Literal

from .. import problems
from ..errors import ContentError, Finding, PaperdeckError
from ..problems import precision
from ..problems.registry import SOURCE_LABEL
from . import yamlsource
from .loader import ITEM_ID
from .model import Content, Question
from .schema import Report, Where, build_file

Difficulty = Literal["easy", "medium", "hard"]
MAX_VARIANTS = 62
"""Most problems one Anki card may rotate through: each adds about 2.6 kB to its note."""
MAX_FORMS = 1000
"""The most forms a quiz prints at once (one per student of a large class)."""
MAX_PROBLEMS = 50_000
"""Most problems (slots x variants) in one deck recipe or practice set: about 130 MB of notes."""
MAX_QUIZ_ITEMS = 200
"""Most questions and problems on one form (the shipped quizzes have 15)."""
MAX_POINTS = 1000
"""Most points one question or problem of a quiz is worth."""


@dataclass(frozen=True)
class ProblemSet:
    """Randomized problems of one type."""

    type: str
    """A registered problem type (``paperdeck list`` shows them)."""
    count: int = 3
    """How many problems."""
    difficulty: Difficulty = "easy"
    """Sizes and number ranges of the givens: easy, medium or hard."""
    variants: int = 31
    """Problems each Anki card rotates through, one a day (1: the same problem until a rebuild)."""
    source: str = ""
    """Where this project's paper teaches it (``S3.1``), for Anki cards' source and tag;
    empty means the type's own ``source`` if the type was written for this paper, else none."""


@dataclass(frozen=True)
class DeckRecipe:
    """An Anki deck: lessons in teaching order, then practice problems."""

    kind: Literal["deck"]
    """``deck``."""
    title: str
    """Name of the top-level Anki deck."""
    lessons: tuple[str, ...] = ()
    """Lesson ids to include; empty means every lesson."""
    problems: tuple[ProblemSet, ...] = ()
    """Randomized problems, in a *Practice* subdeck after the lessons."""
    exam: str = ""
    """The exam's date (``2027-01-15``): the deck's preset then paces its new cards to finish
    before it (``documents/plan.py``); empty means Anki's own pace."""
    retention: float | None = None
    """A desired retention for FSRS (``0.85``: 0.70 to 0.99, in hundredths, as Anki keeps it)
    written into every deck of the package. Anki takes it with its default import options and
    never replaces a value the student set; omitted (the default): the student's preset decides."""
    id: str = ""
    """Set from the file name."""


@dataclass(frozen=True)
class QuestionPick:
    """Which content questions a quiz section draws; ``questions: {}`` draws every question."""

    lessons: tuple[str, ...] = ()
    """Lesson ids; empty means every lesson."""
    ids: tuple[str, ...] = ()
    """Question ids; when given, these questions in this order (``lessons`` is then
    ignored; ``types`` still filters)."""
    types: tuple[Literal["multiple_choice", "true_false", "numeric", "short_answer"], ...] = ()
    """Question types to keep; empty means all."""
    count: int | None = None
    """How many to draw at random for each form; omitted means all that match."""


@dataclass(frozen=True)
class QuizSection:
    """A part of a quiz: either content questions or generated problems."""

    title: str
    """Heading of the section on the form."""
    points: float = 1
    """Points per question or problem."""
    questions: QuestionPick | None = None
    """Content questions to draw (give this or ``problems``)."""
    problems: ProblemSet | None = None
    """Randomized problems, new numbers on each form (give this or ``questions``)."""


@dataclass(frozen=True)
class QuizRecipe:
    """A printable quiz with an answer key."""

    kind: Literal["quiz"]
    """``quiz``."""
    title: str
    """Printed at the top of each form and of the key."""
    sections: tuple[QuizSection, ...]
    """The parts of the quiz, in order; at least one."""
    instructions: str = ""
    """Printed on the first page (Markdown)."""
    minutes: int | None = None
    """Time allowed, printed on the first page."""
    calculator: bool = False
    """If false, each form prints a table of the exponentials its problems need."""
    shuffle_questions: bool = True
    """Shuffle question order within each section, per form."""
    versions: int = 2
    """Forms (A, B, …, Z, AA, AB, …) printed by default, 1 to ``MAX_FORMS``."""
    paper: Literal["a4", "letter"] | None = None
    """Paper size of its PDFs; ``--paper`` overrides it; omitted means a4."""
    worked_keys: bool = False
    """Also print each form's worked key (answers, steps, named mistakes, seeds) beside the booklet."""
    id: str = ""
    """Set from the file name."""


@dataclass(frozen=True)
class GuideRecipe:
    """A study guide: the lessons in teaching order as one PDF, with their figures."""

    kind: Literal["guide"]
    """``guide``."""
    title: str
    """Title of the PDF."""
    lessons: tuple[str, ...] = ()
    """Lesson ids to include; empty means every lesson."""
    id: str = ""
    """Set from the file name."""


@dataclass(frozen=True)
class SiteRecipe:
    """A study site: the lessons as web pages that work offline, with practice problems."""

    kind: Literal["site"]
    """``site``."""
    title: str
    """Title of the site's index page."""
    lessons: tuple[str, ...] = ()
    """Lesson ids to include; empty means every lesson."""
    problems: tuple[ProblemSet, ...] = ()
    """Practice blocks, each on the page of the lesson that teaches its type (else on a
    *Practice* page); list a deck's sets to practise that deck's problems."""
    exam: str = ""
    """The exam's date (``2027-01-15``): the review page then starts with it, pacing the new cards
    as a deck's plan does, until the student gives a date of their own; empty: none."""
    id: str = ""
    """Set from the file name."""


Recipe = DeckRecipe | QuizRecipe | GuideRecipe | SiteRecipe
"""Every recipe class; which ``kind:`` names which is registered once, with its document and
exporter, in ``project/kinds.py`` (``KINDS``), which hands ``load_recipes`` the classes."""


def question_pool(content: Content, pick: QuestionPick) -> list[Question]:
    """The questions a pick can draw from, in content order (ids: in the order given)."""
    everything = [(lesson.id, q) for lesson in content.lessons for q in lesson.questions]
    if pick.ids:
        by_id = {q.id: q for _, q in everything}
        chosen = [by_id[i] for i in pick.ids if i in by_id]
    else:
        chosen = [q for lesson_id, q in everything if not pick.lessons or lesson_id in pick.lessons]
    return [q for q in chosen if not pick.types or q.type in pick.types]


def _check_problem_set(ps: ProblemSet, where: Where) -> None:
    try:
        problems.get(ps.type)
    except PaperdeckError as error:
        where.error(str(error), "type")
    if not 0 <= ps.count <= MAX_PROBLEMS:
        where.error(f"must be between 0 and {MAX_PROBLEMS:,}", "count")
    if not 1 <= ps.variants <= MAX_VARIANTS:
        where.error(f"must be between 1 and {MAX_VARIANTS}", "variants")
    if ps.source and not SOURCE_LABEL.match(ps.source):
        where.error(f"expected a label like S3.2.1 or S3.E1, got {ps.source!r}", "source")


def load_recipes(
    project: Path | str,
    content: Content,
    kinds: Mapping[str, type[Recipe]],
    unbuilt: frozenset[str] = frozenset(),
) -> dict[str, Recipe]:
    """Every recipe in ``decks/``, validated against the content, by id. ``kinds``: each
    ``kind:``'s recipe class (``project.kinds.recipe_classes()``). ``unbuilt``: lessons the
    paper lists that did not build (``loader.read_content``): they exist, but what they hold is
    unknown, so what a recipe picks from the questions is not checked."""
    root = Path(project) / "decks"
    found: list[Finding] = []
    recipes: dict[str, Recipe] = {}
    lesson_ids = {lesson.id for lesson in content.lessons} | unbuilt
    question_ids = None if unbuilt else {q.id for lesson in content.lessons for q in lesson.questions}

    for path in sorted(root.glob("*.yaml")):
        shown = f"decks/{path.name}"
        report = Report(shown)
        report.checks[ProblemSet] = _check_problem_set
        for recipe_class in kinds.values():  # what its fields pick (lessons, problems, an exam date)
            report.checks[recipe_class] = lambda r, w: _check_recipe(r, lesson_ids, w)
        report.checks[QuestionPick] = lambda p, w: _check_pick(p, lesson_ids, question_ids, w)
        sections: list[tuple[QuizSection, Where]] = []
        report.checks[QuizSection] = functools.partial(_check_section, seen=sections)
        report.checks[QuizRecipe] = functools.partial(
            _check_quiz, content=content, sections=[] if unbuilt else sections
        )
        try:
            value = yamlsource.load(path, shown, root)
        except ContentError as error:
            found.extend(error.problems)
            continue
        cls = _recipe_class(value, report, kinds)
        if not ITEM_ID.match(path.stem):
            report.add(1, "", "recipe file names are lowercase letters, digits and hyphens")
        if cls is not None:
            value["id"] = path.stem
            recipe = build_file(cls, value, report)
            if recipe is not None:
                recipes[path.stem] = recipe
        found.extend(report.problems)
    for path in sorted(root.glob("*.yml")):
        found.append(
            Finding(f"decks/{path.name}", 0, "", f"recipe files end in .yaml: rename it {path.stem}.yaml")
        )
    if found:
        raise ContentError(found)
    return recipes


def _recipe_class(value: Any, report: Report, classes: Mapping[str, type[Recipe]]) -> type | None:
    kinds = ", ".join(classes)
    if not isinstance(value, yamlsource.LineDict):  # how yamlsource.load gives every mapping
        report.add(1, "", f"a recipe is a mapping with a kind: {kinds}")
        return None
    if "id" in value:
        report.add(value.key_lines["id"], "id", "unknown key (a recipe's id is its file name)")
        return None
    if "kind" not in value:
        report.add(value.line, "kind", f"missing ({kinds})")
        return None
    kind = value["kind"]
    if kind not in classes:
        report.add(value.key_lines["kind"], "kind", f"expected one of {kinds}, got {kind!r}")
        return None
    return classes[kind]


def _check_lessons(ids: tuple[str, ...], known: set[str], where: Where) -> None:
    for i, lesson_id in enumerate(ids):
        if lesson_id not in known:
            where.error(f"no lesson {lesson_id!r} in content/paper.yaml", f"lessons[{i}]")


def _check_exam(exam: str, where: Where) -> None:
    if exam:
        try:
            date.fromisoformat(exam)
        except ValueError:
            where.error(f"expected a date like 2027-01-15, got {exam!r}", "exam")


def retention_error(retention: float) -> str | None:
    """What is wrong with a desired retention (``DeckRecipe.retention``), or None."""
    if not 0.7 <= retention <= 0.99 or abs(retention * 100 - round(retention * 100)) > 1e-9:
        return f"expected a desired retention from 0.70 to 0.99 in hundredths (0.85), got {retention!r}"
    return None


def _check_recipe(recipe: Any, lesson_ids: set[str], where: Where) -> None:
    """What a recipe of any kind picks, by the fields it has: lessons, an exam date, a desired
    retention, problem sets (a quiz's sections have their own, ``_check_quiz``)."""
    _check_lessons(getattr(recipe, "lessons", ()), lesson_ids, where)
    _check_exam(getattr(recipe, "exam", ""), where)
    retention = getattr(recipe, "retention", None)
    if retention is not None and (wrong := retention_error(retention)):
        where.error(wrong, "retention")
    problem_sets: tuple[ProblemSet, ...] = getattr(recipe, "problems", ())
    seen: set[tuple[str, str]] = set()
    for i, problem_set in enumerate(problem_sets):
        slot = (problem_set.type, problem_set.difficulty)
        if slot in seen:  # both sets would fill the same notes (slots are type, difficulty, index)
            where.error(
                f"{problem_set.type} ({problem_set.difficulty}) is listed twice; add up the counts",
                f"problems[{i}]",
            )
        seen.add(slot)
    total = sum(p.count * p.variants for p in problem_sets)
    if total > MAX_PROBLEMS:
        where.error(
            f"{total:,} problems (counts x variants) is more than {MAX_PROBLEMS:,} in one deck; "
            "ask for fewer problems or fewer variants",
            "problems",
        )


def _check_pick(pick: QuestionPick, lessons: set[str], questions: set[str] | None, where: Where) -> None:
    _check_lessons(pick.lessons, lessons, where)
    for i, question_id in enumerate(pick.ids):
        if questions is not None and question_id not in questions:
            where.error(f"no question {question_id!r} in the content", f"ids[{i}]")
    if pick.count is not None and pick.count < 1:
        where.error("must be 1 or more", "count")


def _check_section(section: QuizSection, where: Where, seen: list[tuple[QuizSection, Where]]) -> None:
    seen.append((section, where))
    if (section.questions is None) == (section.problems is None):
        where.error("a section has either questions or problems, not both or neither")
    if not 0 < section.points <= MAX_POINTS:
        where.error(f"must be more than 0 and at most {MAX_POINTS:,}", "points")


def _check_quiz(
    quiz: QuizRecipe, where: Where, content: Content, sections: list[tuple[QuizSection, Where]]
) -> None:
    if not quiz.sections:
        where.error("list at least one section", "sections")
    if not 1 <= quiz.versions <= MAX_FORMS:
        where.error(f"must be between 1 and {MAX_FORMS}", "versions")
    if precision.stated(quiz.instructions):
        where.error(
            "each question states its own precision; the instructions must not name one"
            ' (say "as each question asks")',
            "instructions",
        )
    # Everything ``quiz`` would refuse, found here with the line of the section.
    on_a_form = 0
    for section, section_where in sections:
        if section.problems is not None:
            on_a_form += section.problems.count
        pick = section.questions
        if pick is None or section.problems is not None:
            continue
        pool = question_pool(content, pick)
        on_a_form += len(pool) if pick.count is None else min(pick.count, len(pool))
        if not pool:
            section_where.error("no question matches", "questions")
        elif pick.count is not None and pick.count > len(pool):
            section_where.error(
                f"asks for {pick.count} questions but only {len(pool)} match", "questions.count"
            )
        if not quiz.calculator:
            for question in pool:
                if question.calculator:
                    section_where.error(
                        f"can draw {question.id!r}, which needs a calculator, into a quiz"
                        " without one; leave it out (ids or types) or set calculator: true",
                        "questions",
                    )
    if on_a_form > MAX_QUIZ_ITEMS:
        where.error(
            f"{on_a_form:,} questions and problems on each form is more than {MAX_QUIZ_ITEMS}; ask for fewer",
            "sections",
        )
    if quiz.minutes is not None and quiz.minutes <= 0:
        where.error("must be more than 0", "minutes")
    if not quiz.calculator:
        for i, section in enumerate(quiz.sections):
            type_id = section.problems.type if section.problems else None
            if type_id in problems.all_types() and problems.get(type_id).needs_calculator:
                where.error(
                    f"{type_id} problems need a calculator (no table can give their values);"
                    " set calculator: true",
                    f"sections[{i}].problems.type",
                )
